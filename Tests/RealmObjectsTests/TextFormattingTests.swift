@testable import RealmFormat
@testable import RealmObjects
import XCTest

/// Number, date and base64 text exactly as the canonical dump writes them (fixtures/README.md).
final class TextFormattingTests: XCTestCase {
    func testDoublesUseShortestDigitsInECMAScriptLayoutWithDotZero() {
        let cases: [(Double, String)] = [(1, "1.0"), (-0.0, "-0.0"), (0, "0.0"), (0.1, "0.1"), (1e21, "1e+21"),
                                         (1e20, "100000000000000000000.0"), (.leastNonzeroMagnitude, "5e-324"), (-1e-7, "-1e-7"),
                                         (1.5e-6, "0.0000015"), (123.456, "123.456"), (.greatestFiniteMagnitude, "1.7976931348623157e+308")]
        for (value, text) in cases { XCTAssertEqual(NumberText.double(value), text, "\(value)") }
        XCTAssertNil(NumberText.double(.nan))
        XCTAssertEqual(NumberText.nonFinite(-.infinity), "-Infinity")
    }

    func testFloatsUseTheShortestDigitsOfTheThirtyTwoBitValue() {
        XCTAssertEqual(NumberText.float(.greatestFiniteMagnitude), "3.4028235e+38")
        XCTAssertEqual(NumberText.float(0.1), "0.1")
        XCTAssertEqual(NumberText.float(3.14159), "3.14159")
    }

