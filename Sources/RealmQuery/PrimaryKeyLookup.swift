import RealmFormat

/// Finding one object by its primary key (realm-core's `Table::find_primary_key`), and reading
/// one of its values, without decoding whole columns: the primary key's search index names the
/// candidate (realm-format.md §12; realm-core indexes every primary key, §16.3), the cluster
/// leaves are searched by key, and the candidate is confirmed by its stored value.
extension TableData {
    /// The row of the object whose primary key equals `value`, nil when there is none (also
    /// for a class without a primary key).
    public func row(primaryKey value: Value) throws -> Int? {
        guard let pk = table.primaryKeyColumn else { return nil }
        snapshot.resetWorkBudget()          // one lookup is one top-level operation (Snapshot)
        // Indexes of files before format 20 hold row numbers, not ObjKeys: scan those.
        if snapshot.fileFormat >= 20, pk.hasSearchIndex, let root = pk.searchIndexRef,
           let data = IndexKey.bytes(of: value, columnType: pk.type) {
            let leaves = try leaves()
            // Test-build files (≤ 4 objects per cluster) number keys differently (see
            // IndexLookup.swift): scan those too.
            if leaves.count == 1 || leaves.contains(where: { $0.leaf.count > 4 }) {
                let keys = try SearchIndexReader(snapshot: snapshot, rootRef: root).candidates(data)
                for key in keys {
                    guard let (l, i) = locate(key, in: leaves) else { continue }
                    let row = leaves[l].start + i
                    if ValueOrder.compare(try self.value(of: pk, atRow: row), value) == 0 { return row }
                }
                return nil
            }
        }
        let keys = try keys()
        guard let key = try find(primaryKey: QValue(value)) else { return nil }
        return keys.firstIndex(of: key)
    }

    /// The value of `column` for the object at `row` (0 ..< count), read from its cluster leaf
    /// alone. Ints, bools and doubles are read in place; other types decode the one leaf.
    public func value(of column: Column, atRow row: Int) throws -> Value {
        let leaves = try leaves()
        // The last leaf starting at or before `row`.
        var lo = 0, hi = leaves.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if leaves[mid].start <= row { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, row - leaves[lo - 1].start < leaves[lo - 1].leaf.count, row >= 0 else {
            throw QueryError.illegalOperation(message: "Row \(row) is outside class '\(className)'", at: nil)
        }
        let (leaf, start) = leaves[lo - 1]
        let i = row - start
        if column.collection == nil, column.type == .int, let ref = leaf.columnRef(column.leafIndex) {
            let values = try IntegerLeaf(snapshot, ref: ref, nullable: column.isNullable)
            guard values.count == leaf.count else {
                throw FormatError.corrupt(offset: ref, reason: "class '\(className)': property '\(column.name)' holds \(values.count) values for \(leaf.count) objects")
            }
            return values.isNull(i) ? .null : .int(values[i])
        }
        return try decode(column, in: leaf)[i]
    }
}
