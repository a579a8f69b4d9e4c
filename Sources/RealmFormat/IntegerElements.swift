/// The packed elements of one integer leaf (realm-format.md §4.3, §9.1) as the scan kernels
/// read them: the payload bytes of a node that was checked to lie inside the image, the index
/// of the first value (1 past a nullable leaf's null marker), the number of values, the bit
/// width and the null marker. Made only from a checked `IntegerLeaf` (`IntegerLeaf.elements`), so
/// every read below stays inside `bytes`; the owner of the node (an `IntegerLeaf`, an
/// `IntegerColumn`) keeps the bytes alive while it is used. No class reference inside, so
/// arrays of these are walked without reference counting.
struct IntegerElements {
    let bytes: UnsafeRawBufferPointer
    let offset: Int
    let count: Int
    let width: Int
    let nullMarker: Int64?

    /// Value `i` (0 ..< count), nil for null.
    @inline(__always)
    func value(_ i: Int) -> Int64? {
        let j = i &+ offset
        let e: Int64
        switch width {
        case 0: e = 0
        case 1: e = Int64((bytes.load(fromByteOffset: j >> 3, as: UInt8.self) >> UInt8(j & 7)) & 1)
        case 2: e = Int64((bytes.load(fromByteOffset: j >> 2, as: UInt8.self) >> UInt8((j & 3) << 1)) & 3)
        case 4: e = Int64((bytes.load(fromByteOffset: j >> 1, as: UInt8.self) >> UInt8((j & 1) << 2)) & 15)
        case 8: e = Int64(bytes.load(fromByteOffset: j, as: Int8.self))
        case 16: e = Int64(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 &* j, as: Int16.self)))
        case 32: e = Int64(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 &* j, as: Int32.self)))
        default: e = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 &* j, as: Int64.self))
        }
        return e == nullMarker ? nil : e
    }

    /// Sets bit `first + i` of `words` for every element `i` whose value lies in
    /// `lower ... upper` (outside it when `outside`); a null element of a nullable leaf sets its
    /// bit exactly when `nullMatches`. An empty range (`lower > upper`) contains nothing. Bits
    /// are ORed in, a word at a time; elements past the end of `words` are not marked.
    ///
    /// This is the column scan of count queries, so each width has its own loop over the
    /// packed bytes (§4.3): no value is boxed and no closure is called per element.
    func markRange(_ lower: Int64, _ upper: Int64, outside: Bool, nullMatches: Bool,
                   into words: inout [UInt64], first: Int) {
        let n = min(count, words.count * 64 - first)
        guard n > 0, first >= 0 else { return }
        var lower = lower, upper = upper, outside = outside
        if lower > upper {
            (lower, upper) = (.min, .max)       // nothing inside = everything outside
            outside.toggle()
        }
        // One unsigned comparison tests both bounds: e − lower wraps past the span when e < lower.
        let span = UInt64(bitPattern: upper &- lower)
        let bytes = self.bytes, o = offset
        let marker = nullMarker
        @inline(__always)
        func run(_ read: (Int) -> Int64) {
            if let marker {
                markBits(count: n, first: first, into: &words) { i in
                    let e = read(i &+ o)
                    return e == marker ? nullMatches : (UInt64(bitPattern: e &- lower) <= span) != outside
                }
            } else {
                markBits(count: n, first: first, into: &words) { i in
                    (UInt64(bitPattern: read(i &+ o) &- lower) <= span) != outside
                }
            }
        }
        switch width {
        case 8 where marker == nil:
            // 16 bytes compared at once. The bounds are clamped to Int8; a range missing
            // Int8 entirely holds no element.
            let read = { (i: Int) in Int64(bytes.load(fromByteOffset: i, as: Int8.self)) }
            let test = { (i: Int) in (UInt64(bitPattern: read(i) &- lower) <= span) != outside }
            guard lower <= Int64(Int8.max), upper >= Int64(Int8.min) else {
                markBits(count: n, first: first, into: &words, test) { _ in outside ? ~0 : 0 }
                return
            }
            let lo = SIMD16<Int8>(repeating: Int8(clamping: lower)), hi = SIMD16<Int8>(repeating: Int8(clamping: upper))
            markBits(count: n, first: first, into: &words, test) { i in
                var m: UInt64 = 0
                for q in 0..<4 {
                    let v = bytes.loadUnaligned(fromByteOffset: i &+ 16 &* q, as: SIMD16<Int8>.self)
                    m |= laneBits((v .>= lo) .& (v .<= hi)) << UInt64(16 * q)
                }
                return outside ? ~m : m
            }
        case 1 where marker == nil:
            // Bools and 0/1 ints: the payload bits are the elements (§4.3), so a block is the
            // 64 bits from element i (a byte and a shift away), kept where 1 matches and
            // inverted where 0 does.
            let read = { (i: Int) in Int64((bytes.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1) }
            let test = { (i: Int) in (UInt64(bitPattern: read(i) &- lower) <= span) != outside }
            let ones: UInt64 = (UInt64(bitPattern: 1 &- lower) <= span) != outside ? ~0 : 0
            let zeros: UInt64 = (UInt64(bitPattern: 0 &- lower) <= span) != outside ? ~0 : 0
            markBits(count: n, first: first, into: &words, test) { i in
                // Bits i ..< i + 64 lie in bytes i >> 3 … (i + 63) >> 3, all inside the payload.
                let r = i & 7
                var bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i >> 3, as: UInt64.self)) >> UInt64(r)
                if r != 0 { bits |= UInt64(bytes.load(fromByteOffset: (i >> 3) &+ 8, as: UInt8.self)) << UInt64(64 &- r) }
                return bits & ones | ~bits & zeros
            }
        case 8: run { Int64(bytes.load(fromByteOffset: $0, as: Int8.self)) }
        case 16: run { Int64(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 &* $0, as: Int16.self))) }
        case 32: run { Int64(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 &* $0, as: Int32.self))) }
        case 64: run { Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 &* $0, as: Int64.self)) }
        case 0: run { _ in 0 }
        case 1: run { Int64((bytes.load(fromByteOffset: $0 >> 3, as: UInt8.self) >> UInt8($0 & 7)) & 1) }
        case 2: run { Int64((bytes.load(fromByteOffset: $0 >> 2, as: UInt8.self) >> UInt8(($0 & 3) << 1)) & 3) }
        default: run { Int64((bytes.load(fromByteOffset: $0 >> 1, as: UInt8.self) >> UInt8(($0 & 1) << 2)) & 15) }
        }
    }
}
