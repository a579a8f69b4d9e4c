/// Decimal128 arithmetic as realm-core does it (query-language.md §4, §5.5): parsing literal
/// text exactly (34 significant digits, half-even), conversions from int (exact), from double
/// (rounded to 15 significant digits) and float (7 digits), comparison by value (what
/// `ValueOrder` orders numbers across types with), and `+ - * /` rounded to 34 digits. Only
/// values matter here, never the cohort (the exponent a value is written with), because
/// queries and orderings only compare. In RealmFormat because Realm's value order needs it.
public enum DecimalMath {
    public static let zero = Decimal128(negative: false, coefficient: 0, exponent: 0)
    public static let nan = Decimal128(kind: .nan, negative: false, coefficient: 0, exponent: 0)
    static let maxDigits = 34
    static let minExponent = -6176
    static let maxExponent = 6111

    static func infinity(negative: Bool) -> Decimal128 {
        Decimal128(kind: .infinity, negative: negative, coefficient: 0, exponent: 0)
    }

    public static func from(_ i: Int64) -> Decimal128 {
        Decimal128(negative: i < 0, coefficient: UInt128(i.magnitude), exponent: 0)
    }

    /// `Decimal128(double)`: the double's value rounded to 34 digits, then to 15 (as realm-core's
    /// quantization does).
    public static func from(_ d: Double) -> Decimal128 { from(d, significant: 15) }

    /// `Decimal128(float)`: rounded to 7 significant digits.
    public static func from(_ f: Float) -> Decimal128 { from(Double(f), significant: 7) }

