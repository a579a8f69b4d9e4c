/// The order in which a tree of new nodes is laid out in a file: children before their parent
/// (a parent needs its children's refs), and below an inner node, its new leaves that hold refs
/// (cluster leaves, realm-format.md §8.1) column by column — slot s of every such leaf, then
/// slot s + 1, …, then the leaves themselves.
///
/// Why column by column: a scan reads one column of every cluster leaf, and a file laid out
/// leaf by leaf puts each leaf's column array a page or two apart from the next one's, so the
/// scan touches a large part of the file. Laid out by column it reads one contiguous stretch per
/// 256 leaves. That matters most for encrypted files (§14), where every page touched is
/// decrypted and authenticated. Realm reads refs wherever they point: any order is valid.
enum NodeLayout {
    /// Lays out `node` and the new nodes below it: `existing` returns the ref of a subtree that
    /// is already in the file (nil when it must be written), `emit` writes one node given the
    /// final value of each of its slots and returns its ref.
    static func lay<E: Error>(_ node: MutableNode,
                              existing: (MutableNode) -> Int64?,
                              emit: (MutableNode, [Int64]) throws(E) -> Int64) throws(E) -> Int64 {
        if let ref = existing(node) { return ref }
        return try layNew(node, existing: existing, emit: emit)
    }

    /// `lay` for a node `existing` has already said must be written (it is asked once per
    /// node: it may walk the node's subtree).
    private static func layNew<E: Error>(_ node: MutableNode,
                                         existing: (MutableNode) -> Int64?,
                                         emit: (MutableNode, [Int64]) throws(E) -> Int64) throws(E) -> Int64 {
        var slots = node.integers
        guard node.hasRefs else { return try emit(node, slots) }
        guard node.isInner else {
            for i in 0..<slots.count {
                if let child = node.loadedChild(i) { slots[i] = try lay(child, existing: existing, emit: emit) }
            }
            return try emit(node, slots)
        }
        var leaves: [(slot: Int, node: MutableNode, slots: [Int64])] = []
        for i in 0..<slots.count {
            guard let child = node.loadedChild(i) else { continue }
            if let ref = existing(child) {
                slots[i] = ref
            } else if child.hasRefs, !child.isInner {
                leaves.append((i, child, child.integers))
            } else {
                slots[i] = try layNew(child, existing: existing, emit: emit)
            }
        }
        let width = leaves.map(\.slots.count).max() ?? 0
        for s in 0..<width {
            for l in leaves.indices where s < leaves[l].slots.count {
                if let grandchild = leaves[l].node.loadedChild(s) {
                    leaves[l].slots[s] = try lay(grandchild, existing: existing, emit: emit)
                }
            }
        }
        for leaf in leaves { slots[leaf.slot] = try emit(leaf.node, leaf.slots) }
        return try emit(node, slots)
    }
}
