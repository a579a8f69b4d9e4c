import RealmFormat

/// Text forms of typed values, for input (JSON values, `--set prop=VALUE`).
public enum ValueParsing {
    /// `YYYY-MM-DD[THH:MM[:SS[.fffffffff]]][Z|±HH:MM]` (ISO 8601, UTC unless an offset is given).
    public static func date(_ text: String) -> Timestamp? { date(utf8: Array(text.utf8)[...]) }

    /// `date(_:)` of UTF-8 text (a CSV field, say), without making a String of it first.
    public static func date(utf8 b: ArraySlice<UInt8>) -> Timestamp? {
        var i = b.startIndex
        func number(_ count: Int) -> Int64? {
            guard i + count <= b.endIndex else { return nil }
            var v: Int64 = 0
            for _ in 0..<count {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int64(b[i] - 48)
                i += 1
            }
            return v
        }
        func expect(_ c: Unicode.Scalar) -> Bool {
            guard i < b.endIndex, b[i] == UInt8(ascii: c) else { return false }
            i += 1
            return true
        }
        var negativeYear = false
        if i < b.endIndex, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
            negativeYear = b[i] == UInt8(ascii: "-")
            i += 1
        }
        let yearDigits = b[i...].prefix { $0 >= 48 && $0 <= 57 }.count
        // 12 digits cover every year a Timestamp can hold (±292,277,026,596).
        guard yearDigits >= 4, yearDigits <= 12, var year = number(yearDigits), expect("-"), let month = number(2), expect("-"),
              let day = number(2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        if negativeYear { year = -year }
        // In 128 bits: the first and last days a Timestamp reaches start beyond Int64's seconds.
        var seconds = Int128(DateText.days(year: year, month: month, day: day)) * 86_400
        var nanos: Int64 = 0
        if i < b.endIndex, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " ") {
            i += 1
            guard let h = number(2), expect(":"), let m = number(2), h < 24, m < 60 else { return nil }
            seconds += Int128(h * 3600 + m * 60)
            if expect(":") {
                guard let s = number(2), s < 61 else { return nil }
                seconds += Int128(s)
                if expect(".") {
                    var digits = 0
                    while i < b.endIndex, b[i] >= 48, b[i] <= 57 {
                        if digits < 9 { nanos = nanos * 10 + Int64(b[i] - 48) }
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in digits..<max(digits, 9) { nanos *= 10 }
                }
            }
            if expect("Z") {
            } else if i < b.endIndex, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                let sign: Int64 = b[i] == UInt8(ascii: "+") ? 1 : -1
                i += 1
                guard let oh = number(2) else { return nil }
                _ = expect(":")
                guard let om = number(2) else { return nil }
                seconds -= Int128(sign * (oh * 3600 + om * 60))
            }
        }
        guard i == b.endIndex else { return nil }
        // Realm keeps seconds and nanoseconds with the same sign (§9.7).
        if seconds < 0 && nanos > 0 {
            seconds += 1
            nanos -= 1_000_000_000
        }
        guard let whole = Int64(exactly: seconds) else { return nil }
        return Timestamp(seconds: whole, nanoseconds: Int32(nanos))
    }

    /// Decimal text: `[-]digits[.digits][E[±]exp]`, `NaN`, `Inf`, `-Inf`, `Infinity`; at most 34
    /// significant digits (decimal128).
    public static func decimal(_ text: String) -> Decimal128? {
        var s = Substring(text)
        var negative = false
        if s.hasPrefix("-") || s.hasPrefix("+") {
            negative = s.hasPrefix("-")
            s = s.dropFirst()
        }
        switch s.lowercased() {
        case "nan": return Decimal128(kind: .nan, negative: negative, coefficient: 0, exponent: 0)
        case "inf", "infinity": return Decimal128(kind: .infinity, negative: negative, coefficient: 0, exponent: 0)
        default: break
        }
        var exponent = 0
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let x = Int(s[s.index(after: e)...]) else { return nil }
            exponent = x
            s = s[..<e]
        }
        var digits = ""
        var seenDot = false, any = false
        for c in s {
            if c == "." {
                if seenDot { return nil }
                seenDot = true
            } else if c.isASCII, c.isNumber {
                any = true
                digits.append(c)
                if seenDot { exponent -= 1 }
            } else {
                return nil
            }
        }
        guard any else { return nil }
        while digits.count > 1 && digits.hasPrefix("0") { digits.removeFirst() }
        guard digits.count <= 34, let coefficient = UInt128(digits), exponent >= -6176, exponent <= 6111 else { return nil }
        return Decimal128(negative: negative, coefficient: coefficient, exponent: exponent)
    }

    /// 24 hexadecimal characters.
    public static func objectId(_ text: String) -> ObjectId? {
        hexBytes(text, count: 12).map(ObjectId.init)
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hyphens optional).
    public static func uuid(_ text: String) -> RealmFormat.UUID? {
        hexBytes(text.replacingHyphens(), count: 16).map(RealmFormat.UUID.init)
    }

    static func hexBytes(_ text: String, count: Int) -> [UInt8]? {
        let b = Array(text.utf8)
        guard b.count == 2 * count else { return nil }
        var out = [UInt8]()
        for j in stride(from: 0, to: b.count, by: 2) {
            guard let hi = hexDigit(b[j]), let lo = hexDigit(b[j + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }

    static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}

extension String {
    func replacingHyphens() -> String { String(filter { $0 != "-" }) }
}
