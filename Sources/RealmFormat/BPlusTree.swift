/// Position-indexed B+trees used for lists, sets, dictionary keys and values, backlink lists
/// and the history (realm-format.md §11). Inner nodes: [offsets or T(E), children…, T(size)].
public struct BPlusTree {
    /// 1000^6 elements is far beyond any node count a file can hold.
    static let maxDepth = 6

    let snapshot: Snapshot
    public let rootRef: Int

    public init(snapshot: Snapshot, rootRef: Int) {
        self.snapshot = snapshot
        self.rootRef = rootRef
    }

    /// Calls `body` with every leaf node, in element order.
    public func forEachLeaf(_ body: (Node) throws(FormatError) -> Void) throws(FormatError) {
        try visit(rootRef, depth: 0, body)
    }

    private func visit(_ ref: Int, depth: Int, _ body: (Node) throws(FormatError) -> Void) throws(FormatError) {
        let node = try snapshot.node(ref)
        guard node.isInner else {
            try body(node)
            return
        }
        guard depth < Self.maxDepth, node.hasRefs, node.count >= 3 else {
            throw .corrupt(offset: ref, reason: "B+tree inner node is malformed or too deep")
        }
        for j in 1..<(node.count - 1) {
            guard let child = node.ref(j) else {
                throw .corrupt(offset: ref, reason: "B+tree inner node child \(j - 1) is not a ref")
            }
            try visit(child, depth: depth + 1, body)
        }
    }
}
