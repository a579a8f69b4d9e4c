/// The format-24 image of a converted legacy group (legacy-formats.md §8.4): every table
/// encoded anew by `TableEncoder` (cluster leaves of ≤ 256 objects; the columns kept by type
/// straight from their `LegacyTypedColumn`), the slot `pk` leaves
/// behind removed with tag 1 as Core's `remove_table` leaves it, the on-disk version number
/// kept. This is the image every reader sees and `upgrade` writes.
extension LegacyConversion {
    /// `withoutObjects`: tables encoded with their columns but no objects (nor index
    /// entries) — for the canonical dump, which writes those tables' objects from the
    /// conversion's cells instead (`LegacyExportRows`); every other reader gets them all.
    func fileBytes(withoutObjects: Set<TableKey> = []) throws(FormatError) -> [UInt8] {
        var tables = [NewFile.TableSlot]()
        for slot in slots {
            switch slot {
            case var .table(model):
                if withoutObjects.contains(model.key) {
                    model.objectKeys = []
                    model.values = model.columns.map { _ in [] }
                    tables.append(.table(try TableEncoder.encode(model, indexes: try Self.searchIndexes(model))))
                    continue
                }
                let typed = typedColumns[model.key] ?? [:]
                tables.append(.table(try TableEncoder.encode(model, indexes: try Self.searchIndexes(model),
                                                             columnLeaf: { key, rows in typed[key]?.leaf(rows) })))
            case .removed: tables.append(.removed(tag: 1))
            }
        }
        // The image is seldom more than 1.2 times the old file (the benchmark's: 1.14); pages
        // of the reserve that stay unused are never touched, so reserving twice costs nothing.
        return NewFile.bytes(tableNames: names, slots: tables, version: group.source.top?.version ?? 1,
                             capacity: 2 * group.source.image.count)
    }

    /// The search index of every indexed column (the primary key's always), built level by
    /// level from the entries in index order (`SearchIndexBuilder`) — the tree inserting them
    /// in that order gives, built without a descent per object, which is most of what a
    /// conversion would otherwise cost. Primary keys are not checked for uniqueness here: an
    /// old file with a repeated key still opens (`verify` of the image reports it).
    static func searchIndexes(_ model: TableModel) throws(FormatError) -> [ColumnKey: MutableNode] {
        var out = [ColumnKey: MutableNode]()
        for (c, column) in model.columns.enumerated() where column.isIndexed || column.key == model.primaryKey {
            let values = model.values[c]
            var levelKeys = [(Int32, Int32)]()
            levelKeys.reserveCapacity(values.count)
            // An int column without nulls (every integer primary key) is built from plain
            // ints (`SearchIndexWriter.build(ints:)`, pinned to the general build by
            // SearchIndexTests): no (value, key) pair per object.
            var ints: [Int64]? = column.type == .int ? [] : nil
            ints?.reserveCapacity(values.count)
            for value in values {
                if case let .int(v) = value, column.type == .int {
                    levelKeys.append((IndexKey.key(int: v, offset: 0), IndexKey.key(int: v, offset: 4)))
                    ints?.append(v)
                } else {
                    let data = IndexKey.bytes(of: value, columnType: column.type) ?? .null
                    levelKeys.append((IndexKey.key(data, offset: 0), IndexKey.key(data, offset: 4)))
                    ints = nil
                }
            }
            let order = IndexEntryOrder.permutation(levelKeys: levelKeys, objKeys: model.objectKeys)
            let writer = SearchIndexWriter(columnType: column.type) { key throws(FormatError) in
                guard let row = model.row(of: key) else { throw .corrupt(offset: 0, reason: "index refers to a missing object \(key)") }
                return values[row]
            }
            if let ints {
                out[column.key] = try writer.build(ints: ints, keys: model.objectKeys, order: order, unique: false)
                continue
            }
            var entries = [(value: Value, key: Int64)]()
            entries.reserveCapacity(values.count)
            for (value, key) in zip(values, model.objectKeys) { entries.append((value, key)) }
            out[column.key] = try writer.build(entries, order: order)
        }
        return out
    }
}
