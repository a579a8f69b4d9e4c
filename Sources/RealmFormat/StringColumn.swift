/// One plain (not enumerated) string property's leaves across a whole cluster tree
/// (realm-format.md §8.1, §9.4), each checked once, when the snapshot makes the column
/// (`Snapshot.stringColumn`): a short leaf's slots, a medium leaf's ends (each value inside the
/// blob after the previous one, with its terminating byte unless it is null) and whether any
/// of its null flags is set. A scan then reads only the slots, ends and blob bytes: no node
/// header, no check and no reference count per leaf, and the next leaves' bytes are asked for
/// ahead. Big leaves (§9.4.3: a node per value) are read through `StringLeafReader`.
///
/// A snapshot never changes, so what was checked stays true; the column is kept like the
/// snapshot's leaf list and serves every later query on that snapshot.
public final class StringColumn {
    enum Leaf {
        /// §9.4.1: `width`-byte slots (0: every value null).
        case short(slots: UnsafeRawBufferPointer, width: Int)
        /// §9.4.2, checked: value i is `blob[end(i − 1) ..< end(i) − 1]`; `nulls` only when a
        /// flag is set.
        case medium(blob: UnsafeRawBufferPointer, ends: PackedInts, nulls: PackedInts?)
        /// Anything else valid (big values): read through `StringLeafReader`.
        case general(ref: Int)
    }

    /// Owner of the bytes `leaves` point into: kept alive as long as the column.
    let image: ByteImage
    let leaves: [Leaf]
    /// Row of each leaf's first object, and its number of objects.
    let starts: [Int]
    let counts: [Int]
    let widest: Int

    /// As `IntegerColumn.prefetchDistance`.
    static let prefetchDistance = 8

    init(image: ByteImage, leaves: [Leaf], starts: [Int], counts: [Int]) {
        self.image = image
        self.leaves = leaves
        self.starts = starts
        self.counts = counts
        widest = counts.max() ?? 0
    }

    /// Sets bit `row` of `words` for each row whose bit is set in `candidates` and whose value
    /// passes `test` (bits are ORed in). A leaf whose rows are all candidates is tested value
    /// after value, 64 to a word; others only at their candidates. `snapshot` reads the big
    /// leaves.
    public func mark(_ test: StringScanTest, candidates: [UInt64], into words: inout [UInt64], snapshot: Snapshot) throws(FormatError) {
        switch test.shape {
        case let .constant(c): try mark(ConstantTest(result: c), test, candidates, &words, snapshot)
        case let .equal(p): try mark(EqualTest(pattern: p), test, candidates, &words, snapshot)
        case let .prefix(p): try mark(PrefixTest(pattern: p), test, candidates, &words, snapshot)
        case let .suffix(p): try mark(SuffixTest(pattern: p), test, candidates, &words, snapshot)
        case let .contains(p):
            if p.count > 0, !test.nullMatches, !test.inverted, test.confirm == nil {
                try markContaining(p, test, candidates, &words, snapshot)
            } else {
                try mark(ContainsTest(pattern: p), test, candidates, &words, snapshot)
            }
        case let .segments(prefix, middles, suffix):
            try mark(SegmentsTest(prefix: prefix, middles: middles, suffix: suffix), test, candidates, &words, snapshot)
        }
    }

