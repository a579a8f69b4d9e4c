@testable import RealmFormat
import RealmQuery
import XCTest

/// Realm's value order has one implementation, `ValueOrder.compare` (RealmFormat), which the
/// query engine's `QValue.compare` delegates to. The expected results are realm-core 14's
/// `Mixed::compare` (src/realm/mixed.cpp: `compare_long_to_double`, `compare_float`,
/// `Decimal128::compare`, `sorting_rank`), worked out case by case from that source. Where
/// the old RealmFormat order differed (int vs double near 2^63, decimals through doubles,
/// NaN bit patterns), the case says so.
final class ValueOrderTests: XCTestCase {
    static func dec(_ text: String) -> Value { .decimal(DecimalMath.parse(Array(text.utf8))!) }
    static let decimalNaN = Value.decimal(Decimal128(kind: .nan, negative: false, coefficient: 0, exponent: 0))
    static let negativeDecimalNaN = Value.decimal(Decimal128(kind: .nan, negative: true, coefficient: 0, exponent: 0))
    static let negativeNaN = Double(bitPattern: 0xFFF8_0000_0000_0000)
    static let payloadNaN = Double(bitPattern: 0x7FF8_0000_0000_0001)
    /// 1.5 stored in a decimal32, a decimal64 and a decimal128 leaf (realm-format.md §9.9).
    static let narrow32 = Value.decimal(Decimal128(narrow: 100 << 23 | 15, bits: 32))
    static let narrow64 = Value.decimal(Decimal128(narrow: 397 << 53 | 15, bits: 64))
    static let wide = Value.decimal(Decimal128(negative: false, coefficient: 150, exponent: -2))
    static let twoTo53: Int64 = 1 << 53

