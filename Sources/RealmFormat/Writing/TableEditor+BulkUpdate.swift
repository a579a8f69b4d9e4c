/// One column of many objects read or set at once (an update of every object a query
/// selected): the objects are found leaf by leaf — one leaf lookup per leaf, each row search
/// starting where the previous one ended — and the column of each touched leaf is decoded
/// once and changed in place. As after `set`, `finish()` writes only that column of each
/// touched leaf and keeps its keys array by ref (realm-format.md §8.2). The results are those
/// of `value(_:column:)` and `set(_:column:_:)` object by object (pinned by BulkUpdateTests).
extension TableEditor {
    /// The objects of ascending, distinct keys that fall in one leaf: the leaf, the positions
    /// in the key list, and the rows of those objects in the leaf.
    struct LeafRun {
        let leaf: ClusterLeafEdit
        let positions: Range<Int>
        let rows: [Int]
    }

    /// The value of column `c` of each object of `keys` (ascending, distinct), in that order.
    /// A key the table does not hold throws before anything is read.
    public func values(_ keys: [Int64], column c: Int) throws(FormatError) -> [Value] {
        snapshot.resetWorkBudget()
        var out: [Value] = []
        out.reserveCapacity(keys.count)
        for run in try leafRuns(keys) {
            let cells = try cells(run.leaf, c)
            for row in run.rows { out.append(cells[row]) }
        }
        return out
    }

    /// Sets column `c` of each object of `keys` (ascending, distinct) to the value at the same
    /// position of `values`; the values must be of the column's type (the caller checks them,
    /// as for `set`). Everything that can fail (a missing key, a column that cannot be
    /// written, a leaf that does not decode) fails before anything changes. Indexes follow:
    /// a column index that most of the table's objects change is built at `finish()`
    /// (`willChange`); one kept entry by entry (few objects, or the primary key) takes the
    /// objects one by one through `set`.
    public func set(_ keys: [Int64], column c: Int, _ values: [Value]) throws(FormatError) {
        snapshot.resetWorkBudget()
        try usable()
        guard keys.count == values.count else {
            throw .cannotWrite(reason: "table '\(table.name)': \(values.count) values for \(keys.count) objects")
        }
        let runs = try leafRuns(keys)
        for run in runs {
            _ = try cells(run.leaf, c)
            try checkWritable(run.leaf, c)
        }
        guard !runs.isEmpty else { return }
        if indexedColumns.contains(c) {
            willChange(column: c, objects: keys.count)
            if !indexesBuiltAtFinish.contains(c) {
                for (key, value) in zip(keys, values) { try set(key, column: c, value) }
                return
            }
        }
        for run in runs {
            let leaf = run.leaf
            // Taken out of the leaf while changed, so that its arrays are changed in place.
            var cells = leaf.cells[c]!
            leaf.cells[c] = nil
            for (row, i) in zip(run.rows, run.positions) { cells.set(row, values[i]) }
            leaf.cells[c] = cells
            leaf.dirty[c] = true
        }
        isModified = true
    }

    /// `keys` (ascending, distinct) grouped by the leaf that holds them, in order; a key the
    /// table does not hold, or keys out of order, throw.
    func leafRuns(_ keys: [Int64]) throws(FormatError) -> [LeafRun] {
        var runs: [LeafRun] = []
        var i = 0
        while i < keys.count {
            let l = leafIndex(for: keys[i])
            let leaf = leaves[l]
            // The keys below the next leaf's base are this leaf's if anywhere (§8.4).
            let nextBase = l + 1 < leaves.count ? leaves[l + 1].base : nil
            let start = i
            var rows: [Int] = []
            var row = 0
            while i < keys.count, nextBase.map({ keys[i] < $0 }) ?? true {
                if i > start, keys[i] <= keys[i - 1] {
                    throw .cannotWrite(reason: "table '\(table.name)': object keys of a bulk change must be ascending and distinct")
                }
                guard let found = leaf.row(of: keys[i], from: row) else { throw missing(keys[i]) }
                rows.append(found)
                row = found + 1
                i += 1
            }
            if let previous = runs.last, let last = previous.positions.last, keys[last] >= keys[start] {
                throw .cannotWrite(reason: "table '\(table.name)': object keys of a bulk change must be ascending and distinct")
            }
            runs.append(LeafRun(leaf: leaf, positions: start..<i, rows: rows))
        }
        return runs
    }
}
