/// Distinct byte strings (and null) by position, in the order they were added: the value list
/// of an enumerated string column (§9.4.4) while it is built or extended. The bytes live in one
/// buffer and the lookup is an open-addressing table hashed a word at a time, so finding the
/// position of a string read in place from a leaf allocates nothing (a `Set<[UInt8]>` would
/// allocate an array per lookup and hash it byte by byte, most of the cost of enumerating a
/// million values). Values of at most 16 bytes (names, tags, codes: most enumerated columns)
/// are found through a second table whose slots hold their bytes: a lookup reads one slot,
/// not a slot, the ends and the bytes (three dependent cache misses per value in a large
/// list). Looked up in a batch (`Batch`), their slots are all loaded in one tight loop before
/// any is probed, so the misses of a leaf's values overlap instead of queueing.
struct ByteStringTable {
    /// All values' bytes, concatenated; value i ends at `ends[i]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private(set) var nullPosition: Int?
    /// Positions + 1 of the values longer than 16 bytes by hash slot (0: empty); a power of
    /// two, at most half full.
    private var slots: [Int32] = Array(repeating: 0, count: 16)
    private var longCount = 0
    /// The values of at most 16 bytes by hash slot, with their bytes; as `slots`.
    private var shortSlots: [ShortSlot] = Array(repeating: ShortSlot(), count: 16)
    private var shortCount = 0

    /// A value of at most 16 bytes: its bytes zero-extended into two little-endian words
    /// (with the length, they determine the value), its length and position + 1 (0: empty).
    fileprivate struct ShortSlot {
        var lo: UInt64 = 0
        var hi: UInt64 = 0
        var tag: UInt64 = 0      // length << 32 | (position + 1)
    }

    var count: Int { ends.count }

    init() {}

    /// The values of `other` in the order `order` gives (a permutation of its positions).
    init(_ other: ByteStringTable, order: [Int]) {
        // Sized for all of them at once: no growth and rehash on the way.
        bytes.reserveCapacity(other.bytes.count)
        ends.reserveCapacity(other.ends.count)
        shortSlots = Array(repeating: ShortSlot(), count: other.shortSlots.count)
        slots = Array(repeating: 0, count: other.slots.count)
        for p in order { other.withValue(p) { _ = self.insert($0) } }
    }

    /// The values in realm-core's order (`precedes`), and for each position here its
    /// position there.
    func sorted() -> (table: ByteStringTable, rank: [Int64]) {
        // Each value's first 16 bytes as two big-endian words, zero beyond its end. Where the
        // words differ they give `precedes`' answer (at the first different byte either both
        // have bytes, or the shorter ended there, with the padding's 0 below the other's
        // nonzero byte). Where they are equal and both values are at most 16 bytes long, the
        // shorter is a prefix of the longer (the rest of it is zeros) and comes first; only
        // values equal there and longer are compared byte by byte.
        struct Key {
            var head: UInt64, next: UInt64
            var length: Int32, position: Int32
        }
        var keys = [Key]()
        keys.reserveCapacity(count)
        bytes.withUnsafeBufferPointer { b in
            var start = 0
            for p in 0..<count {
                defer { start = ends[p] }
                if p == nullPosition { continue }
                var head: UInt64 = 0, next: UInt64 = 0
                let length = ends[p] - start
                for i in 0..<min(8, length) { head |= UInt64(b[start + i]) << UInt64(56 - 8 * i) }
                if length > 8 { for i in 8..<min(16, length) { next |= UInt64(b[start + i]) << UInt64(120 - 8 * i) } }
                keys.append(Key(head: head, next: next, length: Int32(truncatingIfNeeded: min(length, 17)), position: Int32(p)))
            }
        }
        keys.sort { x, y in
            if x.head != y.head { return x.head < y.head }
            if x.next != y.next { return x.next < y.next }
            if x.length <= 16 || y.length <= 16 { return x.length < y.length }
            return precedes(Int(x.position), Int(y.position))
        }
        var order = [Int]()
        order.reserveCapacity(count)
        if let nullPosition { order.append(nullPosition) }
        for k in keys { order.append(Int(k.position)) }
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
        if value.count <= 16 { return insertShort(value) }
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
        let length = UInt64(value.count)
        return insertShort(lo: lo, hi: hi, length: length, hash: Self.hash(lo, hi, length), bytes: value)
    }

