/// One column of many objects changed at once (an update of every object a query selected):
/// the objects are found leaf by leaf — one leaf lookup per leaf, each row search starting
/// where the previous one ended — and the column of each touched leaf is decoded once and
/// changed in place. As after `set`, `finish()` writes only that column of each touched leaf
/// and keeps its keys array by ref (realm-format.md §8.2). The results are those of `value`
/// and `set` object by object (pinned by BulkUpdateTests).
extension TableEditor {
    /// The objects of ascending, distinct keys that fall in one leaf: the leaf, the positions
    /// in the key list, and the rows of those objects in the leaf.
    struct LeafRun {
        let leaf: ClusterLeafEdit
        let positions: Range<Int>
        let rows: [Int]
    }

    /// Changes column `c` of each object of `keys` (ascending, distinct): `change` gets each
    /// object's position in `keys` and current value, in key order, and returns the new value
    /// (of the column's type: the caller checks it, as for `set`), or nil to leave it. Every
    /// new value is computed before anything changes, so an error — what `change` throws,
    /// `absent(key)` for the first key the table does not hold, a `FormatError` (a column that
    /// cannot be written, a leaf that does not decode) — leaves the table as it was. Indexes
    /// follow: an index most of the table's objects change is built at `finish()`
    /// (`willChange`); one kept entry by entry (few objects, or the primary key) takes the
    /// changed objects one by one through `set`. Returns the number of objects changed.
    @discardableResult
    public func update(_ keys: [Int64], column c: Int, absent: (Int64) -> any Error,
                       _ change: (Int, Value) throws -> Value?) throws -> Int {
        snapshot.resetWorkBudget()
        try usable()
        let (runs, missingKey) = try leafRuns(keys)
        if let missingKey { throw absent(missingKey) }
        // Phase 1, which may fail: every touched leaf's column decoded, every new value made.
        var changes: [(run: Int, row: Int, position: Int, value: Value)] = []
        for (r, run) in runs.enumerated() {
            let cells = try cells(run.leaf, c)
            try checkWritable(run.leaf, c)
            for (row, position) in zip(run.rows, run.positions) {
                if let value = try change(position, cells[row]) { changes.append((r, row, position, value)) }
            }
        }
        guard !changes.isEmpty else { return 0 }
        // Phase 2, which cannot fail halfway (a kept index aside, whose changes are guarded).
        if indexedColumns.contains(c) {
            willChange(column: c, objects: changes.count)
            if !indexesBuiltAtFinish.contains(c) {
                for change in changes { try set(keys[change.position], column: c, change.value) }
                return changes.count
            }
        }
        var next = 0
        for (r, run) in runs.enumerated() where next < changes.count && changes[next].run == r {
            let leaf = run.leaf
            // Taken out of the leaf while changed, so that its arrays are changed in place.
            var cells = leaf.cells[c]!
            leaf.cells[c] = nil
            while next < changes.count && changes[next].run == r {
                cells.set(changes[next].row, changes[next].value)
                next += 1
            }
            leaf.cells[c] = cells
            leaf.dirty[c] = true
        }
        isModified = true
        return changes.count
    }

    /// `keys` (ascending, distinct) grouped by the leaf that holds them, in order, up to the
    /// first key the table does not hold (returned too); keys out of order throw.
    func leafRuns(_ keys: [Int64]) throws(FormatError) -> (runs: [LeafRun], absent: Int64?) {
        var runs: [LeafRun] = []
        var i = 0
        while i < keys.count {
            if i > 0, keys[i] <= keys[i - 1] {
                throw .cannotWrite(reason: "table '\(table.name)': object keys of a bulk change must be ascending and distinct")
            }
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
                guard let found = leaf.row(of: keys[i], from: row) else { return (runs, keys[i]) }
                rows.append(found)
                row = found + 1
                i += 1
            }
            runs.append(LeafRun(leaf: leaf, positions: start..<i, rows: rows))
        }
        return (runs, nil)
    }
}
