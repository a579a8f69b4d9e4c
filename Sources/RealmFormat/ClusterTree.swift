/// One leaf (cluster) of a table's object tree (realm-format.md §8.1): up to 256 objects, one
/// column array per leaf index.
public struct ClusterLeaf: Sendable {
    public let node: Node
    /// Key offset of this leaf: the sum of the offsets on its path from the root.
    public let baseKey: UInt64
    /// Number of objects.
    public let count: Int
    /// General form: the relative keys; compact form: nil (keys 0 ..< count).
    let keys: Node?

    /// ObjKey of row `row`.
    @inline(__always)
    public func objectKey(_ row: Int) -> Int64 {
        Int64(bitPattern: baseKey &+ (keys.map { $0.unsigned(row) } ?? UInt64(row)))
    }

    /// Appends the ObjKeys of every row to `out`, in row order: the key array unwrapped once
    /// for the leaf, not per row as `objectKey` does (a million-object query result).
    public func appendObjectKeys(to out: inout [Int64]) {
        if let keys {
            for r in 0..<count { out.append(Int64(bitPattern: baseKey &+ keys.unsigned(r))) }
        } else {
            for r in 0..<count { out.append(Int64(bitPattern: baseKey &+ UInt64(r))) }
        }
    }

    /// Ref of the column leaf for `leafIndex`, nil when the slot is absent or 0.
    public func columnRef(_ leafIndex: Int) -> Int? { node.ref(leafIndex + 1) }
}

/// Walks cluster trees (realm-format.md §8.2): inner nodes hold key offsets (explicit or the
/// compact `j << (8 × depth)`), a depth and a subtree size.
public struct ClusterTree {
    /// `node_shift_factor` of production builds (§8.2).
    static let shift: UInt64 = 8
    /// 256 objects per leaf is Realm's limit (§8.3); 1000 leaves room for test builds' files.
    static let maxLeafObjects = 1000
    /// 256^8 covers every 64-bit key.
    static let maxDepth = 8

    let snapshot: Snapshot
    public let rootRef: Int

    public init(snapshot: Snapshot, rootRef: Int) {
        self.snapshot = snapshot
        self.rootRef = rootRef
    }

    /// Calls `body` for every leaf in key order.
    public func forEachLeaf(_ body: (ClusterLeaf) throws(FormatError) -> Void) throws(FormatError) {
        try visit(rootRef, base: 0, expectedDepth: nil, body)
    }

    /// Number of objects, from the root's size slot or the leaf count.
    public func count() throws(FormatError) -> Int {
        let root = try snapshot.node(rootRef)
        if root.isInner {
            guard let size = root.tagged(2), size < 1 << 40 else {
                throw .corrupt(offset: rootRef, reason: "cluster inner node without a size")
            }
            return Int(size)
        }
        return try leaf(root, base: 0).count
    }