    /// CONTAINS (a non-empty pattern, nothing else to decide): one search through each leaf's
    /// bytes as they lie — a medium leaf's blob, a short leaf's slots — instead of one per
    /// value. A hit is mapped to the value holding it (by the ends, or by the slot), kept only
    /// when it lies inside that value, and the search goes on after that value; for values of
    /// a few bytes this is a quarter of the work of searching each. Leaves with few candidates
    /// are tested value by value.
    private func markContaining(_ pattern: BytePattern, _ test: StringScanTest, _ candidates: [UInt64],
                                _ words: inout [UInt64], _ snapshot: Snapshot) throws(FormatError) {
        var ends = [Int32](repeating: 0, count: widest + 1)
        var others = [Int]()
        let m = pattern.count
        withExtendedLifetime(image) {
            candidates.withUnsafeBufferPointer { candidates in
                words.withUnsafeMutableBufferPointer { words in
                    ends.withUnsafeMutableBufferPointer { e in
                        let e = e.baseAddress!
                        let n = leaves.count
                        for l in 0..<n {
                            if l + Self.prefetchDistance < n { prefetchLeaf(l + Self.prefetchDistance) }
                            let rows = (first: starts[l], count: counts[l])
                            guard rows.count > 0, rows.first + rows.count <= min(words.count, candidates.count) * 64 else { continue }
                            let wanted = candidateCount(candidates, rows)
                            if wanted == 0 { continue }
                            @inline(__always) func hit(_ i: Int) {
                                let row = rows.first &+ i, bit: UInt64 = 1 << UInt64(row & 63)
                                if candidates[row >> 6] & bit != 0 { words[row >> 6] |= bit }
                            }
                            switch leaves[l] {
                            case let .short(slots, w) where wanted * 4 >= rows.count:
                                guard let values = ShortSlots(slots, width: w) else { continue }   // all null
                                let shift = w.trailingZeroBitCount, total = rows.count &* w
                                var from = 0
                                while let at = pattern.firstMatch(in: values.base, from: from, to: total, readable: values.size) {
                                    let i = at >> shift, slot = i << shift
                                    let length = w &- 1 &- Int(values.base.load(fromByteOffset: slot &+ w &- 1, as: UInt8.self))
                                    if at &+ m <= slot &+ length { hit(i) }
                                    from = slot &+ w
                                }
                            case let .medium(blob, packedEnds, _) where wanted * 4 >= rows.count:
                                packedEnds.decode(into: e, at: 1)
                                guard let values = MediumValues(blob, ends: e) else { continue }   // all null
                                var from = 0, i = 0
                                // A null value has no bytes (end = start): no hit lands in one.
                                while let at = pattern.firstMatch(in: values.base, from: from, to: Int(e[rows.count]), readable: values.size) {
                                    while Int(e[i &+ 1]) <= at { i &+= 1 }
                                    let next = Int(e[i &+ 1])               // after the terminator
                                    if at &+ m < next { hit(i) }
                                    i &+= 1
                                    from = next
                                }
                            default:
                                others.append(l)
                            }
                        }
                    }
                }
            }
        }
        guard !others.isEmpty else { return }
        let only = others.map { (first: starts[$0], count: counts[$0]) }
        var restricted = [UInt64](repeating: 0, count: candidates.count)
        for r in only {
            for row in r.first..<(r.first + r.count) where candidates[row >> 6] & (1 << UInt64(row & 63)) != 0 {
                restricted[row >> 6] |= 1 << UInt64(row & 63)
            }
        }
        try mark(ContainsTest(pattern: pattern), test, restricted, &words, snapshot)
    }

    /// The number of bits of `rows` set in `words`.
    private func candidateCount(_ words: UnsafeBufferPointer<UInt64>, _ rows: (first: Int, count: Int)) -> Int {
        let end = rows.first + rows.count, firstWord = rows.first >> 6, lastWord = (end - 1) >> 6
        var total = 0
        for w in firstWord...lastWord {
            var mask: UInt64 = ~0
            if w == firstWord { mask &= ~0 << UInt64(rows.first & 63) }
            if w == lastWord, end & 63 != 0 { mask &= (1 << UInt64(end & 63)) - 1 }
            total &+= (words[w] & mask).nonzeroBitCount
        }
        return total
    }