    /// `appendShortest` copies Swift's positional text as it is; `layout` (the general path)
    /// must give the same bytes for every such text, and both the same for exponent forms:
    /// random bit patterns (every exponent), decimals of a few digits from 1e-7 to 1e22, the
    /// edges where Swift and ECMAScript switch to exponents, for doubles and floats.
    func testCopiedPositionalTextIsWhatTheLayoutGives() {
        var rng = SystemRandomNumberGenerator()
        var doubles: [Double] = [1e-4, 1e-5, 9.999e-5, 0.1, 0.5, 1.5, 2.5e15, 1e16, 1e16 + 2, 9_007_199_254_740_993, 1.0000000000000002,
                                 123_456_789_012_345_680, 1e21, 1e22, 4.35, 69.503, .leastNormalMagnitude, .greatestFiniteMagnitude]
        for _ in 0..<20_000 { doubles.append(Double(bitPattern: rng.next()).magnitude) }
        for _ in 0..<20_000 {
            let scale = [1e-7, 1e-4, 1e-2, 1, 1e3, 1e8, 1e14, 1e16, 1e18, 1e21].randomElement(using: &rng)!
            doubles.append(Double(Int.random(in: 1...99_999, using: &rng)) / 1000 * scale)
        }
        var checked = 0
        for d in doubles where d.isFinite {
            var copied = [UInt8](), laidOut = [UInt8]()
            NumberText.appendShortest(d.description, to: &copied)
            NumberText.layout(shortest: d.description.utf8, to: &laidOut)
            XCTAssertEqual(copied, laidOut, "\(d)")
            let f = Float(d)
            guard f.isFinite else { continue }
            copied = []
            laidOut = []
            NumberText.appendShortest(f.description, to: &copied)
            NumberText.layout(shortest: f.description.utf8, to: &laidOut)
            XCTAssertEqual(copied, laidOut, "\(f)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20_000)
    }

    /// `appendFewDecimals` (doubles that are short decimals, written without `description`)
    /// gives what the general path gives, or declines: decimals of 1–16 digits with 0–17
    /// decimals, their neighbours one ulp away, the range's edges, random bit patterns; and it
    /// takes the common case (values stored from decimals) rather than declining it.
    func testShortDecimalsGiveTheGeneralPathsText() {
        var rng = SystemRandomNumberGenerator()
        var doubles: [Double] = [0.001, 0.000999, 0.0015, 1e15, 999_999_999_999_999.9, 99_999_999_999_999.9, 0.1, 0.2, 0.3,
                                 0.1 + 0.2, 1.005, 2.675, 123.456, 5e-324, 1.7976931348623157e308, 4.35, 69.503, 0.5, 33.333]
        for _ in 0..<40_000 {
            let digits = Int.random(in: 1...16, using: &rng), decimals = Int.random(in: 0...17, using: &rng)
            let n = Double(UInt64.random(in: 1...UInt64(pow(10.0, Double(digits))), using: &rng))
            let d = n / pow(10.0, Double(decimals))
            doubles += [d, d.nextUp, d.nextDown]
        }
        for _ in 0..<20_000 { doubles.append(Double(bitPattern: rng.next()).magnitude) }
        var taken = 0
        for d in doubles where d.isFinite && d.rounded(.towardZero) != d {
            var fast = [UInt8](), general = [UInt8]()
            NumberText.appendShortest(d.description, to: &general)
            if NumberText.appendFewDecimals(d, to: &fast) {
                taken += 1
                XCTAssertEqual(String(decoding: fast, as: UTF8.self), String(decoding: general, as: UTF8.self), "\(d)")
            } else {
                XCTAssertTrue(fast.isEmpty, "declined \(d) but wrote \(fast)")
            }
        }
        XCTAssertGreaterThan(taken, 20_000)
        for i in 1..<100_000 where i % 1000 != 0 {    // the benchmark's scores: n / 1000
            var fast = [UInt8]()
            XCTAssertTrue(NumberText.appendFewDecimals(Double(i) / 1000, to: &fast), "\(Double(i) / 1000) declined")
        }
    }

    /// `appendInt` / `appendDigits` (digits written back to front in place) give Swift's own
    /// decimal text, after bytes already in the buffer: the ends of Int64 and UInt64, each
    /// power of ten and its neighbours, random values.
    func testIntegerDigitsAreSwiftsDecimalText() {
        var ints: [Int64] = [0, 1, -1, 9, 10, -10, .max, .min, .max - 1, .min + 1]
        var p: Int64 = 1
        for _ in 0..<18 {
            p *= 10
            ints += [p - 1, p, p + 1, -p]
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5_000 { ints.append(Int64(bitPattern: rng.next()) >> Int64.random(in: 0...63, using: &rng)) }
        for v in ints {
            var out: [UInt8] = [UInt8(ascii: "x")]
            NumberText.appendInt(v, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "x" + String(v))
        }
        var out = [UInt8]()
        NumberText.appendDigits(.max, to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), String(UInt64.max))
    }

    func testDatesAreUTCWithTrimmedNanoseconds() {
        XCTAssertEqual(DateText.iso8601(Timestamp(seconds: -1, nanoseconds: -500_000_000)), "1969-12-31T23:59:58.5Z")
        XCTAssertEqual(DateText.iso8601(Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999)), "9999-12-31T23:59:59.999999999Z")
        XCTAssertEqual(DateText.iso8601(Timestamp(seconds: -62_135_596_800, nanoseconds: 0)), "0001-01-01T00:00:00Z")
        XCTAssertEqual(DateText.days(year: 2020, month: 2, day: 29), 18_321)
        XCTAssertTrue(DateText.civil(fromDays: 18_321) == (2020, 2, 29))
    }

    func testBase64Padding() {
        XCTAssertEqual(Base64.encode([]), "")
        XCTAssertEqual(Base64.encode(Array("f".utf8)), "Zg==")
        XCTAssertEqual(Base64.encode(Array("fo".utf8)), "Zm8=")
        XCTAssertEqual(Base64.encode(Array("foobar".utf8)), "Zm9vYmFy")
    }

    func testEmitterMatchesJSONStringifyLayout() {
        let sink = MemorySink()
        var out = JSONEmitter(sink: sink)
        out.beginObject()
        out.key("a"); out.beginArray(); out.end()
        out.key("b"); out.beginObject(); out.end()
        out.key("c"); out.beginArray(); out.int(1); out.string(bytes: [0x22, 0x5C, 0x09, 0x01, 0xC3, 0xA9]); out.end()
        out.end()
        out.flush()
        XCTAssertEqual(sink.text, "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    \"\\\"\\\\\\t\\u0001é\"\n  ]\n}")
    }
}
