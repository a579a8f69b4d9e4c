/// What the canonical dump of a file of formats 2–9 reads (legacy-formats.md §8.5): the
/// converted image, in which the tables the dump can write straight from the conversion's
/// cells are encoded without objects, and those cells. Encoding a large table into cluster
/// leaves and search indexes, only for the dump to decode the leaves again into a `Value`
/// per cell, is most of what exporting an old file costs beyond exporting its upgrade; the
/// cells kept by type (`LegacyTypedColumn`) are written without a `Value` per string.
///
/// A table is written from its cells when nothing else the dump reads depends on its
/// objects: a top-level table the caller names (the dump: the classes it writes objects of),
/// with no link, backlink or Mixed column — so no link anywhere resolves into it, and none of
/// its values is an identity of another object. Every other table is in the image whole.
/// The image's `Snapshot` is for that dump only: it shows the direct tables empty.
/// `LegacyExportTests` pins the dump to the one of the full image on every old fixture.
public struct LegacyExportRows {
    /// The converted image, the direct tables without objects.
    public let snapshot: Snapshot
    /// The direct tables' rows, by table key.
    public let tables: [TableKey: LegacyTableRows]

    /// The dump's reading of the old file at `path` (decrypted with `key`), nil when the file
    /// is not of formats 2–9 (or has no committed version). `direct`: of the converted
    /// group's table names, those whose objects the dump wants from their cells. A file the
    /// conversion refuses throws what `Snapshot(path:)` throws.
    public static func open(path: String, key: EncryptionKey? = nil,
                            direct: (_ tableNames: [String]) -> Set<String>) throws(FormatError) -> LegacyExportRows? {
        var image = try ByteImage.mapping(path: path)
        if let key { image = try EncryptedFile.decrypt(image, key: key) }
        let rows = try open(image: image, direct: direct)
        if key != nil { rows?.snapshot.markEncrypted() }
        return rows
    }

    /// `open(path:)` of a file's logical (decrypted) bytes.
    public static func open(image: ByteImage, direct: (_ tableNames: [String]) -> Set<String>) throws(FormatError) -> LegacyExportRows? {
        let header = try FileHeader(image: image)
        guard header.topRef != 0, FileFormat.legacy.contains(header.fileFormat) else { return nil }
        let group = try LegacyGroup(source: Snapshot(image: image, header: header, legacy: nil, readsTables: false))
        let conversion = try LegacyConversion.convert(group)
        let wanted = direct(conversion.names.filter { !$0.isEmpty })
        var tables = [TableKey: LegacyTableRows]()
        for case let .table(model) in conversion.slots where model.kind == .topLevel && wanted.contains(model.name) {
            guard model.columns.allSatisfy({ ![.link, .backlink, .mixed, .typedLink].contains($0.type) }) else { continue }
            let typed = conversion.typedColumns[model.key] ?? [:]
            var columns = [ColumnKey: LegacyColumnCells]()
            for (c, column) in model.columns.enumerated() {
                columns[column.key] = LegacyColumnCells(type: column.type, typed: typed[column.key]?.cells, values: model.values[c])
            }
            tables[model.key] = LegacyTableRows(objectKeys: model.objectKeys, columns: columns)
        }
        let converted = ByteImage(bytes: try conversion.fileBytes(withoutObjects: Set(tables.keys)))
        let snapshot = try Snapshot(image: converted, header: FileHeader(image: converted), legacy: group)
        return LegacyExportRows(snapshot: snapshot, tables: tables)
    }
}

/// The objects of one direct table: their keys in ObjKey order and each column's cells.
public struct LegacyTableRows {
    public let objectKeys: [Int64]
    let columns: [ColumnKey: LegacyColumnCells]

    /// The cells of the column with `key` (one per object), nil for a column it lacks.
    public func column(_ key: ColumnKey) -> LegacyColumnCells? { columns[key] }
}
