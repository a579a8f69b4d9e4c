import RealmFormat

/// Number conversions with the exact C/C++ behaviour realm-core relies on (query-language.md
/// §1.6, §4): `strtoll` with base 0 (leading `0` is octal, `0x` hex, saturation on overflow),
/// `strtod`/`strtof` for float tokens, and `std::istream >>` prefix parsing for strings
/// compared with numbers (`'30abc'` is 30).
enum Numbers {
    /// C `strtoll(text, nullptr, 0)`.
    static func strtoll<C: Collection<UInt8>>(_ text: C) -> Int64 {
        // A plain decimal literal (what the lexer's natural numbers mostly are): 1 to 18
        // digits, no leading 0 (octal), cannot overflow. Anything else takes the full reading
        // (NumbersTests pins the two together).
        if let n = plainDecimal(text) { return n }
        return strtollInFull(text)
    }

    /// The value of 1–18 decimal digits without a leading zero (or "0"), else nil.
    static func plainDecimal<C: Collection<UInt8>>(_ text: C) -> Int64? {
        guard let first = text.first, first != UInt8(ascii: "0") || text.count == 1 else { return nil }
        var value: Int64 = 0
        var n = 0
        for c in text {
            guard Lexer.isDigit(c), n < 18 else { return nil }
            value = value &* 10 &+ Int64(c &- 48)
            n += 1
        }
        return value
    }

    /// `strtoll` for any text: spaces, sign, `0x` and octal prefixes, saturation.
    static func strtollInFull<C: Collection<UInt8>>(_ text: C) -> Int64 {
        var bytes = Array(text)
        var i = 0
        while i < bytes.count, bytes[i] == 0x20 || (bytes[i] >= 0x09 && bytes[i] <= 0x0D) { i += 1 }
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var base: UInt64 = 10
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] | 0x20 == UInt8(ascii: "x"),
           i + 2 < bytes.count, Lexer.isHex(bytes[i + 2]) {
            base = 16
            i += 2
        } else if i < bytes.count, bytes[i] == UInt8(ascii: "0") {
            base = 8
        }
        var magnitude: UInt64 = 0
        var overflow = false
        bytes.append(0)
        while true {
            let c = bytes[i]
            let d: UInt64
            if Lexer.isDigit(c) { d = UInt64(c - 48) } else if Lexer.isHex(c) { d = UInt64((c | 0x20) - 87) } else { break }
            if d >= base { break }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: base)
            let (s, o2) = m.addingReportingOverflow(d)
            if o1 || o2 { overflow = true }
            magnitude = s
            i += 1
        }
        if negative {
            if overflow || magnitude > UInt64(Int64.max) + 1 { return Int64.min }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        if overflow || magnitude > UInt64(Int64.max) { return Int64.max }
        return Int64(magnitude)
    }

    /// Decimal digits as a saturating int64 (`sscanf("%d")` fields of a readable date).
    static func decimal<C: Collection<UInt8>>(_ digits: C) -> Int64 {
        var n: Int64 = 0
        for d in digits {
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(d) - 48)
            if o1 || o2 { return Int64.max }
            n = s
        }
        return n
    }

    /// C `strtod`.
    static func strtod<C: Collection<UInt8>>(_ text: C) -> Double { Platform.strtod(text) }

    /// C `strtof`.
    static func strtof<C: Collection<UInt8>>(_ text: C) -> Float { Platform.strtof(text) }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }

    /// `std::istringstream(s) >> int64_t`: leading space skipped, an optional sign, decimal
    /// digits up to the first other character; nil when no digit was read or on overflow.
    static func streamInt(_ s: [UInt8]) -> Int64? {
        var i = 0
        while i < s.count, isSpace(s[i]) { i += 1 }
        let start = i
        if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < s.count, Lexer.isDigit(s[i]) { i += 1 }
        guard i > digitsStart else { return nil }
        return Int64(String(decoding: s[start..<i], as: UTF8.self))
    }

    /// `std::istringstream(s) >> double`, falling back to realm-core's special names
    /// (`nan`, `inf`, `infinity` with optional signs, any case) for the whole string.
    static func streamDouble(_ s: [UInt8]) -> Double? {
        if let prefix = streamFloatPrefix(s) { return strtod(prefix) }
        return special(s)
    }

    static func streamFloat(_ s: [UInt8]) -> Float? {
        if let prefix = streamFloatPrefix(s) { return strtof(prefix) }
        return special(s).map { Float($0) }
    }

    /// The characters libstdc++ accumulates for a floating-point extraction, or nil when they
    /// do not form a number.
    static func streamFloatPrefix(_ s: [UInt8]) -> [UInt8]? {
        var i = 0
        while i < s.count, isSpace(s[i]) { i += 1 }
        let start = i
        if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") { i += 1 }
        var mantissa = 0
        while i < s.count, Lexer.isDigit(s[i]) {
            i += 1
            mantissa += 1
        }
        if i < s.count, s[i] == UInt8(ascii: ".") {
            i += 1
            while i < s.count, Lexer.isDigit(s[i]) {
                i += 1
                mantissa += 1
            }
        }
        guard mantissa > 0 else { return nil }
        if i < s.count, s[i] | 0x20 == UInt8(ascii: "e") {
            var j = i + 1
            if j < s.count, s[j] == UInt8(ascii: "+") || s[j] == UInt8(ascii: "-") { j += 1 }
            let digitsStart = j
            while j < s.count, Lexer.isDigit(s[j]) { j += 1 }
            guard j > digitsStart else { return nil }
            i = j
        }
        return Array(s[start..<i])
    }

    static func special(_ s: [UInt8]) -> Double? {
        switch String(decoding: s.map(Lexer.lower), as: UTF8.self) {
        case "nan", "+nan": return Double.nan
        case "-nan": return -Double.nan
        case "inf", "+inf", "infinity", "+infinity": return Double.infinity
        case "-inf", "-infinity": return -Double.infinity
        default: return nil
        }
    }
}
