/// Number text of the canonical dump (fixtures/README.md): the shortest decimal that
/// round-trips the value (for floats, the 32-bit value), laid out like ECMAScript's
/// `Number.prototype.toString`, with `.0` appended when there is no `.` and no `e`.
public enum NumberText {
    /// nil for non-finite values (written as `{"$numberDouble": …}`).
    public static func double(_ x: Double) -> String? {
        var out = [UInt8]()
        return append(x, to: &out) ? String(decoding: out, as: UTF8.self) : nil
    }

    public static func float(_ x: Float) -> String? {
        var out = [UInt8]()
        return append(x, to: &out) ? String(decoding: out, as: UTF8.self) : nil
    }

    /// Appends the text of a finite double; false (and nothing appended) when not finite.
    public static func append(_ x: Double, to out: inout [UInt8]) -> Bool {
        guard x.isFinite else { return false }
        if x.sign == .minus { out.append(UInt8(ascii: "-")) }
        let m = x.magnitude
        // Integral values below 2^53 print as their digits plus ".0" (n ≤ 21 always holds here).
        if m < 9_007_199_254_740_992, m.rounded(.towardZero) == m {
            appendDigits(UInt64(m), to: &out)
            out.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
            return true
        }
        if !appendFewDecimals(m, to: &out) { appendShortest(m.description, to: &out) }
        return true
    }

    /// The text of a magnitude 0.001 ≤ m < 10^15 that is exactly the double nearest to
    /// n / 10^k for some n of at most 15 digits, k ≤ 15 — values stored from decimals, most
    /// doubles a dump shows — written without `description` (whose String cost ~1,000
    /// instructions a value); false (nothing written) for every other value.
    ///
    /// Why this is the shortest round-trip text, as `description` gives: the division n / 10^k
    /// of two exactly representable doubles is correctly rounded, as parsing "n·10^-k" is, so
    /// the text reads back as m. Decimals of at most 15 significant digits map to distinct
    /// doubles (DBL_DIG), so for each k at most one n fits, and the first k that fits has the
    /// fewest digits; an n ending in 0 means an earlier k was missed (a product rounded the
    /// other way), so that case goes the general way. `TextFormattingTests` pins it.
    static func appendFewDecimals(_ m: Double, to out: inout [UInt8]) -> Bool {
        guard m >= 0.001, m < 1e15 else { return false }
        var scale = 1.0, power: UInt64 = 1
        for k in 1...15 {
            scale *= 10                 // 10^k, exact up to 10^22
            power *= 10
            let scaled = m * scale
            guard scaled < 1e15 else { return false }
            let n = scaled.rounded()
            guard n / scale == m else { continue }
            let digits = UInt64(n)
            if digits % 10 == 0 { return false }
            appendDigits(digits / power, to: &out)
            out.append(UInt8(ascii: "."))
            let fraction = digits % power
            var width = 1, rest = fraction
            while rest >= 10 {
                rest /= 10
                width += 1
            }
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: k - width))
            appendDigits(fraction, to: &out)
            return true
        }
        return false
    }

    public static func append(_ x: Float, to out: inout [UInt8]) -> Bool {
        guard x.isFinite else { return false }
        if x.sign == .minus { out.append(UInt8(ascii: "-")) }
        appendShortest(x.magnitude.description, to: &out)
        return true
    }

    /// Swift's text of a finite magnitude in the dump's layout. Positional text (no `e`) is
    /// already that layout: Swift writes it only for 1e-4 ≤ x < 2^53-ish, where ECMAScript is
    /// positional too, with the same digits, `0.` before a fraction and `.0` after a whole
    /// number; so it is copied (no digit array), and only exponent forms are laid out
    /// (`layout`; NumberTextTests pins the two against each other).
    static func appendShortest(_ text: String, to out: inout [UInt8]) {
        if text.utf8.contains(UInt8(ascii: "e")) {
            layout(shortest: text.utf8, to: &out)
        } else {
            out.append(contentsOf: text.utf8)
        }
    }

    /// Decimal digits of `v`.
    /// The digits are counted first and written from the last one back into their places
    /// (reversing a slice of `out` copied it: issue #16).
    public static func appendDigits(_ v: UInt64, to out: inout [UInt8]) {
        var count = 1, rest = v
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        var i = out.count + count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var v = v
        repeat {
            i -= 1
            out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        } while v > 0
    }

    public static func appendInt(_ v: Int64, to out: inout [UInt8]) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(v.magnitude, to: &out)
    }

    /// `NaN`, `Infinity` or `-Infinity` for `$numberDouble`.
    public static func nonFinite(_ x: Double) -> String {
        x.isNaN ? "NaN" : (x > 0 ? "Infinity" : "-Infinity")
    }

    /// Swift's `description` already gives the shortest round-trip digits; only the layout
    /// differs. Splits it into significant digits d1…dk and n with value 0.d1…dk × 10^n.
    static func layout(shortest text: String.UTF8View, to out: inout [UInt8]) {
        var digits = [UInt8]()
        digits.reserveCapacity(24)
        var exponent = 0, intCount = 0, seenDot = false, inExponent = false, negativeExponent = false
        for c in text {
            if inExponent {
                if c == UInt8(ascii: "-") { negativeExponent = true } else if c != UInt8(ascii: "+") {
                    exponent = exponent * 10 + Int(c &- UInt8(ascii: "0"))
                }
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                inExponent = true
            } else if c == UInt8(ascii: ".") {
                seenDot = true
            } else {
                digits.append(c)
                if !seenDot { intCount += 1 }
            }
        }
        var n = intCount + (negativeExponent ? -exponent : exponent)
        var first = 0
        while first < digits.count && digits[first] == UInt8(ascii: "0") {
            first += 1
            n -= 1
        }
        var last = digits.count
        while last > first && digits[last - 1] == UInt8(ascii: "0") { last -= 1 }
        if first == last {
            out.append(contentsOf: Array("0.0".utf8))
            return
        }
        let start = out.count
        ecmaLayout(digits[first..<last], n, to: &out)
        if !out[start...].contains(UInt8(ascii: ".")) && !out[start...].contains(UInt8(ascii: "e")) {
            out.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
        }
    }

    static func layout(_ negative: Bool, shortest text: String) -> String {
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        layout(shortest: text.utf8, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ECMAScript `Number.prototype.toString` layout of 0.d1…dk × 10^n.
    static func ecmaLayout(_ digits: ArraySlice<UInt8>, _ n: Int, to out: inout [UInt8]) {
        let k = digits.count
        let zero = UInt8(ascii: "0"), dot = UInt8(ascii: ".")
        if k <= n && n <= 21 {
            out.append(contentsOf: digits)
            out.append(contentsOf: repeatElement(zero, count: n - k))
        } else if 0 < n && n <= 21 {
            out.append(contentsOf: digits.prefix(n))
            out.append(dot)
            out.append(contentsOf: digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            out.append(zero)
            out.append(dot)
            out.append(contentsOf: repeatElement(zero, count: -n))
            out.append(contentsOf: digits)
        } else {
            out.append(digits.first!)
            if k > 1 {
                out.append(dot)
                out.append(contentsOf: digits.dropFirst())
            }
            out.append(UInt8(ascii: "e"))
            let e = n - 1
            out.append(e >= 0 ? UInt8(ascii: "+") : UInt8(ascii: "-"))
            appendDigits(UInt64(abs(e)), to: &out)
        }
    }
}