    static func from(_ d: Double, significant: Int) -> Decimal128 {
        if d.isNaN { return Decimal128(kind: .nan, negative: d.sign == .minus, coefficient: 0, exponent: 0) }   // the sign kept, as BID conversion keeps it
        if d.isInfinite { return infinity(negative: d < 0) }
        if d == 0 { return Decimal128(negative: d.sign == .minus, coefficient: 0, exponent: 0) }
        let (negative, digits34, exp10) = decimalDigits(d, significant: maxDigits)
        var big = BigUInt(digits: digits34)
        var exponent = exp10 - (digits34.count - 1)
        // Drop trailing zeros first: a value with few significant digits is kept exactly.
        while big.digitCount > 1, big.remainder(dividingBy: 10) == 0 {
            big = big.quotient(dividingBy: 10)
            exponent += 1
        }
        if big.digitCount > significant {
            (big, exponent) = round(big, exponent, toDigits: significant, sticky: false)
        }
        return make(negative: negative, big, exponent)
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    /// `%.<digits-1>e` of a double: its exact binary value correctly rounded to `significant`
    /// decimal digits, as (negative, digits, exponent of the first digit).
    static func decimalDigits(_ value: Double, significant: Int) -> (negative: Bool, digits: [UInt8], exponent: Int) {
        let text = Platform.scientific(value, significantDigits: significant)
        var negative = false
        var digits = [UInt8]()
        var i = 0
        if i < text.count, text[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        while i < text.count, text[i] != UInt8(ascii: "e") {
            if isDigit(text[i]) { digits.append(text[i] - 48) }
            i += 1
        }
        var exponent = 0
        if i + 1 < text.count {
            let sign = text[i + 1] == UInt8(ascii: "-") ? -1 : 1
            for c in text[(i + 1)...] where isDigit(c) { exponent = exponent * 10 + Int(c - 48) }
            exponent *= sign
        }
        return (negative, digits, exponent)
    }

    /// `bid128_from_string`: `[+-]digits[.digits][e[+-]digits]`, `inf`, `infinity`, `nan`;
    /// nil (realm-core: NaN) for anything else.
    public static func parse(_ text: [UInt8]) -> Decimal128? {
        var i = 0
        var negative = false
        if i < text.count, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        let rest = String(decoding: text[i...].map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
        if rest == "inf" || rest == "infinity" { return infinity(negative: negative) }
        if rest == "nan" { return nil }
        var digits = [UInt8]()
        var fractionDigits = 0
        var sawPoint = false
        while i < text.count {
            let c = text[i]
            if isDigit(c) {
                digits.append(c - 48)
                if sawPoint { fractionDigits += 1 }
            } else if c == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        guard !digits.isEmpty else { return nil }
        var exponent = -fractionDigits
        if i < text.count, text[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < text.count, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") {
                expNegative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var any = false
            while i < text.count, isDigit(text[i]) {
                e = min(e * 10 + Int(text[i] - 48), 1_000_000)
                i += 1
                any = true
            }
            guard any else { return nil }
            exponent += expNegative ? -e : e
        }
        guard i == text.count else { return nil }
        while digits.count > 1, digits[0] == 0 { digits.removeFirst() }
        return finish(negative: negative, BigUInt(digits: digits), exponent)
    }

    public static func isNaN(_ d: Decimal128) -> Bool { d.kind == .nan }

    /// `Decimal128::compare`: NaN first, then by value (+0 == -0). Two NaNs compare by their
    /// bits in realm-core; the decoder keeps only the sign, so a positive NaN (the smaller high
    /// word) comes before a negative one and NaNs of one sign are equal.
    public static func compare(_ a: Decimal128, _ b: Decimal128) -> Int {
        if a.kind == .nan || b.kind == .nan {
            if a.kind == .nan && b.kind == .nan { return a.negative == b.negative ? 0 : (a.negative ? 1 : -1) }
            return a.kind == .nan ? -1 : 1
        }
        let sa = sign(a), sb = sign(b)
        if sa != sb { return sa < sb ? -1 : 1 }
        if sa == 0 { return 0 }
        let m = compareMagnitude(a, b)
        return sa > 0 ? m : -m
    }

    /// -1, 0, 1 (infinities ±1 too).
    static func sign(_ d: Decimal128) -> Int {
        if d.kind == .infinity { return d.negative ? -1 : 1 }
        if d.coefficient == 0 { return 0 }
        return d.negative ? -1 : 1
    }

    static func compareMagnitude(_ a: Decimal128, _ b: Decimal128) -> Int {
        if a.kind == .infinity || b.kind == .infinity {
            if a.kind == b.kind { return 0 }
            return a.kind == .infinity ? 1 : -1
        }
        let da = BigUInt(a.coefficient).digitCount, db = BigUInt(b.coefficient).digitCount
        let adjA = da + a.exponent, adjB = db + b.exponent
        if adjA != adjB { return adjA < adjB ? -1 : 1 }
        var x = BigUInt(a.coefficient), y = BigUInt(b.coefficient)
        if a.exponent > b.exponent { x = x.timesPowerOfTen(a.exponent - b.exponent) }
        if b.exponent > a.exponent { y = y.timesPowerOfTen(b.exponent - a.exponent) }
        return BigUInt.compare(x, y)
    }

    static func negate(_ d: Decimal128) -> Decimal128 {
        Decimal128(kind: d.kind, negative: !d.negative, coefficient: d.coefficient, exponent: d.exponent)
    }

    public static func add(_ a: Decimal128, _ b: Decimal128) -> Decimal128 {
        if a.kind == .nan || b.kind == .nan { return nan }
        if a.kind == .infinity || b.kind == .infinity {
            if a.kind == .infinity && b.kind == .infinity && a.negative != b.negative { return nan }
            return a.kind == .infinity ? a : b
        }
        if a.coefficient == 0 { return b.coefficient == 0 ? zero : b }
        if b.coefficient == 0 { return a }
        let da = BigUInt(a.coefficient).digitCount, db = BigUInt(b.coefficient).digitCount
        // When one operand is far below the other's last kept digit it cannot change the
        // rounded sum's value.
        if (da + a.exponent) - (db + b.exponent) > maxDigits + 3 { return a }
        if (db + b.exponent) - (da + a.exponent) > maxDigits + 3 { return b }
        let e = min(a.exponent, b.exponent)
        let x = BigUInt(a.coefficient).timesPowerOfTen(a.exponent - e)
        let y = BigUInt(b.coefficient).timesPowerOfTen(b.exponent - e)
        if a.negative == b.negative { return finish(negative: a.negative, x + y, e) }
        switch BigUInt.compare(x, y) {
        case 0: return zero
        case 1: return finish(negative: a.negative, x - y, e)
        default: return finish(negative: b.negative, y - x, e)
        }
    }

    public static func subtract(_ a: Decimal128, _ b: Decimal128) -> Decimal128 { add(a, negate(b)) }

    public static func multiply(_ a: Decimal128, _ b: Decimal128) -> Decimal128 {
        if a.kind == .nan || b.kind == .nan { return nan }
        let negative = a.negative != b.negative
        if a.kind == .infinity || b.kind == .infinity {
            if sign(a) == 0 || sign(b) == 0 { return nan }
            return infinity(negative: negative)
        }
        return finish(negative: negative, BigUInt(a.coefficient) * BigUInt(b.coefficient), a.exponent + b.exponent)
    }

    public static func divide(_ a: Decimal128, _ b: Decimal128) -> Decimal128 {
        if a.kind == .nan || b.kind == .nan { return nan }
        let negative = a.negative != b.negative
        if a.kind == .infinity {
            return b.kind == .infinity ? nan : infinity(negative: negative)
        }
        if b.kind == .infinity { return Decimal128(negative: negative, coefficient: 0, exponent: 0) }
        if b.coefficient == 0 { return a.coefficient == 0 ? nan : infinity(negative: negative) }
        if a.coefficient == 0 { return Decimal128(negative: negative, coefficient: 0, exponent: 0) }
        let x = BigUInt(a.coefficient), y = BigUInt(b.coefficient)
        let k = max(0, maxDigits + 2 + y.digitCount - x.digitCount)
        let (q, r) = x.timesPowerOfTen(k).divided(by: y)
        return finish(negative: negative, q, a.exponent - b.exponent - k, sticky: !r.isZero)
    }

    /// Rounds to 34 digits (half-even) and fits the exponent range.
    static func finish(negative: Bool, _ c: BigUInt, _ e: Int, sticky: Bool = false) -> Decimal128 {
        var (big, exponent) = (c, e)
        if big.digitCount > maxDigits || sticky {
            (big, exponent) = round(big, exponent, toDigits: maxDigits, sticky: sticky)
        }
        return make(negative: negative, big, exponent)
    }

    static func make(negative: Bool, _ big: BigUInt, _ e: Int) -> Decimal128 {
        var (big, exponent) = (big, e)
        if big.isZero { return Decimal128(negative: negative, coefficient: 0, exponent: 0) }
        while exponent > maxExponent, big.digitCount < maxDigits {
            big = big.timesPowerOfTen(1)
            exponent -= 1
        }
        if exponent > maxExponent { return infinity(negative: negative) }
        if exponent < minExponent {
            let drop = minExponent - exponent
            if drop > maxDigits + 1 { return Decimal128(negative: negative, coefficient: 0, exponent: 0) }
            (big, exponent) = round(big, exponent, toDigits: max(0, big.digitCount - drop), sticky: false)
        }
        return Decimal128(negative: negative, coefficient: big.uint128, exponent: exponent)
    }

    /// Keeps `digits` significant digits, rounding half to even.
    static func round(_ c: BigUInt, _ e: Int, toDigits digits: Int, sticky: Bool) -> (BigUInt, Int) {
        var big = c, exponent = e, sticky = sticky
        var roundDigit: UInt32 = 0
        let drop = big.digitCount - digits
        if drop <= 0 {
            if sticky && drop == 0 { return (big, exponent) }
            return (big, exponent)
        }
        for i in 0..<drop {
            let r = big.remainder(dividingBy: 10)
            big = big.quotient(dividingBy: 10)
            exponent += 1
            if i < drop - 1 {
                if r != 0 { sticky = true }
            } else {
                roundDigit = r
            }
        }
        let roundUp = roundDigit > 5 || (roundDigit == 5 && (sticky || big.remainder(dividingBy: 2) == 1))
        if roundUp {
            big = big + BigUInt(UInt128(1))
            if big.digitCount > max(digits, 1) {
                big = big.quotient(dividingBy: 10)
                exponent += 1
            }
        }
        return (big, exponent)
    }
}

/// A small unsigned big integer (little-endian 32-bit limbs) for exact decimal arithmetic.
struct BigUInt {
    var limbs: [UInt32]

    init(_ v: UInt128) {
        var limbs = [UInt32]()
        var x = v
        while x != 0 {
            limbs.append(UInt32(truncatingIfNeeded: x))
            x >>= 32
        }
        self.limbs = limbs
    }

    init(digits: [UInt8]) {
        var b = BigUInt(UInt128(0))
        for d in digits { b = b.times(10, plus: UInt32(d)) }
        self = b
    }

    private init(limbs: [UInt32]) {
        var l = limbs
        while let last = l.last, last == 0 { l.removeLast() }
        self.limbs = l
    }

    var isZero: Bool { limbs.isEmpty }

    /// The value when it fits 128 bits (coefficients of at most 34 digits always do).
    var uint128: UInt128 {
        var v: UInt128 = 0
        for limb in limbs.prefix(4).reversed() { v = v << 32 | UInt128(limb) }
        return v
    }

    var digitCount: Int {
        if isZero { return 1 }
        var n = 0
        var x = self
        while !x.isZero {
            x = x.quotient(dividingBy: 10)
            n += 1
        }
        return n
    }

    func times(_ m: UInt32, plus a: UInt32 = 0) -> BigUInt {
        var out = [UInt32]()
        var carry = UInt64(a)
        for limb in limbs {
            let p = UInt64(limb) * UInt64(m) + carry
            out.append(UInt32(truncatingIfNeeded: p))
            carry = p >> 32
        }
        if carry != 0 { out.append(UInt32(carry)) }
        return BigUInt(limbs: out)
    }

    func timesPowerOfTen(_ n: Int) -> BigUInt {
        var x = self
        var k = n
        while k >= 9 {
            x = x.times(1_000_000_000)
            k -= 9
        }
        var p: UInt32 = 1
        for _ in 0..<k { p *= 10 }
        return k > 0 ? x.times(p) : x
    }

    func quotient(dividingBy d: UInt32) -> BigUInt { divided(by: d).0 }
    func remainder(dividingBy d: UInt32) -> UInt32 { divided(by: d).1 }

    func divided(by d: UInt32) -> (BigUInt, UInt32) {
        var out = [UInt32](repeating: 0, count: limbs.count)
        var r: UInt64 = 0
        for i in stride(from: limbs.count - 1, through: 0, by: -1) {
            let cur = r << 32 | UInt64(limbs[i])
            out[i] = UInt32(cur / UInt64(d))
            r = cur % UInt64(d)
        }
        return (BigUInt(limbs: out), UInt32(r))
    }

    /// Long division by another big integer, bit by bit (operands here are a few hundred bits).
    func divided(by d: BigUInt) -> (BigUInt, BigUInt) {
        if BigUInt.compare(self, d) < 0 { return (BigUInt(UInt128(0)), self) }
        var q = [UInt32](repeating: 0, count: limbs.count)
        var r = BigUInt(UInt128(0))
        for bit in stride(from: limbs.count * 32 - 1, through: 0, by: -1) {
            r = r.times(2, plus: (limbs[bit / 32] >> UInt32(bit % 32)) & 1)
            if BigUInt.compare(r, d) >= 0 {
                r = r - d
                q[bit / 32] |= 1 << UInt32(bit % 32)
            }
        }
        return (BigUInt(limbs: q), r)
    }

    static func compare(_ a: BigUInt, _ b: BigUInt) -> Int {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count ? -1 : 1 }
        for i in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[i] != b.limbs[i] {
            return a.limbs[i] < b.limbs[i] ? -1 : 1
        }
        return 0
    }

    static func + (a: BigUInt, b: BigUInt) -> BigUInt {
        var out = [UInt32]()
        var carry: UInt64 = 0
        for i in 0..<max(a.limbs.count, b.limbs.count) {
            let s = UInt64(i < a.limbs.count ? a.limbs[i] : 0) + UInt64(i < b.limbs.count ? b.limbs[i] : 0) + carry
            out.append(UInt32(truncatingIfNeeded: s))
            carry = s >> 32
        }
        if carry != 0 { out.append(UInt32(carry)) }
        return BigUInt(limbs: out)
    }

    /// a - b for a >= b.
    static func - (a: BigUInt, b: BigUInt) -> BigUInt {
        var out = [UInt32]()
        var borrow: Int64 = 0
        for i in 0..<a.limbs.count {
            var s = Int64(a.limbs[i]) - Int64(i < b.limbs.count ? b.limbs[i] : 0) - borrow
            borrow = 0
            if s < 0 {
                s += 1 << 32
                borrow = 1
            }
            out.append(UInt32(s))
        }
        return BigUInt(limbs: out)
    }

    static func * (a: BigUInt, b: BigUInt) -> BigUInt {
        var out = [UInt32](repeating: 0, count: a.limbs.count + b.limbs.count + 1)
        for (i, x) in a.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, y) in b.limbs.enumerated() {
                let p = UInt64(x) * UInt64(y) + UInt64(out[i + j]) + carry
                out[i + j] = UInt32(truncatingIfNeeded: p)
                carry = p >> 32
            }
            var k = i + b.limbs.count
            while carry != 0 {
                let s = UInt64(out[k]) + carry
                out[k] = UInt32(truncatingIfNeeded: s)
                carry = s >> 32
                k += 1
            }
        }
        return BigUInt(limbs: out)
    }
}
