/// Enumerated string columns (realm-format.md §9.4.4): turning a plain string column into one.
extension TableEditor {
    /// The number of values in column `c`'s value list, if it is enumerated.
    public func enumeratedValueCount(column c: Int) -> Int? { enumValues[c]?.count }

    /// Turns string column `c` into an enumerated one, as realm-core's
    /// `Table::enumerate_string_column` does (`realm-enumerate`, used to shrink bundled files):
    /// a value list of the distinct values, sorted as realm-core sorts it, in Spec slot 4, and
    /// in every cluster leaf the positions of its objects' values. Values, search index and
    /// schema do not change. Only plain string columns that are not the primary key qualify
    /// (realm-enumerate leaves primary keys alone).
    ///
    /// With `maxDistinct`, a column found to hold more distinct values (null counts as one) is
    /// left as it is, and counting stops (at the end of the leaf): then `maxDistinct + 1` is
    /// returned. Otherwise the number of distinct values.
    @discardableResult
    public func enumerateStrings(column c: Int, maxDistinct: Int = .max) throws(FormatError) -> (distinct: Int, enumerated: Bool) {
        try usable()
        let column = table.columns[c]
        guard column.type == .string, column.collection == nil, !column.isBacklink else {
            throw .cannotWrite(reason: "table '\(table.name)': column '\(column.name)' is not a string column")
        }
        guard c != primaryKeyColumn else {
            throw .cannotWrite(reason: "table '\(table.name)': column '\(column.name)' is the primary key")
        }
        if let list = enumValues[c] { return (list.count, true) }
        if let problem = unwritable[c] { throw problem }
        // One pass: each object's value gets a position in first-seen order; the list is then
        // sorted and the positions renumbered.
        var seen = ByteStringTable()
        var positions: [[Int64]] = []
        positions.reserveCapacity(leaves.count)
        for leaf in leaves {
            var leafPositions = [Int64]()
            leafPositions.reserveCapacity(leaf.count)
            try forEachString(leaf, c) { v in leafPositions.append(Int64(seen.insert(v).position)) }
            if seen.count > maxDistinct { return (maxDistinct + 1, false) }
            positions.append(leafPositions)
        }
        let (sorted, rank) = seen.sorted()
        let list = EnumValueWriter(new: sorted)
        let kind = ColumnCells.Kind(columns[c], enumValues: list)
        for (leaf, leafPositions) in zip(leaves, positions) {
            leaf.cells[c] = ColumnCells(kind: kind, positions: leafPositions.map { rank[Int($0)] })
            leaf.dirty[c] = true
            leaf.removalPending[c] = false
        }
        cellKinds[c] = kind
        enumValues[c] = list
        isModified = true
        return (list.count, true)
    }

    /// Calls `body` with the value of column `c` of each object of `leaf`, in order: read in
    /// place from a committed leaf the transaction has not touched, else from its cells.
    func forEachString(_ leaf: ClusterLeafEdit, _ c: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws(FormatError) -> Void) throws(FormatError) {
        try unpack(leaf, only: c)
        if leaf.cells[c] == nil, !leaf.removalPending[c], case .string = cellKinds[c] {
            let reader = try StringLeafReader(snapshot, ref: try columnRef(leaf, c))
            guard reader.count == leaf.count else {
                throw .corrupt(offset: try columnRef(leaf, c), reason: "table '\(table.name)': column '\(table.columns[c].name)' holds \(reader.count) values for \(leaf.count) objects")
            }
            try reader.forEachValue(body)
            return
        }
        try cells(leaf, c).forEachString(body)
    }
}
