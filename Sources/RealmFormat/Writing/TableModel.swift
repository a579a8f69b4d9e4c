/// A whole table in memory: its columns as the Spec describes them and every object's values,
/// column by column (realm-format.md §7, §8). A write decodes the tables it touches into models,
/// changes them, and `TableEncoder` writes them back as new subtrees; Realm accepts any valid
/// tree shape and re-encoded leaves (§13.10).
public struct TableModel: Sendable {
    public struct ColumnModel: Sendable {
        public var name: String
        /// Normalized type (`link` for lists of links).
        public var type: ColumnType
        public var attributes: ColumnAttributes
        public var key: ColumnKey
        /// The Spec types entry as stored (keeps a format ≤ 23 `13` and the dictionary key type).
        public var specType: Int64
        /// The Spec attributes entry as stored.
        public var specAttributes: Int64
        public var targetTable: TableKey?
        public var oppositeColumn: ColumnKey?
        /// A general search index is kept on this column (always on the primary key).
        public var isIndexed: Bool

        public var isBacklink: Bool { type == .backlink }
        public var isNullable: Bool { attributes.contains(.nullable) }
        public var collection: CollectionKind? {
            if attributes.contains(.list) { return .list }
            if attributes.contains(.set) { return .set }
            if attributes.contains(.dictionary) { return .dictionary }
            return nil
        }

        public init(name: String, type: ColumnType, attributes: ColumnAttributes, key: ColumnKey,
                    specType: Int64, specAttributes: Int64, targetTable: TableKey?, oppositeColumn: ColumnKey?, isIndexed: Bool) {
            self.name = name
            self.type = type
            self.attributes = attributes
            self.key = key
            self.specType = specType
            self.specAttributes = specAttributes
            self.targetTable = targetTable
            self.oppositeColumn = oppositeColumn
            self.isIndexed = isIndexed
        }
    }

    public var name: String
    public var key: TableKey
    public var kind: Table.Kind
    /// Spec order: public columns, then backlink columns.
    public var columns: [ColumnModel]
    public var primaryKey: ColumnKey?
    /// Slot 9: the next ObjKey source (§8.5).
    public var sequenceNumber: UInt64
    /// Slot 5: bumped when a column is removed (§7.6).
    public var columnKeySequence: UInt64
    /// Slot 6: bumped by every commit that changes the table (§13.10).
    public var contentVersion: UInt64
    /// ObjKeys, ascending.
    public var objectKeys: [Int64]
    /// `values[c][row]` for column `c` in spec order. Backlink columns hold `.list` of `.link`.
    public var values: [[Value]]

    public init(name: String, key: TableKey, kind: Table.Kind, columns: [ColumnModel], primaryKey: ColumnKey?,
                sequenceNumber: UInt64 = 0, columnKeySequence: UInt64 = 0, contentVersion: UInt64 = 0) {
        self.name = name
        self.key = key
        self.kind = kind
        self.columns = columns
        self.primaryKey = primaryKey
        self.sequenceNumber = sequenceNumber
        self.columnKeySequence = columnKeySequence
        self.contentVersion = contentVersion
        objectKeys = []
        values = columns.map { _ in [] }
    }

    public var objectCount: Int { objectKeys.count }

    public func columnIndex(named name: String) -> Int? { columns.firstIndex { $0.name == name && !$0.isBacklink } }
    public func columnIndex(key: ColumnKey) -> Int? { columns.firstIndex { $0.key == key } }

