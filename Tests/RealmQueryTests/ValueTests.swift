import RealmFormat
@testable import RealmQuery
import XCTest

/// Realm's value order (`Mixed::compare`, query-language.md §6.3), the comparison functors and
/// quantifiers (§5.2, §5.3), decimals (§5.5), and literal conversion (§1.7, §5.8).
final class ValueTests: XCTestCase {
    func s(_ text: String) -> QValue { .string(Array(text.utf8)) }

    func testStringsSortByRawBytes() {
        // The spec's Word table, sorted ascending (verified against Core 14.14).
        let expected = ["ABC", "I", "STRASSE", "Straße", "aBc", "abc", "e\u{301}", "i", "straße", "µ", "Ångström", "Ð", "×",
                        "åNGSTRÖM", "é", "ð", "÷", "ÿ", "İ", "Ÿ", "Σ", "μ", "σ"]
        let shuffled = expected.shuffled()
        let sorted = shuffled.sorted { QValue.compare(s($0), s($1)) < 0 }
        XCTAssertEqual(sorted, expected)
        XCTAssertLessThan(QValue.compare(s("Tan"), s("tan")), 0)
        XCTAssertLessThan(QValue.compare(s("ab"), s("abc")), 0, "a proper prefix is smaller")
    }

    func testMixedTypesSortByRank() {
        let oid = QValue.objectId(ObjectId(bytes: Array(repeating: 0, count: 12)))
        let uuid = QValue.uuid(UUID(bytes: Array(repeating: 0, count: 16)))
        let ordered: [QValue] = [.null, .bool(false), .bool(true), .double(-.infinity), .int(-1), .decimal(DecimalMath.from(Int64(0))),
                                 .float(0.5), .double(2.75), .int(42), s(""), s("42"), .binary([]), .binary([1]),
                                 .timestamp(Timestamp(seconds: -1, nanoseconds: -5)), .timestamp(Timestamp(seconds: 0, nanoseconds: 0)),
                                 oid, uuid, .typedLink(TableKey(value: 1), 0), .link(3), .list([]), .dictionary([])]
        for i in ordered.indices {
            for j in ordered.indices {
                let c = QValue.compare(ordered[i], ordered[j])
                XCTAssertEqual(c, i == j ? 0 : (i < j ? -1 : 1), "\(ordered[i]) vs \(ordered[j])")
            }
        }
    }

    func testNumbersCompareExactlyAcrossTypes() {
        XCTAssertEqual(QValue.compare(.int(1), .double(1.0)), 0)
        XCTAssertEqual(QValue.compare(.int(1), .float(1)), 0)
        XCTAssertEqual(QValue.compare(.int(1), .decimal(DecimalMath.parse(Array("1.000".utf8))!)), 0)
        let big: Int64 = 1 << 60
        XCTAssertEqual(QValue.compare(.int(big + 1), .double(Double(big))), 1, "no rounding through double")
        XCTAssertEqual(QValue.compare(.int(Int64.max), .double(9_223_372_036_854_775_808.0)), -1)
        XCTAssertEqual(QValue.compare(.int(Int64.min), .double(-.infinity)), 1)
        XCTAssertEqual(QValue.compare(.double(.nan), .double(-.infinity)), -1, "NaN below every number")
        XCTAssertEqual(QValue.compare(.double(.nan), .double(.nan)), 0)
        XCTAssertEqual(QValue.compare(.int(3), .double(2.75)), 1)
        XCTAssertEqual(QValue.compare(.decimal(DecimalMath.parse(Array("0.1".utf8))!), .double(0.1)), 0, "doubles meet decimals at 15 digits")
    }

