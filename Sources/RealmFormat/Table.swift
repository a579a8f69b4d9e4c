/// A table top array and its Spec (realm-format.md §7.1, §7.5).
public struct Table: Sendable {
    public enum Kind: Int, Sendable { case topLevel = 0, embedded = 1, asymmetric = 2 }

    /// Position in the group's table list.
    public let position: Int
    public let name: String
    public let ref: Int
    public let key: TableKey
    public let columns: [Column]
    public let primaryKey: ColumnKey?
    public let kind: Kind
    /// Root of the object cluster tree (slot 2).
    public let clusterRef: Int?
    /// Root of the tombstone cluster tree (slot 13).
    public let tombstonesRef: Int?
    /// Object sequence number (slot 9), the next key source (§8.5).
    public let sequenceNumber: UInt64
    /// Column-key sequence (slot 5) and content version (slot 6).
    public let columnKeySequence: UInt64
    public let contentVersion: UInt64
    /// Distinct-value lists of enumerated string columns, by spec index (§9.4.4).
    let enumValueRefs: [Int?]

    public var publicColumns: [Column] { columns.filter { !$0.isBacklink } }
    public var backlinkColumns: [Column] { columns.filter { $0.isBacklink } }
    public var primaryKeyColumn: Column? { primaryKey.flatMap { pk in columns.first { $0.key == pk } } }
    public func column(key: ColumnKey) -> Column? { columns.first { $0.key == key } }
    public func column(named name: String) -> Column? { columns.first { $0.name == name && !$0.isBacklink } }

    init(snapshot: Snapshot, position: Int, name: String, ref: Int) throws(FormatError) {
        // Formats 10/11 have 12-slot table tops; the missing slots read as 0 (§16.3).
        let top = try snapshot.refsNode(ref, minimum: 12, what: "table '\(name)'")
        self.position = position
        self.name = name
        self.ref = ref
        guard let k = top.tagged(3), k <= UInt64(UInt32.max) else {
            throw .corrupt(offset: ref, reason: "table '\(name)' has no valid table key")
        }
        key = TableKey(value: UInt32(k))
        clusterRef = top.ref(2)
        tombstonesRef = top.count > 13 ? top.ref(13) : nil
        sequenceNumber = top.tagged(9) ?? 0
        columnKeySequence = top.tagged(5) ?? 0
        contentVersion = top.tagged(6) ?? 0
        primaryKey = top.tagged(11).map { ColumnKey(value: Int64(bitPattern: $0)) }
        kind = Kind(rawValue: Int((top.tagged(12) ?? 0) & 3)) ?? .topLevel

        let indexes = try top.ref(4).map { r throws(FormatError) in try snapshot.refsNode(r, minimum: 0, what: "search index list") }
        let oppositeTables = try top.ref(7).map { r throws(FormatError) in try snapshot.node(r) }
        let oppositeColumns = try top.ref(8).map { r throws(FormatError) in try snapshot.node(r) }

        guard let specRef = top.ref(0) else { throw .corrupt(offset: ref, reason: "table '\(name)' has no Spec") }
        let spec = try snapshot.refsNode(specRef, minimum: 6, what: "Spec of table '\(name)'")
        guard let typesRef = spec.ref(0), let attrsRef = spec.ref(2), let keysRef = spec.ref(5) else {
            throw .corrupt(offset: specRef, reason: "Spec of table '\(name)' lacks types, attributes or keys")
        }
        let types = try snapshot.node(typesRef)
        let attrs = try snapshot.node(attrsRef)
        let keys = try snapshot.node(keysRef)
        let names = try spec.ref(1).map { r throws(FormatError) in try snapshot.decodeStrings(r, nullable: false) } ?? []
        guard types.count == keys.count, attrs.count == keys.count, names.count <= keys.count,
              types.header.widthType == .bits, attrs.header.widthType == .bits, keys.header.widthType == .bits else {
            throw .corrupt(offset: specRef, reason: "Spec of table '\(name)' has arrays of different lengths")
        }
        let enumList = try spec.ref(4).map { r throws(FormatError) in try snapshot.refsNode(r, minimum: 0, what: "enum value lists") }
        enumValueRefs = enumList.map { n in (0..<n.count).map { n.ref($0) } } ?? []

        var columns = [Column]()
        for i in 0..<keys.count {
            let key = ColumnKey(value: keys.int(i))
            let leaf = key.leafIndex
            var target: TableKey?
            if let t = oppositeTables, leaf < t.count {
                let v = UInt32(truncatingIfNeeded: t.int(leaf))
                if v != TableKey.null.value { target = TableKey(value: v) }
            }
            var opposite: ColumnKey?
            if let c = oppositeColumns, leaf < c.count {
                let v = c.int(leaf)
                if v != ColumnKey.null.value { opposite = ColumnKey(value: v) }
            }
            let columnName = i < names.count ? String(decoding: names[i] ?? [], as: UTF8.self) : ""
            columns.append(try Column(specIndex: i, name: columnName, specType: types.int(i),
                                      specAttributes: attrs.int(i), key: key,
                                      searchIndexRef: indexes?.ref(leaf), targetTable: target,
                                      oppositeColumn: opposite))
        }
        self.columns = columns
    }

    /// The distinct values of an enumerated string column, if it is one (§9.4.4).
    public func enumValuesRef(for column: Column) -> Int? {
        column.specIndex < enumValueRefs.count ? enumValueRefs[column.specIndex] : nil
    }
}

