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
    func singleEntries(keeping kept: ObjKeyBitmap) throws(FormatError) -> (levelKeys: [Int64], objKeys: [Int64])? {
        var levelKeys = [Int64](), objKeys = [Int64]()
        levelKeys.reserveCapacity(kept.count)
        objKeys.reserveCapacity(kept.count)
        var seen = ObjKeyBitmap(lowest: kept.lowest, highest: kept.highest)
        var previous = Int64.min
        func visit(_ ref: Int, depth: Int) throws(FormatError) -> Bool {
            let node = try indexNode(ref)
            if node.isInner {
                guard depth < Self.maxInnerDepth else { return false }
                for i in 0..<node.keyCount {
                    guard let child = node.ref(i + 1), try visit(child, depth: depth + 1) else { return false }
                }
                return true
            }
            for i in 0..<node.keyCount {
                let slot = node.slots.int(i + 1), key = node.key(i)
                // Strictly ascending over the whole tree: each level-0 key names one object.
                guard slot & 1 == 1, key > previous else { return false }
                previous = key
                let objKey = Int64(bitPattern: UInt64(bitPattern: slot) >> 1)
                guard kept.contains(objKey) else { continue }
                guard seen.insert(objKey) else { return false }
                levelKeys.append(key)
                objKeys.append(objKey)
            }
            return true
        }
        guard try visit(rootRef, depth: 0), objKeys.count == kept.count else { return nil }
        return (levelKeys, objKeys)
    }
}

/// A set of ObjKeys in a bounded range, one bit each: what a scan of a million index entries
/// asks of each entry's key.
struct ObjKeyBitmap {
    let lowest: Int64, highest: Int64
    private var words: [UInt64]
    /// Keys inserted.
    private(set) var count = 0

    /// Empty, for keys `lowest ... highest` (lowest ≤ highest + 1; an empty range holds none).
    init(lowest: Int64, highest: Int64) {
        self.lowest = lowest
        self.highest = max(highest, lowest - 1)
        words = [UInt64](repeating: 0, count: Int((self.highest - lowest + 1 + 63) / 64))
    }

    @inline(__always)
    func contains(_ key: Int64) -> Bool {
        guard key >= lowest, key <= highest else { return false }
        let i = Int(key - lowest)
        return words[i >> 6] & (1 << UInt64(i & 63)) != 0
    }

    /// Adds `key` (in range); false when it was there already, or is out of range.
    @inline(__always)
    mutating func insert(_ key: Int64) -> Bool {
        guard key >= lowest, key <= highest else { return false }
        let i = Int(key - lowest), bit: UInt64 = 1 << UInt64(i & 63)
        if words[i >> 6] & bit != 0 { return false }
        words[i >> 6] |= bit
        count += 1
        return true
    }
}
