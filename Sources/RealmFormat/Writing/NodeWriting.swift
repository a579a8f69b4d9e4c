/// Encoding integer arrays (realm-format.md §4.1–§4.3): the minimal width, the header, the
/// packed elements. Used by every writer.
public enum NodeWriting {
    /// Smallest width holding every value: 0, 1, 2, 4 unsigned; 8–64 signed (§4.3).
    public static func minimalWidth(_ values: [Int64]) -> Int {
        values.withUnsafeBufferPointer { minimalWidth($0) }
    }

    /// `minimalWidth` of values in place (the compactor's slots, with no array per node).
    static func minimalWidth(_ values: UnsafeBufferPointer<Int64>) -> Int {
        var lo: Int64 = 0, hi: Int64 = 0
        for v in values {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        return minimalWidth(lo: lo, hi: hi)
    }

    /// The smallest width (§4.3) holding every value from `lo` to `hi` (`lo` ≤ 0 ≤ `hi`).
    static func minimalWidth(lo: Int64, hi: Int64) -> Int {
        if lo >= 0 {
            if hi == 0 { return 0 }
            if hi <= 1 { return 1 }
            if hi <= 3 { return 2 }
            if hi <= 15 { return 4 }
        }
        if lo >= -128 && hi <= 127 { return 8 }
        if lo >= -32768 && hi <= 32767 { return 16 }
        if lo >= Int64(Int32.min) && hi <= Int64(Int32.max) { return 32 }
        return 64
    }

    static func widthCode(_ width: Int) -> UInt8 {
        switch width {
        case 0: return 0
        case 1: return 1
        case 2: return 2
        case 4: return 3
        case 8: return 4
        case 16: return 5
        case 32: return 6
        default: return 7
        }
    }

    /// Total bytes of a bits-width node of `count` elements of `width` bits.
    public static func byteSize(count: Int, width: Int) -> Int { 8 + (((count * width + 7) / 8 + 7) & ~7) }

    /// ArrayUnsigned (§4.3): width ≥ 8, elements unsigned.
    public static func minimalUnsignedWidth(_ values: [Int64]) -> Int {
        values.withUnsafeBufferPointer { minimalUnsignedWidth($0) }
    }

    static func minimalUnsignedWidth(_ values: UnsafeBufferPointer<Int64>) -> Int {
        var hi: UInt64 = 0
        for v in values { hi = max(hi, UInt64(bitPattern: v)) }
        if hi < 1 << 8 { return 8 }
        if hi < 1 << 16 { return 16 }
        if hi < 1 << 32 { return 32 }
        return 64
    }

    /// Room for `size` more bytes; grows geometrically, as `append` does, so that appending
    /// many nodes to one image stays linear (an exact `reserveCapacity` would copy it each time).
    static func reserve(_ size: Int, in out: inout [UInt8]) {
        let needed = out.count + size
        if out.capacity < needed { out.reserveCapacity(max(needed, 2 * out.capacity)) }
    }

    /// A header (`AAAA`, flags, 24-bit count) then `payload`, zero-padded to 8 bytes (§4.1).
    static func appendPadded(header flags: UInt8, count: Int, payload: [UInt8], to out: inout [UInt8]) {
        reserve(8 + payload.count + 7, in: &out)
        appendHeader(flags: flags, count: count, to: &out)
        out += payload
        out.append(contentsOf: repeatElement(0, count: (8 - payload.count % 8) % 8))
    }

    /// Appends the node: "AAAA", flags | width code, big-endian size, packed values, zero padding.
    public static func append(flags: UInt8, values: [Int64], width minimum: Int = 0, unsigned: Bool = false, to out: inout [UInt8]) {
        values.withUnsafeBufferPointer { append(flags: flags, values: $0, width: minimum, unsigned: unsigned, to: &out) }
    }

    /// Appends `count` zeros, a block at a time (appending a `repeatElement` goes element by
    /// element; the compactor pads and zero-fills every node it writes).
    static func appendZeros(_ count: Int, to out: inout [UInt8]) { appendZeros(count, from: zeroBytes, to: &out) }

    /// The same for slots (the compactor's stack).
    static func appendZeros(_ count: Int, to out: inout [Int64]) { appendZeros(count, from: zeroSlots, to: &out) }

    @inline(__always)
    private static func appendZeros<T>(_ count: Int, from block: [T], to out: inout [T]) {
        var left = count
        while left > 0 {
            let k = min(left, block.count)
            out.append(contentsOf: block[0..<k])
            left -= k
        }
    }

    private static let zeroBytes = [UInt8](repeating: 0, count: 4096)
    private static let zeroSlots = [Int64](repeating: 0, count: 1024)

    /// The 8-byte header (§4.1): "AAAA", `flags`, the big-endian 24-bit `count`; one store, no
    /// temporary array (the compactor writes one per node).
    @inline(__always)
    static func appendHeader(flags: UInt8, count: Int, to out: inout [UInt8]) {
        let word = UInt64(0x4141_4141) | UInt64(flags) << 32 | UInt64(count >> 16 & 0xFF) << 40
            | UInt64(count >> 8 & 0xFF) << 48 | UInt64(count & 0xFF) << 56
        withUnsafeBytes(of: word.littleEndian) { out.append(contentsOf: $0) }
    }

    /// `append` of values in place.
    static func append(flags: UInt8, values: UnsafeBufferPointer<Int64>, width minimum: Int = 0, unsigned: Bool = false, to out: inout [UInt8]) {
        let width = max(unsigned ? minimalUnsignedWidth(values) : minimalWidth(values), minimum)
        let n = values.count
        let size = byteSize(count: n, width: width)
        NodeWriting.reserve(size, in: &out)
        appendHeader(flags: flags | widthCode(width), count: n, to: &out)
        let start = out.count
        appendZeros(size - 8, to: &out)
        switch width {
        case 0: break
        case 1, 2, 4:
            let perByte = 8 / width
            for (i, v) in values.enumerated() {
                out[start + i / perByte] |= UInt8(truncatingIfNeeded: v) << UInt8((i % perByte) * width)
            }
        default:
            // Little-endian elements of 1–8 bytes; `size` covers n × width bits, so every store
            // below is inside the bytes just appended.
            out.withUnsafeMutableBytes { raw in
                switch width {
                case 8: for (i, v) in values.enumerated() { raw.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: start + i, as: UInt8.self) }
                case 16: for (i, v) in values.enumerated() { raw.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, toByteOffset: start + 2 * i, as: UInt16.self) }
                case 32: for (i, v) in values.enumerated() { raw.storeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, toByteOffset: start + 4 * i, as: UInt32.self) }
                default: for (i, v) in values.enumerated() { raw.storeBytes(of: UInt64(bitPattern: v).littleEndian, toByteOffset: start + 8 * i, as: UInt64.self) }
                }
            }
        }
    }
}

