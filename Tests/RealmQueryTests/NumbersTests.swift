@testable import RealmQuery
import XCTest

/// `Numbers.strtoll` reads plain decimal literals directly (`plainDecimal`); every text must
/// give what the full C `strtoll(text, nullptr, 0)` reading gives (`strtollInFull`).
final class NumbersTests: XCTestCase {
    func testPlainDecimalsReadAsTheFullStrtoll() {
        var texts = [String]()
        // Every digit string of 1 to 3 digits, leading zeros (octal) included.
        for n in 0..<10 { texts.append("\(n)") }
        for n in 0..<100 { texts.append(String(n).count == 1 ? "0\(n)" : "\(n)") }
        for n in 0..<1000 { texts.append(String(repeating: "0", count: 3 - String(n).count) + "\(n)") }
        // Around the 18-digit limit of the direct reading and Int64's range.
        texts += ["99999999999999999", "999999999999999999", "1000000000000000000", "9999999999999999999",
                  "9223372036854775807", "9223372036854775808", "99999999999999999999999", "123456789012345678"]
        // What is not a plain decimal.
        texts += ["", " 5", "+5", "-5", "-0", "0x1f", "0X1F", "0x", "12a", "1 2", "089", "0777", "5f", "１２"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let length = Int.random(in: 1...22, using: &generator)
            texts.append(String((0..<length).map { _ in "0123456789".randomElement(using: &generator)! }))
        }
        for t in texts {
            let bytes = Array(t.utf8)
            XCTAssertEqual(Numbers.strtoll(bytes), Numbers.strtollInFull(bytes), "'\(t)'")
        }
        XCTAssertEqual(Numbers.strtoll(Array("42".utf8)), 42)
        XCTAssertEqual(Numbers.strtoll(Array("010".utf8)), 8)
        XCTAssertEqual(Numbers.strtoll(Array("999999999999999999".utf8)), 999_999_999_999_999_999)
        XCTAssertEqual(Numbers.strtoll(Array("9223372036854775808".utf8)), Int64.max)
        XCTAssertNil(Numbers.plainDecimal(Array("0123".utf8)))
        XCTAssertNil(Numbers.plainDecimal(Array("1234567890123456789".utf8)))
    }
}
