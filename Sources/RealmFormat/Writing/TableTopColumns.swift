/// A column added to a table top inside a write transaction, as realm-core's
/// `Table::do_insert_root_column` adds one (realm-format.md §7.1, §7.5): one more entry in the
/// Spec's types, attributes and column-key arrays (and names, for a public column), and the
/// column's leaf index covered by the search-index list (slot 4, entry 0) and the opposite
/// table / column arrays (slots 7 and 8, which always have slot 4's length). The cluster
/// leaves' arrays for the column are the caller's.
enum TableTopColumns {
    /// Adds `column` at the end of the Spec. Only backlink columns come last in Spec order
    /// (§7.5: public columns first), so only they are added here.
    static func appendBacklinkColumn(_ column: TableModel.ColumnModel, top: MutableNode, table: String,
                                     transaction: WriteTransaction) throws(FormatError) {
        guard column.isBacklink else {
            throw .cannotWrite(reason: "table '\(table)': only backlink columns are added after the others")
        }
        guard let spec = try transaction.child(top, 0),
              let types = try transaction.child(spec, 0),
              let attributes = try transaction.child(spec, 2),
              let keys = try transaction.child(spec, 5) else {
            throw .corrupt(offset: top.originalRef ?? 0, reason: "table '\(table)': Spec without types, attributes or column keys")
        }
        guard types.count == keys.count, attributes.count == keys.count else {
            throw .corrupt(offset: spec.originalRef ?? 0, reason: "table '\(table)': Spec arrays of different lengths")
        }
        types.append(column.specType)
        attributes.append(column.specAttributes)
        keys.append(column.key.value)
        // Slots 4, 7 and 8 are indexed by leaf index (§7.1): the new column's entry is set, or
        // appended when its leaf index is one past the last.
        let leaf = column.key.leafIndex
        let entries: [(slot: Int, value: Int64)] = [
            (4, 0),
            (7, Int64(column.targetTable?.value ?? TableKey.null.value)),
            (8, (column.oppositeColumn ?? ColumnKey.null).value),
        ]
        for (slot, value) in entries {
            guard let array = try transaction.child(top, slot), array.count >= leaf else {
                throw .corrupt(offset: top.originalRef ?? 0, reason: "table '\(table)': table slot \(slot) does not cover leaf index \(leaf)")
            }
            if array.count == leaf {
                array.append(value)
            } else {
                if slot == 4, array.loadedChild(leaf) != nil || array[leaf] != 0 {
                    throw .corrupt(offset: top.originalRef ?? 0, reason: "table '\(table)': unused leaf index \(leaf) has a search index")
                }
                array[leaf] = value
            }
        }
    }
}
