/// A decoded value of any column, collection element or Mixed (realm-format.md §9–§10).
/// Strings and binaries keep their raw bytes: a file may hold invalid UTF-8, and the dump
/// writes the bytes as they are.
public enum Value: Sendable, Equatable {
    case null
    case int(Int64)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string([UInt8])
    case binary([UInt8])
    case timestamp(Timestamp)
    // Boxed: Decimal128 is 48 bytes with 16-byte alignment and would triple the size of every
    // value (and of every decoded column array) for a type few columns have.
    indirect case decimal(Decimal128)
    case objectId(ObjectId)
    case uuid(UUID)
    /// A link by ObjKey (link columns, link lists/sets, or a bare Link in a Mixed).
    /// Negative keys are unresolved links to tombstones (§8.6).
    case link(Int64)
    case typedLink(table: TableKey, key: Int64)
    /// A list or set value, or a List nested in a Mixed (§10.5).
    case list([Value])
    /// A dictionary value, or a Dictionary nested in a Mixed; entries in stored order.
    case dictionary([DictionaryEntry])

    public var isNull: Bool { if case .null = self { return true } else { return false } }
    /// The same stored value: `==`, except that floats and doubles compare by their bits
    /// (−0.0 is not 0.0, a NaN is itself), also inside collections.
    public func isIdentical(to other: Value) -> Bool {
        switch (self, other) {
        case let (.float(x), .float(y)): return x.bitPattern == y.bitPattern
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.list(x), .list(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.isIdentical(to: $1) }
        case let (.dictionary(x), .dictionary(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key.isIdentical(to: $1.key) && $0.value.isIdentical(to: $1.value) }
        default: return self == other
        }
    }

    /// A list or dictionary (nested, in a Mixed).
    public var isCollection: Bool {
        switch self {
        case .list, .dictionary: return true
        default: return false
        }
    }
}

public struct DictionaryEntry: Sendable, Equatable {
    /// A string key (`.string`), or an int key for dictionaries with int keys.
    public let key: Value
    public let value: Value
    public init(key: Value, value: Value) {
        self.key = key
        self.value = value
    }
}

/// Seconds and nanoseconds since 1970-01-01 UTC, same sign (§9.7).
public struct Timestamp: Sendable, Hashable, Comparable {
    public let seconds: Int64
    public let nanoseconds: Int32
    public init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }
    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
}

/// 12 bytes in canonical order (§9.8).
public struct ObjectId: Sendable, Hashable, Comparable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
    public var hexString: String { hexBytes(bytes) }
    public static func < (a: ObjectId, b: ObjectId) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

/// 16 bytes in canonical order (§9.8).
public struct UUID: Sendable, Hashable, Comparable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase.
    public var uuidString: String {
        let h = hexBytes(bytes)
        let c = Array(h)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-"
            + String(c[16..<20]) + "-" + String(c[20..<32])
    }
    public static func < (a: UUID, b: UUID) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

func hexBytes(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for b in bytes {
        out.append(digits[Int(b >> 4)])
        out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
}