    private func mark<T: InPlaceTest>(_ t: T, _ test: StringScanTest, _ candidates: [UInt64],
                                      _ words: inout [UInt64], _ snapshot: Snapshot) throws(FormatError) {
        let rules = (nullMatches: test.nullMatches, inverted: test.inverted, confirm: test.confirm)
        // A medium leaf's ends, decoded for the loop (checked to fit when the column was made).
        var ends = [Int32](repeating: 0, count: widest + 1)
        var general = [Int]()
        withExtendedLifetime(image) {
            candidates.withUnsafeBufferPointer { candidates in
                words.withUnsafeMutableBufferPointer { words in
                    ends.withUnsafeMutableBufferPointer { e in
                        let e = e.baseAddress!
                        let n = leaves.count
                        for l in 0..<n {
                            if l + Self.prefetchDistance < n { prefetchLeaf(l + Self.prefetchDistance) }
                            let rows = (first: starts[l], count: counts[l])
                            guard rows.count > 0, rows.first + rows.count <= min(words.count, candidates.count) * 64,
                                  candidateCount(candidates, rows) > 0 else { continue }
                            switch leaves[l] {
                            case let .short(slots, w):
                                if let values = ShortSlots(slots, width: w) {
                                    markValues(values, t, rules, rows, candidates, words)
                                } else {
                                    markValues(NullValues(), t, rules, rows, candidates, words)
                                }
                            case let .medium(blob, packedEnds, nulls):
                                packedEnds.decode(into: e, at: 1)
                                guard let values = MediumValues(blob, ends: e) else {
                                    markValues(NullValues(), t, rules, rows, candidates, words)
                                    continue
                                }
                                if let nulls {
                                    markValues(NullableMediumValues(values: values, nulls: nulls), t, rules, rows, candidates, words)
                                } else {
                                    markValues(values, t, rules, rows, candidates, words)
                                }
                            case .general:
                                general.append(l)
                            }
                        }
                    }
                }
            }
        }
        for l in general {
            guard case let .general(ref) = leaves[l] else { continue }
            try StringLeafReader(snapshot, ref: ref).mark(test, candidates: candidates, into: &words, first: starts[l])
        }
    }

    /// For each of `rows` (row numbers of the table, in any order; ascending is fastest), the
    /// 8 bytes of its value from byte `offset` on as a big-endian integer, zero past the
    /// value's end; 0 for null. Unsigned order of these keys is byte order of the values'
    /// bytes there (a proper prefix smaller), except that equal keys may still differ later
    /// (or in length, or be null): a sort decides by keys and looks at values only on ties.
    public func prefixKeys(of rows: [Int], offset: Int = 0, snapshot: Snapshot) throws(FormatError) -> [UInt64] {
        var keys = [UInt64](repeating: 0, count: rows.count)
        var cursor = LeafCursor()
        try withExtendedLifetime(image) { () throws(FormatError) in
            try keys.withUnsafeMutableBufferPointer { keys throws(FormatError) in
                var k = 0
                while k < rows.count {
                    guard let (l, _) = cursor.locate(rows[k], starts, counts) else {
                        throw .corrupt(offset: 0, reason: "row \(rows[k]) is outside the string column's \(counts.reduce(0, +)) values")
                    }
                    // The run of rows in this leaf, with the leaf's form decided once for it.
                    let first = starts[l], end = first &+ counts[l]
                    var j = k
                    while j < rows.count, rows[j] >= first, rows[j] < end { j &+= 1 }
                    switch leaves[l] {
                    case let .short(slots, w):
                        guard let values = ShortSlots(slots, width: w) else { break }      // all null: keys stay 0
                        for r in k..<j {
                            if let (p, n, readable) = values.value(rows[r] &- first) { keys[r] = Self.prefixKey(p, n, readable, offset) }
                        }
                    case let .medium(blob, ends, nulls):
                        guard let base = blob.baseAddress else { break }                  // checked: all null
                        for r in k..<j {
                            let i = rows[r] &- first
                            if let nulls, nulls.int(i) != 0 { continue }
                            let start = i == 0 ? 0 : Int(ends.int(i &- 1))
                            keys[r] = Self.prefixKey(base + start, Int(ends.int(i)) &- 1 &- start, blob.count &- start, offset)
                        }
                    case .general:
                        for r in k..<j {
                            keys[r] = try value(l, rows[r] &- first, &cursor, snapshot) { p, n, readable in Self.prefixKey(p, n, readable, offset) } ?? 0
                        }
                    }
                    k = j
                }
            }
        }
        return keys
    }

