import RealmFormat

/// A Realm file seen the way an SDK sees it (object-store.md §2, realm-format.md §17):
/// `class_` tables are classes, `metadata` holds the schema version, other tables are internal.
/// A file with neither (a plain core file) is shown in raw form: every table is a class under
/// its own name (fixtures/README.md).
public final class RealmFile {
    public static let classPrefix = "class_"

    public let path: String
    public let snapshot: Snapshot
    /// Raw form: no `class_` and no `metadata` table.
    public let isRawForm: Bool
    /// Classes sorted by name, byte-wise.
    public private(set) var classes: [ObjectClass] = []
    private var classByTable: [Int: Int] = [:]

    /// A file of formats 2–9 opened for its canonical dump (`init(dumping:)`): the classes whose
    /// objects come from the conversion's cells, by table key; their tables in `snapshot` are
    /// empty (legacy-formats.md §8.5). `objectCount` and `forEachObject` read them from here.
    public let legacyRows: [TableKey: LegacyTableRows]

    public convenience init(path: String) throws(FormatError) {
        try self.init(path: path, snapshot: Snapshot(path: path))
    }

    /// The file at `path` opened for the canonical dump (`CanonicalDump`, `realmsh export`):
    /// a file of formats 2–9 through `LegacyExportRows` — its classes without links read from
    /// the conversion's cells, not encoded into the image — and any other as `init(path:)`.
    /// Object reads through this type see every object; `snapshot`-level readers (queries,
    /// verify) would see those classes empty, so only the dump opens a file this way.
    public convenience init(dumping path: String, key: EncryptionKey? = nil) throws(FormatError) {
        if let legacy = try LegacyExportRows.open(path: path, key: key, direct: Self.dumpedTables) {
            try self.init(path: path, snapshot: legacy.snapshot, legacyRows: legacy.tables)
        } else {
            try self.init(path: path, snapshot: Snapshot(path: path, key: key))
        }
    }

    /// `init(dumping:)` of a file's logical (decrypted) bytes; `path` names it in errors.
    public convenience init(dumping image: ByteImage, path: String) throws(FormatError) {
        if let legacy = try LegacyExportRows.open(image: image, direct: Self.dumpedTables) {
            try self.init(path: path, snapshot: legacy.snapshot, legacyRows: legacy.tables)
        } else {
            try self.init(path: path, snapshot: Snapshot(image: image))
        }
    }

    /// The tables whose objects the dump writes: the classes.
    static func dumpedTables(_ names: [String]) -> Set<String> {
        let raw = isRawForm(tableNames: names)
        return Set(names.filter { className(tableName: $0, isRawForm: raw) != nil })
    }

    public convenience init(path: String, snapshot: Snapshot) throws(FormatError) {
        try self.init(path: path, snapshot: snapshot, legacyRows: [:])
    }

    init(path: String, snapshot: Snapshot, legacyRows: [TableKey: LegacyTableRows]) throws(FormatError) {
        self.path = path
        self.snapshot = snapshot
        self.legacyRows = legacyRows
        isRawForm = Self.isRawForm(tableNames: snapshot.tables.map(\.name))
        let listed = snapshot.tables.filter { isRawForm || $0.name.hasPrefix(Self.classPrefix) }
        classes = try listed.map { t throws(FormatError) in try makeClass(t) }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        for (i, c) in classes.enumerated() { classByTable[c.table.position] = i }
    }

    /// Raw form (§17): no `class_` table and no `metadata` table.
    public static func isRawForm(tableNames names: [String]) -> Bool {
        !names.contains { $0.hasPrefix(classPrefix) } && !names.contains("metadata")
    }

    /// The class a table of this name is (its name without `class_`; raw form: the table
    /// name), nil for an internal table.
    public static func className(tableName name: String, isRawForm: Bool) -> String? {
        if isRawForm { return name }
        return name.hasPrefix(classPrefix) ? String(name.dropFirst(classPrefix.count)) : nil
    }

    /// Tables that are not classes (metadata, sync and history tables, `pk`, …).
    public var internalTables: [Table] {
        snapshot.tables.filter { classByTable[$0.position] == nil }
    }

    public func objectClass(named name: String) -> ObjectClass? { classes.first { $0.name == name } }

    public func objectClass(for key: TableKey) -> ObjectClass? {
        snapshot.table(key: key).flatMap { classByTable[$0.position] }.map { classes[$0] }
    }

    /// The class name of a table: its name without `class_` (raw form: the table name).
    public func className(of table: Table) -> String {
        if isRawForm || !table.name.hasPrefix(Self.classPrefix) { return table.name }
        return String(table.name.dropFirst(Self.classPrefix.count))
    }

    /// The schema version from the `metadata` table (§17.2); nil when there is none.
    /// −1 is stored for "not versioned".
    public func schemaVersion() throws(FormatError) -> Int64? {
        guard let meta = snapshot.table(named: "metadata"), let column = meta.column(named: "version"),
              let root = meta.clusterRef else { return nil }
        var version: Int64?
        try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
            guard version == nil, leaf.count > 0, let ref = leaf.columnRef(column.leafIndex) else { return }
            let values = try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster)
            if case let .int(v)? = values.first { version = v }
        }
        return version
    }

    /// The class view of any table: a listed class, or an internal table (`metadata`, `pk`, …)
    /// seen the same way, for tools that show those too.
    public func makeClass(_ table: Table) throws(FormatError) -> ObjectClass {
        let pk = table.primaryKeyColumn
        let properties = table.publicColumns.map { column -> Property in
            let target = column.type == .link ? column.targetTable.flatMap { snapshot.table(key: $0) } : nil
            let isPK = pk?.key == column.key
            return Property(
                name: column.name,
                type: column.type.propertyTypeName,
                isOptional: column.isNullable || column.type == .mixed,
                // Primary keys are always indexed: realm-core 14 adds the index on upgrade (§16.3).
                isIndexed: column.hasSearchIndex || isPK,
                isPrimaryKey: isPK,
                collection: column.collection,
                objectType: target.map { className(of: $0) },
                column: column)
        }
        let backlinks = table.backlinkColumns.map { column -> Backlink in
            let origin = column.targetTable.flatMap { snapshot.table(key: $0) }
            let property = origin.flatMap { o in column.oppositeColumn.flatMap { o.column(key: $0) } }
            return Backlink(originClass: origin.map { className(of: $0) }, originProperty: property?.name, column: column)
        }
        return ObjectClass(name: className(of: table), table: table, primaryKey: pk?.name,
                           isEmbedded: table.kind == .embedded, isAsymmetric: table.kind == .asymmetric,
                           properties: properties, backlinks: backlinks)
    }
}
