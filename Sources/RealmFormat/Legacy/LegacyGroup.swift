/// The group of a file of formats 2–9 (legacy-formats.md §2–§3): the top array (the same slots
/// as today's, §5 of realm-format.md, minus the ones added later), the table names and one
/// table per slot, each `[Spec, columns]`. Reading it decodes the Specs and the row counts,
/// nothing else: values are decoded column by column when a conversion asks for them.
public final class LegacyGroup {
    /// A raw snapshot of the on-disk image: its header and top array, no tables.
    public let source: Snapshot
    public let format: Int
    public let tables: [LegacyTable]

    init(source: Snapshot) throws(FormatError) {
        self.source = source
        format = source.header.fileFormat
        guard let top = source.top else {
            tables = []
            return
        }
        let names = try source.decodeStrings(top.tableNamesRef, nullable: false)
        let refs = try source.refsNode(top.tablesRef, minimum: 0, what: "table list")
        guard names.count == refs.count else {
            throw .corrupt(offset: refs.ref, reason: "\(names.count) table names for \(refs.count) tables")
        }
        var tables = [LegacyTable]()
        for i in 0..<refs.count {
            // Formats 2–9 never leave a slot empty: removing a table shifted the later ones.
            guard let ref = refs.ref(i) else {
                throw .corrupt(offset: refs.ref, reason: "table slot \(i) holds no table")
            }
            tables.append(try LegacyTable(source: source, position: i,
                                          name: String(decoding: names[i] ?? [], as: UTF8.self), ref: ref))
        }
        self.tables = tables
        for t in tables { try t.checkLinks(in: self) }
    }

    public func table(named name: String) -> LegacyTable? { tables.first { $0.name == name } }
}

/// One table of a format 2–9 group: `[Spec, columns]` (legacy-formats.md §3), or the 12-slot
/// top of a table whose upgrade by Realm Core 10–13 was interrupted (§9): the old columns in
/// slot 1 (0 once every column moved; a moved column's slot 0), the objects moved so far in a
/// cluster tree, read as today's tables are (`upgraded`).
public final class LegacyTable {
    public let position: Int
    public let name: String
    public let ref: Int
    public let spec: LegacySpec
    /// The columns array (nil once an upgrade moved every column): one root per column, each
    /// followed by its search index if it has one (until an upgrade drops the index slots).
    public let columns: Node?
    /// Whether search indexes still take a slot after their column.
    let hasIndexSlots: Bool
    /// The table as Realm Core 10+ laid it out so far, for a half-upgraded table.
    public let upgraded: Table?
    /// Objects: the size of the old columns (they must agree; `verify` checks all of them), or
    /// of the cluster tree once every column moved.
    public let rowCount: Int
    /// A half-upgraded table's column keys (Spec slot 5), repaired as Core's
    /// `Table::verify_column_keys` repairs them, and its opposite table and column slots
    /// (table top slots 7 and 8, by leaf index).
    public private(set) var columnKeys: [Int64] = []
    private(set) var oppositeTables: [Int64] = []
    private(set) var oppositeColumns: [Int64] = []

