/// One token of a migration script.
struct Token: Equatable {
    enum Kind: Equatable {
        /// A name: letters, digits, `_` and any non-ASCII character, not starting with a digit;
        /// or any text between backticks.
        case identifier(String)
        /// Integer literal text (digits only; the sign is an operator).
        case integer(String)
        case number(Double)
        case string(String)
        /// Punctuation and operators: `{ } ( ) < > [ ] , : ; = ? . + - * / % ! == != <= >= && || ?? ->`.
        case symbol(String)
        case end
    }

    let kind: Kind
    let location: SourceLocation
    /// Whether a backtick-quoted name (never a keyword).
    var quoted = false

    func isSymbol(_ s: String) -> Bool { kind == .symbol(s) }

    /// An unquoted identifier equal to `word`.
    func isWord(_ word: String) -> Bool { !quoted && kind == .identifier(word) }

    var text: String {
        switch kind {
        case let .identifier(s): return quoted ? "`\(s)`" : s
        case let .integer(s): return s
        case let .number(d): return "\(d)"
        case let .string(s): return "\"\(s)\""
        case let .symbol(s): return s
        case .end: return "end of script"
        }
    }
}

/// Splits a script into tokens. Comments run from `//` or `#` to the end of the line, or from
/// `/*` to `*/`. Line ends are whitespace: statements are told apart by their keywords.
struct Lexer {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    /// The last location computed on this line, so columns are counted once per line.
    private var mark = (offset: 0, column: 1)

    init(_ text: String) { bytes = Array(text.utf8) }

    static func tokens(_ text: String) throws(ScriptError) -> [Token] {
        var lexer = Lexer(text)
        var out = [Token]()
        while true {
            let t = try lexer.next()
            out.append(t)
            if t.kind == .end { return out }
        }
    }

    /// The location of byte offset `offset` on the current line (offsets only move forward).
    private mutating func location(_ offset: Int) -> SourceLocation {
        if mark.offset < lineStart || mark.offset > offset { mark = (lineStart, 1) }
        var column = mark.column
        var j = mark.offset
        while j < offset {
            if bytes[j] & 0xC0 != 0x80 { column += 1 }
            j += 1
        }
        mark = (offset, column)
        return SourceLocation(line: line, column: column)
    }

    private static let twoCharSymbols: Set<String> = ["==", "!=", "<=", ">=", "&&", "||", "??", "->"]
    private static let oneCharSymbols = Set("{}()<>[],:;=?.+-*/%!".utf8)

    mutating func next() throws(ScriptError) -> Token {
        try skipSpaceAndComments()
        let start = i
        let here = location(start)
        guard i < bytes.count else { return Token(kind: .end, location: here) }
        let c = bytes[i]
        if c == UInt8(ascii: "`") {
            i += 1
            while i < bytes.count, bytes[i] != UInt8(ascii: "`"), bytes[i] != 10 { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "`") else { throw ScriptError("unterminated `name`", at: here) }
            let name = String(decoding: bytes[(start + 1)..<i], as: UTF8.self)
            i += 1
            guard !name.isEmpty else { throw ScriptError("empty `name`", at: here) }
            return Token(kind: .identifier(name), location: here, quoted: true)
        }
        if Self.isNameStart(c) {
            while i < bytes.count, Self.isNameStart(bytes[i]) || Self.isDigit(bytes[i]) { i += 1 }
            return Token(kind: .identifier(String(decoding: bytes[start..<i], as: UTF8.self)), location: here)
        }
        if Self.isDigit(c) { return try number(here) }
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { return try string(quote: c, here) }
        if i + 1 < bytes.count {
            let pair = String(decoding: bytes[i...(i + 1)], as: UTF8.self)
            if Self.twoCharSymbols.contains(pair) {
                i += 2
                return Token(kind: .symbol(pair), location: here)
            }
        }
        if Self.oneCharSymbols.contains(c) {
            i += 1
            return Token(kind: .symbol(String(UnicodeScalar(c))), location: here)
        }
        let shown = c < 0x80 ? "'\(String(UnicodeScalar(c)))'" : "byte 0x\(String(c, radix: 16))"
        throw ScriptError("unexpected character \(shown)", at: here)
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    private static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || c >= 0x80
    }

    private mutating func newline() {
        line += 1
        lineStart = i
    }

    private mutating func skipSpaceAndComments() throws(ScriptError) {
        while i < bytes.count {
            let c = bytes[i]
            if c == 10 {
                i += 1
                newline()
            } else if c == 32 || c == 9 || c == 13 {
                i += 1
            } else if c == UInt8(ascii: "#") || (c == UInt8(ascii: "/") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")) {
                while i < bytes.count, bytes[i] != 10 { i += 1 }
            } else if c == UInt8(ascii: "/") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*") {
                let here = location(i)
                i += 2
                while true {
                    guard i < bytes.count else { throw ScriptError("unterminated /* comment", at: here) }
                    if bytes[i] == UInt8(ascii: "*"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                        i += 2
                        break
                    }
                    i += 1
                    if bytes[i - 1] == 10 { newline() }
                }
            } else {
                return
            }
        }
    }

    private mutating func number(_ here: SourceLocation) throws(ScriptError) -> Token {
        let start = i
        while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
        var isInteger = true
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "."), Self.isDigit(bytes[i + 1]) {
            isInteger = false
            i += 1
            while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            if j < bytes.count, Self.isDigit(bytes[j]) {
                isInteger = false
                i = j
                while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
            }
        }
        if i < bytes.count, Self.isNameStart(bytes[i]) {
            throw ScriptError("a number may not run into a name ('\(String(decoding: bytes[start...i], as: UTF8.self))')", at: here)
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger { return Token(kind: .integer(text), location: here) }
        guard let d = Double(text), d.isFinite else { throw ScriptError("number \(text) is out of range", at: here) }
        return Token(kind: .number(d), location: here)
    }

    private mutating func string(quote: UInt8, _ here: SourceLocation) throws(ScriptError) -> Token {
        i += 1
        var out = [UInt8]()
        while true {
            guard i < bytes.count, bytes[i] != 10 else { throw ScriptError("unterminated string", at: here) }
            let c = bytes[i]
            i += 1
            if c == quote { break }
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                continue
            }
            guard i < bytes.count else { throw ScriptError("unterminated string", at: here) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "0"): out.append(0)
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): out.append(e)
            case UInt8(ascii: "u"):
                let escape = location(i - 2)
                guard i < bytes.count, bytes[i] == UInt8(ascii: "{"), let close = bytes[i...].firstIndex(of: UInt8(ascii: "}")),
                      let v = UInt32(String(decoding: bytes[(i + 1)..<close], as: UTF8.self), radix: 16),
                      let scalar = UnicodeScalar(v) else {
                    throw ScriptError("invalid \\u{…} escape (expected hex digits of a Unicode scalar)", at: escape)
                }
                out += Array(String(Character(scalar)).utf8)
                i = close + 1
            default:
                throw ScriptError("unknown escape \\\(String(UnicodeScalar(e)))", at: location(i - 2))
            }
        }
        return Token(kind: .string(String(decoding: out, as: UTF8.self)), location: here)
    }
}
