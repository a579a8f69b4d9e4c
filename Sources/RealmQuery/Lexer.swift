/// The scanner of query-language.md §1. Realm Core's scanner is a flex scanner: at each position
/// the longest match wins, and among equally long matches the rule listed first. This one tries
/// every rule at each position and applies the same choice, so `andx` is an identifier, `and`
/// the operator, `O12` an object key, `2001-01-01` three numbers, `-1` one number.
///
/// The input is bytes: any valid multi-byte UTF-8 sequence counts as a letter in identifiers.
public struct Lexer {
    let bytes: [UInt8]

    public init(_ text: String) { bytes = Array(text.utf8) }
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// All tokens, ending with `.end`, or with `.invalid` at the first byte no rule accepts
    /// (the parser reports it when it gets there, as realm-core's parser does).
    public func tokenize() -> [Token] { tokenize(fastPath: true) }

    /// `tokenize()` with every rule tried at every position (no `fastMatch`): the reference
    /// the fast path is tested against (LexerTests).
    func tokenizeByRules() -> [Token] { tokenize(fastPath: false) }

    private func tokenize(fastPath: Bool) -> [Token] {
        var tokens = [Token]()
        tokens.reserveCapacity(bytes.count / 2 + 2)
        var p = 0
        while true {
            let (kind, range, fast) = next(&p, fastPath: fastPath)
            switch kind {
            case .end:
                tokens.append(Token(kind: .end, range: range, text: []))
                return tokens
            case .invalid:
                tokens.append(Token(kind: .invalid, range: range, text: [bytes[range.start]]))
                return tokens
            default:
                if fast, let shared = Lexer.operatorText(kind, bytes[range.start], length: range.end - range.start) {
                    tokens.append(Token(kind: kind, range: range, text: shared))
                    continue
                }
                var text = Array(bytes[range.start..<range.end])
                if kind == .identifier { text = Lexer.decodeEscapes(text) }
                tokens.append(Token(kind: kind, range: range, text: text))
            }
        }
    }

    /// The next token from `p` on (white space skipped), without its text, and `p` moved past
    /// it: `.end` at the end of the input, `.invalid` (one byte) where no rule matches; `fast`
    /// when `fastMatch` decided it. `tokenize` is made of these; SimpleComparison reads the
    /// first few of a query with it, making no token array.
    func next(_ p: inout Int, fastPath: Bool = true) -> (kind: TokenKind, range: SourceRange, fast: Bool) {
        while p < bytes.count, bytes[p] == 0x20 || bytes[p] == 0x09 || bytes[p] == 0x0D || bytes[p] == 0x0A { p += 1 }
        if p >= bytes.count { return (.end, SourceRange(p, p), false) }
        let start = p
        let fast = fastPath ? fastMatch(at: p) : nil
        guard let (kind, length) = fast ?? longestMatch(at: p) else {
            p += 1
            return (.invalid, SourceRange(start, start + 1), false)
        }
        p += length
        return (kind, SourceRange(start, p), fast != nil)
    }

