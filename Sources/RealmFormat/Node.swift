/// A node (array) whose header and payload were checked to lie inside the image when it was
/// made, so its elements can be read without further checks (realm-format.md §4).
public struct Node: Sendable {
    public let ref: Int
    public let header: NodeHeader
    let image: ByteImage

    /// Checks that `ref` is an aligned offset past the file header and that the node's header
    /// and payload lie inside the image.
    public init(image: ByteImage, ref: Int) throws(FormatError) {
        guard ref >= 24, ref % 8 == 0 else {
            throw .corrupt(offset: ref, reason: "ref \(hex(ref)) is not an 8-aligned offset past the header")
        }
        guard image.contains(ref, 8) else {
            throw .corrupt(offset: ref, reason: "ref \(hex(ref)) points outside the file (\(image.count) bytes)")
        }
        try image.ensure(ref, 8)                      // an encrypted file's page(s), §14
        let flags = image.rawU8(ref + 4)
        let count = Int(image.rawU8(ref + 5)) << 16 | Int(image.rawU8(ref + 6)) << 8 | Int(image.rawU8(ref + 7))
        let header = NodeHeader(flags: flags, count: count)
        guard header.widthType != nil else {
            throw .corrupt(offset: ref, reason: "node uses width type 3, which no released Realm writes")
        }
        // Element reads (`int`, `unsigned`, `ref`) use the bit width whatever the width type, so
        // their extent must fit too: it exceeds the payload only for a width type 'ignore' node
        // with a width code above 4, which Realm never writes (§9.6).
        let extent = max(header.payloadSize, (count * header.width + 7) / 8)
        guard image.contains(ref + 8, extent) else {
            throw .corrupt(offset: ref, reason: "node of \(extent) payload bytes runs past the end of the file")
        }
        // Every page the node spans is decrypted before anyone gets a view into it.
        try image.ensure(ref + 8, extent)
        self.image = image
        self.ref = ref
        self.header = header
    }

    public var count: Int { header.count }
    public var width: Int { header.width }
    public var hasRefs: Bool { header.hasRefs }
    public var isInner: Bool { header.isInner }
    public var context: Bool { header.context }
    var payload: Int { ref + 8 }

    /// Element `i` of an integer array (§4.3): sub-byte widths unsigned, wider ones signed.
    /// `i` must be < count (callers check indexes that come from disk with `element(_:)`).
    @inline(__always)
    public func int(_ i: Int) -> Int64 {
        let p = payload
        switch header.width {
        case 0: return 0
        case 1: return Int64((image.rawU8(p + i >> 3) >> UInt8(i & 7)) & 1)
        case 2: return Int64((image.rawU8(p + i >> 2) >> UInt8((i & 3) << 1)) & 3)
        case 4: return Int64((image.rawU8(p + i >> 1) >> UInt8((i & 1) << 2)) & 15)
        case 8: return Int64(Int8(bitPattern: image.rawU8(p + i)))
        case 16: return Int64(Int16(bitPattern: image.rawU16(p + 2 * i)))
        case 32: return Int64(Int32(bitPattern: image.rawU32(p + 4 * i)))
        default: return Int64(bitPattern: image.rawU64(p + 8 * i))
        }
    }

    /// Element `i` read as `ArrayUnsigned` (§4.3): widths of 8 and more are unsigned.
    @inline(__always)
    public func unsigned(_ i: Int) -> UInt64 {
        let p = payload
        switch header.width {
        case 8: return UInt64(image.rawU8(p + i))
        case 16: return UInt64(image.rawU16(p + 2 * i))
        case 32: return UInt64(image.rawU32(p + 4 * i))
        case 64: return image.rawU64(p + 8 * i)
        default: return UInt64(int(i))
        }
    }

    /// Element `i` where `i` came from disk: checked against the count.
    public func element(_ i: Int) throws(FormatError) -> Int64 {
        guard i >= 0, i < count else {
            throw .corrupt(offset: ref, reason: "index \(i) is outside a node of \(count) elements")
        }
        return int(i)
    }

    /// All elements of an integer array.
    public func ints() -> [Int64] {
        var out = [Int64]()
        out.reserveCapacity(count)
        for i in 0..<count { out.append(int(i)) }
        return out
    }

    /// Slot `i` of a has-refs array as a ref: nil for 0 or a tagged value (§3.4).
    public func ref(_ i: Int) -> Int? {
        guard i < count else { return nil }
        let v = int(i)
        return v != 0 && v & 1 == 0 ? Int(v) : nil
    }

    /// Calls `body` with every slot of a has-refs array that is a ref (not 0, not tagged,
    /// §3.4), in slot order. The width is chosen once for the loop: freeing a dropped search
    /// index visits a million slots, nearly all tagged ObjKeys.
    public func forEachRef<E: Error>(_ body: (Int) throws(E) -> Void) throws(E) {
        let slots = PackedInts(self)
        guard let p = slots.bytes.baseAddress, count > 0 else { return }
        @inline(__always)
        func visit(_ read: (Int) -> Int64) throws(E) {
            for i in 0..<count {
                let v = read(i)
                if v != 0 && v & 1 == 0 { try body(Int(v)) }
            }
        }
        switch width {
        case 32: try visit(ByteWidthInts<Int32>(base: p).int)
        case 64: try visit(ByteWidthInts<Int64>(base: p).int)
        default: try visit(slots.int)
        }
    }

    /// Slot `i` of a has-refs array as a tagged integer, nil when it is not tagged (§3.4).
    public func tagged(_ i: Int) -> UInt64? {
        guard i < count else { return nil }
        let v = UInt64(bitPattern: int(i))
        return v & 1 == 1 ? v >> 1 : nil
    }

    /// The payload bytes (wtype 1 or 2 nodes), without padding.
    public func payloadBytes() -> UnsafeRawBufferPointer { image.rawSlice(payload, header.payloadSize) }

    @inline(__always) func byte(_ offset: Int) -> UInt8 { image.rawU8(payload + offset) }
    @inline(__always) func u32(at offset: Int) -> UInt32 { image.rawU32(payload + offset) }
    @inline(__always) func u64(at offset: Int) -> UInt64 { image.rawU64(payload + offset) }
}

/// Hex text of an offset, as offsets are shown in messages.
public func hex<T: BinaryInteger>(_ value: T) -> String { "0x" + String(value, radix: 16) }
