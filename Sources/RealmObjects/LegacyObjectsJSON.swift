import RealmFormat

extension ObjectJSON {
    /// The objects of a class of a file of formats 2–9 written from the conversion's cells
    /// (`LegacyExportRows`), as `writeObject` writes the values the image's leaves decode to:
    /// `_key` without a primary key, then every property. String cells kept by type go to
    /// the emitter from the conversion's buffer; every other cell as its `Value`.
    func writeObjects(_ objectClass: ObjectClass, rows: LegacyTableRows, to out: inout JSONEmitter,
                      eachObject: () throws -> Void) throws {
        let names = names(of: objectClass)
        let properties = objectClass.properties
        let cells = try properties.map { p in try RealmFile.cellsOf(p, in: objectClass, rows) }
        // A single value of a type that is neither a link nor Mixed is what `writeProperty`
        // hands to `writeScalar`; calling that directly spares the property's lookups per cell.
        let plain = properties.map { $0.collection == nil && $0.column.type != .link && $0.column.type != .mixed }
        for (row, key) in rows.objectKeys.enumerated() {
            out.beginObject()
            if objectClass.primaryKey == nil {
                out.key(quoted: Self.quotedKey)
                out.int(key)
            }
            for i in properties.indices {
                out.key(quoted: names[i])
                let cell = cells[i]
                let wrote = cell.withString(row) { bytes in
                    if let bytes { out.string(buffer: bytes) } else { out.null() }
                }
                if wrote { continue }
                if plain[i] {
                    Self.writeScalar(cell.value(row), to: &out)
                } else {
                    try writeProperty(properties[i], cell.value(row), to: &out)
                }
            }
            out.end()
            try eachObject()
        }
    }
}

extension RealmFile {
    /// The objects of a class opened by `init(dumping:)` from its cells, a cluster leaf's
    /// worth (256) at a time, as `forEachLeaf` gives them from the image: what a reader other
    /// than the dump (another export format, the progress count) sees of such a file.
    static func forEachLeaf(of objectClass: ObjectClass, rows: LegacyTableRows, properties: [Property],
                            _ body: (_ keys: [Int64], _ columns: [[Value]]) throws -> Void) throws {
        let cells = try properties.map { p in try cellsOf(p, in: objectClass, rows) }
        for start in stride(from: 0, to: rows.objectKeys.count, by: 256) {
            let range = start..<min(start + 256, rows.objectKeys.count)
            try body(Array(rows.objectKeys[range]), cells.map { c in range.map { c.value($0) } })
        }
    }

    static func forEachObject(of objectClass: ObjectClass, rows: LegacyTableRows, atPositions positions: [Int],
                              properties: [Property], _ body: (_ position: Int, _ key: Int64, _ values: ObjectRow) throws -> Void) throws {
        let cells = try properties.map { p in try cellsOf(p, in: objectClass, rows) }
        for position in positions where position >= 0 && position < rows.objectKeys.count {
            try body(position, rows.objectKeys[position], ObjectRow(columns: cells.map { [$0.value(position)] }, row: 0))
        }
    }

    static func cellsOf(_ p: Property, in objectClass: ObjectClass, _ rows: LegacyTableRows) throws(FormatError) -> LegacyColumnCells {
        guard let cells = rows.column(p.column.key) else {
            throw .corrupt(offset: objectClass.table.ref, reason: "class '\(objectClass.name)': no cells for property '\(p.name)'")
        }
        return cells
    }
}