    /// The value of `length` ≤ 16 bytes whose words are `lo`, `hi`; `bytes` nil: the words
    /// hold them (a batch, whose values' buffers are gone by now).
    private mutating func insertShort(lo: UInt64, hi: UInt64, length: UInt64, hash: UInt64,
                                      bytes value: UnsafeBufferPointer<UInt8>?) -> (position: Int, inserted: Bool) {
        let mask = shortSlots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let found: Int? = shortSlots.withUnsafeBufferPointer { table in
            while true {
                let entry = table[slot]
                if entry.tag == 0 { return nil }
                if entry.lo == lo && entry.hi == hi && entry.tag >> 32 == length { return Int(entry.tag & 0xFFFF_FFFF) - 1 }
                slot = (slot + 1) & mask
            }
        }
        if let found { return (found, false) }
        let p = ends.count
        if let value {
            bytes.append(contentsOf: value)
        } else {
            withUnsafeBytes(of: (lo.littleEndian, hi.littleEndian)) { bytes.append(contentsOf: $0.prefix(Int(length))) }
        }
        ends.append(bytes.count)
        shortSlots[slot] = ShortSlot(lo: lo, hi: hi, tag: length << 32 | UInt64(p + 1))
        shortCount += 1
        if 2 * shortCount > shortSlots.count { growShort() }
        return (p, true)
    }

    /// Values of at most 16 bytes waiting for their positions (`insert(_:batch:positions:)`):
    /// their keys and hashes, computed as they came.
    struct Batch {
        fileprivate var keys: [ShortSlot] = []
        fileprivate var hashes: [UInt64] = []
        /// Where the touched slots' words go, so the loads are not optimized away.
        fileprivate var touched: UInt64 = 0
        init() { keys.reserveCapacity(Self.size); hashes.reserveCapacity(Self.size) }
        static let size = 128
    }

    /// `insert(value)`, its position appended to `positions` in the order of the calls: a
    /// value of at most 16 bytes waits in `batch` (its key and hash computed), any other value
    /// first flushes the batch. Call `flush` after the last.
    mutating func insert(_ value: UnsafeBufferPointer<UInt8>?, batch: inout Batch, positions: inout [Int64]) {
        guard let value, value.count <= 16 else {
            flush(&batch, positions: &positions)
            positions.append(Int64(insert(value).position))
            return
        }
        let (lo, hi) = Self.words(value)
        let length = UInt64(value.count)
        let hash = Self.hash(lo, hi, length)
        batch.keys.append(ShortSlot(lo: lo, hi: hi, tag: length << 32))
        batch.hashes.append(hash)
        if batch.keys.count == Batch.size { flush(&batch, positions: &positions) }
    }

    /// The positions of the values waiting in `batch`, in order; empties it.
    mutating func flush(_ batch: inout Batch, positions: inout [Int64]) {
        // First only the slots' loads, a few instructions each, so dozens are in flight at
        // once (a load in the middle of each value's work stalls the next ones behind it);
        // the probes below then find the slots in cache.
        let mask = shortSlots.count - 1
        batch.touched = shortSlots.withUnsafeBufferPointer { table in
            var words: UInt64 = 0
            for h in batch.hashes { words ^= table[Int(truncatingIfNeeded: h) & mask].tag }
            return words
        }
        for i in batch.keys.indices {
            let k = batch.keys[i]
            positions.append(Int64(insertShort(lo: k.lo, hi: k.hi, length: k.tag >> 32, hash: batch.hashes[i], bytes: nil).position))
        }
        batch.keys.removeAll(keepingCapacity: true)
        batch.hashes.removeAll(keepingCapacity: true)
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

    /// The words folded into one, then splitmix64's finalizer: every input bit reaches the low
    /// bits that pick the slot (names share their first bytes: a weaker mix made long probe
    /// runs, each a mispredicted branch).
    private static func hash(_ lo: UInt64, _ hi: UInt64, _ length: UInt64) -> UInt64 {
        var z = lo &+ (hi ^ length) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func growShort() {
        let old = shortSlots
        shortSlots = Array(repeating: ShortSlot(), count: old.count * 2)
        let mask = shortSlots.count - 1
        for entry in old where entry.tag != 0 {
            var slot = Int(truncatingIfNeeded: Self.hash(entry.lo, entry.hi, entry.tag >> 32)) & mask
            while shortSlots[slot].tag != 0 { slot = (slot + 1) & mask }
            shortSlots[slot] = entry
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
        for p in 0..<ends.count where p != nullPosition && ends[p] - (p == 0 ? 0 : ends[p - 1]) > 16 {
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

/// The values in position order, as the string leaf encoder reads them (a value list is
/// written straight from the table's buffer, `EnumValueWriter.encode`).
extension ByteStringTable: ByteStrings {
    var longest: Int {
        var longest = -1, start = 0
        for p in 0..<ends.count {
            if p != nullPosition { longest = max(longest, ends[p] - start) }
            start = ends[p]
        }
        return longest
    }

    var byteCount: Int { bytes.count }

    func forEachValue(_ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        bytes.withUnsafeBufferPointer { b in
            var start = 0
            for p in 0..<ends.count {
                if p == nullPosition { body(nil) } else { body(UnsafeBufferPointer(rebasing: b[start..<ends[p]])) }
                start = ends[p]
            }
        }
    }
}

