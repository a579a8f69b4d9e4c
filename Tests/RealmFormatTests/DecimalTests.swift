@testable import RealmFormat
import XCTest

/// Decimal128 BID decoding and Realm's text form (realm-format.md §9.9, fixtures/README.md).
final class DecimalTests: XCTestCase {
    func bid(_ coefficient: UInt64, exponent: Int, negative: Bool = false) -> Decimal128 {
        let high = (negative ? UInt64(1) << 63 : 0) | UInt64(exponent + 6176) << 49
        return Decimal128(low: coefficient, high: high)
    }

    func testTextMovesThePointLeftWhileTheExponentAllows() {
        XCTAssertEqual(bid(15, exponent: -1).text, "1.5")
        XCTAssertEqual(bid(123_456, exponent: -3, negative: true).text, "-123.456")
        XCTAssertEqual(bid(1000, exponent: -3, negative: true).text, "-1.000")
        XCTAssertEqual(bid(1, exponent: 10).text, "1E10")
        XCTAssertEqual(bid(1, exponent: -6).text, "1E-6")
        XCTAssertEqual(bid(0, exponent: 0, negative: true).text, "-0")
    }

    func testSpecialsAndNarrowWidths() {
        XCTAssertEqual(Decimal128(low: 0, high: 0x7C00_0000_0000_0000).text, "NaN")
        XCTAssertEqual(Decimal128(low: 0, high: 0xF800_0000_0000_0000).text, "-Inf")
        // decimal32 with exponent 0 (biased 101) and coefficient 25.
        XCTAssertEqual(Decimal128(narrow: UInt64(101) << 23 | 25, bits: 32).text, "25")
        // decimal64 with exponent −2 (biased 396) and coefficient 314.
        XCTAssertEqual(Decimal128(narrow: UInt64(396) << 53 | 314, bits: 64).text, "3.14")
    }
}
