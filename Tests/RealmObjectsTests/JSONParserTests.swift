import RealmObjects
import XCTest

final class JSONParserTests: XCTestCase {
    func testValuesKeepNumberTextAndMemberOrder() throws {
        let v = try JSONParser.parse(#"[42, 42.0, -1e3, "a\"\u00e9\n", true, null, {"b": 1, "a": [2]}]"#)
        guard case let .array(items) = v else { return XCTFail("not an array") }
        XCTAssertEqual(items[0], .number("42"))
        XCTAssertEqual(items[1], .number("42.0"))
        XCTAssertEqual(items[2], .number("-1e3"))
        XCTAssertEqual(items[3], .string(Array("a\"é\n".utf8)))
        XCTAssertEqual(items[4], .bool(true))
        XCTAssertEqual(items[5], .null)
        XCTAssertEqual(items[6]["b"], .number("1"))
        XCTAssertEqual(items[6].compactText, #"{"b":1,"a":[2]}"#)
        XCTAssertEqual(try JSONParser.parse(#""\ud83d\ude00""#), .string(Array("😀".utf8)), "surrogate pairs")
        XCTAssertEqual(try JSONParser.parse("  {}  "), .object([]))
        // Member names with and without escapes, and unescaped UTF-8.
        XCTAssertEqual(try JSONParser.parse(#"{"plain": 1, "q\"uote": 2, "\u00e9t\u00e9": 3, "été": 4, "": 5}"#),
                       .object([("plain", .number("1")), ("q\"uote", .number("2")), ("été", .number("3")), ("été", .number("4")), ("", .number("5"))]))
        XCTAssertThrowsError(try JSONParser.parse("{\"a\u{1}\": 1}"), "a control character in a member name")
        XCTAssertThrowsError(try JSONParser.parse(#"{"open: 1}"#), "an unterminated member name")
        XCTAssertEqual(try JSONParser.parse("[true,false,null]"), .array([.bool(true), .bool(false), .null]))
        XCTAssertThrowsError(try JSONParser.parse("[nul]"), "a cut literal")
    }

    func testInvalidJSONIsAnErrorWithItsOffset() {
        for (text, offset) in [("[1,", 3), ("{\"a\" 1}", 5), ("01", 1), ("[1] 2", 4), ("\"\u{1}\"", 2), ("tru", 0), ("-", 1), ("1.", 2), ("\"\\x\"", 3), ("", 0)] {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                XCTAssertEqual((error as? JSONError)?.offset, offset, text)
            }
        }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try JSONParser.parse(deep))
    }

    func testElementsOfATopLevelArrayArriveOneByOne() throws {
        var seen: [JSONValue] = []
        try JSONParser.forEachElement(Array(#" [ {"a": 1}, 2 , "x\ty" ] "#.utf8)) { seen.append($0) }
        XCTAssertEqual(seen, [.object([("a", .number("1"))]), .number("2"), .string(Array("x\ty".utf8))])
        seen = []
        try JSONParser.forEachElement(Array(#"{"only": true}"#.utf8)) { seen.append($0) }
        XCTAssertEqual(seen, [.object([("only", .bool(true))])], "a value that is not an array is one element")
        seen = []
        try JSONParser.forEachElement(Array("[]".utf8)) { seen.append($0) }
        XCTAssertEqual(seen, [])
        // Elements before a syntax error have been handed over; the error names its offset.
        seen = []
        XCTAssertThrowsError(try JSONParser.forEachElement(Array("[1, 2 3]".utf8)) { seen.append($0) }) { error in
            XCTAssertEqual((error as? JSONError)?.offset, 6)
        }
        XCTAssertEqual(seen, [.number("1"), .number("2")])
        XCTAssertThrowsError(try JSONParser.forEachElement(Array("[1] x".utf8)) { _ in })
    }
}
