/// A node built directly in its file form (realm-format.md §4.1–§4.2): "AAAA", flags with the
/// width code, the big-endian size, the payload, zero padding to a multiple of 8 (§4.4: writers
/// write zeros). Byte-level row removal (`LeafRowFilter`) fills the payload straight from the
/// committed node's bytes, with no decoded values in between.
struct NodeImage {
    private(set) var bytes: [UInt8]
    let payloadCount: Int
    let width: Int

    /// A zeroed node of `count` elements with `payloadCount` payload bytes. `flags` holds the
    /// width type bits (0x08 multiply, 0x10 ignore); the width code is added here.
    init(flags: UInt8, width: Int, count: Int, payloadCount: Int) {
        self.payloadCount = payloadCount
        self.width = width
        bytes = [UInt8](repeating: 0, count: 8 + (payloadCount + 7) & ~7)
        bytes[0] = 0x41
        bytes[1] = 0x41
        bytes[2] = 0x41
        bytes[3] = 0x41
        bytes[4] = flags | NodeWriting.widthCode(width)
        bytes[5] = UInt8(count >> 16 & 0xFF)
        bytes[6] = UInt8(count >> 8 & 0xFF)
        bytes[7] = UInt8(count & 0xFF)
    }

    /// Runs `body` over the payload bytes (exactly `payloadCount` of them).
    mutating func withPayload<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        let n = payloadCount
        return bytes.withUnsafeMutableBytes { all in body(UnsafeMutableRawBufferPointer(rebasing: all[8..<(8 + n)])) }
    }

    /// An integer array (width type bits) of `count` elements at `width` (§4.3).
    init(integers count: Int, width: Int) {
        self.init(flags: 0, width: width, count: count, payloadCount: (count * width + 7) / 8)
    }

    /// Stores element `i` of an integer array; `v` must fit the width (§4.3).
    mutating func setInt(_ i: Int, _ v: Int64) {
        let p = 8
        switch width {
        case 0: break
        case 1, 2, 4:
            let perByte = 8 / width
            bytes[p + i / perByte] |= UInt8(truncatingIfNeeded: v) << UInt8((i % perByte) * width)
        default:
            let size = width / 8
            var x = UInt64(bitPattern: v)
            for b in 0..<size {
                bytes[p + i * size + b] = UInt8(truncatingIfNeeded: x)
                x >>= 8
            }
        }
    }

    /// Smallest width for non-negative values up to `largest` (§4.3).
    static func width(upTo largest: Int) -> Int {
        switch largest {
        case ...0: return 0
        case 1: return 1
        case 2...3: return 2
        case 4...15: return 4
        case 16...127: return 8
        case 128...32767: return 16
        case 32768...Int(Int32.max): return 32
        default: return 64
        }
    }

    var node: MutableNode { MutableNode(image: bytes) }
}