    func testFunctorsOnNullAndMixedTypes() {
        XCTAssertTrue(Condition.equal.evaluate(.null, .null))
        XCTAssertFalse(Condition.equal.evaluate(.null, .int(1)))
        XCTAssertTrue(Condition.notEqual.evaluate(.null, .int(1)))
        XCTAssertFalse(Condition.greater.evaluate(.null, .null))
        XCTAssertTrue(Condition.greaterEqual.evaluate(.null, .null))
        XCTAssertFalse(Condition.lessEqual.evaluate(.int(1), .null))
        XCTAssertFalse(Condition.equal.evaluate(.int(42), s("42")), "a string never equals a number")
        XCTAssertFalse(Condition.equal.evaluate(.bool(true), .int(1)))
        XCTAssertFalse(Condition.greater.evaluate(s("b"), .int(1)), "incomparable values are not ordered")
        XCTAssertTrue(Condition.notEqual.evaluate(s("b"), .int(1)))
        XCTAssertTrue(Condition.equal.evaluate(.int(42), .double(42)))
        XCTAssertTrue(Condition.equal.evaluate(.double(.nan), .double(.nan)), "Mixed comparison: equal NaNs")
        // String operators take the pattern first.
        XCTAssertTrue(Condition.contains.evaluate(.null, s("x")), "every non-null string contains null")
        XCTAssertFalse(Condition.contains.evaluate(.null, .null))
        XCTAssertFalse(Condition.beginsWith.evaluate(.null, s("x")), "nothing begins with null on the expression path")
        XCTAssertTrue(Condition.like.evaluate(.null, .null))
        XCTAssertFalse(Condition.like.evaluate(s("*"), .null))
        XCTAssertTrue(Condition.containsIns.evaluate(s(""), s("x")))
        XCTAssertFalse(Condition.beginsWith.evaluate(s("a"), .binary(Array("abc".utf8))), "strings never match binaries")
        XCTAssertTrue(Condition.equalIns.evaluate(s("ÉMILE"), s("émile")))
        XCTAssertTrue(Condition.equalIns.evaluate(.int(1), .double(1)))
    }

    func list(_ v: [QValue]) -> Values { .list(v) }

    func testQuantifiersAndEmptyLists() {
        let eq = Condition.equal, gt = Condition.greater
        XCTAssertFalse(gt.matches(list([]), .single(.int(1)), leftQuantifier: nil, rightQuantifier: nil), "ANY over nothing")
        XCTAssertTrue(gt.matches(list([]), .single(.int(1)), leftQuantifier: .all, rightQuantifier: nil), "ALL over nothing")
        XCTAssertTrue(gt.matches(list([]), .single(.int(1)), leftQuantifier: Quantifier.none, rightQuantifier: nil), "NONE over nothing")
        XCTAssertTrue(gt.matches(list([.int(0), .int(5)]), .single(.int(1)), leftQuantifier: nil, rightQuantifier: nil))
        XCTAssertFalse(gt.matches(list([.int(0), .int(5)]), .single(.int(1)), leftQuantifier: .all, rightQuantifier: nil))
        XCTAssertFalse(gt.matches(list([.int(0), .int(5)]), .single(.int(1)), leftQuantifier: Quantifier.none, rightQuantifier: nil))
        // Scalar against a constant list: ANY by default, the list's own quantifier otherwise.
        XCTAssertTrue(Condition.notEqual.matches(.single(s("Alice")), list([s("Alice"), s("Bob")]), leftQuantifier: nil, rightQuantifier: nil))
        XCTAssertFalse(eq.matches(.single(s("Alice")), list([s("Alice"), s("Bob")]), leftQuantifier: nil, rightQuantifier: Quantifier.none))
        XCTAssertTrue(gt.matches(.single(.int(35)), list([.int(29), .int(34)]), leftQuantifier: nil, rightQuantifier: .all))
        XCTAssertFalse(eq.matches(.single(.int(1)), list([]), leftQuantifier: nil, rightQuantifier: nil), "{} never matches")
    }

