/// The upper levels of one search index (realm-format.md §12.2), each node read and checked
/// once per snapshot and kept, so that a lookup starts its descent in memory: many lookups on
/// one snapshot (primary keys, an indexed equality run again) pay the node checks only for the
/// levels below. A snapshot never changes, so a node checked once stays valid.
///
/// Nodes are kept down to `depth` levels (a sub-index's root counts as a level): at 1000 keys
/// per node that is the root, its children and theirs, about one node per thousand indexed
/// values for the largest indexes, and filled only as lookups pass through.
///
/// The kept nodes form one flat table, numbered in the order they were first read (the root is
/// node 0), rather than one object per node: a lookup's descent then moves from number to
/// number and retains nothing per level, which was a quarter of a primary-key lookup's cost.
/// Each kept node also keeps its interpolation factor (`IndexNode.interpolationScale`), so a
/// kept level's key search divides nothing.
final class IndexTop {
    static let depth = 3

    /// One kept node with where its entries' slots start in `below` and in `entries` (-1
    /// until the first lookup that needs them): one array read per level, not three.
    struct Kept {
        let node: SearchIndexReader.IndexNode
        let scale: Double
        /// `node.keys32`, worked out once.
        let keys32: UnsafeRawPointer?
        var belowStart: Int32 = -1
        var entryStart: Int32 = -1
    }

    // Only ever filled in, never accessed reentrantly: the dynamic exclusivity check would cost
    // a lookup more than the array reads.
    @exclusivity(unchecked) private var kept: [Kept]
    /// Per entry of a node, once looked up: the number of the node below it (an inner node's
    /// child, or a leaf entry's sub-index root) plus one; 0 while not read.
    @exclusivity(unchecked) private var below: [Int32] = []
    /// Per leaf entry that is a ref, once looked up: what it refers to (§12.2).
    @exclusivity(unchecked) private var entries: [SearchIndexReader.Entry?] = []

    init(_ root: SearchIndexReader.IndexNode) {
        kept = [Kept(node: root, scale: root.interpolationScale, keys32: root.keys32)]
    }

    /// Kept node number `n` (0 is the root).
    @inline(__always)
    func node(_ n: Int) -> Kept { kept[n] }

    /// The number of the node below entry `i` of node `n` when a lookup has already passed
    /// there, else -1 (then `child(of:_:ref:_:)` reads it).
    @inline(__always)
    func keptChild(of n: Int, _ i: Int) -> Int {
        let start = Int(kept[n].belowStart)
        guard start >= 0 else { return -1 }
        // `i` < the node's key count, for which `child` made the slots.
        return Int(below[start &+ i]) &- 1
    }

    /// The number of the node below entry `i` of node `n` (`ref` is its ref), read through
    /// `reader` the first time.
    func child(of n: Int, _ i: Int, ref: Int, _ reader: SearchIndexReader) throws(FormatError) -> Int {
        var start = Int(kept[n].belowStart)
        if start < 0 {
            start = below.count
            below.append(contentsOf: repeatElement(0, count: kept[n].node.keyCount))
            kept[n].belowStart = Int32(start)
        }
        let known = Int(below[start + i])
        if known > 0 { return known - 1 }
        let node = try reader.indexNode(ref)
        let number = kept.count
        kept.append(Kept(node: node, scale: node.interpolationScale, keys32: node.keys32))
        below[start + i] = Int32(number + 1)
        return number
    }

    /// Leaf entry `i` of node `n`, resolved through `reader` the first time it is a ref.
    func entry(of n: Int, _ i: Int, _ reader: SearchIndexReader) throws(FormatError) -> SearchIndexReader.Entry {
        let node = kept[n].node
        let v = node.slots.int(i + 1)
        if v & 1 == 1 { return .single(Int64(bitPattern: UInt64(bitPattern: v) >> 1)) }
        var start = Int(kept[n].entryStart)
        if start < 0 {
            start = entries.count
            entries.append(contentsOf: repeatElement(nil, count: node.keyCount))
            kept[n].entryStart = Int32(start)
        }
        if let e = entries[start + i] { return e }
        let e = try reader.leafEntry(node, i)
        entries[start + i] = e
        return e
    }
}

extension Snapshot {
    /// The kept root of the search index at `rootRef`, read and checked on first use.
    func indexTop(_ rootRef: Int, _ reader: SearchIndexReader) throws(FormatError) -> IndexTop {
        if let top = indexTops[rootRef] { return top }
        let top = IndexTop(try reader.indexNode(rootRef))
        indexTops[rootRef] = top
        return top
    }
}
