/// Column types as stored in the Spec and in ColKeys (realm-format.md §7.4).
public enum ColumnType: Int, Sendable, CaseIterable {
    case int = 0, bool = 1, string = 2, binary = 4, mixed = 6, timestamp = 8, float = 9, double = 10
    case decimal = 11, link = 12, linkList = 13, backlink = 14, objectId = 15, typedLink = 16, uuid = 17

    /// The property type name used by the object store and the canonical dump.
    public var propertyTypeName: String {
        switch self {
        case .int: return "int"
        case .bool: return "bool"
        case .string: return "string"
        case .binary: return "data"
        case .mixed: return "mixed"
        case .timestamp: return "date"
        case .float: return "float"
        case .double: return "double"
        case .decimal: return "decimal128"
        case .link, .linkList: return "object"
        case .backlink: return "linkingObjects"
        case .objectId: return "objectId"
        case .typedLink: return "typedLink"
        case .uuid: return "uuid"
        }
    }
}

/// Column attribute bits (realm-format.md §7.4).
public struct ColumnAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let indexed = ColumnAttributes(rawValue: 1)
    public static let unique = ColumnAttributes(rawValue: 2)
    public static let strongLinks = ColumnAttributes(rawValue: 8)
    public static let nullable = ColumnAttributes(rawValue: 16)
    public static let list = ColumnAttributes(rawValue: 32)
    public static let dictionary = ColumnAttributes(rawValue: 64)
    public static let set = ColumnAttributes(rawValue: 128)
    public static let fullText = ColumnAttributes(rawValue: 256)
}

public enum CollectionKind: String, Sendable {
    case list, set, dictionary
}

/// A 64-bit column key (realm-format.md §7.6).
public struct ColumnKey: Hashable, Sendable {
    public static let null = ColumnKey(value: 0x7FFF_FFFF_FFFF_FFFF)
    public let value: Int64
    public init(value: Int64) { self.value = value }
    /// Position of the column's data in cluster leaves (slot = leaf index + 1).
    @inlinable public var leafIndex: Int { Int(value & 0xFFFF) }
    public var rawType: Int { Int((value >> 16) & 0x3F) }
    public var attributes: ColumnAttributes { ColumnAttributes(rawValue: Int((value >> 22) & 0xFF)) }
}

/// A 32-bit table key: position in the group plus a generation tag (realm-format.md §7.2).
public struct TableKey: Hashable, Sendable {
    public static let null = TableKey(value: 0x7FFF_FFFF)
    public let value: UInt32
    public init(value: UInt32) { self.value = value }
}
