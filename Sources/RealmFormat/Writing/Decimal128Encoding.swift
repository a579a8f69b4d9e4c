/// Decimal128 back to its BID bits, and exact numeric comparison (realm-format.md §9.9, §10.2).
extension Decimal128 {
    /// The 128-bit BID pattern (low word, high word) Realm stores. NaN keeps only its sign
    /// (a NaN payload is not part of the decoded value); a finite value needs at most 34 digits
    /// and an exponent in −6176…6111.
    public func bidBits() throws(FormatError) -> (low: UInt64, high: UInt64) {
        let sign: UInt64 = negative ? 1 << 63 : 0
        switch kind {
        case .nan: return (0, sign | 0x7C00_0000_0000_0000)
        case .infinity: return (0, sign | 0x7800_0000_0000_0000)
        case .finite: break
        }
        guard coefficient <= Self.maxCoefficient else {
            throw .cannotWrite(reason: "a decimal coefficient of more than 34 digits")
        }
        let biased = exponent + 6176
        guard biased >= 0 && biased < 0x3000 else {
            throw .cannotWrite(reason: "a decimal exponent of \(exponent) (Decimal128 allows -6176 to 6111)")
        }
        let high = sign | UInt64(biased) << 49 | UInt64(truncatingIfNeeded: coefficient >> 64)
        return (UInt64(truncatingIfNeeded: coefficient), high)
    }

    /// −1, 0 or 1 by numeric value: −Inf < finite < +Inf, −0 = 0, 1.5 = 1.50. NaN is not a
    /// number here: callers place it (it compares equal to everything).
    func compareNumerically(_ other: Decimal128) -> Int {
        func rank(_ d: Decimal128) -> Int {
            switch d.kind {
            case .infinity: return d.negative ? -2 : 2
            case .finite: return d.coefficient == 0 ? 0 : (d.negative ? -1 : 1)
            case .nan: return 0
            }
        }
        if kind == .nan || other.kind == .nan { return 0 }
        let a = rank(self), b = rank(other)
        if a != b { return a < b ? -1 : 1 }
        guard kind == .finite, a != 0 else { return 0 }
        let magnitude = Self.compareMagnitudes(self, other)
        return negative ? -magnitude : magnitude
    }

    /// Compares |a| and |b| (finite, non-zero): first by the position of the leading digit,
    /// then digit by digit after aligning the exponents.
    private static func compareMagnitudes(_ a: Decimal128, _ b: Decimal128) -> Int {
        let leadA = digitCount(a.coefficient) + a.exponent, leadB = digitCount(b.coefficient) + b.exponent
        if leadA != leadB { return leadA < leadB ? -1 : 1 }
        // Same leading position: the one with the larger exponent has fewer digits, so scaling
        // it up to the other's exponent stays within the other's digit count.
        var x = a.coefficient, y = b.coefficient
        if a.exponent > b.exponent {
            x = scaled(x, by: a.exponent - b.exponent)
        } else if b.exponent > a.exponent {
            y = scaled(y, by: b.exponent - a.exponent)
        }
        return x == y ? 0 : (x < y ? -1 : 1)
    }

    private static func digitCount(_ v: UInt128) -> Int {
        var n = 1, x = v
        while x >= 10 {
            x /= 10
            n += 1
        }
        return n
    }

    private static func scaled(_ v: UInt128, by digits: Int) -> UInt128 {
        var x = v
        for _ in 0..<digits {
            let (product, overflow) = x.multipliedReportingOverflow(by: 10)
            if overflow { return .max }
            x = product
        }
        return x
    }
}