    /// The common tokens decided from their bytes alone, without trying every rule: operators
    /// and punctuation, ASCII-letter words and plain natural numbers. Nil hands the position to
    /// `longestMatch`. A word or number qualifies only when the byte after it cannot extend any
    /// rule that starts there: for a word of letters and `_` (no digits, `-`, `\` or UTF-8,
    /// which `identifier` would take) the longer literals starting with a letter (`uuid(`,
    /// `oid(`, `T+1:2`, `O12`, `L1:2`, `B64"`) need `(`, a sign or a digit next; for digits,
    /// hex, floats and dates need `x`, `.`, `e`, `f` or `-` next. So the result is the one
    /// `longestMatch` gives (the keyword of that length in rule order, else the identifier).
    private func fastMatch(at p: Int) -> (TokenKind, Int)? {
        let c = bytes[p]
        let next: UInt8 = p + 1 < bytes.count ? bytes[p + 1] : 0
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            var i = p + 1
            while i < bytes.count, Lexer.isWordByte(bytes[i]) { i += 1 }
            guard i == bytes.count || Lexer.endsWord(bytes[i]) else { return nil }
            let n = i - p
            if c != UInt8(ascii: "_"), n < 16 {
                let bucket = Lexer.keywordsByLengthAndLetter[n * 26 + Int(Lexer.lower(c) - UInt8(ascii: "a"))]
                for k in bucket where matches(p, k.word, caseInsensitive: k.caseInsensitive) {
                    return (k.kind, n)
                }
            }
            return (.identifier, n)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var i = p + 1
            while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
            guard i == bytes.count || Lexer.endsNumber(bytes[i]) else { return nil }
            return (.natural, i - p)
        case UInt8(ascii: "="):
            switch next {
            case UInt8(ascii: "="): return (.equal, 2)
            case UInt8(ascii: "<"): return (.lessEqual, 2)
            case UInt8(ascii: ">"): return (.greaterEqual, 2)
            default: return (.equal, 1)
            }
        case UInt8(ascii: "!"): return next == UInt8(ascii: "=") ? (.notEqual, 2) : (.not, 1)
        case UInt8(ascii: "<"):
            switch next {
            case UInt8(ascii: ">"): return (.notEqual, 2)
            case UInt8(ascii: "="): return (.lessEqual, 2)
            default: return (.less, 1)
            }
        case UInt8(ascii: ">"): return next == UInt8(ascii: "=") ? (.greaterEqual, 2) : (.greater, 1)
        case UInt8(ascii: "&"): return next == UInt8(ascii: "&") ? (.and, 2) : nil
        case UInt8(ascii: "|"): return next == UInt8(ascii: "|") ? (.or, 2) : nil
        case UInt8(ascii: "("): return (.leftParen, 1)
        case UInt8(ascii: ")"): return (.rightParen, 1)
        case UInt8(ascii: ","): return (.comma, 1)
        case UInt8(ascii: "]"): return (.rightBracket, 1)
        case UInt8(ascii: "{"): return (.leftBrace, 1)
        case UInt8(ascii: "}"): return (.rightBrace, 1)
        case UInt8(ascii: "*"): return (.star, 1)
        case UInt8(ascii: "/"): return (.slash, 1)
        default: return nil
        }
    }

    /// `keywordsByLength` split further by first letter (either case), each list still in rule
    /// order: a keyword can only match a word with its first letter, so `fastMatch` compares
    /// only those.
    private static let keywordsByLengthAndLetter: [[(kind: TokenKind, word: [UInt8], caseInsensitive: Bool)]] = {
        var out = [[(kind: TokenKind, word: [UInt8], caseInsensitive: Bool)]](repeating: [], count: 16 * 26)
        for (n, list) in keywordsByLength.enumerated() {
            for k in list { out[n * 26 + Int(lower(k.word[0]) - UInt8(ascii: "a"))].append(k) }
        }
        return out
    }()

    /// The text of a fast-path operator or punctuation token, made once (its bytes are fixed by
    /// its kind, first byte and length); nil for words and numbers.
    private static func operatorText(_ kind: TokenKind, _ c: UInt8, length: Int) -> [UInt8]? {
        switch (c, length) {
        case (UInt8(ascii: "="), 2): return kind == .equal ? sharedTexts.equalEqual : nil    // not "=<", "=>"
        case (UInt8(ascii: "!"), 2): return kind == .notEqual ? sharedTexts.notEqual : nil
        case (_, 2):
            return nil      // "<>", "<=", ">=", "&&", "||": copied
        case (UInt8(ascii: "0")...UInt8(ascii: "9"), _), (UInt8(ascii: "a")...UInt8(ascii: "z"), _),
             (UInt8(ascii: "A")...UInt8(ascii: "Z"), _), (UInt8(ascii: "_"), _):
            return nil
        case (_, 1) where c < 0x80: return sharedTexts.single[Int(c)]
        default: return nil
        }
    }

    private static let sharedTexts = (equalEqual: Array("==".utf8), notEqual: Array("!=".utf8),
                                      single: (0..<128).map { [UInt8($0)] })

    /// The bytes of a fast-path word: ASCII letters and `_`.
    private static func isWordByte(_ c: UInt8) -> Bool { (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == UInt8(ascii: "_") }

    /// Bytes after a fast-path word that no rule starting with a letter can continue through.
    private static func endsWord(_ c: UInt8) -> Bool {
        switch c {
        case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "."),
             UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }

    /// Bytes after a fast-path number that no rule starting with a digit can continue through.
    private static func endsNumber(_ c: UInt8) -> Bool {
        switch c {
        case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "&"), UInt8(ascii: "|"),
             UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }

    /// The rules in realm-core's order (query_flex.ll): the longest match wins, the earlier rule
    /// on a tie. Only the rules that can start with the byte at `p` are tried.
    private func longestMatch(at p: Int) -> (TokenKind, Int)? {
        var best: (TokenKind, Int)?
        func offer(_ kind: TokenKind, _ length: Int) {
            if length > 0, length > (best?.1 ?? 0) { best = (kind, length) }
        }
        let c = bytes[p]
        switch c {
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            offer(c == UInt8(ascii: "+") ? .plus : .minus, 1)
            offer(.infinity, signed(p) { max(self.keyword($0, "inf"), self.keyword($0, "infinity")) })
            offer(.nan, signed(p) { self.keyword($0, "nan") })
            offer(.number, signed(p) { self.digits($0) })
            offer(.float, floatLiteral(p))
        case UInt8(ascii: "*"): offer(.star, 1)
        case UInt8(ascii: "/"): offer(.slash, 1)
        case UInt8(ascii: "="):
            offer(.equal, literal(p, "==") ? 2 : 1)
            offer(.lessEqual, literal(p, "=<") ? 2 : 0)
            offer(.greaterEqual, literal(p, "=>") ? 2 : 0)
        case UInt8(ascii: "<"):
            offer(.notEqual, literal(p, "<>") ? 2 : 0)
            offer(.less, 1)
            offer(.lessEqual, literal(p, "<=") ? 2 : 0)
        case UInt8(ascii: ">"):
            offer(.greater, 1)
            offer(.greaterEqual, literal(p, ">=") ? 2 : 0)
        case UInt8(ascii: "!"):
            offer(.notEqual, literal(p, "!=") ? 2 : 0)
            offer(.not, 1)
        case UInt8(ascii: "&"): offer(.and, literal(p, "&&") ? 2 : 0)
        case UInt8(ascii: "|"): offer(.or, literal(p, "||") ? 2 : 0)
        case UInt8(ascii: "["):
            offer(.leftBracket, 1)
            offer(.caseInsensitive, literal(p, "[c]") ? 3 : 0)
        case UInt8(ascii: "]"): offer(.rightBracket, 1)
        case UInt8(ascii: ","): offer(.comma, 1)
        case UInt8(ascii: "("): offer(.leftParen, 1)
        case UInt8(ascii: ")"): offer(.rightParen, 1)
        case UInt8(ascii: "{"): offer(.leftBrace, 1)
        case UInt8(ascii: "}"): offer(.rightBrace, 1)
        case UInt8(ascii: "."):
            offer(.dot, 1)
            offer(.float, floatLiteral(p))
        case UInt8(ascii: "@"):
            offer(.size, exactly(p, "@size", "@count"))
            offer(.max, exactly(p, "@max"))
            offer(.min, exactly(p, "@min"))
            offer(.sum, exactly(p, "@sum"))
            offer(.avg, exactly(p, "@avg"))
            offer(.backlink, exactly(p, "@links"))
            offer(.type, exactly(p, "@type"))
            offer(.keyOrValue, exactly(p, "@keys", "@values"))
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            offer(.string, quoted(p, c))
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            offer(.timestamp, timestamp(p))
            offer(.natural, digits(p))
            offer(.number, digits(p))
            offer(.number, hexNumber(p))
            offer(.float, floatLiteral(p))
        default:
            letters(at: p, offer)
        }
        return best
    }

    /// Keywords, typed literals and identifiers: everything that starts with a letter, `_`,
    /// `$` or a multi-byte character.
    private func letters(at p: Int, _ offer: (TokenKind, Int) -> Void) {
        let c = bytes[p]
        // A keyword is letters only, so the identifier rule matches at least as far: a keyword
        // wins (the earlier rule on a tie) only when it is exactly as long as the identifier,
        // so only the keywords of that length are compared, in rule order.
        let identifierLength = identifier(p)
        if Lexer.isLetter(c) && c != UInt8(ascii: "$") && c != UInt8(ascii: "_") {
            if identifierLength < Lexer.keywordsByLength.count {
                for k in Lexer.keywordsByLength[identifierLength] where matches(p, k.word, caseInsensitive: k.caseInsensitive) {
                    offer(k.kind, identifierLength)
                    break
                }
            }
            offer(.uuid, uuidLiteral(p))
            offer(.objectId, objectIdLiteral(p))
            offer(.timestamp, timestamp(p))
            offer(.objectKey, c == UInt8(ascii: "O") ? prefixed(1, digits(p + 1)) : 0)
            offer(.typedLink, typedLink(p))
            offer(.base64, base64Literal(p))
        }
        if c == UInt8(ascii: "$") {
            offer(.argument, prefixed(1, digits(p + 1)))
            offer(.keyPathArgument, literal(p, "$K") ? prefixed(2, digits(p + 2)) : 0)
        }
        offer(.identifier, identifierLength)
    }

    /// The keyword rules that start with a letter, in realm-core's order (query_flex.ll):
    /// case-insensitive ones as `keyword` compares them, the others exact (a rule with several
    /// spellings is one entry per spelling).
    private static let keywords: [(kind: TokenKind, word: String, caseInsensitive: Bool)] = [
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

    /// `keywords` by length, each list in rule order.
    private static let keywordsByLength: [[(kind: TokenKind, word: [UInt8], caseInsensitive: Bool)]] = {
        var out = [[(kind: TokenKind, word: [UInt8], caseInsensitive: Bool)]](repeating: [], count: 16)
        for k in keywords { out[k.word.utf8.count].append((k.kind, Array(k.word.utf8), k.caseInsensitive)) }
        return out
    }()

    /// Whether `word` is at `p` (lower-case ASCII `word` matched either case when asked).
    private func matches(_ p: Int, _ word: [UInt8], caseInsensitive: Bool) -> Bool {
        guard p + word.count <= bytes.count else { return false }
        for i in 0..<word.count where (caseInsensitive ? Lexer.lower(bytes[p + i]) : bytes[p + i]) != word[i] { return false }
        return true
    }

    // MARK: - Matchers: each returns the length of its match at p, or 0.

    private func byte(_ i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }

    private func literal(_ p: Int, _ text: StaticString) -> Bool { exactly(p, text) > 0 }

    /// A case-insensitive keyword (ASCII letters only).
    private func keyword(_ p: Int, _ word: StaticString) -> Int {
        let n = word.utf8CodeUnitCount
        guard p + n <= bytes.count else { return 0 }
        var equal = true
        word.withUTF8Buffer { buffer in
            for i in 0..<n where Lexer.lower(bytes[p + i]) != buffer[i] {
                equal = false
                break
            }
        }
        return equal ? n : 0
    }

    private func exactly(_ p: Int, _ words: StaticString...) -> Int {
        var best = 0
        for w in words where w.utf8CodeUnitCount > best {
            let n = w.utf8CodeUnitCount
            guard p + n <= bytes.count else { continue }
            var equal = true
            w.withUTF8Buffer { buffer in
                for i in 0..<n where bytes[p + i] != buffer[i] {
                    equal = false
                    break
                }
            }
            if equal { best = n }
        }
        return best
    }

    /// A fixed prefix of `prefix` bytes that must be followed by `length` > 0 more.
    private func prefixed(_ prefix: Int, _ length: Int) -> Int { length > 0 ? prefix + length : 0 }

    /// `[+-]?` followed by what `rest` matches.
    private func signed(_ p: Int, _ rest: (Int) -> Int) -> Int {
        if let c = byte(p), c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            let n = rest(p + 1)
            return n > 0 ? n + 1 : 0
        }
        return rest(p)
    }

    private func digits(_ p: Int) -> Int {
        var i = p
        while let c = byte(i), Lexer.isDigit(c) { i += 1 }
        return i - p
    }

    private func hexDigits(_ p: Int) -> Int {
        var i = p
        while let c = byte(i), Lexer.isHex(c) { i += 1 }
        return i - p
    }

    private func hexNumber(_ p: Int) -> Int {
        guard byte(p) == UInt8(ascii: "0"), let x = byte(p + 1), x == UInt8(ascii: "x") || x == UInt8(ascii: "X") else { return 0 }
        let n = hexDigits(p + 2)
        return n > 0 ? n + 2 : 0
    }

    /// `{int}{exp}?f?` or `(({int}.{int}?)|({int}?.{int})){exp}?f?`, optionally signed.
    private func floatLiteral(_ p: Int) -> Int {
        signed(p) { q in
            var best = 0
            let whole = self.digits(q)
            if whole > 0 { best = self.exponentAndSuffix(q + whole) - q }
            var i = q + whole
            if self.byte(i) == UInt8(ascii: ".") {
                i += 1
                let fraction = self.digits(i)
                if whole > 0 || fraction > 0 {
                    best = Swift.max(best, self.exponentAndSuffix(i + fraction) - q)
                }
            }
            return best
        }
    }

    /// Position after an optional exponent and an optional `f`.
    private func exponentAndSuffix(_ p: Int) -> Int {
        var i = p
        if let e = byte(i), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            let n = signed(i + 1) { self.digits($0) }
            if n > 0 { i += 1 + n }
        }
        if byte(i) == UInt8(ascii: "f") { i += 1 }
        return i
    }

    /// `T{sint}:{sint}` or `{int}-{int}-{int}[@T]{int}:{int}:{int}(:{int})?`.
    private func timestamp(_ p: Int) -> Int {
        var best = 0
        if byte(p) == UInt8(ascii: "T") {
            let s = signed(p + 1) { self.digits($0) }
            if s > 0, byte(p + 1 + s) == UInt8(ascii: ":") {
                let n = signed(p + 2 + s) { self.digits($0) }
                if n > 0 { best = 2 + s + n }
            }
        }
        var i = p
        func int() -> Bool {
            let n = digits(i)
            i += n
            return n > 0
        }
        func char(_ allowed: [UInt8]) -> Bool {
            guard let c = byte(i), allowed.contains(c) else { return false }
            i += 1
            return true
        }
        let dash = [UInt8(ascii: "-")], colon = [UInt8(ascii: ":")]
        if int(), char(dash), int(), char(dash), int(), char([UInt8(ascii: "@"), UInt8(ascii: "T")]),
           int(), char(colon), int(), char(colon), int() {
            let end = i
            if char(colon), int() { best = Swift.max(best, i - p) } else { best = Swift.max(best, end - p) }
        }
        return best
    }

    private func typedLink(_ p: Int) -> Int {
        guard byte(p) == UInt8(ascii: "L") else { return 0 }
        let a = digits(p + 1)
        guard a > 0, byte(p + 1 + a) == UInt8(ascii: ":") else { return 0 }
        let b = digits(p + 2 + a)
        return b > 0 ? 2 + a + b : 0
    }

    private func uuidLiteral(_ p: Int) -> Int {
        guard literal(p, "uuid(") else { return 0 }
        var i = p + 5
        for (n, group) in [8, 4, 4, 4, 12].enumerated() {
            if n > 0 {
                guard byte(i) == UInt8(ascii: "-") else { return 0 }
                i += 1
            }
            guard hexDigits(i) >= group else { return 0 }
            i += group
        }
        return byte(i) == UInt8(ascii: ")") ? i + 1 - p : 0
    }

    private func objectIdLiteral(_ p: Int) -> Int {
        guard literal(p, "oid("), hexDigits(p + 4) >= 24, byte(p + 28) == UInt8(ascii: ")") else { return 0 }
        return 29
    }

    private func base64Literal(_ p: Int) -> Int {
        guard literal(p, "B64\"") else { return 0 }
        var i = p + 4
        while let c = byte(i), Lexer.isAlnum(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: "+") || c == UInt8(ascii: "=") { i += 1 }
        return byte(i) == UInt8(ascii: "\"") ? i + 1 - p : 0
    }

    /// A string in `quote`s: any byte but the quote and backslash, or one of the escapes
    /// `\" \' \/ \b \f \n \r \t \0 \\ \uXXXX` (validated, not decoded).
    private func quoted(_ p: Int, _ quote: UInt8) -> Int {
        guard byte(p) == quote else { return 0 }
        var i = p + 1
        while let c = byte(i) {
            if c == quote { return i + 1 - p }
            if c == UInt8(ascii: "\\") {
                guard let e = byte(i + 1) else { return 0 }
                if "\"'/bfnrt0\\".utf8.contains(e) {
                    i += 2
                } else if e == UInt8(ascii: "u"), hexDigits(i + 2) >= 4 {
                    i += 6
                } else {
                    return 0
                }
                continue
            }
            i += 1
        }
        return 0
    }

    /// `({letter}|{utf8})({id_char}|{utf8}|\\[ nrt])*`.
    private func identifier(_ p: Int) -> Int {
        var i = p
        if let c = byte(i), Lexer.isLetter(c) {
            i += 1
        } else if let n = utf8Sequence(i) {
            i += n
        } else {
            return 0
        }
        while let c = byte(i) {
            if Lexer.isLetter(c) || Lexer.isDigit(c) || c == UInt8(ascii: "-") {
                i += 1
            } else if c == UInt8(ascii: "\\"), let e = byte(i + 1), " nrt".utf8.contains(e) {
                i += 2
            } else if let n = utf8Sequence(i) {
                i += n
            } else {
                break
            }
        }
        return i - p
    }

    /// Length of a UTF-8 lead byte with its continuation bytes (the scanner's `utf8` class).
    private func utf8Sequence(_ p: Int) -> Int? {
        guard let c = byte(p) else { return nil }
        let n: Int
        switch c {
        case 0xC2...0xDF: n = 2
        case 0xE0...0xEF: n = 3
        case 0xF0...0xF7: n = 4
        default: return nil
        }
        for k in 1..<n {
            guard let d = byte(p + k), d & 0xC0 == 0x80 else { return nil }
        }
        return n
    }

    /// `\ `, `\t`, `\r`, `\n` in identifiers become space, tab, CR, LF (realm-core's
    /// `check_escapes`).
    static func decodeEscapes(_ text: [UInt8]) -> [UInt8] {
        guard text.contains(UInt8(ascii: "\\")) else { return text }
        var out = [UInt8]()
        var i = 0
        while i < text.count {
            if text[i] == UInt8(ascii: "\\"), i + 1 < text.count {
                switch text[i + 1] {
                case UInt8(ascii: " "): out.append(0x20)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "n"): out.append(0x0A)
                default: break
                }
                i += 2
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return out
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66) }
    static func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) }
    static func isLetter(_ c: UInt8) -> Bool {
        (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$")
    }
    static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
}
