/// Column types of the Spec of formats 2–9 (legacy-formats.md §4). The values that survive
/// into format 10+ keep their number; 3, 5 and 7 exist only here.
public enum LegacyColumnType: Int, Sendable {
    case int = 0, bool = 1, string = 2, stringEnum = 3, binary = 4, table = 5, mixed = 6
    case dateTime = 7, timestamp = 8, float = 9, double = 10, link = 12, linkList = 13, backlink = 14

    var name: String {
        switch self {
        case .int: return "int"
        case .bool: return "bool"
        case .string: return "string"
        case .stringEnum: return "enumerated string"
        case .binary: return "binary"
        case .table: return "subtable"
        case .mixed: return "mixed"
        case .dateTime: return "DateTime"
        case .timestamp: return "timestamp"
        case .float: return "float"
        case .double: return "double"
        case .link: return "link"
        case .linkList: return "link list"
        case .backlink: return "backlink"
        }
    }
}

/// The Spec of a table (or of the rows of a subtable column) in formats 2–9 (legacy-formats.md
/// §4): `[types, names, attributes, subspecs?, enum keys?]`. Names exist for public columns
/// only; backlink columns come last. The subspecs array holds, in column order, one entry per
/// subtable column (ref to its Spec), per link or link-list column (tagged target table
/// position) and two per backlink column (tagged origin table and origin column positions).
///
/// A Spec a Realm Core 10–13 upgrade has begun to convert (§9) has a sixth slot of column keys,
/// may have converted types (a subtable column turned into a list: its element type plus the
/// List attribute; enumerated strings typed String, their value lists then indexed by column
/// position), and may have lost its subspecs (link targets then live in the table top).
public struct LegacySpec: Sendable {
    public struct Column: Sendable {
        /// Position in the Spec.
        public let index: Int
        /// Empty for backlink columns.
        public let name: String
        public let type: LegacyColumnType
        /// Spec attribute bits (§4: 1 indexed, 2 unique, 8 strong links, 16 nullable).
        public let attributes: Int64
        /// Slot of the column's root in the table's (or subtable's) columns array: the
        /// column's position plus one for each indexed column before it, whose search index
        /// takes the slot after its column.
        public let slot: Int
        /// Link and link list: the target table; backlink: the origin table (group positions).
        public let linkedTable: Int?
        /// Backlink: the origin column's position in the origin table's Spec.
        public let originColumn: Int?
        /// Subtable columns: the Spec of their rows.
        public let subspec: LegacySpec?
        /// Enumerated strings: the root of the column of distinct values.
        public let enumKeysRef: Int?
        /// The column key a half-done upgrade gave the column (Spec slot 5), if any.
        public let key: Int64?

        public var isIndexed: Bool { attributes & 1 != 0 }
        public var isNullable: Bool { attributes & 16 != 0 }
        /// A subtable column an interrupted upgrade already turned into a list (§9).
        public var isConvertedList: Bool { attributes & 32 != 0 && type != .linkList }
    }

    public let ref: Int
    public let columns: [Column]
    /// Slot 5 exists: an upgrade by Realm Core 10 or later has begun (§9).
    public let hasColumnKeys: Bool

    public var publicColumns: ArraySlice<Column> { columns.prefix { $0.type != .backlink } }

    /// Slots the columns array must have: one per column and one per search index.
    public var slotCount: Int { columns.count + columns.filter(\.isIndexed).count }

    /// Subtable Specs nest; Realm never went past a few levels.
    static let maxDepth = 8

