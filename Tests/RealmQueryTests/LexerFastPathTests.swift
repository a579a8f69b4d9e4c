@testable import RealmQuery
import RealmObjects
import RealmTestSupport
import XCTest

/// `Lexer.tokenize()` decides common tokens (operators, ASCII words, plain numbers) from their
/// bytes (`fastMatch`); the tokens must be exactly those of trying every rule at every
/// position (`tokenizeByRules`): the same kinds, ranges and texts.
final class LexerFastPathTests: XCTestCase {
    func assertSameTokens(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let fast = Lexer(bytes: bytes).tokenize()
        let general = Lexer(bytes: bytes).tokenizeByRules()
        let label = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(fast.count, general.count, "token count of \(label)", file: file, line: line)
        for (a, b) in zip(fast, general) where a.kind != b.kind || a.range != b.range || a.text != b.text {
            XCTFail("\(label): fast \(a.kind) \(a.range) '\(a.string)' but by rules \(b.kind) \(b.range) '\(b.string)'", file: file, line: line)
            return
        }
    }

    func testEveryQueriesJSONTextTokenizesAsByTheRules() throws {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.path("realm-core") + "/queries.json"))
        guard case let .array(entries) = try JSONParser.parse(Array(data)) else { return XCTFail("queries.json is not an array") }
        var n = 0
        for entry in entries {
            guard let q = entry["query"]?.stringValue else { continue }
            assertSameTokens(Array(q.utf8))
            n += 1
        }
        XCTAssertGreaterThanOrEqual(n, 174)
    }

    /// Every pair of fragments, joined directly and with a space: each fast-path token next to
    /// every byte that could extend a longer rule (digits, signs, `(`, `:`, `.`, `x`, `e`, `f`,
    /// quotes, escapes, UTF-8).
    func testFragmentPairsTokenizeAsByTheRules() {
        let fragments = [
            "age", "a", "T", "O", "L", "B", "uuid", "oid", "and", "AnD", "andx", "or", "in", "IN", "not", "NOT",
            "any", "nil", "null", "NULL", "true", "TRUE", "inf", "infinity", "nan", "FIRST", "first", "SIZE", "bin",
            "beginswith", "ENDSWITH", "truepredicate", "sort", "asc", "_x", "x_y", "$0", "$K1", "$x",
            "0", "7", "42", "0x1f", "0X", "1e5", "1E-3", "2f", "1.5", ".5", "2001-01-01@12:00:00", "2001-01-01T1:2:3:4",
            "T1:2", "T-1:+2", "O12", "L1:2", "B64\"YQ==\"", "uuid(3B241101-e2bb-4255-8caf-4136c566a961)",
            "oid(5f1a2b3c4d5e6f7a8b9c0d1e)", "'s'", "\"q\"", "'a\\'b'",
            "==", "=", "=<", "=>", "!=", "!", "<", "<=", "<>", ">", ">=", "&&", "||", "&", "|", "(", ")", "[c]", "[C]",
            "[", "]", ",", "{", "}", ".", "@count", "@size", "@links", "+", "-", "*", "/", ":", "@", "#", "\\ ", "\\n",
            "é", "姓", "\u{1F600}", "-1", "+2", "-inf", "+nan", "\t", "\n", "x-y", "a1",
        ]
        for a in fragments {
            for b in fragments {
                for separator in ["", " "] { assertSameTokens(Array((a + separator + b).utf8)) }
            }
        }
        // Bytes that are not valid UTF-8 next to words and numbers.
        for tail: [UInt8] in [[0xFF], [0xC3], [0xC3, 0xA9], [0x80], [0x00]] {
            for head in ["age", "42", "=", "T", "_"] { assertSameTokens(Array(head.utf8) + tail) }
        }
    }
}
