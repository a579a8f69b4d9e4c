/// An IEEE 754-2008 decimal128 value in BID encoding (realm-format.md §9.9), as Realm stores
/// it, decoded into sign, coefficient and exponent.
public struct Decimal128: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case finite, infinity, nan }

    public let kind: Kind
    public let negative: Bool
    /// At most 34 decimal digits (113 bits).
    public let coefficient: UInt128
    public let exponent: Int

    public init(kind: Kind = .finite, negative: Bool, coefficient: UInt128, exponent: Int) {
        self.kind = kind
        self.negative = negative
        self.coefficient = coefficient
        self.exponent = exponent
    }

    static let maxCoefficient: UInt128 = 9_999_999_999_999_999_999_999_999_999_999_999

    /// Decodes the 128-bit BID pattern (low word first on disk).
    public init(low: UInt64, high: UInt64) {
        let negative = high >> 63 == 1
        if high & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 {
            self.init(kind: .nan, negative: negative, coefficient: 0, exponent: 0)
            return
        }
        if high & 0x7800_0000_0000_0000 == 0x7800_0000_0000_0000 {
            self.init(kind: .infinity, negative: negative, coefficient: 0, exponent: 0)
            return
        }
        var coefficient: UInt128
        let biased: UInt64
        if high & 0x6000_0000_0000_0000 == 0x6000_0000_0000_0000 {
            // Large-coefficient form: ≥ 2^113, non-canonical, which BID defines as zero.
            biased = (high >> 47) & 0x3FFF
            coefficient = 0
        } else {
            biased = (high >> 49) & 0x3FFF
            coefficient = UInt128(high & 0x1_FFFF_FFFF_FFFF) << 64 | UInt128(low)
        }
        if coefficient > Self.maxCoefficient { coefficient = 0 }
        self.init(negative: negative, coefficient: coefficient, exponent: Int(biased) - 6176)
    }

    /// Decodes decimal64 (`bits` = 64) or decimal32 (`bits` = 32) patterns of format-24
    /// narrow leaves, widened to decimal128 (§9.9).
    init(narrow value: UInt64, bits: Int) {
        let (exponentBits, bias, coefficientBits) = bits == 64 ? (10, 398, 53) : (8, 101, 23)
        let negative = (value >> UInt64(bits - 1)) & 1 == 1
        let top5 = (value >> UInt64(bits - 6)) & 0x1F
        if top5 == 0x1F {
            self.init(kind: .nan, negative: negative, coefficient: 0, exponent: 0)
            return
        }
        if top5 == 0x1E {
            self.init(kind: .infinity, negative: negative, coefficient: 0, exponent: 0)
            return
        }
        let expMask = UInt64(1) << UInt64(exponentBits) - 1
        let exp: UInt64
        let coefficient: UInt64
        if (value >> UInt64(bits - 3)) & 3 == 3 {
            exp = (value >> UInt64(coefficientBits - 2)) & expMask
            coefficient = (UInt64(4) << UInt64(coefficientBits - 2)) | (value & (UInt64(1) << UInt64(coefficientBits - 2) - 1))
        } else {
            exp = (value >> UInt64(coefficientBits)) & expMask
            coefficient = value & (UInt64(1) << UInt64(coefficientBits) - 1)
        }
        self.init(negative: negative, coefficient: UInt128(coefficient), exponent: Int(exp) - bias)
    }

    /// Realm's text form (fixtures/README.md): the point moves left while more than one digit
    /// stays before it and the exponent is not 0; `E<exp>` follows if it is still non-zero.
    public var text: String {
        switch kind {
        case .nan: return "NaN"
        case .infinity: return negative ? "-Inf" : "Inf"
        case .finite: break
        }
        let digits = Array(String(coefficient).utf8)
        var before = digits.count
        var exp = exponent
        while before > 1 && exp != 0 {
            before -= 1
            exp += 1
        }
        var out = negative ? "-" : ""
        out += String(decoding: digits[0..<before], as: UTF8.self)
        if before < digits.count { out += "." + String(decoding: digits[before...], as: UTF8.self) }
        if exp != 0 { out += "E\(exp)" }
        return out
    }

    /// The nearest Double, for ordering across numeric types (§10.2). NaN for NaN.
    public var doubleValue: Double {
        switch kind {
        case .nan: return .nan
        case .infinity: return negative ? -.infinity : .infinity
        case .finite:
            let magnitude = Double(coefficient) * pow10(exponent)
            return negative ? -magnitude : magnitude
        }
    }
}

private func pow10(_ e: Int) -> Double {
    var result = 1.0
    var base = e < 0 ? 0.1 : 10.0
    var n = abs(e)
    // Exact enough for ordering; extreme exponents saturate to 0 or infinity.
    if n > 400 { return e < 0 ? 0 : .infinity }
    while n > 0 {
        if n & 1 == 1 { result *= base }
        base *= base
        n >>= 1
    }
    return result
}