    /// The values of `rows` (any order; ascending is fastest) copied back to back: value k is
    /// `bytes[ends[k - 1] ..< ends[k]]` (from 0 for k = 0), and `nulls[k]` tells a null from "".
    /// For sorts that compare many values: one buffer instead of an array per value.
    public func values(of rows: [Int], snapshot: Snapshot) throws(FormatError) -> (bytes: [UInt8], ends: [Int], nulls: [Bool]) {
        var bytes = [UInt8](), ends = [Int](), nulls = [Bool]()
        ends.reserveCapacity(rows.count)
        nulls.reserveCapacity(rows.count)
        var cursor = LeafCursor()
        try withExtendedLifetime(image) { () throws(FormatError) in
            for row in rows {
                guard let (l, i) = cursor.locate(row, starts, counts) else {
                    throw .corrupt(offset: 0, reason: "row \(row) is outside the string column's \(counts.reduce(0, +)) values")
                }
                let present = try value(l, i, &cursor, snapshot) { p, n, _ in
                    bytes.append(contentsOf: UnsafeRawBufferPointer(start: p, count: n))
                    return true
                }
                nulls.append(present == nil)
                ends.append(bytes.count)
            }
        }
        return (bytes, ends, nulls)
    }

    /// The value of row `row` (nil for null), copied.
    public func value(ofRow row: Int, snapshot: Snapshot) throws(FormatError) -> [UInt8]? {
        var reader = LeafCursor()
        guard let (l, i) = reader.locate(row, starts, counts) else {
            throw .corrupt(offset: 0, reason: "row \(row) is outside the string column's \(counts.reduce(0, +)) values")
        }
        return try withExtendedLifetime(image) { () throws(FormatError) in
            try value(l, i, &reader, snapshot) { p, n, _ in Array(UnsafeRawBufferPointer(start: p, count: n)) }
        }
    }

    /// `body` on value `i` of leaf `l` where it lies (its bytes, their count and how many may
    /// be read there); nil for null. A big leaf's reader is kept in `cursor` for the next call.
    @inline(__always)
    private func value<R>(_ l: Int, _ i: Int, _ cursor: inout LeafCursor, _ snapshot: Snapshot,
                          _ body: (UnsafeRawPointer, Int, Int) -> R) throws(FormatError) -> R? {
        switch leaves[l] {
        case let .short(slots, w):
            guard let values = ShortSlots(slots, width: w), let (p, n, readable) = values.value(i) else { return nil }
            return body(p, n, readable)
        case let .medium(blob, ends, nulls):
            if let nulls, nulls.int(i) != 0 { return nil }
            guard let base = blob.baseAddress else { return nil }          // checked: all null
            let start = i == 0 ? 0 : Int(ends.int(i &- 1)), end = Int(ends.int(i))
            return body(base + start, end &- 1 &- start, blob.count &- start)
        case let .general(ref):
            if cursor.general?.leaf != l { cursor.general = (l, try StringLeafReader(snapshot, ref: ref)) }
            guard let bytes = try cursor.general!.reader.value(i) else { return nil }
            return bytes.withUnsafeBytes { b in
                withUnsafeBytes(of: UInt64(0)) { empty in body(b.baseAddress ?? empty.baseAddress!, b.count, b.count) }
            }
        }
    }

    /// `prefixKeys`' key of a value (nil: null).
    public static func prefixKey(of value: [UInt8]?, offset: Int = 0) -> UInt64 {
        guard let value else { return 0 }
        return value.withUnsafeBytes { b in
            withUnsafeBytes(of: UInt64(0)) { empty in prefixKey(b.baseAddress ?? empty.baseAddress!, b.count, b.count, offset) }
        }
    }

