/// A byte string to look for in stored values where at each position one of two bytes is
/// accepted: the same byte twice for an exact match, a character's lower- and upper-case
/// bytes for a case-insensitive one (query-language.md §5.6: Realm's `[c]` maps a character
/// to bytes of the same length, so the two forms line up position by position).
///
/// The two bytes of a position may differ in one bit at most (ASCII letters and the second
/// byte of Latin-1 letters differ in 0x20), so "`b` is either byte" is `b | mask == value`
/// with `value` the form that has the bit: one OR and one compare per byte, eight bytes per
/// word or sixteen per vector, the same code for exact and case-insensitive patterns.
public struct BytePattern: Sendable {
    /// The longest pattern, a bound on the work per value and on what a query keeps.
    public static let maxCount = 4096
    public let count: Int
    /// Per position, the accepted byte with the differing bit set and that bit (0 if exact),
    /// as little-endian 8-byte words, three per 8 bytes: value, mask and keep (which clears
    /// the bytes past `count` in the last word, whose value and mask bytes there are 0).
    private let words: [UInt64]
    /// The first word's three, for the patterns of at most 8 bytes that most queries have.
    private let value0: UInt64, mask0: UInt64, keep0: UInt64
    /// The first and last positions' byte and bit, for the vector search.
    private let firstValue: UInt8, firstMask: UInt8, lastValue: UInt8, lastMask: UInt8

    /// Exactly these bytes; nil past `maxCount` of them.
    public init?(exact bytes: [UInt8]) {
        self.init(either: bytes, or: bytes)
    }

    /// At each position `a[i]` or `b[i]`; nil when the lengths differ, past `maxCount` bytes,
    /// or when two bytes at one position differ in more than one bit (then the caller tests
    /// values another way).
    public init?(either a: [UInt8], or b: [UInt8]) {
        guard a.count == b.count, a.count <= Self.maxCount else { return nil }
        var pairs = [(UInt8, UInt8)]()
        pairs.reserveCapacity(a.count)
        for i in 0..<a.count {
            let d = a[i] ^ b[i]
            guard d.nonzeroBitCount <= 1 else { return nil }
            pairs.append((a[i] | d, d))
        }
        self.init(pairs: pairs)
    }

    private init(pairs: [(value: UInt8, mask: UInt8)]) {
        count = pairs.count
        var words = [UInt64](repeating: 0, count: 3 * max(1, (pairs.count + 7) / 8))
        for (i, pair) in pairs.enumerated() {
            let shift = UInt64(8 * (i % 8)), k = 3 * (i / 8)
            words[k] |= UInt64(pair.value) << shift
            words[k + 1] |= UInt64(pair.mask) << shift
            words[k + 2] |= 0xFF << shift
        }
        self.words = words
        value0 = words[0]
        mask0 = words[1]
        keep0 = words[2]
        firstValue = pairs.first?.value ?? 0
        firstMask = pairs.first?.mask ?? 0
        lastValue = pairs.last?.value ?? 0
        lastMask = pairs.last?.mask ?? 0
    }

    /// Whether the `count` bytes at `p` match; `readable` (≥ `count`) bytes may be read there,
    /// which lets the compare load whole words past the pattern's end.
    @inline(__always)
    func matches(at p: UnsafeRawPointer, readable: Int) -> Bool {
        if count <= 8 && readable >= 8 {
            return (p.loadUnaligned(as: UInt64.self).littleEndian | mask0) & keep0 == value0
        }
        return matchesWords(at: p, readable: readable)
    }

    /// Patterns longer than a word, or a value near the end of what may be read. Kept out of
    /// line: inlined, the optimizer loads all of the words ahead of the common case's test.
    @inline(never)
    private func matchesWords(at p: UnsafeRawPointer, readable: Int) -> Bool {
        var k = 0, offset = 0
        while offset < count {
            let word: UInt64
            if offset &+ 8 <= readable {
                word = p.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
            } else {
                var w: UInt64 = 0
                for j in 0..<Swift.min(8, count &- offset) {
                    w |= UInt64(p.load(fromByteOffset: offset &+ j, as: UInt8.self)) << UInt64(8 &* j)
                }
                word = w
            }
            if (word | words[k &+ 1]) & words[k &+ 2] != words[k] { return false }
            k &+= 3
            offset &+= 8
        }
        return true
    }

    /// The first start `s` in `lo ... hi - count` where the pattern matches the bytes at
    /// `p + s`, nil if none; `readable` (≥ `hi`) bytes may be read at `p`. Sixteen starts at a
    /// time: a start is a candidate when its first byte and the byte `count - 1` further on
    /// both match (two loads, two compares), and only candidates are compared in full.
    @inline(__always)
    func firstMatch(in p: UnsafeRawPointer, from lo: Int, to hi: Int, readable: Int) -> Int? {
        let m = count
        guard hi &- lo >= m else { return nil }
        if m == 0 { return lo }
        let last = hi &- m
        var s = lo
        let fv = SIMD16(repeating: firstValue), fm = SIMD16(repeating: firstMask)
        let lv = SIMD16(repeating: lastValue), lm = SIMD16(repeating: lastMask)
        while s <= last && s &+ m &+ 15 <= readable {
            let a = p.loadUnaligned(fromByteOffset: s, as: SIMD16<UInt8>.self)
            let b = p.loadUnaligned(fromByteOffset: s &+ m &- 1, as: SIMD16<UInt8>.self)
            let candidates = ((a | fm) .== fv) .& ((b | lm) .== lv)
            // Any lane set (`any` is a generic reduction the optimizer leaves as a call).
            let halves = unsafeBitCast(candidates, to: SIMD2<UInt64>.self)
            if halves[0] | halves[1] != 0 {
                var bits = laneBits(candidates)
                if last &- s < 15 { bits &= (1 << UInt64(last &- s &+ 1)) &- 1 }
                while bits != 0 {
                    let k = s &+ bits.trailingZeroBitCount
                    if m <= 2 || matches(at: p + k, readable: readable &- k) { return k }
                    bits &= bits &- 1
                }
            }
            s &+= 16
        }
        // The last starts, where a vector would read past `readable`: byte by byte.
        while s <= last {
            if p.load(fromByteOffset: s, as: UInt8.self) | firstMask == firstValue && matches(at: p + s, readable: readable &- s) { return s }
            s &+= 1
        }
        return nil
    }
}
