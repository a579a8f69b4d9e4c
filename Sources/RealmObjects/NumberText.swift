/// Number text of the canonical dump (fixtures/README.md): the shortest decimal that
/// round-trips the value (for floats, the 32-bit value), laid out like ECMAScript's
/// `Number.prototype.toString`, with `.0` appended when there is no `.` and no `e`.
public enum NumberText {
    /// nil for non-finite values (written as `{"$numberDouble": …}`).
    public static func double(_ x: Double) -> String? {
        guard x.isFinite else { return nil }
        return layout(x.sign == .minus, shortest: x.magnitude.description)
    }

    public static func float(_ x: Float) -> String? {
        guard x.isFinite else { return nil }
        return layout(x.sign == .minus, shortest: x.magnitude.description)
    }

    /// `NaN`, `Infinity` or `-Infinity` for `$numberDouble`.
    public static func nonFinite(_ x: Double) -> String {
        x.isNaN ? "NaN" : (x > 0 ? "Infinity" : "-Infinity")
    }

    /// Swift's `description` already gives the shortest round-trip digits; only the layout
    /// differs. Splits it into significant digits d1…dk and n with value 0.d1…dk × 10^n.
    static func layout(_ negative: Bool, shortest text: String) -> String {
        let chars = Array(text.utf8)
        var mantissa = chars[...]
        var exponent = 0
        if let e = chars.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissa = chars[..<e]
            exponent = Int(String(decoding: chars[(e + 1)...], as: UTF8.self)) ?? 0
        }
        var intPart = mantissa[...]
        var fracPart = mantissa[mantissa.endIndex...]
        if let dot = mantissa.firstIndex(of: UInt8(ascii: ".")) {
            intPart = mantissa[..<dot]
            fracPart = mantissa[(dot + 1)...]
        }
        var digits = Array(intPart) + Array(fracPart)
        var n = intPart.count + exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty {
            digits = [UInt8(ascii: "0")]
            n = 1
        }
        var out = ecmaLayout(digits, n)
        if !out.contains(".") && !out.contains("e") { out += ".0" }
        return (negative ? "-" : "") + out
    }

    static func ecmaLayout(_ digits: [UInt8], _ n: Int) -> String {
        let k = digits.count
        let d = String(decoding: digits, as: UTF8.self)
        if k <= n && n <= 21 { return d + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 {
            return String(decoding: digits[..<n], as: UTF8.self) + "." + String(decoding: digits[n...], as: UTF8.self)
        }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + d }
        let e = n - 1
        let mantissa = k > 1 ? String(decoding: digits[..<1], as: UTF8.self) + "." + String(decoding: digits[1...], as: UTF8.self) : d
        return mantissa + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
    }
}
