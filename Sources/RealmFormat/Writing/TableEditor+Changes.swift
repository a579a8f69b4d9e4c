/// Adding objects and setting values one object at a time (realm-format.md §13.10), and the
/// backlink column a Mixed link needs.
extension TableEditor {
    /// The key the next new object gets (§8.5): the sequence number for primary-key tables,
    /// its squeezed form otherwise; keys in use are skipped and the counter never goes back.
    public func nextObjectKey() -> Int64 {
        while true {
            let s = sequenceNumber
            sequenceNumber += 1
            let key = primaryKeyColumn != nil ? Int64(s) : Int64((s & 0xFF) | ((s & 0xFFFF_FF00) << 8))
            if !contains(key) { return key }
        }
    }

    /// Adds object `key` (not present yet) with one value per column, and indexes it. A
    /// primary key that another object has throws `FormatError.duplicateKey` with nothing changed.
    public func insert(key: Int64, values: [Value]) throws(FormatError) {
        snapshot.resetWorkBudget()
        guard values.count == columns.count else {
            throw .cannotWrite(reason: "table '\(table.name)': \(values.count) values for \(columns.count) columns")
        }
        let appending = isPastLastKey(key)
        guard appending || !contains(key) else { throw .cannotWrite(reason: "table '\(table.name)': object \(key) exists already") }
        try usable()
        // The primary key first: its index refuses a duplicate before anything else changes.
        if let pk = primaryKeyColumn {
            guard let lookup = PrimaryKeyValue(values[pk]) else {
                throw .cannotWrite(reason: "table '\(table.name)': a primary key must be an int, string, ObjectId, UUID or null")
            }
            if let existing = pendingPrimaryKeys.objectKey(lookup, entries: pendingIndex[pk]) { throw .duplicateKey(existing: existing) }
            if let existing = try indexedObjectKey(values[pk], column: pk) { throw .duplicateKey(existing: existing) }
            // Before the entry goes into `pendingIndex[pk]` (below: the primary key is always
            // kept entry by entry, never built at finish), as `insert` requires.
            pendingPrimaryKeys.insert(lookup, objectKey: key, entries: pendingIndex[pk])
        }
        try guarded { () throws(FormatError) in
            for c in maintainedIndexes { pendingIndex[c, default: PendingIndexEntries()].append(values[c], key: key) }
            var l = appending ? leaves.count - 1 : leafIndex(for: key)
            var leaf = leaves[l]
            try decodeAll(leaf)
            var row = appending ? leaf.count : leaf.lowerBound(key)
            if leaf.count >= Self.leafCapacity {
                // A full leaf: an object past its end starts a new leaf (so appends fill leaves);
                // otherwise the objects after it move to a new leaf (§8.3).
                let sibling = ClusterLeafEdit(base: row == leaf.count ? key : leaf.keys[row], kinds: cellKinds)
                if row < leaf.count {
                    sibling.keys = Array(leaf.keys[row...])
                    leaf.keys.removeSubrange(row...)
                    for c in columns.indices {
                        sibling.cells[c] = leaf.cells[c]!.removeSuffix(from: row)
                        leaf.dirty[c] = true
                    }
                    leaf.keysChanged = true
                } else {
                    // Appends will not come back to the full leaf: it waits for `finish()`
                    // in its file form.
                    if appending { pack(leaf) }
                    leaf = sibling
                    row = 0
                }
                leaves.insert(sibling, at: l + 1)
                if leaf === sibling { l += 1 }
            }
            leaf.insert(key: key, values: values, at: row)
            objectCount += 1
            isModified = true
        }
    }

    /// Sets column `c` of object `key`; indexes follow (only when the value changes, §13.10).
    public func set(_ key: Int64, column c: Int, _ value: Value) throws(FormatError) {
        snapshot.resetWorkBudget()
        try usable()
        guard let (leaf, row) = locate(key) else { throw missing(key) }
        let old = try cells(leaf, c)[row]
        try checkWritable(leaf, c)
        if indexedColumns.contains(c) && !indexesBuiltAtFinish.contains(c) {
            guard old != value else { return }
            indexedChanges[c, default: 0] += 1
            willChange(column: c, objects: indexedChanges[c, default: 0])
        }
        if indexedColumns.contains(c) && !indexesBuiltAtFinish.contains(c) {
            // Still kept entry by entry (`willChange` did not switch it to a build at finish).
            try guarded { () throws(FormatError) in
                try flushPendingIndex(c)
                try indexErase(old, key: key, column: c)
                indexRoots[c] = try indexWriter(c).insert(value, objKey: key, into: try indexRoot(c), unique: c == primaryKeyColumn)
            }
        }
        leaf.cells[c]!.set(row, value)
        leaf.dirty[c] = true
        isModified = true
    }

    /// Says that `objects` values of column `c` change in this transaction (a bulk update
    /// says so before it starts; `set` counts). When that is most of an indexed column (not
    /// the primary key, whose uniqueness is checked entry by entry), its index is built once
    /// at `finish()` from the values then, instead of an erase and an insert per object
    /// (150,000 of those took seconds), as after a mass removal. Entries already changed and
    /// pending ones are simply superseded.
    public func willChange(column c: Int, objects: Int) {
        guard indexedColumns.contains(c), c != primaryKeyColumn, !indexesBuiltAtFinish.contains(c),
              objects >= Self.rebuildIndexesFrom, objects * 3 >= objectCount else { return }
        indexesBuiltAtFinish.insert(c)
        pendingIndex[c] = nil
    }

    /// Adds a backlink column, as realm-core's `find_or_add_backlink_column` does when the
    /// first link stored in a Mixed value of an origin column reaches this table (§10.6): a
    /// Spec entry after the other columns, and in every cluster leaf an empty backlink array.
    /// Returns its spec index.
    public func appendBacklinkColumn(_ column: TableModel.ColumnModel) throws(FormatError) -> Int {
        try usable()
        let leaf = column.key.leafIndex
        guard leaf >= columnOfLeaf.count || columnOfLeaf[leaf] == nil else {
            throw .cannotWrite(reason: "table '\(table.name)': leaf index \(leaf) is in use")
        }
        let kind = ColumnCells.Kind(column, enumValues: nil)
        try guarded { () throws(FormatError) in
            try TableTopColumns.appendBacklinkColumn(column, top: top, table: table.name, transaction: transaction)
            for leaf in leaves {
                leaf.cells.append(ColumnCells(kind: kind, values: [Value](repeating: .list([]), count: leaf.count)))
                leaf.dirty.append(true)
                leaf.removalPending.append(false)
            }
        }
        columns.append(column)
        cellKinds.append(kind)
        unwritable.append(nil)
        while columnOfLeaf.count <= leaf { columnOfLeaf.append(nil) }
        columnOfLeaf[leaf] = columns.count - 1
        defaultRow = columns.map(TableModel.defaultValue(for:))
        isModified = true
        return columns.count - 1
    }
}