    func testTwoUnquantifiedListsCompareElementWise() {
        let a = list([.int(90), .int(85), .int(77)])
        XCTAssertTrue(Condition.equal.matches(a, list([.int(90), .int(85), .int(77)]), leftQuantifier: nil, rightQuantifier: nil))
        XCTAssertFalse(Condition.equal.matches(a, list([.int(77), .int(85), .int(90)]), leftQuantifier: nil, rightQuantifier: nil))
        XCTAssertFalse(Condition.equal.matches(a, list([.int(90), .int(85)]), leftQuantifier: nil, rightQuantifier: nil))
        // != means "every position differs", or different lengths.
        XCTAssertTrue(Condition.notEqual.matches(a, list([.int(90), .int(85)]), leftQuantifier: nil, rightQuantifier: nil))
        XCTAssertFalse(Condition.notEqual.matches(a, list([.int(90), .int(84), .int(70)]), leftQuantifier: nil, rightQuantifier: nil))
        XCTAssertTrue(Condition.notEqual.matches(a, list([.int(91), .int(84), .int(70)]), leftQuantifier: nil, rightQuantifier: nil))
        // With a quantifier on one side it is set-like again.
        XCTAssertTrue(Condition.equal.matches(list([s("Rex"), s("Fido")]), list([s("Rex"), s("Max")]), leftQuantifier: .any, rightQuantifier: nil))
        // realm-core's merge shortcut for two lists of more than two values, reproduced as it
        // answers: ALL {1,1,1} == ANY {1,2,3} is false there.
        XCTAssertFalse(Condition.equal.matches(list([.int(1), .int(1), .int(1)]), list([.int(1), .int(2), .int(3)]), leftQuantifier: .all, rightQuantifier: .any))
        XCTAssertTrue(Condition.equal.matches(list([.int(3), .int(1), .int(2)]), list([.int(1), .int(2), .int(3)]), leftQuantifier: .all, rightQuantifier: .any))
    }

    func testDecimals() {
        func d(_ t: String) -> Decimal128 { DecimalMath.parse(Array(t.utf8))! }
        XCTAssertEqual(DecimalMath.compare(d("1050.25"), d("1050.250")), 0)
        XCTAssertEqual(DecimalMath.compare(d("1E10"), DecimalMath.from(Int64(10_000_000_000))), 0)
        XCTAssertEqual(DecimalMath.compare(d("-123.456"), DecimalMath.zero), -1)
        XCTAssertEqual(DecimalMath.compare(d("-0"), d("0")), 0)
        XCTAssertNil(DecimalMath.parse(Array("30abc".utf8)))
        XCTAssertEqual(DecimalMath.parse(Array("-inf".utf8))?.kind, .infinity)
        XCTAssertEqual(DecimalMath.compare(DecimalMath.from(1.0 / 3.0), d("0.333333333333333")), 0, "15 significant digits")
        XCTAssertEqual(DecimalMath.compare(DecimalMath.from(Float(0.1)), d("0.1")), 0, "7 significant digits")
        XCTAssertEqual(DecimalMath.compare(DecimalMath.add(d("1.5"), d("2.25")), d("3.75")), 0)
        XCTAssertEqual(DecimalMath.compare(DecimalMath.subtract(d("1"), d("0.001")), d("0.999")), 0)
        XCTAssertEqual(DecimalMath.compare(DecimalMath.multiply(d("-1.5"), d("4")), d("-6")), 0)
        XCTAssertEqual(DecimalMath.compare(DecimalMath.divide(d("10"), d("4")), d("2.5")), 0)
        XCTAssertEqual(DecimalMath.compare(DecimalMath.divide(d("1"), d("3")), d("0.3333333333333333333333333333333333")), 0)
        XCTAssertEqual(DecimalMath.compare(DecimalMath.nan, d("-1E6000")), -1, "NaN first")
        XCTAssertEqual(DecimalMath.compare(d("9999999999999999999999999999999999"), d("9999999999999999999999999999999998")), 1)
    }

    func testMixedAggregates() {
        XCTAssertEqual(Aggregate.mixed(.sum, [.int(42), s("42"), .double(3.5), .bool(true)]), .decimal(DecimalMath.parse(Array("45.5".utf8))!))
        XCTAssertEqual(Aggregate.mixed(.avg, [s("x")]), .null)
        XCTAssertEqual(Aggregate.mixed(.min, [.int(3), .bool(false), s("a")]), .bool(false), "any type, in Mixed order")
        XCTAssertEqual(Aggregate.compute(.sum, [], elementType: .int), .int(0))
        XCTAssertEqual(Aggregate.compute(.avg, [], elementType: .int), .null)
        XCTAssertEqual(Aggregate.compute(.max, [], elementType: .double), .null)
        XCTAssertEqual(Aggregate.compute(.sum, [.int(Int64.max), .int(1)], elementType: .int), .int(Int64.min), "int sums wrap")
        XCTAssertEqual(Aggregate.compute(.avg, [.double(1), .double(.nan), .double(2)], elementType: .double), .double(1.5), "NaN skipped")
    }

