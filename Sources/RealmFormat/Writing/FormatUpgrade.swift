/// Writes a format-24 copy of a file of formats 10, 11 and 20–23 with the effects of Realm
/// Core 14's upgrade (realm-format.md §16.3): ColKeys of type 13 become 12 + List (Spec slot 5
/// and the opposite-column slots), primary-key columns get a search index, asymmetric objects
/// of a format-22 file are deleted, sets of strings, binaries and Mixed take the format-24
/// order, dictionaries move from the cluster layout to key/value B+trees, the in-realm history
/// schema becomes 1. Every table is decoded and written anew, so the structures are format 24
/// throughout (6-slot Mixed leaves, backlink B+trees); ObjKeys, table keys, sequence numbers
/// and the version number are kept.
public enum FormatUpgrade {
    public static func upgradedFile(_ snapshot: Snapshot) throws(FormatError) -> [UInt8] {
        // Formats 2–9 are read through the format-24 image of Core 13's and 14's upgrades
        // (Legacy/, legacy-formats.md §8): that image is the upgraded file. A legacy synced
        // Realm (Realm Object Server, long gone) becomes a local one.
        if snapshot.legacy != nil { return try snapshot.image.copy(0, snapshot.image.count) }
        let format = snapshot.fileFormat
        guard let top = snapshot.top else { throw .cannotWrite(reason: "nothing has been committed to it; there is nothing to upgrade") }
        guard format != 24 else { throw .cannotWrite(reason: "it already has file format 24 (use 'realmsh compact' for a fresh copy)") }
        guard top.historyType == 0 || top.historyType == 2 else {
            throw .cannotWrite(reason: "it is a synced Realm (history type \(top.historyType)); a sync client upgrades it")
        }
        var models = [TableModel]()
        for table in snapshot.tables { models.append(try snapshot.tableModel(table)) }

        // §16.3: list-of-links ColKeys of type 13 become 12 + List everywhere they are named.
        var renamed = [Int64: Int64]()
        for m in models {
            for c in m.columns where c.key.rawType == ColumnType.linkList.rawValue {
                renamed[c.key.value] = (c.key.value & ~(0x3F << 16)) | Int64(ColumnType.link.rawValue) << 16
            }
        }
        for t in models.indices {
            for c in models[t].columns.indices {
                let column = models[t].columns[c]
                if let new = renamed[column.key.value] { models[t].columns[c].key = ColumnKey(value: new) }
                if let o = column.oppositeColumn, let new = renamed[o.value] { models[t].columns[c].oppositeColumn = ColumnKey(value: new) }
            }
            if let pk = models[t].primaryKey {
                if let new = renamed[pk.value] { models[t].primaryKey = ColumnKey(value: new) }
                if let c = models[t].columnIndex(key: models[t].primaryKey!) { models[t].columns[c].isIndexed = true }
            }
            if format == 22 && models[t].kind == .asymmetric {
                models[t].objectKeys = []
                models[t].values = models[t].columns.map { _ in [] }
            }
        }
        var tables = [NewFile.TableSlot]()
        var names = [String]()
        let slots = try snapshot.node(top.tablesRef)
        let allNames = try snapshot.decodeStrings(top.tableNamesRef, nullable: false)
        for i in 0..<slots.count {
            names.append(String(decoding: allNames[i] ?? [], as: UTF8.self))
            if let m = models.first(where: { Int($0.key.value & 0xFFFF) == i }) {
                tables.append(.table(try TableEncoder.encode(m)))
            } else {
                tables.append(.removed(tag: UInt32(truncatingIfNeeded: UInt64(bitPattern: slots.int(i)) >> 1)))
            }
        }
        return NewFile.bytes(tableNames: names, slots: tables, version: top.version)
    }
}
