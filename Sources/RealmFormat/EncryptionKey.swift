/// A 64-byte Realm encryption key: bytes 0–31 the AES-256 key, 32–63 the HMAC key (§14.1).
/// Never printed: its description hides the bytes.
public struct EncryptionKey: Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// 64 raw bytes, or 128 hexadecimal characters (whitespace ignored). Exactly 64 bytes are
    /// always the raw key, even when they are all hex digits (realm-core's own tests use such
    /// ASCII keys); a wrong key of that kind gets a hint (`isHalfKeyInHex`).
    public init(contents: [UInt8]) throws(FormatError) {
        if contents.count == 64 {
            bytes = contents
            return
        }
        let text = contents.filter { ![9, 10, 13, 32].contains($0) }
        let isHex = !text.isEmpty && text.allSatisfy { Self.nibble($0) != nil }
        if text.count == 128, isHex, let decoded = Self.decodeHex(text) {
            bytes = decoded
            return
        }
        let wanted = "a key is 64 raw bytes or 128 hexadecimal characters"
        if isHex {
            let what = text.count % 2 == 0 ? "\(text.count / 2) bytes of hex" : "an odd number of hex digits"
            throw .invalidKey(reason: "\(text.count) hexadecimal characters are \(what), too \(text.count < 128 ? "short" : "long"): \(wanted)")
        }
        if text.count == 128, let bad = text.firstIndex(where: { Self.nibble($0) == nil }) {
            throw .invalidKey(reason: "128 characters, but not hexadecimal (character \(bad + 1) is \(Self.describe(text[bad]))): \(wanted)")
        }
        throw .invalidKey(reason: "\(wanted), not \(contents.count) bytes")
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
    }

    public init(hex: String) throws(FormatError) { try self.init(contents: Array(hex.utf8)) }

    /// Whether key text is 64 hexadecimal characters: taken as 64 raw bytes, but more likely
    /// a 32-byte key written in hex (`openssl rand -hex 32`), half of what Realm needs.
    public static func isHalfKeyInHex(_ contents: [UInt8]) -> Bool {
        let text = contents.filter { ![9, 10, 13, 32].contains($0) }
        return text.count == 64 && text.allSatisfy { nibble($0) != nil }
    }

    /// Reads a key file.
    public init(file path: String) throws(FormatError) {
        let storage = try Platform.mapReadOnly(path: path)
        try self.init(contents: Array(storage.buffer))
    }

    public var description: String { "EncryptionKey(64 bytes, hidden)" }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }

    static func decodeHex(_ text: [UInt8]) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.count / 2)
        var i = 0
        while i + 1 < text.count {
            guard let hi = nibble(text[i]), let lo = nibble(text[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
