/// The 24-byte file header and the snapshot it selects (realm-format.md §3.1, §3.5).
public struct FileHeader: Sendable {
    public static let streamingMarker: UInt64 = 0xFFFF_FFFF_FFFF_FFFF
    public static let footerCookie: UInt64 = 0x3034_1252_37E5_26C8

    public let topRefs: (UInt64, UInt64)
    public let fileFormats: (UInt8, UInt8)
    public let flags: UInt8
    /// Streaming form (§3.5): slot 0 holds the marker and the top ref is in the 16-byte footer.
    public let isStreaming: Bool
    /// The current top ref (0: nothing committed yet).
    public let topRef: Int
    /// The file format of the current snapshot, as found on disk (before any upgrade).
    public let fileFormat: Int

    /// Which header slot (0/1) is current.
    public var slot: Int { Int(flags & 1) }

    /// Reads and validates the header the way Realm does on open (§3.1).
    public init(image: ByteImage) throws(FormatError) {
        let size = image.count
        if size == 0 {
            // Realm creates its header on first open: an empty file is a Realm with nothing
            // committed (Core's SlabAlloc initializes a 0-byte file), read as format 0.
            (topRefs, fileFormats, flags, isStreaming, topRef, fileFormat) = ((0, 0), (0, 0), 0, false, 0, 0)
            return
        }
        guard size >= 24 else {
            throw .notARealmFile(reason: "only \(size) bytes, shorter than a Realm header")
        }
        let mnemonicOK = (try image.copy(16, 4)) == Array("T-DB".utf8)
        guard mnemonicOK else {
            if Self.looksEncrypted(image) { throw .encrypted }
            throw .notARealmFile(reason: "no \"T-DB\" mnemonic in the header")
        }
        guard size % 8 == 0 else { throw .notARealmFile(reason: "size \(size) is not a multiple of 8") }
        topRefs = (try image.u64(0), try image.u64(8))
        fileFormats = (try image.u8(20), try image.u8(21))
        flags = try image.u8(23)
        let slot = Int(flags & 1)
        isStreaming = slot == 0 && topRefs.0 == Self.streamingMarker
        let top: UInt64
        if isStreaming {
            guard size >= 40 else { throw .notARealmFile(reason: "streaming form but too small for its footer") }
            top = try image.u64(size - 16)
            let cookie = try image.u64(size - 8)
            guard cookie == Self.footerCookie else {
                throw .corrupt(offset: size - 8, reason: "streaming form with an invalid footer cookie \(hex(cookie))")
            }
            fileFormat = Int(fileFormats.0)
        } else {
            top = slot == 0 ? topRefs.0 : topRefs.1
            fileFormat = Int(slot == 0 ? fileFormats.0 : fileFormats.1)
        }
        guard top % 8 == 0 else { throw .corrupt(offset: 8 * slot, reason: "top ref \(hex(top)) is not 8-aligned") }
        guard top < UInt64(size) else {
            throw .corrupt(offset: 8 * slot, reason: "top ref \(hex(top)) is outside the file (\(size) bytes)")
        }
        topRef = Int(top)
        if topRef != 0 && !FileFormat.readable.contains(fileFormat) && !FileFormat.legacy.contains(fileFormat) {
            throw .unsupportedFormat(version: fileFormat)
        }
    }

    /// Realm's page encryption (§14.2) puts an IV table first: its first entry starts with a
    /// small non-zero counter, and a never-rewritten page has an all-zero second pair. Plain
    /// files with a damaged header, text and random bytes almost never look like that.
    static func looksEncrypted(_ image: ByteImage) -> Bool {
        guard image.count >= 8192, image.count % 4096 == 0, let iv1 = try? image.u64(0) else { return false }
        let counter = iv1 & 0xFFFF_FFFF
        guard counter != 0, counter < 1 << 24 else { return false }
        guard let iv2 = try? image.u64(32) else { return false }
        if iv2 & 0xFFFF_FFFF == 0 {
            guard let pair = try? image.copy(32, 32) else { return false }
            return pair.allSatisfy { $0 == 0 }
        }
        return iv2 & 0xFFFF_FFFF < 1 << 24
    }
}

/// File format versions and the Realm Core era that wrote them (§16.1).
public enum FileFormat {
    /// Formats this reader reads as they are on disk. 10 and 11 (Core 6) share the cluster
    /// layout and are read the same way (§16.3).
    public static let readable: Set<Int> = [10, 11, 20, 21, 22, 23, 24]

    /// Formats of the row-and-column layout before clusters (Core 0.8x–5.x), read through
    /// `Legacy/` and shown as Realm Core 13 upgrades them (legacy-formats.md).
    public static let legacy: ClosedRange<Int> = 2...9

    /// The SDK era of a format, for `info`.
    public static func era(_ format: Int) -> String {
        switch format {
        case 0: return "nothing committed yet"
        case 2: return "Realm Core 0.80-0.96 (2014-2016: Realm Java 0.80-0.87, Realm Cocoa 0.8x-0.9x)"
        case 3: return "Realm Core 0.90-0.99 with nullable strings (2015-2016: Realm Java 0.88-0.90, Realm Cocoa 0.9x)"
        case 4: return "Realm Core 0.97-0.99 with in-file history (2016: Realm Java 0.89-0.90, Realm Cocoa 0.98-0.103)"
        case 5: return "Realm Core 0.100-1.x (2016: Realm Java 1.x, Realm Cocoa 1.x, Realm JS 0.x)"
        case 6: return "Realm Core 2.0-2.4 (2016-2017: Realm Java 2.x-3.0, Realm Cocoa/Swift 2.0-2.4, Realm JS 1.0)"
        case 7: return "Realm Core 2.5-2.9 (2017: Realm Java 3.1-3.5, Realm Cocoa/Swift 2.5-2.8, Realm JS 1.x)"
        case 8: return "Realm Core 3.x (2017: Realm Java 3.6-3.7, Realm Cocoa/Swift 2.9-2.10, Realm JS 1.1x)"
        case 9: return "Realm Core 4-5 (2017-2019: Realm Java 4-6, Realm Cocoa/Swift 3-4, Realm JS 2-5, Realm .NET 2-4)"
        case 10, 11: return "Realm Core 6 (SDKs before Realm 10, 2019-2020)"
        case 20: return "Realm Core 10 (SDKs of 2020-2021)"
        case 21: return "Realm Core 11 betas"
        case 22: return "Realm Core 11-12 (SDKs of 2021-2022)"
        case 23: return "Realm Core 13 (SDKs of 2023)"
        case 24: return "Realm Core 14 or later (SDKs from late 2023 on)"
        default: return "unknown"
        }
    }
}