    init(source: Snapshot, ref: Int, what: String, depth: Int = 0) throws(FormatError) {
        guard depth < Self.maxDepth else { throw .corrupt(offset: ref, reason: "\(what): subtable Specs nested too deep") }
        let top = try source.node(ref)
        guard top.hasRefs, top.header.widthType == .bits, (3...6).contains(top.count),
              let typesRef = top.ref(0), let namesRef = top.ref(1), let attrsRef = top.ref(2) else {
            throw .corrupt(offset: ref, reason: "\(what): Spec is not an array of 3 to 5 refs")
        }
        let types = try source.plainInts(typesRef)
        let attrs = try source.plainInts(attrsRef)
        let names = try source.decodeStrings(namesRef, nullable: false)
        guard attrs.count == types.count, names.count <= types.count else {
            throw .corrupt(offset: ref, reason: "\(what): Spec has \(types.count) types, \(attrs.count) attributes and \(names.count) names")
        }
        let subspecs = try top.ref(3).map { r throws(FormatError) in try source.refsNode(r, minimum: 0, what: "\(what): subspecs") }
        let enumKeys = try top.ref(4).map { r throws(FormatError) in try source.refsNode(r, minimum: 0, what: "\(what): enum keys") }
        let keys = try top.ref(5).map { r throws(FormatError) in try source.plainInts(r) }
        if let keys, keys.count != types.count {
            throw .corrupt(offset: ref, reason: "\(what): Spec has \(types.count) types and \(keys.count) column keys")
        }
        // Until an upgrade converts them, value lists belong to the enumerated columns in
        // order; afterwards each sits at its column's position (§9).
        let enumByPosition = keys != nil && !(0..<types.count).contains { types.int($0) == Int64(LegacyColumnType.stringEnum.rawValue) }

        func subspecEntry(_ i: Int) throws(FormatError) -> Int64 {
            guard let subspecs, i < subspecs.count else {
                throw .corrupt(offset: ref, reason: "\(what): subspecs array lacks entry \(i)")
            }
            return subspecs.int(i)
        }
        func tagged(_ i: Int) throws(FormatError) -> Int {
            let v = try subspecEntry(i)
            guard v & 1 == 1, v > 0 else { throw .corrupt(offset: ref, reason: "\(what): subspecs entry \(i) is not a tagged position") }
            return Int(v >> 1)
        }

        var columns = [Column]()
        var subspecIndex = 0, enumIndex = 0, slot = 0
        var seenBacklink = false
        for i in 0..<types.count {
            guard let type = LegacyColumnType(rawValue: Int(types.int(i))) else {
                throw .corrupt(offset: typesRef, reason: "\(what): column \(i) has unknown type \(types.int(i))")
            }
            if type == .backlink {
                seenBacklink = true
            } else if seenBacklink || i >= names.count {
                throw .corrupt(offset: ref, reason: "\(what): column \(i) is not a backlink but comes after one or has no name")
            }
            let attributes = attrs.int(i)
            var linked: Int?, origin: Int?, sub: LegacySpec?, valuesRef: Int?
            switch type {
            case .link, .linkList:
                // Without subspecs (an upgrade moved them to the table top, §9) the target is
                // read from there.
                if subspecs != nil || keys == nil { linked = try tagged(subspecIndex) }
                subspecIndex += 1
            case .backlink:
                if subspecs != nil || keys == nil {
                    linked = try tagged(subspecIndex)
                    origin = try tagged(subspecIndex + 1)
                }
                subspecIndex += 2
            case .string where enumByPosition:
                if let enumKeys, i < enumKeys.count { valuesRef = enumKeys.ref(i) }
            case .table:
                let v = try subspecEntry(subspecIndex)
                guard v != 0, v & 1 == 0 else {
                    throw .corrupt(offset: ref, reason: "\(what): subtable column \(i) has no Spec")
                }
                sub = try LegacySpec(source: source, ref: Int(v), what: "\(what), subtable column \(i)", depth: depth + 1)
                subspecIndex += 1
            case .stringEnum:
                guard let enumKeys, enumIndex < enumKeys.count, let r = enumKeys.ref(enumIndex) else {
                    throw .corrupt(offset: ref, reason: "\(what): enumerated string column \(i) has no value list")
                }
                valuesRef = r
                enumIndex += 1
            default:
                break
            }
            let name = i < names.count ? String(decoding: names[i] ?? [], as: UTF8.self) : ""
            columns.append(Column(index: i, name: name, type: type, attributes: attributes, slot: slot,
                                  linkedTable: linked, originColumn: origin, subspec: sub, enumKeysRef: valuesRef,
                                  key: keys?.int(i)))
            slot += attributes & 1 != 0 ? 2 : 1
        }
        self.ref = ref
        self.columns = columns
        hasColumnKeys = keys != nil
    }
}