    /// The big-endian key of the 8 bytes from `offset` of the `n` bytes at `p` (see `prefixKeys`).
    @inline(__always)
    static func prefixKey(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int, _ offset: Int) -> UInt64 {
        let left = n &- offset
        guard left > 0 else { return 0 }
        var word: UInt64
        if offset &+ 8 <= readable {
            word = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        } else {
            word = 0
            for k in 0..<Swift.min(8, left) { word |= UInt64(p.load(fromByteOffset: offset &+ k, as: UInt8.self)) << UInt64(8 &* k) }
        }
        if left < 8 { word &= (1 << UInt64(8 &* left)) &- 1 }
        return word.byteSwapped
    }

    /// Asks for the first bytes of leaf `l` (slots, or ends and blob).
    @inline(__always)
    private func prefetchLeaf(_ l: Int) {
        switch leaves[l] {
        case let .short(slots, _): prefetch(slots)
        case let .medium(blob, ends, _):
            prefetch(ends.bytes)
            prefetch(blob)
        case .general: break
        }
    }
}

/// A short leaf's values (§9.4.1) where they lie: `size` bytes of `width`-byte slots at
/// `base`; a value's slot and the slots after it may be read.
struct ShortSlots: LeafStrings {
    let base: UnsafeRawPointer
    let size: Int
    let width: Int

    /// nil for a leaf without slots (width 0: every value null).
    init?(_ slots: UnsafeRawBufferPointer, width: Int) {
        guard width > 0, let base = slots.baseAddress else { return nil }
        self.base = base
        size = slots.count
        self.width = width
    }

    @inline(__always)
    func value(_ i: Int) -> (UnsafeRawPointer, Int, Int)? {
        let w = width, slot = i &* w
        let length = w &- 1 &- Int(base.load(fromByteOffset: slot &+ w &- 1, as: UInt8.self))
        return length < 0 ? nil : (base + slot, length, size &- slot)
    }
}

/// A checked medium leaf's values (§9.4.2): a blob of `size` bytes at `base`, its ends decoded
/// (`ends[i] ..< ends[i + 1]`: value i and its terminator); the blob from a value to its end
/// may be read.
struct MediumValues: LeafStrings {
    let base: UnsafeRawPointer
    let size: Int
    let ends: UnsafeMutablePointer<Int32>

    /// nil for an empty blob (checked: then every value is null).
    init?(_ blob: UnsafeRawBufferPointer, ends: UnsafeMutablePointer<Int32>) {
        guard let base = blob.baseAddress, blob.count > 0 else { return nil }
        self.base = base
        size = blob.count
        self.ends = ends
    }

    @inline(__always)
    func value(_ i: Int) -> (UnsafeRawPointer, Int, Int)? {
        let start = Int(ends[i])
        return (base + start, Int(ends[i &+ 1]) &- 1 &- start, size &- start)
    }
}

/// The same with null flags, some of them set.
struct NullableMediumValues: LeafStrings {
    let values: MediumValues
    let nulls: PackedInts

    @inline(__always)
    func value(_ i: Int) -> (UnsafeRawPointer, Int, Int)? {
        nulls.int(i) != 0 ? nil : values.value(i)
    }
}

/// A leaf of nulls only (a short leaf of width 0, a medium leaf with an empty blob).
struct NullValues: LeafStrings {
    @inline(__always) func value(_ i: Int) -> (UnsafeRawPointer, Int, Int)? { nil }
}

extension StringColumn.Leaf {
    /// The string leaf at `ref` checked as the column keeps it, for a cluster leaf of `objects`
    /// objects; nil when it fails a check or is enumerated (the caller's other paths read it
    /// and report what is wrong).
    init?(_ snapshot: Snapshot, ref: Int, objects: Int) throws(FormatError) {
        try self.init(ref: ref, objects: objects, reading: snapshot.node)
    }

