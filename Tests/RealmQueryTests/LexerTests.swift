import RealmQuery
import XCTest

/// The scanner takes the longest match, the earlier rule on ties (query-language.md §1).
final class LexerTests: XCTestCase {
    func kinds(_ text: String) -> [TokenKind] { Lexer(text).tokenize().map(\.kind).dropLast() }
    func texts(_ text: String) -> [String] { Lexer(text).tokenize().dropLast().map(\.string) }

    func testLongestMatchDecidesKeywordsAgainstIdentifiers() {
        XCTAssertEqual(kinds("and"), [.and])
        XCTAssertEqual(kinds("AnD"), [.and])
        XCTAssertEqual(kinds("andx"), [.identifier])
        XCTAssertEqual(kinds("nullified inside ANDx TRUEPREDICATEs NOT0"), [.identifier, .identifier, .identifier, .identifier, .identifier])
        XCTAssertEqual(kinds("not NOT Not"), [.not, .not, .identifier])
        XCTAssertEqual(kinds("any ANY some SOME Any"), [.any, .any, .any, .any, .identifier])
        XCTAssertEqual(kinds("in IN In"), [.in, .in, .identifier])
        XCTAssertEqual(kinds("true TRUE True false FALSE"), [.trueLiteral, .trueLiteral, .identifier, .falseLiteral, .falseLiteral])
        XCTAssertEqual(kinds("null NULL Nil nil"), [.null, .null, .null, .null])
        XCTAssertEqual(kinds("BeginsWith endswith CONTAINS Like bEtWeEn"), [.beginsWith, .endsWith, .contains, .like, .between])
        XCTAssertEqual(kinds("asc ascending DESC Descending"), [.ascending, .ascending, .descending, .descending])
        XCTAssertEqual(kinds("FIRST first First LAST SIZE size"), [.indexFirst, .indexFirst, .identifier, .indexLast, .indexSize, .indexSize])
    }

    func testOperatorsAndTheirSpellings() {
        XCTAssertEqual(kinds("== = != <> < > <= =< >= => && || !"),
                       [.equal, .equal, .notEqual, .notEqual, .less, .greater, .lessEqual, .lessEqual, .greaterEqual, .greaterEqual, .and, .or, .not])
        XCTAssertEqual(kinds("[c] [ c ]"), [.caseInsensitive, .leftBracket, .identifier, .rightBracket])
        XCTAssertEqual(kinds("@count @size @max @min @sum @avg @links @type @keys @values"),
                       [.size, .size, .max, .min, .sum, .avg, .backlink, .type, .keyOrValue, .keyOrValue])
        XCTAssertEqual(kinds("+ - * / ( ) { } [ ] , ."),
                       [.plus, .minus, .star, .slash, .leftParen, .rightParen, .leftBrace, .rightBrace, .leftBracket, .rightBracket, .comma, .dot])
    }

    func testNumbers() {
        XCTAssertEqual(kinds("30 -1 +5 0x1E 1.5 10. .5 1e3 30f -2.5e-3f"), [.natural, .number, .number, .number, .float, .float, .float, .float, .float, .float])
        XCTAssertEqual(kinds("inf -Infinity +INF nan -NaN"), [.infinity, .infinity, .infinity, .nan, .nan])
        // `age -1` is two operands: the sign belongs to the number.
        XCTAssertEqual(kinds("age -1"), [.identifier, .number])
        XCTAssertEqual(kinds("age - 1"), [.identifier, .minus, .natural])
        // `-` inside an identifier is part of it.
        XCTAssertEqual(texts("age-1"), ["age-1"])
    }

    func testTypedLiterals() {
        XCTAssertEqual(kinds("2017-12-1@1:2:3 2017-12-01T10:00:00:505 T1512130073:505 T-1:-1"), [.timestamp, .timestamp, .timestamp, .timestamp])
        // No time part: three numbers.
        XCTAssertEqual(kinds("2001-01-01"), [.natural, .number, .number])
        XCTAssertEqual(kinds("oid(5f1a2b3c4d5e6f7a8b9c0d1e) uuid(3B241101-e2bb-4255-8caf-4136c566a961)"), [.objectId, .uuid])
        XCTAssertEqual(kinds("oid(zzz)"), [.identifier, .leftParen, .identifier, .rightParen])
        XCTAssertEqual(kinds("O12 O12a L1:2 $0 $012 $K3 $d $0a"), [.objectKey, .identifier, .typedLink, .argument, .argument, .keyPathArgument, .identifier, .identifier])
        XCTAssertEqual(kinds("B64\"QWxpY2U=\" B64 'x'"), [.base64, .identifier, .string])
    }

    func testStringsValidateEscapesButKeepThem() {
        XCTAssertEqual(texts(#"'a\b' "it's" 'it\'s' '\u0041' """#), [#"'a\b'"#, #""it's""#, #"'it\'s'"#, #"'\u0041'"#, #""""#])
        // An invalid escape leaves only the quote, which no rule accepts.
        let bad = Lexer(#"name == 'Ali\ce'"#).tokenize()
        XCTAssertEqual(bad.last?.kind, .invalid)
        XCTAssertEqual(bad.last?.string, "'")
        XCTAssertEqual(Lexer("'unterminated").tokenize().last?.kind, .invalid)
    }

    func testIdentifiers() {
        XCTAssertEqual(texts(#"float\ fees løbenummer 姓名 _x $y a-b"#), ["float fees", "løbenummer", "姓名", "_x", "$y", "a-b"])
        XCTAssertEqual(Lexer("age > 1 # comment").tokenize().last?.kind, .invalid)
        XCTAssertEqual(Lexer("`age`").tokenize().first?.kind, .invalid)
        XCTAssertEqual(Lexer(bytes: [0xFF, 0x20]).tokenize().first?.kind, .invalid)
        XCTAssertEqual(Lexer("ÿ").tokenize().first?.kind, .identifier)
    }

    func testRangesAreByteOffsets() {
        let t = Lexer("é == 'x'").tokenize()
        XCTAssertEqual(t[0].range, SourceRange(0, 2))
        XCTAssertEqual(t[1].range, SourceRange(3, 5))
        XCTAssertEqual(t[2].range, SourceRange(6, 9))
        XCTAssertEqual(t[3].kind, .end)
    }
}
