/// The entries of a committed general index (realm-format.md §12.2) read in index order, for
/// rebuilding it after a mass removal without reading and sorting every kept value: when every
/// leaf entry of the top-level tree is one object (T(ObjKey)), the level-0 keys are all
/// different and ascending, and the entries of the objects that stay, in the order read, are
/// the sorted entries a rebuild from their values would make (removing objects never makes two
/// remaining ones share a key). Anything else — a duplicate list or sub-index, keys that do not
/// ascend, an object of the table missing or listed twice — gives nil, and the caller takes
/// the general path. The entries' keys are trusted as an index erase trusts them.
extension SearchIndexReader {
    /// The level-0 keys and ObjKeys of the entries whose ObjKey `kept` holds, in index order,
    /// when the index is as described above and lists every key of `kept` exactly once.
    func singleEntries(keeping kept: KeptObjKeys) throws(FormatError) -> (levelKeys: [Int64], objKeys: [Int64])? {
        // The leaves first (every node checked as a lookup checks it), then one pass over
        // their entries that cannot fail halfway.
        var leaves: [IndexNode] = []
        func collect(_ ref: Int, depth: Int) throws(FormatError) -> Bool {
            let node = try indexNode(ref)
            guard node.isInner else {
                leaves.append(node)
                return true
            }
            guard depth < Self.maxInnerDepth else { return false }
            for i in 0..<node.keyCount {
                guard let child = node.ref(i + 1), try collect(child, depth: depth + 1) else { return false }
            }
            return true
        }
        guard try collect(rootRef, depth: 0) else { return nil }
        return kept.entries(of: leaves)
    }
}

/// The ObjKeys of a table's objects after a removal, in a bounded range, with a second bit per
/// key for "met in the index": two bits per key, both in one word, for a scan that meets a
/// million keys in index order (scattered over the range).
struct KeptObjKeys {
    let lowest: Int64
    /// Keys in the range (highest − lowest + 1).
    let span: Int
    /// Key `lowest + j` is bit 2j (kept) and bit 2j + 1 (met) of the words.
    private var words: [UInt64]
    /// Keys inserted.
    private(set) var count = 0

    /// Empty, for keys `lowest ... highest` (none when highest < lowest, or when the range
    /// does not fit an Int; callers bound it by the number of objects).
    init(lowest: Int64, highest: Int64) {
        self.lowest = lowest
        let (spread, overflow) = highest.subtractingReportingOverflow(lowest)
        span = !overflow && spread >= 0 && spread < Int64(Int.max / 2) ? Int(spread) + 1 : 0
        words = [UInt64](repeating: 0, count: (span + 31) / 32)
    }

    /// Adds `key`; false when it was there already, or is out of range.
    mutating func insert(_ key: Int64) -> Bool {
        let j = UInt64(bitPattern: key &- lowest)
        guard key >= lowest, j < UInt64(span) else { return false }
        let bit: UInt64 = 1 << ((j & 31) << 1)
        if words[Int(j >> 5)] & bit != 0 { return false }
        words[Int(j >> 5)] |= bit
        count += 1
        return true
    }

    /// The level-0 keys and ObjKeys of the leaves' entries whose ObjKey is here, in order;
    /// nil when an entry is not a tagged ObjKey, keys do not ascend strictly over all the
    /// leaves, a kept key comes twice, or some kept key does not come.
    /// Without a branch per entry (about half of a mass removal's entries go, at random):
    /// every entry is stored at `n`, which moves on only past a kept key met for the first
    /// time, so it stays ≤ count and the arrays get one spare element.
    func entries(of leaves: [SearchIndexReader.IndexNode]) -> (levelKeys: [Int64], objKeys: [Int64])? {
        guard span > 0 else { return nil }
        var marks = words
        var refused: UInt64 = 0, n = 0, previous = Int64.min
        let span = UInt64(span), lowest = lowest, count = count
        var objKeys: [Int64] = []
        let levelKeys = [Int64](unsafeUninitializedCapacity: count + 1) { levelOut, levelCount in
            objKeys = [Int64](unsafeUninitializedCapacity: count + 1) { objOut, objCount in
                marks.withUnsafeMutableBufferPointer { marks in
                    @inline(__always)
                    func scan(_ entries: Int, _ keyAt: (Int) -> Int64, _ slotAt: (Int) -> Int64) {
                        for i in 0..<entries {
                            let slot = slotAt(i + 1), key = keyAt(i)
                            refused |= UInt64(bitPattern: ~slot) & 1
                            refused |= key > previous ? 0 : 1
                            previous = key
                            let objKey = Int64(bitPattern: UInt64(bitPattern: slot) >> 1)
                            let offset = UInt64(bitPattern: objKey &- lowest)
                            // Out of range: not kept (read at key 0's word, whose bits it ignores).
                            let inRange: UInt64 = offset < span ? 1 : 0
                            let j = Int(offset & (0 &- inRange))
                            let shift = UInt64((j & 31) << 1)
                            let word = marks[j >> 5]
                            let isKept = (word >> shift) & inRange & 1, met = (word >> (shift + 1)) & inRange & 1
                            refused |= isKept & met
                            let first = isKept & ~met & 1
                            marks[j >> 5] = word | first << (shift + 1)
                            levelOut[n] = key
                            objOut[n] = objKey
                            n &+= Int(first)
                        }
                    }
                    for leaf in leaves {
                        let keys = leaf.keys, slots = leaf.slots
                        // Realm writes keys at width 32 (§12.2) and a file under 2 GB has slots of
                        // width 32 (or 64): loops with those widths fixed, the rest through `int`.
                        if keys.width == 32, slots.width == 32 || slots.width == 64,
                           let k = keys.bytes.baseAddress, let e = slots.bytes.baseAddress {
                            let keyAt = ByteWidthInts<Int32>(base: k)
                            if slots.width == 32 {
                                let slotAt = ByteWidthInts<Int32>(base: e)
                                scan(leaf.keyCount, { keyAt.int($0) }, { slotAt.int($0) })
                            } else {
                                let slotAt = ByteWidthInts<Int64>(base: e)
                                scan(leaf.keyCount, { keyAt.int($0) }, { slotAt.int($0) })
                            }
                        } else {
                            scan(leaf.keyCount, { keys.int($0) }, { slots.int($0) })
                        }
                        if refused != 0 { break }
                    }
                }
                objCount = n
            }
            levelCount = n
        }
        guard refused == 0, n == count else { return nil }
        return (levelKeys, objKeys)
    }
}