    /// (a, b, realm-core's compare(a, b)).
    static let pinned: [(Value, Value, Int, String)] = [
        (.null, .null, 0, "null equals null"),
        (.null, .bool(false), -1, "null first"),
        (.bool(false), .bool(true), -1, "false < true"),
        (.bool(true), .int(Int64.min), -1, "bools rank below numbers"),
        // ±0
        (.int(0), .double(-0.0), 0, "-0.0 is 0"),
        (.double(0.0), .double(-0.0), 0, "IEEE: +0 == -0"),
        (.float(-0.0), dec("0"), 0, "-0 float equals decimal 0"),
        (dec("-0"), dec("0E5"), 0, "decimal zeros of any sign and exponent"),
        // NaN
        (.double(.nan), .double(-.infinity), -1, "NaN below every number"),
        (.double(.nan), .int(Int64.min), -1, "every int is above NaN"),
        (.float(.nan), .double(.nan), 0, "a float NaN widened has the double NaN's bits"),
        (.double(.nan), .double(negativeNaN), -1, "two NaNs by bit pattern (unsigned): the sign bit is high"),
        (.double(payloadNaN), .double(.nan), 1, "two NaNs by bit pattern: payload (the old order said 0)"),
        (decimalNaN, dec("-Inf"), -1, "a decimal NaN below every number"),
        (decimalNaN, .double(.nan), 0, "a double NaN converts to the decimal NaN"),
        (decimalNaN, negativeDecimalNaN, -1, "decimal NaNs by their high word: positive first"),
        (negativeDecimalNaN, .double(negativeNaN), 0, "a negative double NaN converts to a negative decimal NaN"),
        (.int(0), decimalNaN, 1, "ints above a decimal NaN"),
        // infinities
        (.double(.infinity), .float(.infinity), 0, "+inf of either width"),
        (dec("Inf"), .double(.infinity), 0, "decimal Inf is double inf"),
        (.int(Int64.max), .double(.infinity), -1, "every int below +inf"),
        (.double(-.infinity), .int(Int64.min), -1, "every int above -inf"),
        // ints near 2^53 (exact as doubles up to it, beyond not rounded through a double)
        (.int(twoTo53), .double(Double(twoTo53)), 0, "2^53 is exact"),
        (.int(twoTo53 + 1), .double(Double(twoTo53)), 1, "2^53 + 1 is not rounded to 2^53"),
        (.int(twoTo53 + 1), .double(Double(twoTo53 + 2)), -1, "2^53 + 2 is a double"),
        (.int(-twoTo53 - 1), .double(-Double(twoTo53)), -1, "negative side"),
        (.float(16_777_216), .int(16_777_217), -1, "2^24 + 1 has no float: the int is above 2^24"),
        // ints near 2^63
        (.int(Int64.max), .double(9_223_372_036_854_775_808.0), -1, "2^63 is beyond every int (the old order said 0)"),
        (.int(Int64.max), .double(9_223_372_036_854_774_784.0), 1, "the largest double below 2^63 is an int"),
        (.int(Int64.min), .double(-9_223_372_036_854_775_808.0), 0, "-2^63 is Int64.min"),
        (.int(9_200_000_000_000_000_001), .double(9.2e18), 1, "exact above 2^53 (the old order said 0)"),
        (.int(Int64.max), dec("9223372036854775806"), 1, "ints against decimals exactly (the old order said 0)"),
        (.int(Int64.min), dec("-9223372036854775808"), 0, "Int64.min as a decimal"),
        // decimals of every width, and against binary floating point
        (narrow32, wide, 0, "1.5 from a decimal32 leaf equals 1.50 from a decimal128"),
        (narrow64, narrow32, 0, "decimal64 and decimal32"),
        (narrow64, .double(1.5), 0, "a decimal against a double"),
        (dec("0.1"), .double(0.1), 0, "a double meets a decimal at 15 significant digits"),
        (dec("0.30000000000000004"), .double(0.1 + 0.2), 1, "… so a decimal with more digits is above it (the old order said 0)"),
        (dec("0.1"), .float(0.1), 0, "a float meets a decimal at 7 digits (the old order said -1)"),
        (dec("1E6111"), .double(.infinity), -1, "the largest decimals are below +inf"),
        (dec("-1E-6176"), .int(0), -1, "the smallest negative decimal is below 0"),
        // strings and binaries: unsigned bytes, a prefix first; invalid UTF-8 is just bytes
        (.string(Array("a".utf8)), .string(Array("b".utf8)), -1, "byte order"),
        (.string(Array("a".utf8)), .string(Array("ab".utf8)), -1, "a proper prefix first"),
        (.string([0xFF]), .string([0x7F]), 1, "bytes are unsigned"),
        (.string([0xC3]), .string([0xC3, 0xA9]), -1, "a truncated sequence is a prefix"),
        (.string([0xC3, 0xA9]), .string([0xFF, 0xFE]), -1, "é below invalid bytes"),
        (.string(Array("Tan".utf8)), .string(Array("tan".utf8)), -1, "case: uppercase first"),
        (.binary([0x00]), .binary([]), 1, "binaries by bytes too"),
        // Mixed of mixed types: by rank
        (.string(Array("1".utf8)), .int(1), 1, "strings rank above numbers"),
        (.int(5), .bool(true), 1, "numbers above bools"),
        (.string([]), .binary([]), -1, "string below binary"),
        (.binary([0xFF]), .timestamp(Timestamp(seconds: Int64.min, nanoseconds: 0)), -1, "binary below timestamp"),
        (.timestamp(Timestamp(seconds: 1, nanoseconds: 0)), .timestamp(Timestamp(seconds: 0, nanoseconds: 999_999_999)), 1, "seconds first"),
        (.timestamp(Timestamp(seconds: -1, nanoseconds: -5)), .timestamp(Timestamp(seconds: -1, nanoseconds: 0)), -1, "then nanoseconds"),
        (.timestamp(Timestamp(seconds: Int64.max, nanoseconds: 0)), .objectId(ObjectId(bytes: [UInt8](repeating: 0, count: 12))), -1, "timestamp below ObjectId"),
        (.objectId(ObjectId(bytes: [UInt8](repeating: 0xFF, count: 12))), .uuid(UUID(bytes: [UInt8](repeating: 0, count: 16))), -1, "ObjectId below UUID"),
        (.uuid(UUID(bytes: [UInt8](repeating: 0xFF, count: 16))), .typedLink(table: TableKey(value: 0), key: 0), -1, "UUID below typed link"),
        (.typedLink(table: TableKey(value: 1), key: 9), .typedLink(table: TableKey(value: 2), key: 0), -1, "typed links by table first"),
        (.typedLink(table: TableKey(value: 9), key: 9), .link(0), -1, "typed link below link"),
        (.link(Int64.max), .list([]), -1, "link below list"),
        (.list([.int(1)]), .list([.int(2)]), 0, "lists equal lists (compared by kind)"),
        (.list([]), .dictionary([]), -1, "list below dictionary"),
        (.dictionary([DictionaryEntry(key: .string([97]), value: .int(1))]), .dictionary([]), 0, "dictionaries equal dictionaries"),
    ]

    func testValueOrderIsRealmCoresMixedCompare() {
        for (a, b, expected, why) in Self.pinned {
            XCTAssertEqual(ValueOrder.compare(a, b), expected, "compare(\(a), \(b)): \(why)")
            XCTAssertEqual(ValueOrder.compare(b, a), -expected, "compare(\(b), \(a)): \(why), reversed")
        }
    }

    /// The query engine orders every pair as ValueOrder does: both call sites, one order.
    func testTheQueryEngineOrdersEveryPairAsValueOrderDoes() {
        var corpus = Self.pinned.flatMap { [$0.0, $0.1] }
        corpus += [.float(.nan), .float(-1.5), .double(-1.5), Self.dec("-1.5"), .int(-1), .float(Float.greatestFiniteMagnitude),
                   .double(Double.greatestFiniteMagnitude), .double(Double.leastNonzeroMagnitude), Self.dec("1E-400")]
        for a in corpus {
            for b in corpus {
                XCTAssertEqual(QValue.compare(QValue(a), QValue(b)), ValueOrder.compare(a, b), "\(a) vs \(b)")
            }
        }
    }
}
