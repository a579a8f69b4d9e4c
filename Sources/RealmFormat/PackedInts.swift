/// The elements of an integer array (§4.3) through a plain view of its payload, read as
/// `Node.int` reads them; the node's extent was checked when it was made.
struct PackedInts {
    let bytes: UnsafeRawBufferPointer
    let width: Int
    let count: Int

    init() {
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        width = 0
        count = 0
    }

    init(_ node: Node) {
        // `Node` guarantees count × width bits of payload whatever the width type.
        bytes = node.image.rawSlice(node.payload, (node.count * node.width + 7) / 8)
        width = node.width
        count = node.count
    }

    /// All elements into `out` from position `at` on (`out` has room for them), the width
    /// chosen once for the loop; for elements already checked to fit in 32 bits.
    func decode(into out: UnsafeMutablePointer<Int32>, at: Int) {
        let n = count
        guard n > 0, width >= 8, let p = bytes.baseAddress else {
            for i in 0..<n { out[at &+ i] = Int32(truncatingIfNeeded: int(i)) }
            return
        }
        let o = out + at
        switch width {
        case 8: for i in 0..<n { o[i] = Int32(p.load(fromByteOffset: i, as: Int8.self)) }
        case 16: for i in 0..<n { o[i] = Int32(Int16(littleEndian: p.loadUnaligned(fromByteOffset: 2 &* i, as: Int16.self))) }
        case 32: for i in 0..<n { o[i] = Int32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self)) }
        default: for i in 0..<n { o[i] = Int32(truncatingIfNeeded: Int64(littleEndian: p.loadUnaligned(fromByteOffset: 8 &* i, as: Int64.self))) }
        }
    }

    /// Element `i` (0 ..< count).
    @inline(__always)
    func int(_ i: Int) -> Int64 {
        // A node with elements has payload bytes, so the base is there whenever `i` is valid
        // (read through the pointer: the buffer's own accessors check it again each time).
        let p = bytes.baseAddress.unsafelyUnwrapped
        switch width {
        case 0: return 0
        case 1: return Int64((p.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1)
        case 2: return Int64((p.load(fromByteOffset: i >> 2, as: UInt8.self) >> UInt8((i & 3) << 1)) & 3)
        case 4: return Int64((p.load(fromByteOffset: i >> 1, as: UInt8.self) >> UInt8((i & 1) << 2)) & 15)
        case 8: return Int64(p.load(fromByteOffset: i, as: Int8.self))
        case 16: return Int64(Int16(littleEndian: p.loadUnaligned(fromByteOffset: 2 &* i, as: Int16.self)))
        case 32: return Int64(Int32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self)))
        default: return Int64(littleEndian: p.loadUnaligned(fromByteOffset: 8 &* i, as: Int64.self))
        }
    }
}

/// Element `i` of an integer array read with the width fixed by the type: loops that would
/// switch on a node's width per element (`PackedInts.int`) switch once instead, through
/// `PackedInts.withReader`, and run specialized for that width (§4.3: widths 1–4 unsigned,
/// 8–64 signed, as `Node.int` reads them).
protocol IntegerReader {
    func int(_ i: Int) -> Int64
}

/// What `PackedInts.withReader` calls with the reader it chose (Swift has no generic closures).
protocol IntegerReaderVisitor {
    associatedtype Result
    func visit<Reader: IntegerReader>(_ reader: Reader) -> Result
}

extension PackedInts: IntegerReader {
    /// `visitor` given a reader of these elements specialized for their width: widths 0, 1
    /// and 8–64 have their own; 2 and 4 are read as `int` reads them.
    @inline(__always)
    func withReader<V: IntegerReaderVisitor>(_ visitor: V) -> V.Result {
        guard count > 0, let base = bytes.baseAddress else { return visitor.visit(ZeroWidthInts()) }
        switch width {
        case 0: return visitor.visit(ZeroWidthInts())
        case 1: return visitor.visit(OneBitInts(base: base))
        case 8: return visitor.visit(ByteWidthInts<Int8>(base: base))
        case 16: return visitor.visit(ByteWidthInts<Int16>(base: base))
        case 32: return visitor.visit(ByteWidthInts<Int32>(base: base))
        case 64: return visitor.visit(ByteWidthInts<Int64>(base: base))
        default: return visitor.visit(self)
        }
    }
}

/// Width 0: every element is 0, and there are no payload bytes.
struct ZeroWidthInts: IntegerReader {
    @inline(__always) func int(_ i: Int) -> Int64 { 0 }
}

/// Width 1: bit `i & 7` of byte `i >> 3`.
struct OneBitInts: IntegerReader {
    let base: UnsafeRawPointer
    @inline(__always) func int(_ i: Int) -> Int64 { Int64((base.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1) }
}

/// Widths 8–64: little-endian signed elements of `T`'s size.
struct ByteWidthInts<T: FixedWidthInteger & SignedInteger>: IntegerReader {
    let base: UnsafeRawPointer
    @inline(__always) func int(_ i: Int) -> Int64 {
        Int64(T(littleEndian: base.loadUnaligned(fromByteOffset: i &* MemoryLayout<T>.size, as: T.self)))
    }
}
