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

    /// Every keyword spelling against identifiers, in several cases and with a letter, digit or
    /// `-` more or a letter less: the first rule whose word is the whole identifier (case
    /// ignored for the case-insensitive ones), else an identifier.
    func testEveryKeywordSpellingAgainstIdentifiers() {
        let rules: [(TokenKind, String, Bool)] = [
            (.in, "in", false), (.in, "IN", false), (.and, "and", true), (.or, "or", true), (.not, "not", false), (.not, "NOT", false),
            (.any, "any", false), (.any, "ANY", false), (.any, "some", false), (.any, "SOME", false),
            (.all, "all", false), (.all, "ALL", false), (.none, "none", false), (.none, "NONE", false),
            (.beginsWith, "beginswith", true), (.endsWith, "endswith", true), (.contains, "contains", true), (.text, "text", true),
            (.like, "like", true), (.between, "between", true), (.geoWithin, "geowithin", true),
            (.truePredicate, "truepredicate", true), (.falsePredicate, "falsepredicate", true),
            (.sort, "sort", true), (.distinct, "distinct", true), (.limit, "limit", true),
            (.binary, "bin", true), (.binary, "binary", true), (.obj, "obj", true),
            (.ascending, "ascending", true), (.ascending, "asc", true), (.descending, "descending", true), (.descending, "desc", true),
            (.subquery, "subquery", true), (.geoBox, "geobox", true), (.geoPolygon, "geopolygon", true), (.geoCircle, "geocircle", true),
            (.indexFirst, "FIRST", false), (.indexFirst, "first", false), (.indexLast, "LAST", false), (.indexLast, "last", false),
            (.indexSize, "SIZE", false), (.indexSize, "size", false), (.trueLiteral, "true", false), (.trueLiteral, "TRUE", false),
            (.falseLiteral, "false", false), (.falseLiteral, "FALSE", false),
            (.infinity, "inf", true), (.infinity, "infinity", true), (.nan, "nan", true), (.null, "null", true), (.null, "nil", true),
        ]
        func expected(_ text: String) -> TokenKind {
            rules.first { r in r.2 ? r.1 == text.lowercased() : r.1 == text }?.0 ?? .identifier
        }
        for (_, word, _) in rules {
            let variants = [word, word.uppercased(), word.lowercased(), word.prefix(1).uppercased() + word.dropFirst().lowercased(),
                            word + "x", word + "1", word + "-a", String(word.dropLast()), "z" + word]
            for v in variants where !v.isEmpty {
                XCTAssertEqual(kinds(v), [expected(v)], v)
            }
        }
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
