/// Realm's ordering of values (realm-format.md §10.2, `Mixed::compare`): null first, then by
/// rank, then by value within the rank. Numbers compare across int, float, double and decimal.
public enum ValueOrder {
    /// Bool 0; numbers 1; String 2; Binary 3; Timestamp 4; ObjectId 5; UUID 6; TypedLink 7;
    /// Link 8; List 9; Dictionary 11.
    public static func rank(_ v: Value) -> Int {
        switch v {
        case .null: return -1
        case .bool: return 0
        case .int, .float, .double, .decimal: return 1
        case .string: return 2
        case .binary: return 3
        case .timestamp: return 4
        case .objectId: return 5
        case .uuid: return 6
        case .typedLink: return 7
        case .link: return 8
        case .list: return 9
        case .dictionary: return 11
        }
    }

    /// -1, 0 or 1.
    public static func compare(_ a: Value, _ b: Value) -> Int {
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case let (.bool(x), .bool(y)): return x == y ? 0 : (!x ? -1 : 1)
        case let (.int(x), .int(y)): return x == y ? 0 : (x < y ? -1 : 1)
        case let (.string(x), .string(y)), let (.binary(x), .binary(y)): return bytes(x, y)
        case let (.timestamp(x), .timestamp(y)): return x == y ? 0 : (x < y ? -1 : 1)
        case let (.objectId(x), .objectId(y)): return bytes(x.bytes, y.bytes)
        case let (.uuid(x), .uuid(y)): return bytes(x.bytes, y.bytes)
        case let (.typedLink(t1, k1), .typedLink(t2, k2)):
            if t1 != t2 { return t1.value < t2.value ? -1 : 1 }
            return k1 == k2 ? 0 : (k1 < k2 ? -1 : 1)
        case let (.link(x), .link(y)): return x == y ? 0 : (x < y ? -1 : 1)
        default:
            if ra == 1 { return numbers(a, b) }
            return 0
        }
    }

    static func bytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        if x == y { return 0 }
        return x.lexicographicallyPrecedes(y) ? -1 : 1
    }

    /// Numeric comparison across types; NaN sorts below every number.
    static func numbers(_ a: Value, _ b: Value) -> Int {
        if case let .int(x) = a, case let .int(y) = b { return x == y ? 0 : (x < y ? -1 : 1) }
        let x = double(a), y = double(b)
        if x.isNaN || y.isNaN { return x.isNaN == y.isNaN ? 0 : (x.isNaN ? -1 : 1) }
        // Int vs double: compare exactly when the double is integral and in range.
        if case let .int(i) = a, y.rounded() == y, abs(y) < 9.2e18 {
            let j = Int64(y)
            return i == j ? 0 : (i < j ? -1 : 1)
        }
        if case let .int(j) = b, x.rounded() == x, abs(x) < 9.2e18 {
            let i = Int64(x)
            return i == j ? 0 : (i < j ? -1 : 1)
        }
        return x == y ? 0 : (x < y ? -1 : 1)
    }

    static func double(_ v: Value) -> Double {
        switch v {
        case let .int(i): return Double(i)
        case let .float(f): return Double(f)
        case let .double(d): return d
        case let .decimal(d): return d.doubleValue
        default: return .nan
        }
    }
}
