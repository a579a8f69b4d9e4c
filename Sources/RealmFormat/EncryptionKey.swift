/// A 64-byte Realm encryption key: bytes 0–31 the AES-256 key, 32–63 the HMAC key (§14.1).
/// Never printed: its description hides the bytes.
public struct EncryptionKey: Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// 64 raw bytes, or 128 hexadecimal characters (whitespace ignored).
    public init(contents: [UInt8]) throws(FormatError) {
        if contents.count == 64 {
            bytes = contents
            return
        }
        let hex = contents.filter { ![9, 10, 13, 32].contains($0) }
        guard hex.count == 128, let decoded = Self.decodeHex(hex) else {
            throw .invalidKey(reason: "a key is 64 bytes, or 128 hexadecimal characters (got \(contents.count) bytes)")
        }
        bytes = decoded
    }

    public init(hex: String) throws(FormatError) { try self.init(contents: Array(hex.utf8)) }

    /// Reads a key file.
    public init(file path: String) throws(FormatError) {
        let storage = try Platform.mapReadOnly(path: path)
        try self.init(contents: Array(storage.buffer))
    }

    public var description: String { "EncryptionKey(64 bytes, hidden)" }

    static func decodeHex(_ text: [UInt8]) -> [UInt8]? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
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
