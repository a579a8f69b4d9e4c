/// Distinct byte strings (and null) by position, in the order they were added: the value list
/// of an enumerated string column (§9.4.4) while it is built or extended. The bytes live in one
/// buffer and the lookup is an open-addressing table hashed a word at a time, so finding the
/// position of a string read in place from a leaf allocates nothing (a `Set<[UInt8]>` would
/// allocate an array per lookup and hash it byte by byte, most of the cost of enumerating a
/// million values). Values of at most 15 bytes (names, tags, codes: most enumerated columns)
/// are found through a second table whose slots hold their bytes: a lookup reads its slot
/// (and the position beside it), not a slot, the ends and the bytes (three dependent cache
/// misses per value in a large list).
struct ByteStringTable {
    /// All values' bytes, concatenated; value i ends at `ends[i]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private(set) var nullPosition: Int?
    /// Positions + 1 of the values longer than 15 bytes by hash slot (0: empty); a power of
    /// two, at most half full.
    private var slots: [Int32] = Array(repeating: 0, count: 16)
    private var longCount = 0
    /// The values of at most 15 bytes by hash slot: their keys (`ShortKey`; `hi` all ones
    /// in a free slot) and, in the same slot of `shortPositions`, their positions. The two loads
    /// of a lookup go to addresses known at once, so they overlap; 16 bytes a slot and up to
    /// 3/4 full keeps the table of a 40,000-value list in about 1 MB (in L2).
    private var shortKeys: [ShortKey] = Array(repeating: ShortKey.free, count: 16)
    private var shortPositions: [Int32] = Array(repeating: 0, count: 16)
    private var shortCount = 0

    /// A value of at most 15 bytes: its bytes zero-extended into two little-endian words, the
    /// length in the top byte of `hi` (which those bytes never reach): equal keys, equal values.
    private struct ShortKey {
        var lo: UInt64
        var hi: UInt64
        /// A free slot: length 255, no value's.
        var isFree: Bool { hi == UInt64.max }
        static var free: ShortKey { ShortKey(lo: 0, hi: UInt64.max) }
    }

    var count: Int { ends.count }

    init() {}

    /// The values of `other` in the order `order` gives (a permutation of its positions).
    init(_ other: ByteStringTable, order: [Int]) {
        for p in order { other.withValue(p) { _ = self.insert($0) } }
    }

    /// The values in realm-core's order (`precedes`), and for each position here its
    /// position there.
    func sorted() -> (table: ByteStringTable, rank: [Int64]) {
        let order = (0..<count).sorted { precedes($0, $1) }
        var rank = [Int64](repeating: 0, count: order.count)
        for (r, p) in order.enumerated() { rank[p] = Int64(r) }
        return (ByteStringTable(self, order: order), rank)
    }

