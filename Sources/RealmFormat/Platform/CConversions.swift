#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's number and date conversions, where realm-core's behaviour is the C
/// library's (query-language.md §1.6, §4, §5.8): RealmQuery reaches libc only through these.
extension Platform {
    /// C `strtod` of `text` (no NUL needed).
    public static func strtod<C: Collection<UInt8>>(_ text: C) -> Double {
        withCString(text) { Glibc.strtod($0, nil) }
    }

    /// C `strtof`.
    public static func strtof<C: Collection<UInt8>>(_ text: C) -> Float {
        withCString(text) { Glibc.strtof($0, nil) }
    }

    /// `printf("%.*e", digits - 1, value)`: the double's exact binary value correctly rounded
    /// to `digits` significant decimal digits, as text (`-1.2345e+06`).
    public static func scientific(_ value: Double, significantDigits digits: Int) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 128)
        let count = withVaList([digits - 1, value]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 128, "%.*e", args) }
        }
        return buffer[0..<Int(max(0, min(count, 127)))].map { UInt8(bitPattern: $0) }
    }

    /// `timegm` of broken-down UTC time in `struct tm`'s terms (years since 1900, months from
    /// 0), normalised as timegm normalises out-of-range fields.
    public static func timegm(tmYear: Int32, tmMonth: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32) -> Int64 {
        var tm = Glibc.tm()
        tm.tm_year = tmYear
        tm.tm_mon = tmMonth
        tm.tm_mday = day
        tm.tm_hour = hour
        tm.tm_min = minute
        tm.tm_sec = second
        return Int64(Glibc.timegm(&tm))
    }

    private static func withCString<C: Collection<UInt8>, R>(_ text: C, _ body: (UnsafePointer<CChar>) -> R) -> R {
        var bytes = Array(text)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count, body)
        }
    }
}