    func timestamp(_ text: String) throws -> Timestamp {
        try TypeChecker.timestamp(ConstantNode(kind: .timestamp, text: Array(text.utf8), range: SourceRange(0, text.utf8.count)))
    }

    func testTimestampLiterals() throws {
        XCTAssertEqual(try timestamp("1994-02-43@10:00:00"), Timestamp(seconds: 763_725_600, nanoseconds: 0), "Feb 43 is Mar 15")
        XCTAssertEqual(try timestamp("2001-01-01@0:0:0:5"), Timestamp(seconds: 978_307_200, nanoseconds: 5))
        XCTAssertEqual(try timestamp("2017-12-1T1:2:3"), Timestamp(seconds: 1_512_090_123, nanoseconds: 0))
        XCTAssertEqual(try timestamp("1969-12-31@23:59:59:5"), Timestamp(seconds: -1, nanoseconds: -5), "nanoseconds take the sign of the seconds")
        // realm-core converts readable dates through a 32-bit time.
        XCTAssertEqual(try timestamp("2100-01-01@00:00:00"), Timestamp(seconds: -192_522_496, nanoseconds: 0))
        XCTAssertEqual(try timestamp("1900-01-01@00:00:00"), Timestamp(seconds: 2_085_978_496, nanoseconds: 0))
        XCTAssertEqual(try timestamp("T1512130073:505"), Timestamp(seconds: 1_512_130_073, nanoseconds: 505))
        XCTAssertEqual(try timestamp("T-1:-500000000"), Timestamp(seconds: -1, nanoseconds: -500_000_000))
        XCTAssertThrowsError(try timestamp("T1:-1")) { XCTAssertEqual(($0 as? QueryError)?.message, "Invalid timestamp format") }
        XCTAssertThrowsError(try timestamp("1800-01-01@0:0:0")) {
            XCTAssertEqual(($0 as? QueryError)?.message, "Conversion of dates before 1900 is not supported.")
        }
    }

    func testCommandLineLiterals() {
        XCTAssertEqual(QueryArgument.literal("42"), .int(42))
        XCTAssertEqual(QueryArgument.literal("-1.5"), .double(-1.5))
        XCTAssertEqual(QueryArgument.literal("010"), .int(8), "octal, as in queries")
        XCTAssertEqual(QueryArgument.literal("'Fido'"), .string("Fido"))
        XCTAssertEqual(QueryArgument.literal("Fido"), .string("Fido"))
        XCTAssertEqual(QueryArgument.literal("1 + 1"), .string("1 + 1"))
        XCTAssertEqual(QueryArgument.literal("$0"), .string("$0"))
        XCTAssertEqual(QueryArgument.literal("null"), .null)
        XCTAssertEqual(QueryArgument.literal("TRUE"), .bool(true))
        XCTAssertEqual(QueryArgument.literal("2020-01-01@00:00:00"), .value(.timestamp(Timestamp(seconds: 1_577_836_800, nanoseconds: 0))))
        XCTAssertEqual(QueryArgument.literal("oid(5f1a2b3c4d5e6f7a8b9c0d1e)"),
                       .value(.objectId(ObjectId(bytes: [0x5f, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x7a, 0x8b, 0x9c, 0x0d, 0x1e]))))
        XCTAssertEqual(QueryArgument.literal("B64\"QWxpY2U=\""), .string("Alice"))
        XCTAssertEqual(QueryArgument.literal("B64\"!!\""), .string("B64\"!!\""))
    }

    func testBase64AsRealmDecodesIt() {
        XCTAssertEqual(Base64.decode(Array("QWxpY2U=".utf8)), Array("Alice".utf8))
        XCTAssertEqual(Base64.decode(Array("QWxpY2U".utf8)), Array("Alice".utf8), "padding may be omitted")
        XCTAssertNil(Base64.decode(Array("QQ==QQ".utf8)), "nothing after padding")
        XCTAssertNil(Base64.decode(Array("Q".utf8)))
        XCTAssertEqual(Base64.decode(Array("iVBORw==".utf8)), [0x89, 0x50, 0x4E, 0x47])
    }
}