    /// The same, with nodes read by `node` (`DistinctStringCount` reads them without the
    /// snapshot, on two threads).
    init?(ref: Int, objects: Int, reading read: (Int) throws(FormatError) -> Node) throws(FormatError) {
        let node = try read(ref)
        if !node.hasRefs {
            guard node.header.widthType == .multiply, node.count == objects else { return nil }
            self = .short(slots: node.payloadBytes(), width: node.width)
            return
        }
        if node.context {
            guard node.count == objects else { return nil }
            self = .general(ref: ref)
            return
        }
        guard node.count >= 2, let r = node.ref(0) else { return nil }
        let offsets = try read(r)
        let blob = try node.ref(1).map { r throws(FormatError) in try read(r) }
        let nullNode = try node.ref(2).map { r throws(FormatError) in try read(r) }
        guard offsets.count == objects, nullNode.map({ $0.count >= offsets.count }) ?? true else { return nil }
        let blobBytes = blob?.payloadBytes() ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let ends = PackedInts(offsets)
        let nulls = nullNode.map(PackedInts.init)
        var start: Int64 = 0, anyNull = false
        for i in 0..<objects {
            let end = ends.int(i)
            guard end >= start, end <= Int64(blobBytes.count) else { return nil }
            if let nulls, nulls.int(i) != 0 {
                anyNull = true
            } else if end == start {
                return nil                                  // a string without its terminating byte
            }
            start = end
        }
        self = .medium(blob: blobBytes, ends: ends, nulls: anyNull ? nulls : nil)
    }
}

extension Snapshot {
    /// The plain string property in slot `leafIndex` of the cluster tree at `rootRef`, checked
    /// whole (see `StringColumn`); nil when a leaf fails a check or is enumerated, or reading
    /// fails (work budget, interrupt): the caller's leaf-by-leaf path then meets the same
    /// failure and reports it. Kept per snapshot once made.
    public func stringColumn(rootRef: Int, leafIndex: Int) -> StringColumn? {
        let key = StringColumnKey(rootRef: rootRef, leafIndex: leafIndex)
        if let column = stringColumns[key] { return column }
        guard let clusters = try? clusterLeaves(rootRef: rootRef),
              let refs = try? columnRefs(rootRef: rootRef, leafIndex: leafIndex), refs.count == clusters.count else { return nil }
        image.prefetchDecrypted(nodes: refs)
        var leaves = [StringColumn.Leaf]()
        leaves.reserveCapacity(clusters.count)
        for (l, (cluster, _)) in clusters.enumerated() {
            guard refs[l] != 0, let leaf = try? StringColumn.Leaf(self, ref: refs[l], objects: cluster.count) else { return nil }
            leaves.append(leaf)
        }
        let column = StringColumn(image: image, leaves: leaves, starts: clusters.map(\.start), counts: clusters.map(\.leaf.count))
        stringColumns[key] = column
        return column
    }
}

/// Where the last row looked up lay, so that rows in ascending order find their leaf by
/// stepping forward; and the reader of the last big leaf read.
struct LeafCursor {
    var leaf = 0
    var general: (leaf: Int, reader: StringLeafReader)?

    /// The leaf holding `row` and the row's position in it; nil outside the column.
    @inline(__always)
    mutating func locate(_ row: Int, _ starts: [Int], _ counts: [Int]) -> (Int, Int)? {
        let n = starts.count
        var l = leaf
        if l >= n || row < starts[l] || row >= starts[l] &+ counts[l] {
            // The next leaf (ascending rows), or a binary search for the last leaf starting
            // at or before the row.
            if l &+ 1 < n, row >= starts[l &+ 1], row < starts[l &+ 1] &+ counts[l &+ 1] {
                l &+= 1
            } else {
                var lo = 0, hi = n
                while lo < hi {
                    let mid = (lo &+ hi) >> 1
                    if starts[mid] <= row { lo = mid &+ 1 } else { hi = mid }
                }
                guard lo > 0, row >= starts[lo &- 1], row < starts[lo &- 1] &+ counts[lo &- 1] else { return nil }
                l = lo &- 1
            }
            leaf = l
        }
        return (l, row &- starts[l])
    }
}

/// What a `StringColumn` is kept by in its snapshot.
struct StringColumnKey: Hashable {
    let rootRef: Int
    let leafIndex: Int
}
