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

/// One column's cells: kept by type, or the conversion's values. `value(_:)` is the value
/// the image's leaf decodes to (`Snapshot.decodeLeaf`): a bool 3 and the reserved float and
/// double bit patterns are null, as there.
///
/// A class whose kinds are stored apart, rather than a struct or an enum with payloads: the
/// dump reads a cell per property per object, and copying a struct of arrays out of an array
/// (or an array out of an enum payload) costs a retain and a release per array each time —
/// which made the direct dump slower than decoding the image's leaves.
public final class LegacyColumnCells {
    enum Kind { case integers, bools, nullableIntegers, floats, doubles, strings, timestamps, values }

    let kind: Kind
    private let integers: [Int64]
    private let nullableIntegers: [Int64?]
    private let bytes: [UInt8]
    private let strings: StringCells
    private let timestamps: [Timestamp?]
    private let values: [Value]

    init(type: ColumnType, typed: LegacyTypedColumn.Cells?, values: [Value]) {
        var kind = Kind.values
        var integers = [Int64](), nullableIntegers = [Int64?](), bytes = [UInt8](), strings = StringCells()
        var timestamps = [Timestamp?](), rest = [Value]()
        switch typed {
        case let .integers(a)?:
            kind = type == .bool ? .bools : .integers
            integers = a
        case let .nullableIntegers(a)?:
            kind = .nullableIntegers
            nullableIntegers = a
        case let .bytes(b, width)?:
            kind = width == 4 ? .floats : .doubles
            bytes = b
        case let .strings(s)?:
            kind = .strings
            strings = s
        case let .timestamps(a)?:
            kind = .timestamps
            timestamps = a
        case nil:
            rest = values
        }
        self.kind = kind
        self.integers = integers
        self.nullableIntegers = nullableIntegers
        self.bytes = bytes
        self.strings = strings
        self.timestamps = timestamps
        self.values = rest
    }

    public func value(_ row: Int) -> Value {
        switch kind {
        case .values: return values[row]
        case .integers: return .int(integers[row])
        case .bools:
            let v = integers[row]
            return v == 0 ? .bool(false) : v == 1 ? .bool(true) : .null
        case .nullableIntegers: return nullableIntegers[row].map(Value.int) ?? .null
        case .floats:
            precondition(4 * row + 4 <= bytes.count, "float cell \(row) out of range")
            let bits = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 * row, as: UInt32.self) }.littleEndian
            return bits == Snapshot.floatNull ? .null : .float(Float(bitPattern: bits))
        case .doubles:
            precondition(8 * row + 8 <= bytes.count, "double cell \(row) out of range")
            let bits = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8 * row, as: UInt64.self) }.littleEndian
            return bits == Snapshot.doubleNull ? .null : .double(Double(bitPattern: bits))
        case .strings: return strings[row].map { .string(Array($0)) } ?? .null
        case .timestamps: return timestamps[row].map(Value.timestamp) ?? .null
        }
    }

    /// For a string column kept by type: calls `body` with row `row`'s bytes (nil for null),
    /// without copying them, and returns true; false (body not called) for any other column.
    public func withString(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) -> Bool {
        guard kind == .strings else { return false }
        strings.withValue(row, body)
        return true
    }
}
