/// Realm's ordering of values: realm-core 14's `Mixed::compare` (src/realm/mixed.cpp),
/// which set order, search-index equality, SORT, min/max and query comparisons all follow
/// (realm-format.md §10.2). The one implementation: RealmQuery's `QValue.compare` delegates
/// here. Pinned by ValueOrderTests against the order worked out from realm-core's source.
///
/// - null first; values of different kinds by rank (`sorting_rank`): bool, numbers, string,
///   binary, timestamp, ObjectId, UUID, typed link, link, list, dictionary.
/// - Numbers compare across int, float, double and decimal by value: int with float or double
///   exactly (`compare_long_to_double`: ints beyond ±2^53 are not rounded to a double, doubles
///   at or beyond ±2^63 are beyond every int), float with double as doubles, anything with a
///   decimal as decimals (`Decimal128(double)` keeps 15 significant digits, of a float 7).
/// - NaN is below every other number; two float or double NaNs compare by bit pattern
///   (`compare_float`), two decimal NaNs by sign (positive first, as by their high word; the
///   decoder keeps no payload); −0 equals +0.
/// - Strings and binaries byte by byte as unsigned bytes, a proper prefix first (memcmp;
///   invalid UTF-8 is just bytes); ObjectId and UUID by bytes; timestamps by seconds, then
///   nanoseconds; typed links by table key, then object key; lists equal to lists and
///   dictionaries to dictionaries (realm-core compares nested collections by kind only).
public enum ValueOrder {
    /// `sorting_rank` of mixed.cpp; -1 for null.
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
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case let (.bool(x), .bool(y)): return x == y ? 0 : (x ? 1 : -1)
        case let (.int(x), .int(y)): return generic(x, y)
        case let (.int(x), .float(y)): return compareLongToDouble(x, Double(y))
        case let (.int(x), .double(y)): return compareLongToDouble(x, y)
        case let (.int(x), .decimal(y)): return DecimalMath.compare(DecimalMath.from(x), y)
        case let (.float(x), .int(y)): return -compareLongToDouble(y, Double(x))
        case let (.float(x), .float(y)): return compareFloat(x, y)
        case let (.float(x), .double(y)): return compareFloat(Double(x), y)
        case let (.float(x), .decimal(y)): return DecimalMath.compare(DecimalMath.from(x), y)
        case let (.double(x), .int(y)): return -compareLongToDouble(y, x)
        case let (.double(x), .float(y)): return compareFloat(x, Double(y))
        case let (.double(x), .double(y)): return compareFloat(x, y)
        case let (.double(x), .decimal(y)): return DecimalMath.compare(DecimalMath.from(x), y)
        case let (.decimal(x), .int(y)): return DecimalMath.compare(x, DecimalMath.from(y))
        case let (.decimal(x), .float(y)): return DecimalMath.compare(x, DecimalMath.from(y))
        case let (.decimal(x), .double(y)): return DecimalMath.compare(x, DecimalMath.from(y))
        case let (.decimal(x), .decimal(y)): return DecimalMath.compare(x, y)
        case let (.string(x), .string(y)), let (.binary(x), .binary(y)): return bytes(x, y)
        case let (.timestamp(x), .timestamp(y)): return generic(x, y)
        case let (.objectId(x), .objectId(y)): return bytes(x.bytes, y.bytes)
        case let (.uuid(x), .uuid(y)): return bytes(x.bytes, y.bytes)
        case let (.link(x), .link(y)): return generic(x, y)
        case let (.typedLink(t1, k1), .typedLink(t2, k2)): return t1 == t2 ? generic(k1, k2) : generic(t1.value, t2.value)
        case (.list, .list), (.dictionary, .dictionary): return 0
        default:
            // Different kinds (every pair of numbers is handled above, so ranks differ).
            return generic(rank(a), rank(b))
        }
    }

    @inline(__always)
    static func generic<T: Comparable>(_ a: T, _ b: T) -> Int { a == b ? 0 : (a < b ? -1 : 1) }

    /// Unsigned byte-wise order; a proper prefix is smaller (memcmp, then the length).
    public static func bytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let n = min(a.count, b.count)
        for i in 0..<n where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
        return generic(a.count, b.count)
    }

    /// `compare_float`: NaNs below all other values, two NaNs by bit pattern.
    public static func compareFloat(_ a: Double, _ b: Double) -> Int {
        if !a.isNaN && !b.isNaN { return a == b ? 0 : (a < b ? -1 : 1) }
        if a.isNaN && b.isNaN { return generic(a.bitPattern, b.bitPattern) }
        return a.isNaN ? -1 : 1
    }

    public static func compareFloat(_ a: Float, _ b: Float) -> Int {
        if !a.isNaN && !b.isNaN { return a == b ? 0 : (a < b ? -1 : 1) }
        if a.isNaN && b.isNaN { return generic(a.bitPattern, b.bitPattern) }
        return a.isNaN ? -1 : 1
    }

    /// `compare_long_to_double`: exact. Ints of magnitude ≤ 2^53 are exact as doubles; beyond,
    /// a double has no fraction, and one at or past ±2^63 lies beyond every int.
    public static func compareLongToDouble(_ lhs: Int64, _ rhs: Double) -> Int {
        if rhs.isNaN { return 1 }
        let precise: Int64 = 1 << 53
        if lhs <= precise && lhs >= -precise { return compareFloat(Double(lhs), rhs) }
        let bound = 9_223_372_036_854_775_808.0     // 2^63
        if rhs >= bound { return -1 }
        if rhs < -bound { return 1 }
        return generic(lhs, Int64(rhs))
    }
}