    /// Calls `body` with value `p`'s bytes (nil for null).
    func withValue<R>(_ p: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        if p == nullPosition { return try body(nil) }
        let start = p == 0 ? 0 : ends[p - 1]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<ends[p]])) }
    }

    /// Value `p` copied out.
    func value(_ p: Int) -> [UInt8]? { withValue(p) { $0.map(Array.init) } }

    /// The position of `value`, added at the end when it is new.
    mutating func insert(_ value: UnsafeBufferPointer<UInt8>?) -> (position: Int, inserted: Bool) {
        guard let value else {
            if let p = nullPosition { return (p, false) }
            nullPosition = ends.count
            ends.append(bytes.count)
            return (ends.count - 1, true)
        }
        if value.count <= 15 { return insertShort(value) }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(value)) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            let p = entry - 1
            if p != nullPosition, equals(p, value) { return (p, false) }
            slot = (slot + 1) & mask
        }
        let p = ends.count
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
        slots[slot] = Int32(p + 1)
        longCount += 1
        if 2 * longCount > slots.count { grow() }
        return (p, true)
    }

    private mutating func insertShort(_ value: UnsafeBufferPointer<UInt8>) -> (position: Int, inserted: Bool) {
        let (lo, hi) = Self.words(value)
        let key = ShortKey(lo: lo, hi: hi | UInt64(value.count) << 56)
        let mask = shortKeys.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(key.lo, key.hi)) & mask
        let found: Bool = shortKeys.withUnsafeBufferPointer { table in
            while true {
                let entry = table[slot]
                if entry.lo == key.lo && entry.hi == key.hi { return true }
                if entry.isFree { return false }
                slot = (slot + 1) & mask
            }
        }
        if found { return (Int(shortPositions[slot]), false) }
        let p = ends.count
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
        shortKeys[slot] = key
        shortPositions[slot] = Int32(p)
        shortCount += 1
        if 4 * shortCount > 3 * shortKeys.count { growShort() }
        return (p, true)
    }

    /// The bytes of a value of at most 16 bytes as two words, zero beyond its length: whole
    /// and overlapping unaligned loads, no loop per byte.
    @inline(__always)
    private static func words(_ v: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        let n = v.count
        let raw = UnsafeRawBufferPointer(v)
        func load64(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        func load32(_ at: Int) -> UInt64 { UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        switch n {
        case 16: return (load64(0), load64(8))
        case 9..<16: return (load64(0), load64(n - 8) >> UInt64(8 * (16 - n)))
        case 8: return (load64(0), 0)
        case 4..<8: return (load32(0) | load32(n - 4) << UInt64(8 * (n - 4)), 0)
        default:
            var lo: UInt64 = 0
            for i in 0..<n { lo |= UInt64(v[i]) << UInt64(8 * i) }
            return (lo, 0)
        }
    }

    private static func hash(_ lo: UInt64, _ hi: UInt64) -> UInt64 {
        var h = (lo ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 31) ^ hi) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 29)
    }

    private mutating func growShort() {
        let (oldKeys, oldPositions) = (shortKeys, shortPositions)
        shortKeys = Array(repeating: ShortKey.free, count: oldKeys.count * 2)
        shortPositions = Array(repeating: 0, count: oldKeys.count * 2)
        let mask = shortKeys.count - 1
        for (i, key) in oldKeys.enumerated() where !key.isFree {
            var slot = Int(truncatingIfNeeded: Self.hash(key.lo, key.hi)) & mask
            while !shortKeys[slot].isFree { slot = (slot + 1) & mask }
            shortKeys[slot] = key
            shortPositions[slot] = oldPositions[i]
        }
    }

    /// realm-core's order of string values (`StringData::operator<`): null first, then by
    /// unsigned bytes, a prefix before its extensions.
    func precedes(_ a: Int, _ b: Int) -> Bool {
        withValue(a) { x in
            withValue(b) { y in
                guard let x else { return y != nil }
                guard let y else { return false }
                return x.lexicographicallyPrecedes(y)
            }
        }
    }

    private func equals(_ p: Int, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = p == 0 ? 0 : ends[p - 1]
        guard ends[p] - start == value.count else { return false }
        return bytes.withUnsafeBufferPointer { b in
            value.isEmpty || memcmpEqual(b.baseAddress! + start, value.baseAddress!, value.count)
        }
    }

    private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while i + 8 <= n {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) { return false }
            i += 8
        }
        while i < n {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for p in 0..<ends.count where p != nullPosition && ends[p] - (p == 0 ? 0 : ends[p - 1]) > 15 {
            var slot = withValue(p) { Int(truncatingIfNeeded: Self.hash($0!)) } & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(p + 1)
        }
    }

    /// A word-at-a-time multiply-mix hash; the table needs spread, not strength.
    private static func hash(_ v: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(v.count)
        var i = 0
        let raw = UnsafeRawBufferPointer(v)
        while i + 8 <= v.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < v.count {
            tail |= UInt64(v[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 29)
    }
}
