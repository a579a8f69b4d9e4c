import RealmFormat

/// The static type of an operand (realm-core's `DataType`); `nil` in an optional position is
/// its "invalid" type, the type of a bare `null`.
public enum DataType: Int, Sendable, Equatable, Comparable {
    case int = 0, bool = 1, string = 2, binary = 4, mixed = 6, timestamp = 8, float = 9, double = 10
    case decimal = 11, link = 12, objectId = 15, typedLink = 16, uuid = 17, typeOfValue = 18

    /// `get_data_type_name`.
    public var name: String {
        switch self {
        case .int: return "int"
        case .bool: return "bool"
        case .string: return "string"
        case .binary: return "binary"
        case .mixed: return "mixed"
        case .timestamp: return "timestamp"
        case .float: return "float"
        case .double: return "double"
        case .decimal: return "decimal128"
        case .link: return "link"
        case .objectId: return "objectId"
        case .typedLink: return "typedLink"
        case .uuid: return "uuid"
        case .typeOfValue: return "@type"
        }
    }

    static func name(_ t: DataType?) -> String { t?.name ?? "null" }

    var isNumeric: Bool { [.int, .float, .double, .decimal].contains(self) }

    public static func < (a: DataType, b: DataType) -> Bool { a.rawValue < b.rawValue }

    /// The type of a column's values.
    init?(column type: ColumnType) {
        switch type {
        case .int: self = .int
        case .bool: self = .bool
        case .string: self = .string
        case .binary: self = .binary
        case .mixed: self = .mixed
        case .timestamp: self = .timestamp
        case .float: self = .float
        case .double: self = .double
        case .decimal: self = .decimal
        case .link, .linkList: self = .link
        case .objectId: self = .objectId
        case .typedLink: self = .typedLink
        case .uuid: self = .uuid
        case .backlink: return nil
        }
    }

    /// `Mixed::data_types_are_comparable`.
    static func comparable(_ a: DataType, _ b: DataType) -> Bool {
        a == b || (a.isNumeric && b.isNumeric) || a == .mixed || b == .mixed
    }
}

/// One value during evaluation (realm-core's `QueryValue`, a `Mixed` that can also hold an
/// `@type` set): a column value, a collection element, a constant or an argument.
public enum QValue: Sendable, Equatable {
    case null
    case int(Int64)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string([UInt8])
    case binary([UInt8])
    case timestamp(Timestamp)
    case decimal(Decimal128)
    case objectId(ObjectId)
    case uuid(UUID)
    /// A link within a known target table (a link column, an `O<key>`).
    case link(Int64)
    case typedLink(TableKey, Int64)
    /// A collection nested in a Mixed value (realm-core compares these by kind only).
    case list([Value])
    case dictionary([DictionaryEntry])
    /// The attribute bits of an `@type` value (TypeOfValue).
    case typeOfValue(Int64)