extension MutableNode {
    /// The node's bytes in the file, given the final value of every slot (children's refs).
    func encoded(slots: [Int64]) -> [UInt8] {
        // A node given in its file form is those bytes: the same array is handed on (shared,
        // copy-on-write), not copied into a new one — a mass removal's commit writes tens of
        // thousands of filtered column leaves.
        if case let .image(bytes) = storage { return bytes }
        var out = [UInt8]()
        encode(slots: slots, into: &out)
        return out
    }

    /// Appends the node's bytes to `out` (what `encoded` returns), without the temporary
    /// array per node that serializing a whole tree into one image would otherwise make.
    func encode(slots: [Int64], into out: inout [UInt8]) {
        var flags: UInt8 = (isInner ? 0x80 : 0) | (hasRefs ? 0x40 : 0) | (context ? 0x20 : 0)
        switch storage {
        case let .integers(_, unsigned):
            NodeWriting.append(flags: flags, values: slots, width: minimumWidth, unsigned: unsigned, to: &out)
        case let .bytes(width, count, payload):
            flags |= 0x08 | NodeWriting.widthCode(width)
            NodeWriting.appendPadded(header: flags, count: count, payload: payload, to: &out)
        case let .blob(bytes):
            // Realm writes width code 1 on blobs that received bytes (§9.6).
            flags |= 0x10 | (bytes.isEmpty ? 0 : 1)
            NodeWriting.appendPadded(header: flags, count: bytes.count, payload: bytes, to: &out)
        case let .image(bytes):
            out += bytes
        }
    }
}

extension MutableNode {
    /// This node with every new integer array in it or below it (no refs, so its bytes do
    /// not depend on where it goes) in its file form: the bytes the commit would write,
    /// packed at their minimal width, instead of an `Int64` per element — a cluster leaf's
    /// int, bool and timestamp arrays, string offsets — so that the leaves of a large insert
    /// wait for the commit at about their size in the file (issue #16). Has-refs nodes stay
    /// as they are, with their children compacted.
    func compacted() -> MutableNode {
        guard originalRef == nil, !isInner else { return self }
        if case .integers = storage, !hasRefs {
            return MutableNode(image: encoded(slots: integers))
        }
        guard hasRefs else { return self }
        for i in 0..<count {
            if let child = loadedChild(i) {
                let c = child.compacted()
                if c !== child { attachLoaded(i, c) }
            }
        }
        return self
    }
}
