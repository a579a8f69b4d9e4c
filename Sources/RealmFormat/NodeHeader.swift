/// How a node's elements are packed (realm-format.md §4.1–§4.2).
public enum WidthType: UInt8, Sendable {
    /// `width` bits per element: integer arrays, has-refs arrays, bools, keys.
    case bits = 0
    /// `width` bytes per element: short strings, floats, doubles, fixed bytes, decimals.
    case multiply = 1
    /// One byte per element: blobs.
    case ignore = 2
}

/// The 8-byte header every node starts with (realm-format.md §4.1), decoded.
public struct NodeHeader: Sendable, Equatable {
    public let flags: UInt8
    /// Number of elements (big-endian 24-bit field).
    public let count: Int

    public var isInner: Bool { flags & 0x80 != 0 }
    public var hasRefs: Bool { flags & 0x40 != 0 }
    /// Structure-specific flag: big blob, search-index node, unresolved links, decimal zero.
    public var context: Bool { flags & 0x20 != 0 }
    /// nil for the unreleased width type 3 (§4.6).
    public var widthType: WidthType? { WidthType(rawValue: (flags >> 3) & 3) }
    /// Bits (or bytes, or nothing) per element: 0, 1, 2, 4, 8, 16, 32, 64.
    public var width: Int { (1 << Int(flags & 7)) >> 1 }

    public init(flags: UInt8, count: Int) {
        self.flags = flags
        self.count = count
    }

    /// Payload bytes before padding (§4.2).
    @inline(__always)
    public var payloadSize: Int {
        switch widthType {
        case .bits: return (count * width + 7) / 8
        case .multiply: return count * width
        case .ignore, .none: return count
        }
    }

    /// Bytes the node occupies in the file: header plus payload rounded up to 8 (§4.2).
    public var byteSize: Int { 8 + ((payloadSize + 7) & ~7) }
}
