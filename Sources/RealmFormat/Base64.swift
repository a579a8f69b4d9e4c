/// Standard base64 (RFC 4648), the one implementation: binary values in the dump, CSV and
/// tables are encoded with `=` padding; decoding follows realm-core's rules
/// (src/realm/util/base64.cpp), which the query language's `B64"…"` literals need and Extended
/// JSON input accepts too: tab, newline and space are skipped, `-` and `_` are accepted for
/// `+` and `/`, padding may be omitted, nothing may follow padding.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let a = UInt32(bytes[i]), b = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0, c = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let triple = a << 16 | b << 8 | c
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(i + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `input` encodes, or nil when it is not base64 by the rules above.
    public static func decode<C: Collection<UInt8>>(_ input: C) -> [UInt8]? {
        var out = [UInt8]()
        var buffer: UInt32 = 0
        var buffered = 0
        var equals = 0
        for c in input {
            let x: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): x = UInt32(c - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): x = UInt32(c - 97 + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): x = UInt32(c - 48 + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): x = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): x = 63
            case UInt8(ascii: "="):
                equals += 1
                continue
            case 0x09, 0x0A, 0x20: continue
            default: return nil
            }
            if equals > 0 { return nil }
            buffer = buffer << 6 | x
            buffered += 1
            if buffered == 4 {
                out += [UInt8(buffer >> 16 & 0xFF), UInt8(buffer >> 8 & 0xFF), UInt8(buffer & 0xFF)]
                buffer = 0
                buffered = 0
            }
        }
        let extra = input.count % 4
        if equals == 0 && extra > 1 { equals = 4 - extra }
        switch equals {
        case 0: return buffered == 0 ? out : nil
        case 1: return out + [UInt8(buffer >> 10 & 0xFF), UInt8(buffer >> 2 & 0xFF)]
        case 2: return out + [UInt8(buffer >> 4 & 0xFF)]
        default: return nil
        }
    }

    public static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8)) }
}
