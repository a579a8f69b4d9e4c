/// Look-ups in a general search index (realm-format.md §12). The index is a tree keyed by
/// 4-byte chunks of a value's index bytes: a leaf entry is one object (tagged ObjKey), a
/// duplicate list of ObjKeys, or a sub-index for the next chunk. It stores only as many chunks
/// as it needs to tell its values apart, so what it yields is a superset of the objects holding
/// the value: callers confirm each candidate by reading its stored value.
///
/// Everything read from the file is checked: a malformed tree throws instead of trapping, and
/// the walk is bounded (inner depth per level, number of levels, list sizes).
public struct SearchIndex {
    /// Realm stops splitting into sub-indexes beyond 200 bytes (`s_max_offset`); a little slack
    /// for files written by other builds.
    static let maxOffset = 256
    /// 1000 keys per node: 8 inner levels address far more entries than any file holds.
    static let maxInnerDepth = 8

    let snapshot: Snapshot
    public let rootRef: Int

    public init(snapshot: Snapshot, rootRef: Int) {
        self.snapshot = snapshot
        self.rootRef = rootRef
    }

    /// The 32-bit key of the chunk at `offset` (§12.3): 0 for null or past the end; a tail of
    /// 0–3 bytes gets an `X` appended and zero padding; compared as signed.
    public static func key(_ bytes: [UInt8]?, offset: Int) -> Int32 {
        guard let b = bytes, offset <= b.count else { return 0 }
        let tail = b.count - offset
        var chunk: UInt32 = 0
        for i in 0..<4 {
            let byte: UInt8
            if i < tail { byte = b[offset + i] } else if i == tail { byte = 0x58 } else { byte = 0 }
            chunk = chunk << 8 | UInt32(byte)
        }
        return Int32(bitPattern: chunk)
    }

    /// ObjKeys the index lists under the value with these index bytes (`nil` = null): every
    /// object holding the value is among them, possibly with others sharing a prefix.
    public func candidates(for bytes: [UInt8]?) throws(FormatError) -> [Int64] {
        var ref = rootRef
        var offset = 0
        while true {
            let key = Self.key(bytes, offset: offset)
            var node = try indexNode(ref)
            var depth = 0
            while node.isInner {
                guard depth < Self.maxInnerDepth else {
                    throw .corrupt(offset: ref, reason: "search index is nested too deeply")
                }
                let keys = try keysNode(of: node)
                guard let i = firstIndex(in: keys, notBelow: key) else { return [] }
                guard let child = node.ref(i + 1) else {
                    throw .corrupt(offset: node.ref, reason: "search index inner node has no child \(i)")
                }
                node = try indexNode(child)
                depth += 1
            }
            let keys = try keysNode(of: node)
            guard let i = firstIndex(in: keys, notBelow: key), Int32(truncatingIfNeeded: keys.int(i)) == key else {
                return []
            }
            guard i + 1 < node.count else {
                throw .corrupt(offset: node.ref, reason: "search index leaf has no entry for key \(i)")
            }
            let entry = node.int(i + 1)
            if entry & 1 == 1 { return [entry >> 1] }
            guard let target = node.ref(i + 1) else { return [] }
            let targetNode = try snapshot.node(target)
            guard targetNode.context else { return try duplicateList(target) }
            offset += 4
            guard offset <= Self.maxOffset else {
                throw .corrupt(offset: target, reason: "search index sub-indexes go deeper than \(Self.maxOffset) bytes")
            }
            ref = target
        }
    }

    private func indexNode(_ ref: Int) throws(FormatError) -> Node {
        let node = try snapshot.node(ref)
        guard node.hasRefs, node.context, node.count >= 1 else {
            throw .corrupt(offset: ref, reason: "not a search index node")
        }
        return node
    }

    private func keysNode(of node: Node) throws(FormatError) -> Node {
        guard let ref = node.ref(0) else {
            throw .corrupt(offset: node.ref, reason: "search index node has no keys array")
        }
        let keys = try snapshot.node(ref)
        guard !keys.hasRefs, keys.count <= node.count - 1 else {
            throw .corrupt(offset: ref, reason: "search index keys array does not match its node")
        }
        return keys
    }

    /// Binary search for the first key ≥ `key` among keys sorted as signed 32-bit values.
    private func firstIndex(in keys: Node, notBelow key: Int32) -> Int? {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int32(truncatingIfNeeded: keys.int(mid)) < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < keys.count ? lo : nil
    }

    private func duplicateList(_ ref: Int) throws(FormatError) -> [Int64] {
        var out = [Int64]()
        try BPlusTree(snapshot: snapshot, rootRef: ref).forEachLeaf { (leaf: Node) throws(FormatError) in
            guard !leaf.hasRefs else {
                throw .corrupt(offset: leaf.ref, reason: "search index duplicate list holds refs")
            }
            out += leaf.ints()
        }
        return out
    }
}
