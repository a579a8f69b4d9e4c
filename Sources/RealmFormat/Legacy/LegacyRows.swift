/// Where the conversion reads a table's rows from: old columns arrays (a table's own, or one
/// subtable's each), and the cluster tree of a table an interrupted upgrade already moved
/// objects into (legacy-formats.md §3, §9).
/// One old columns array whose rows belong to a table: the table's own, or one subtable's.
struct LegacyRowSource {
    let columns: Node
    let hasIndexSlots: Bool

    func root(of column: LegacySpec.Column) -> Int? {
        guard column.slot >= 0 else { return nil }
        return columns.ref(hasIndexSlots ? column.slot : column.index)
    }

    /// Rows of a subtable: the size of its first column (legacy-formats.md §3).
    static func rowCount(_ reader: LegacyColumnReader, spec: LegacySpec, columns: Node) throws(FormatError) -> Int {
        guard let first = spec.columns.first else { return 0 }
        guard let root = columns.ref(first.slot) else { throw reader.corrupt(columns.ref, "subtable column 0 has no data") }
        return try reader.size(of: first, root: root)
    }
}

/// The objects an interrupted upgrade already moved into a table's cluster tree (§9), read as
/// today's tables are read.
struct LegacyClusterRows {
    let source: Snapshot
    let table: Table
    let objectKeys: [Int64]
    private let leaves: [(leaf: ClusterLeaf, start: Int)]

    init(source: Snapshot, table: Table) throws(FormatError) {
        self.source = source
        self.table = table
        leaves = try table.clusterRef.map { r throws(FormatError) in try source.clusterLeaves(rootRef: r) } ?? []
        var keys = [Int64]()
        for (leaf, _) in leaves { for r in 0..<leaf.count { keys.append(leaf.objectKey(r)) } }
        objectKeys = keys
    }

    /// The values of the column at Spec position `specIndex`, whose data sits at `leafIndex`,
    /// or `defaultValue` for objects whose leaves do not have the column yet (Core adds it
    /// with its default value).
    func values(specIndex: Int, leafIndex: Int, count: Int, default defaultValue: Value) throws(FormatError) -> [Value] {
        guard objectKeys.count == count, let column = table.columns.first(where: { $0.specIndex == specIndex }) else {
            return Array(repeating: defaultValue, count: count)
        }
        var out = [Value]()
        out.reserveCapacity(count)
        for (leaf, _) in leaves {
            guard let ref = leaf.columnRef(leafIndex) else {
                out += Array(repeating: defaultValue, count: leaf.count)
                continue
            }
            out += try source.decodeColumn(ref, column: column, of: table)
        }
        return out
    }
}

extension LegacySpec.Column {
    /// The backlink column an embedded table made from a subtable gets (it has no old column).
    static func embeddedParent(index: Int) -> LegacySpec.Column {
        LegacySpec.Column(index: index, name: "", type: .backlink, attributes: 0, slot: -1, linkedTable: nil,
                          originColumn: nil, subspec: nil, enumKeysRef: nil, key: nil)
    }

    /// The element column of a list an upgrade made from a one-column subtable (§9).
    static func listElement(of c: LegacySpec.Column) -> LegacySpec.Column {
        LegacySpec.Column(index: 0, name: "", type: c.type, attributes: c.attributes & 16, slot: 0, linkedTable: nil,
                          originColumn: nil, subspec: nil, enumKeysRef: nil, key: nil)
    }
}
