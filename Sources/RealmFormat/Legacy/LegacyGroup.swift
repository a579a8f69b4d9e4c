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

/// One table of a format 2–9 group: `[Spec, columns]` (legacy-formats.md §3).
public final class LegacyTable {
    public let position: Int
    public let name: String
    public let ref: Int
    public let spec: LegacySpec
    /// The columns array: one root per column, each followed by its search index if it has one.
    public let columnsRef: Int
    let columnRoots: [Int?]
    /// Rows: the size of every column (they must agree; `verify` checks all of them).
    public let rowCount: Int

    init(source: Snapshot, position: Int, name: String, ref: Int) throws(FormatError) {
        let top = try source.refsNode(ref, minimum: 2, what: "table '\(name)'")
        guard top.count == 2, let specRef = top.ref(0), let columnsRef = top.ref(1) else {
            throw .corrupt(offset: ref, reason: "table '\(name)' is not a [Spec, columns] pair (a half-done upgrade by Realm Core 10 or later?)")
        }
        self.position = position
        self.name = name
        self.ref = ref
        self.columnsRef = columnsRef
        let spec = try LegacySpec(source: source, ref: specRef, what: "table '\(name)'")
        let columns = try source.refsNode(columnsRef, minimum: 0, what: "columns of table '\(name)'")
        guard columns.count == spec.slotCount else {
            throw .corrupt(offset: columnsRef, reason: "table '\(name)' has \(columns.count) column slots for \(spec.columns.count) columns and \(spec.slotCount - spec.columns.count) search indexes")
        }
        let roots = (0..<columns.count).map { columns.ref($0) }
        for c in spec.columns where roots[c.slot] == nil {
            throw .corrupt(offset: columnsRef, reason: "table '\(name)': column '\(c.name)' (\(c.index)) has no data")
        }
        self.spec = spec
        columnRoots = roots
        rowCount = try spec.columns.first.map { c throws(FormatError) in
            try LegacyColumnReader(source: source, table: name).size(of: c, root: roots[c.slot]!)
        } ?? 0
    }

    /// The root of column `column`'s data.
    public func root(of column: LegacySpec.Column) -> Int { columnRoots[column.slot]! }

    /// The root of column `column`'s search index, if it has one.
    public func indexRoot(of column: LegacySpec.Column) -> Int? { column.isIndexed ? columnRoots[column.slot + 1] : nil }

    /// Link columns name a table and backlink columns an origin column that must exist.
    fileprivate func checkLinks(in group: LegacyGroup) throws(FormatError) {
        for c in spec.columns {
            guard let t = c.linkedTable else { continue }
            guard t < group.tables.count else {
                throw .corrupt(offset: spec.ref, reason: "table '\(name)': column \(c.index) (\(c.type.name)) names table \(t), which does not exist")
            }
            if c.type == .backlink {
                let origin = group.tables[t].spec.columns
                guard let o = c.originColumn, o < origin.count, [.link, .linkList].contains(origin[o].type),
                      origin[o].linkedTable == position else {
                    throw .corrupt(offset: spec.ref, reason: "table '\(name)': backlink column \(c.index) names no link column of table '\(group.tables[t].name)' to it")
                }
            }
        }
    }
}