    /// The leaf that would hold ObjKey `key` and the row of `key` in it, found by descending
    /// from the root (§8.2: child `j` of an inner node holds the keys from its offset up to
    /// the next child's); nil when no object has that key. O(depth) nodes read, where
    /// `forEachLeaf` reads every leaf. The row's key is compared, so a tree whose offsets do
    /// not follow that rule yields nil, never another object.
    public func leaf(containing key: Int64) throws(FormatError) -> (leaf: ClusterLeaf, row: Int)? {
        guard key >= 0 else { return nil }
        var ref = rootRef, base: UInt64 = 0
        let wanted = UInt64(key)
        for _ in 0...Self.maxDepth {
            let node = try snapshot.node(ref)
            guard node.hasRefs, node.count >= 1 else {
                throw .corrupt(offset: ref, reason: "cluster node is not a has-refs array")
            }
            if !node.isInner {
                let leaf = try leaf(node, base: base)
                // Compact keys (§8.1) are base + row: the row is the key's offset.
                if leaf.keys == nil {
                    let row = wanted &- base
                    return wanted >= base && row < UInt64(leaf.count) ? (leaf, Int(row)) : nil
                }
                var a = 0, b = leaf.count
                while a < b {
                    let mid = (a + b) / 2
                    if leaf.objectKey(mid) < key { a = mid + 1 } else { b = mid }
                }
                return a < leaf.count && leaf.objectKey(a) == key ? (leaf, a) : nil
            }
            guard node.count >= 3, let depth = node.tagged(1), depth >= 1, depth <= UInt64(Self.maxDepth) else {
                throw .corrupt(offset: ref, reason: "cluster inner node has no valid depth")
            }
            let children = node.count - 3
            guard children > 0, wanted >= base else { return nil }
            let relative = wanted - base
            var j: Int, offset: UInt64
            if let r = node.ref(0) {
                let offsets = try snapshot.node(r)
                guard offsets.count == children, !offsets.hasRefs else {
                    throw .corrupt(offset: r, reason: "cluster key offsets do not match \(children) children")
                }
                // The last child whose offset is at most the key.
                var a = 0, b = children
                while a < b {
                    let mid = (a + b) / 2
                    if offsets.unsigned(mid) <= relative { a = mid + 1 } else { b = mid }
                }
                guard a > 0 else { return nil }
                j = a - 1
                offset = offsets.unsigned(j)
            } else {
                j = Int(min(relative >> (Self.shift * depth), UInt64(children - 1)))
                offset = UInt64(j) << (Self.shift * depth)
            }
            guard let child = node.ref(3 + j) else {
                throw .corrupt(offset: ref, reason: "cluster inner node child \(j) is not a ref")
            }
            ref = child
            base = base &+ offset
        }
        throw .corrupt(offset: rootRef, reason: "cluster tree deeper than \(Self.maxDepth) levels")
    }

    private func visit(_ ref: Int, base: UInt64, expectedDepth: Int?, _ body: (ClusterLeaf) throws(FormatError) -> Void) throws(FormatError) {
        let node = try snapshot.node(ref)
        guard node.hasRefs, node.count >= 1 else {
            throw .corrupt(offset: ref, reason: "cluster node is not a has-refs array")
        }
        if !node.isInner {
            if let d = expectedDepth, d != 0 {
                throw .corrupt(offset: ref, reason: "cluster leaf found where depth \(d) was expected")
            }
            try body(try leaf(node, base: base))
            return
        }
        guard node.count >= 3, let depth = node.tagged(1), depth >= 1, depth <= UInt64(Self.maxDepth) else {
            throw .corrupt(offset: ref, reason: "cluster inner node has no valid depth")
        }
        if let d = expectedDepth, d != Int(depth) {
            throw .corrupt(offset: ref, reason: "cluster inner node of depth \(depth) where \(d) was expected")
        }
        let children = node.count - 3
        var offsets: Node?
        if let r = node.ref(0) {
            let o = try snapshot.node(r)
            guard o.count == children, !o.hasRefs else {
                throw .corrupt(offset: r, reason: "cluster key offsets do not match \(children) children")
            }
            offsets = o
        }
        for j in 0..<children {
            guard let child = node.ref(3 + j) else {
                throw .corrupt(offset: ref, reason: "cluster inner node child \(j) is not a ref")
            }
            let offset = offsets.map { $0.unsigned(j) } ?? (UInt64(j) << (Self.shift * depth))
            try visit(child, base: base &+ offset, expectedDepth: Int(depth) - 1, body)
        }
    }

    private func leaf(_ node: Node, base: UInt64) throws(FormatError) -> ClusterLeaf {
        let first = node.int(0)
        if first & 1 == 1 {
            let n = UInt64(bitPattern: first) >> 1
            guard n <= UInt64(Self.maxLeafObjects) else {
                throw .corrupt(offset: node.ref, reason: "cluster leaf claims \(n) objects")
            }
            return ClusterLeaf(node: node, baseKey: base, count: Int(n), keys: nil)
        }
        guard first != 0 else { throw .corrupt(offset: node.ref, reason: "cluster leaf has no keys") }
        let keys = try snapshot.node(Int(first))
        guard !keys.hasRefs, keys.header.widthType == .bits, keys.count <= Self.maxLeafObjects else {
            throw .corrupt(offset: keys.ref, reason: "cluster key array is not a plain integer array of at most \(Self.maxLeafObjects) keys")
        }
        return ClusterLeaf(node: node, baseKey: base, count: keys.count, keys: keys)
    }
}
