import RealmFormat

/// ISO 8601 text of a Realm timestamp, UTC, proleptic Gregorian (fixtures/README.md):
/// `YYYY-MM-DDTHH:MM:SS[.f]Z`, the fraction being the nanoseconds without trailing zeros.
public enum DateText {
    public static func iso8601(_ t: Timestamp) -> String {
        var out = [UInt8]()
        append(t, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `fullFraction`: always `.fffffffff` (nine digits, also for whole seconds), so that texts
    /// of years 0000–9999 sort as the timestamps do (the SQLite export's date columns).
    public static func append(_ t: Timestamp, to out: inout [UInt8], fullFraction: Bool = false) {
        let days: Int64, secondOfDay: Int64
        var nanos: Int64
        if t.seconds > -(1 << 60) && t.seconds < 1 << 60 {
            // Every date a real file holds: floor division in 64 bits. Seconds and nanoseconds
            // share a sign (§9.7), but a damaged file may hold any pair: the nanoseconds are
            // carried into the seconds first, so the fraction is never negative.
            var s = t.seconds + Int64(t.nanoseconds / 1_000_000_000)
            var n = Int64(t.nanoseconds % 1_000_000_000)
            if n < 0 {
                n += 1_000_000_000
                s -= 1
            }
            var d = s / 86_400, r = s % 86_400
            if r < 0 {
                r += 86_400
                d -= 1
            }
            (days, secondOfDay, nanos) = (d, r, n)
        } else {
            // Seconds near the ends of Int64: the sum in nanoseconds in 128 bits, split with
            // floor division, so nothing overflows.
            let total = Int128(t.seconds) * 1_000_000_000 + Int128(t.nanoseconds)
            let nanosPerDay: Int128 = 86_400 * 1_000_000_000
            var d = total / nanosPerDay
            if total % nanosPerDay < 0 { d -= 1 }
            let rest = total - d * nanosPerDay
            (days, secondOfDay, nanos) = (Int64(d), Int64(rest / 1_000_000_000), Int64(rest % 1_000_000_000))
        }
        let (y, m, d) = civil(fromDays: days)    // |days| < 1.1e14
        if y >= 0 && y <= 9999 {
            two(y / 100, &out)
            two(y % 100, &out)
        } else {
            out.append(y > 0 ? UInt8(ascii: "+") : UInt8(ascii: "-"))
            pad(abs(y), 6, &out)
        }
        out.append(UInt8(ascii: "-")); two(m, &out)
        out.append(UInt8(ascii: "-")); two(d, &out)
        out.append(UInt8(ascii: "T")); two(secondOfDay / 3600, &out)
        out.append(UInt8(ascii: ":")); two(secondOfDay / 60 % 60, &out)
        out.append(UInt8(ascii: ":")); two(secondOfDay % 60, &out)
        if fullFraction {
            out.append(UInt8(ascii: "."))
            three(nanos / 1_000_000, &out)
            three(nanos / 1000 % 1000, &out)
            three(nanos % 1000, &out)
        } else if nanos != 0 {
            out.append(UInt8(ascii: "."))
            var digits = 9
            while nanos % 10 == 0 {
                nanos /= 10
                digits -= 1
            }
            pad(nanos, digits, &out)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// `v` (0–99) in two digits; `three`: `v` (0–999) in three (division by constants only).
    @inline(__always) static func two(_ v: Int64, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v / 10))
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10))
    }

    @inline(__always) static func three(_ v: Int64, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v / 100))
        two(v % 100, &out)
    }

    /// `v` (≥ 0) in at least `width` digits.
    static func pad(_ v: Int64, _ width: Int, _ out: inout [UInt8]) {
        var count = 1, p: Int64 = 10
        while count < 19 && v >= p {
            count += 1
            p *= 10
        }
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - count)))
        NumberText.appendDigits(UInt64(v), to: &out)
    }

    /// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's civil_from_days).
    public static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// Inverse of `civil`: days since 1970-01-01 of a proleptic Gregorian date.
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

}