    public init(_ v: Value) {
        switch v {
        case .null: self = .null
        case let .int(i): self = .int(i)
        case let .bool(b): self = .bool(b)
        case let .float(f): self = .float(f)
        case let .double(d): self = .double(d)
        case let .string(s): self = .string(s)
        case let .binary(b): self = .binary(b)
        case let .timestamp(t): self = .timestamp(t)
        case let .decimal(d): self = .decimal(d)
        case let .objectId(o): self = .objectId(o)
        case let .uuid(u): self = .uuid(u)
        case let .link(k): self = k < 0 ? .null : .link(k)
        case let .typedLink(t, k): self = .typedLink(t, k)
        case let .list(l): self = .list(l)
        case let .dictionary(d): self = .dictionary(d)
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The value's type (`Mixed::get_type`); nil for null.
    var type: DataType? {
        switch self {
        case .null: return nil
        case .int: return .int
        case .bool: return .bool
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .binary: return .binary
        case .timestamp: return .timestamp
        case .decimal: return .decimal
        case .objectId: return .objectId
        case .uuid: return .uuid
        case .link: return .link
        case .typedLink: return .typedLink
        case .typeOfValue: return .typeOfValue
        case .list, .dictionary: return .mixed
        }
    }

    /// Numbers are one family: int, float, double and decimal compare with each other.
    var isNumeric: Bool {
        switch self {
        case .int, .float, .double, .decimal: return true
        default: return false
        }
    }

    /// Realm's ordering rank of a type (`sorting_rank` in mixed.cpp): null lowest, then bool,
    /// numbers, string, binary, timestamp, ObjectId, UUID, typed link, link, lists, dictionaries.
    var rank: Int {
        switch self {
        case .null: return -1
        case .bool: return 0
        case .int, .float, .double, .decimal: return 1
        case .string: return 2
        case .binary: return 3
        case .timestamp: return 4
        case .objectId: return 5
        case .uuid: return 6
        case .typedLink: return 7
        case .link, .typeOfValue: return 8
        case .list: return 9
        case .dictionary: return 11
        }
    }

    /// A type tag distinguishing values for `types_are_comparable`.
    private var typeTag: Int {
        switch self {
        case .null: return 0
        case .list: return 100
        case .dictionary: return 101
        default: return (type?.rawValue ?? -1) + 1
        }
    }

    /// `Mixed::types_are_comparable`: same type (not null), or both numeric.
    static func typesAreComparable(_ a: QValue, _ b: QValue) -> Bool {
        if a.typeTag == b.typeTag { return !a.isNull }
        if a.isNull || b.isNull { return false }
        return a.isNumeric && b.isNumeric
    }

    /// `Mixed::compare`: -1, 0 or 1, as `ValueOrder` (RealmFormat) orders values; only `@type`
    /// values, which no column holds, are ordered here (`TypeOfValue::matches`: equal when
    /// their attribute bits overlap; against other kinds by rank, beside links).
    public static func compare(_ a: QValue, _ b: QValue) -> Int {
        switch (a, b) {
        case let (.typeOfValue(x), .typeOfValue(y)): return x & y != 0 ? 0 : (x < y ? -1 : 1)
        case (.typeOfValue, _), (_, .typeOfValue):
            if a.isNull || b.isNull { return a.isNull ? -1 : 1 }
            return a.rank == b.rank ? (a.typeTag < b.typeTag ? -1 : 1) : (a.rank > b.rank ? 1 : -1)
        default:
            return ValueOrder.compare(a.orderedValue, b.orderedValue)
        }
    }

    /// The value `ValueOrder` orders (not for `@type` values).
    private var orderedValue: Value {
        switch self {
        case .null, .typeOfValue: return .null
        case let .int(i): return .int(i)
        case let .bool(b): return .bool(b)
        case let .float(f): return .float(f)
        case let .double(d): return .double(d)
        case let .string(s): return .string(s)
        case let .binary(b): return .binary(b)
        case let .timestamp(t): return .timestamp(t)
        case let .decimal(d): return .decimal(d)
        case let .objectId(o): return .objectId(o)
        case let .uuid(u): return .uuid(u)
        case let .link(k): return .link(k)
        case let .typedLink(t, k): return .typedLink(table: t, key: k)
        case let .list(l): return .list(l)
        case let .dictionary(d): return .dictionary(d)
        }
    }

    static func generic<T: Comparable>(_ a: T, _ b: T) -> Int { a == b ? 0 : (a < b ? -1 : 1) }

    // MARK: - Arithmetic (`Mixed::operator+` …): the result has the wider numeric type; null or a
    // non-number makes it null.

    static func arithmetic(_ op: ArithmeticOperator, _ a: QValue, _ b: QValue) -> QValue {
        guard let ta = a.type, let tb = b.type, ta.isNumeric, tb.isNumeric else { return .null }
        switch max(ta, tb) {
        case .int:
            guard case let .int(x) = a, case let .int(y) = b else { return .null }
            switch op {
            case .plus: return .int(x &+ y)
            case .minus: return .int(x &- y)
            case .times: return .int(x &* y)
            case .divide:
                if y == 0 { return .int(x < 0 ? Int64.min : Int64.max) }
                if x == Int64.min && y == -1 { return .int(Int64.min) }
                return .int(x / y)
            }
        case .float:
            let x = a.floatValue, y = b.floatValue
            switch op {
            case .plus: return .float(x + y)
            case .minus: return .float(x - y)
            case .times: return .float(x * y)
            case .divide: return .float(x / y)
            }
        case .double:
            let x = a.doubleValue, y = b.doubleValue
            switch op {
            case .plus: return .double(x + y)
            case .minus: return .double(x - y)
            case .times: return .double(x * y)
            case .divide: return .double(x / y)
            }
        default:
            let x = a.decimalValue, y = b.decimalValue
            switch op {
            case .plus: return .decimal(DecimalMath.add(x, y))
            case .minus: return .decimal(DecimalMath.subtract(x, y))
            case .times: return .decimal(DecimalMath.multiply(x, y))
            case .divide: return .decimal(DecimalMath.divide(x, y))
            }
        }
    }

    var floatValue: Float {
        switch self {
        case let .int(i): return Float(i)
        case let .float(f): return f
        default: return 0
        }
    }

    var doubleValue: Double {
        switch self {
        case let .int(i): return Double(i)
        case let .float(f): return Double(f)
        case let .double(d): return d
        default: return 0
        }
    }

    var decimalValue: Decimal128 {
        switch self {
        case let .int(i): return DecimalMath.from(i)
        case let .float(f): return DecimalMath.from(f)
        case let .double(d): return DecimalMath.from(d)
        case let .decimal(d): return d
        default: return DecimalMath.zero
        }
    }

    /// The bytes of a string or binary value.
    var bytesValue: [UInt8]? {
        switch self {
        case let .string(b), let .binary(b): return b
        default: return nil
        }
    }
}

/// The `@type` names and attribute bits (query-language.md §5.10, query_value.cpp).
enum TypeOfValue {
    static let null: Int64 = 0x1, int: Int64 = 0x2, double: Int64 = 0x4, float: Int64 = 0x8, bool: Int64 = 0x10
    static let timestamp: Int64 = 0x20, string: Int64 = 0x40, binary: Int64 = 0x80, uuid: Int64 = 0x100
    static let objectId: Int64 = 0x200, decimal: Int64 = 0x400, objectLink: Int64 = 0x800, object: Int64 = 0x1000
    static let array: Int64 = 0x2000

    static let names: [(String, Int64)] = [
        ("null", null), ("int", int), ("integer", int), ("int16", int), ("int32", int), ("int64", int),
        ("short", int), ("long", int), ("byte", int), ("char", int), ("bool", bool), ("boolean", bool),
        ("string", string), ("binary", binary), ("data", binary), ("bytearray", binary), ("byte[]", binary),
        ("date", timestamp), ("datetimeoffset", timestamp), ("timestamp", timestamp), ("float", float),
        ("double", double), ("decimal128", decimal), ("decimal", decimal), ("objectlink", objectLink),
        ("link", objectLink), ("objectid", objectId), ("uuid", uuid), ("guid", uuid),
        ("numeric", int | double | float | decimal), ("bindata", binary), ("object", object),
        ("dictionary", object), ("array", array), ("list", array), ("collection", array | object),
    ]

    /// The attributes named by `text` (case-insensitive), or the InvalidQueryArgError message.
    static func parse(_ text: [UInt8]) -> Result<Int64, QueryError> {
        let lower = String(decoding: text.map(Lexer.lower), as: UTF8.self)
        if let hit = names.first(where: { $0.0 == lower }) { return .success(hit.1) }
        let all = names.map(\.0).joined(separator: ", ")
        return .failure(.invalidArgument(message: "Unable to parse the type attribute string '\(String(decoding: text, as: UTF8.self))', supported case insensitive values are: [\(all)]", at: nil))
    }

    static func of(_ v: QValue) -> Int64 {
        switch v {
        case .null: return null
        case .int: return int
        case .bool: return bool
        case .string: return string
        case .binary: return binary
        case .timestamp: return timestamp
        case .float: return float
        case .double: return double
        case .decimal: return decimal
        case .link, .typedLink: return objectLink
        case .objectId: return objectId
        case .uuid: return uuid
        case .list: return array
        case .dictionary: return object
        case let .typeOfValue(t): return t
        }
    }

    static func of(_ t: DataType) -> Int64 {
        switch t {
        case .int: return int
        case .bool: return bool
        case .string: return string
        case .binary: return binary
        case .timestamp: return timestamp
        case .float: return float
        case .double: return double
        case .decimal: return decimal
        case .link, .typedLink: return objectLink
        case .objectId: return objectId
        case .uuid: return uuid
        case .mixed, .typeOfValue: return null
        }
    }

    static func name(_ bits: Int64) -> String {
        if let hit = names.first(where: { $0.1 == bits }) { return hit.0 }
        var parts = [String]()
        var bit: Int64 = 1
        while bit <= bits {
            if bits & bit != 0, let hit = names.first(where: { $0.1 == bit }) { parts.append(hit.0) }
            bit <<= 1
        }
        return parts.count == 1 ? parts[0] : "{" + parts.joined(separator: ", ") + "}"
    }
}