    /// Row of `objectKey` (binary search), nil when absent.
    public func row(of objectKey: Int64) -> Int? {
        var lo = 0, hi = objectKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if objectKeys[mid] < objectKey { lo = mid + 1 } else { hi = mid }
        }
        return lo < objectKeys.count && objectKeys[lo] == objectKey ? lo : nil
    }

    /// Inserts an object with `key` (not yet present) and one value per column.
    public mutating func insertObject(key: Int64, values rowValues: [Value]) {
        var lo = 0, hi = objectKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if objectKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        objectKeys.insert(key, at: lo)
        for c in 0..<columns.count { values[c].insert(rowValues[c], at: lo) }
    }

    public mutating func removeObject(row: Int) {
        objectKeys.remove(at: row)
        for c in 0..<columns.count { values[c].remove(at: row) }
    }

    /// The key the next new object gets (§8.5): the sequence number for primary-key tables, its
    /// "squeezed" form otherwise; keys in use are skipped and the counter never goes back.
    public mutating func nextObjectKey() -> Int64 {
        while true {
            let s = sequenceNumber
            sequenceNumber += 1
            let key = primaryKey != nil ? Int64(s) : Int64((s & 0xFF) | ((s & 0xFFFF_FF00) << 8))
            if row(of: key) == nil { return key }
        }
    }

    /// The value the empty cell of a new object holds for `column`.
    public static func defaultValue(for column: ColumnModel) -> Value {
        if column.isBacklink { return .list([]) }
        if let kind = column.collection { return kind == .dictionary ? .dictionary([]) : .list([]) }
        if column.isNullable || column.type == .link || column.type == .mixed { return .null }
        switch column.type {
        case .int: return .int(0)
        case .bool: return .bool(false)
        case .string: return .string([])
        case .binary: return .binary([])
        case .timestamp: return .timestamp(Timestamp(seconds: 0, nanoseconds: 0))
        case .float: return .float(0)
        case .double: return .double(0)
        case .decimal: return .decimal(Decimal128(negative: false, coefficient: 0, exponent: 0))
        case .objectId: return .objectId(ObjectId(bytes: [UInt8](repeating: 0, count: 12)))
        case .uuid: return .uuid(UUID(bytes: [UInt8](repeating: 0, count: 16)))
        default: return .null
        }
    }
}

extension Snapshot {
    /// Decodes a whole table into a model (every column, backlinks included).
    public func tableModel(_ table: Table) throws(FormatError) -> TableModel {
        resetWorkBudget()
        guard table.tombstonesRef == nil else {
            throw .cannotWrite(reason: "table '\(table.name)' holds unresolved-link tombstones (a synced Realm)")
        }
        var model = TableModel(name: table.name, key: table.key, kind: table.kind, columns: try columnModels(table),
                               primaryKey: table.primaryKey, sequenceNumber: table.sequenceNumber,
                               columnKeySequence: table.columnKeySequence, contentVersion: table.contentVersion)
        guard let root = table.clusterRef else { return model }
        try ClusterTree(snapshot: self, rootRef: root).forEachLeaf { leaf throws(FormatError) in
            for r in 0..<leaf.count { model.objectKeys.append(leaf.objectKey(r)) }
            for (c, column) in table.columns.enumerated() {
                guard let ref = leaf.columnRef(column.leafIndex) else {
                    throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': no data for column \(c)")
                }
                let values = try decodeColumn(ref, column: column, of: table)
                guard values.count == leaf.count else {
                    throw .corrupt(offset: ref, reason: "table '\(table.name)': column \(c) holds \(values.count) values for \(leaf.count) objects")
                }
                model.values[c] += values
            }
        }
        return model
    }

    /// The writer's view of a table's columns, raw Spec entries included (§7.5).
    public func columnModels(_ table: Table) throws(FormatError) -> [TableModel.ColumnModel] {
        let raw = try specArrays(table)
        guard raw.types.count >= table.columns.count, raw.attributes.count >= table.columns.count else {
            throw .corrupt(offset: table.ref, reason: "table '\(table.name)': Spec arrays shorter than its \(table.columns.count) columns")
        }
        return table.columns.enumerated().map { i, c in
            TableModel.ColumnModel(name: c.name, type: c.type, attributes: c.attributes, key: c.key,
                                   specType: raw.types[i], specAttributes: raw.attributes[i], targetTable: c.targetTable,
                                   oppositeColumn: c.oppositeColumn, isIndexed: c.searchIndexRef != nil)
        }
    }

    /// One column array of a cluster leaf, decoded: backlinks as `.list` of `.link` (§10.6),
    /// a collection per object (§10), or the scalars (§9).
    public func decodeColumn(_ ref: Int, column: Column, of table: Table) throws(FormatError) -> [Value] {
        if column.isBacklink { return try decodeBacklinks(ref).map { .list($0.map(Value.link)) } }
        if column.collection != nil {
            let refs = try node(ref)
            return try (0..<refs.count).map { i throws(FormatError) in try decodeCollection(refs.ref(i), column: column) }
        }
        return try decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                              enumValues: table.enumValuesRef(for: column))
    }

    /// The Spec's raw types and attributes arrays (§7.5).
    func specArrays(_ table: Table) throws(FormatError) -> (types: [Int64], attributes: [Int64]) {
        let top = try node(table.ref)
        guard let specRef = top.ref(0) else { throw .corrupt(offset: table.ref, reason: "table without a Spec") }
        let spec = try node(specRef)
        guard let t = spec.ref(0), let a = spec.ref(2) else { throw .corrupt(offset: specRef, reason: "Spec without types or attributes") }
        return (try node(t).ints(), try node(a).ints())
    }
}
