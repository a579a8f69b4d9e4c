/// The upper levels of one search index (realm-format.md §12.2), each node read and checked
/// once per snapshot and kept, so that a lookup starts its descent in memory: many lookups on
/// one snapshot (primary keys, an indexed equality run again) pay the node checks only for the
/// levels below. A snapshot never changes, so a node checked once stays valid.
///
/// Nodes are kept down to `depth` levels (a sub-index's root counts as a level): at 1000 keys
/// per node that is the root, its children and theirs, about one node per thousand indexed
/// values for the largest indexes, and filled only as lookups pass through.
final class IndexTop {
    static let depth = 3

    let node: SearchIndexReader.IndexNode
    // Only ever filled in, never accessed reentrantly: the dynamic exclusivity check would cost
    // a lookup more than the array read.
    /// Per entry, once looked up: an inner node's child, or a leaf entry's sub-index root.
    @exclusivity(unchecked) private var below: [IndexTop?] = []
    /// Per leaf entry that is a ref, once looked up: what it refers to (§12.2).
    @exclusivity(unchecked) private var entries: [SearchIndexReader.Entry?] = []

    init(_ node: SearchIndexReader.IndexNode) {
        self.node = node
    }

    /// The node below entry `i` (`ref` is its ref), read through `reader` the first time.
    func child(_ i: Int, ref: Int, _ reader: SearchIndexReader) throws(FormatError) -> IndexTop {
        if below.isEmpty { below = Array(repeating: nil, count: node.keyCount) }
        if let c = below[i] { return c }
        let c = IndexTop(try reader.indexNode(ref))
        below[i] = c
        return c
    }

    /// Leaf entry `i`, resolved through `reader` the first time it is a ref.
    func entry(_ i: Int, _ reader: SearchIndexReader) throws(FormatError) -> SearchIndexReader.Entry {
        let v = node.slots.int(i + 1)
        if v & 1 == 1 { return .single(Int64(bitPattern: UInt64(bitPattern: v) >> 1)) }
        if entries.isEmpty { entries = Array(repeating: nil, count: node.keyCount) }
        if let e = entries[i] { return e }
        let e = try reader.leafEntry(node, i)
        entries[i] = e
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