    init(source: Snapshot, position: Int, name: String, ref: Int) throws(FormatError) {
        let top = try source.refsNode(ref, minimum: 2, what: "table '\(name)'")
        guard top.count == 2 || top.count >= 12, let specRef = top.ref(0) else {
            throw .corrupt(offset: ref, reason: "table '\(name)' is neither a [Spec, columns] pair nor a table top")
        }
        let spec = try LegacySpec(source: source, ref: specRef, what: "table '\(name)'")
        guard top.count == 2 || spec.hasColumnKeys else {
            throw .corrupt(offset: ref, reason: "table '\(name)' has a table top but its Spec has no column keys")
        }
        self.position = position
        self.name = name
        self.ref = ref
        self.spec = spec
        upgraded = top.count == 2 ? nil : try Table(snapshot: source, position: position, name: name, ref: ref)
        if upgraded != nil {
            oppositeTables = try top.ref(7).map { r throws(FormatError) in try source.plainInts(r).ints() } ?? []
            oppositeColumns = try top.ref(8).map { r throws(FormatError) in try source.plainInts(r).ints() } ?? []
            columnKeys = Self.repairedKeys(spec, oppositeTables: oppositeTables, tableKey: upgraded!.key)
        }
        guard let columnsRef = top.ref(1) else {
            guard upgraded != nil else { throw .corrupt(offset: ref, reason: "table '\(name)' has no columns array") }
            columns = nil
            hasIndexSlots = false
            rowCount = try upgraded!.clusterRef.map { r throws(FormatError) in try ClusterTree(snapshot: source, rootRef: r).count() } ?? 0
            return
        }
        let columns = try source.refsNode(columnsRef, minimum: 0, what: "columns of table '\(name)'")
        // An upgrade drops the index slots first (Core's migrate_indexes), all in one commit.
        let withIndexes = columns.count == spec.slotCount
        guard withIndexes || (upgraded != nil && columns.count == spec.columns.count) else {
            throw .corrupt(offset: columnsRef, reason: "table '\(name)' has \(columns.count) column slots for \(spec.columns.count) columns and \(spec.slotCount - spec.columns.count) search indexes")
        }
        self.columns = columns
        hasIndexSlots = withIndexes
        if upgraded == nil {
            for c in spec.columns where columns.ref(c.slot) == nil {
                throw .corrupt(offset: columnsRef, reason: "table '\(name)': column '\(c.name)' (\(c.index)) has no data")
            }
        }
        let reader = LegacyColumnReader(source: source, table: name)
        if let c = spec.columns.first(where: { columns.ref(withIndexes ? $0.slot : $0.index) != nil }) {
            rowCount = try reader.size(of: c, root: columns.ref(withIndexes ? c.slot : c.index)!)
        } else {
            rowCount = try upgraded?.clusterRef.map { r throws(FormatError) in try ClusterTree(snapshot: source, rootRef: r).count() } ?? 0
        }
    }

    /// An upgrade by an early Core 10 added `!ROW_INDEX` as the last public column and could
    /// leave wrong keys for it and the backlink columns after it; Core 13 notices a backlink
    /// whose key names no origin table and renumbers them (Spec::fix_column_keys): `!ROW_INDEX`
    /// gets the last leaf index, the backlinks the ones from its position on.
    static func repairedKeys(_ spec: LegacySpec, oppositeTables: [Int64], tableKey: TableKey) -> [Int64] {
        var keys = spec.columns.map { $0.key ?? Int64($0.index) }
        let publicCount = spec.publicColumns.count
        let sound = spec.columns[publicCount...].allSatisfy { c in
            let leaf = Int(ColumnKey(value: keys[c.index]).leafIndex)
            return leaf < oppositeTables.count && oppositeTables[leaf] != Int64(TableKey.null.value)
        }
        guard !sound, publicCount > 0, spec.columns[publicCount - 1].name == LegacyConversion.rowIndexColumn else { return keys }
        let tag = Int64(tableKey.value) << 30
        keys[publicCount - 1] = Int64(spec.columns.count - 1) | tag
        for (j, c) in spec.columns[publicCount...].enumerated() {
            keys[c.index] = Int64(publicCount - 1 + j) | Int64(ColumnType.backlink.rawValue) << 16 | tag
        }
        return keys
    }

    /// The root of column `column`'s old data; nil once an upgrade moved it.
    public func root(of column: LegacySpec.Column) -> Int? {
        columns?.ref(hasIndexSlots ? column.slot : column.index)
    }

    /// The root of column `column`'s old search index, if it has one.
    public func indexRoot(of column: LegacySpec.Column) -> Int? {
        column.isIndexed && hasIndexSlots ? columns?.ref(column.slot + 1) : nil
    }

    /// Link columns name a table and backlink columns an origin column that must exist.
    fileprivate func checkLinks(in group: LegacyGroup) throws(FormatError) {
        for c in spec.columns {
            guard let t = c.linkedTable else { continue }
            guard upgraded == nil else { continue }     // half-converted Specs are checked by the conversion
            guard t < group.tables.count else {
                throw .corrupt(offset: spec.ref, reason: "table '\(name)': column \(c.index) (\(c.type.name)) names table \(t), which does not exist")
            }
            if c.type == .backlink, group.tables[t].upgraded == nil {
                let origin = group.tables[t].spec.columns
                guard let o = c.originColumn, o < origin.count, [.link, .linkList].contains(origin[o].type),
                      origin[o].linkedTable == position else {
                    throw .corrupt(offset: spec.ref, reason: "table '\(name)': backlink column \(c.index) names no link column of table '\(group.tables[t].name)' to it")
                }
            }
        }
    }
}
