/// A search index's duplicate list (realm-format.md §12.2): a B+tree of int64 ObjKeys (§11),
/// normally one plain integer array. Leaves hold at most `maxNodeSize` keys and inner nodes at
/// most `maxNodeSize` children; an inner node is `[T(E) or offsets, children…, T(size)]`.
///
/// Lists that grow by appending (the usual case: objects created in key order) get Realm's
/// shape: full leaves and the compact form with E = maxNodeSize^height. An insertion that
/// breaks the compact form turns the node to the general form (cumulative offsets), which
/// is always allowed. Emptied nodes are removed and an inner root with one child gives way to
/// that child; siblings are not merged.
struct IndexDuplicateList {
    private(set) var root: MutableNode
    let nodes: any IndexNodeLoader
    let maxNodeSize: Int

    init(root: MutableNode, nodes: any IndexNodeLoader, maxNodeSize: Int) {
        self.root = root
        self.nodes = nodes
        self.maxNodeSize = maxNodeSize
    }

    /// A new list: one leaf.
    static func make(_ keys: [Int64]) -> MutableNode { MutableNode(integers: keys) }

    var count: Int { get throws(FormatError) { try size(root) } }

    func element(_ n: Int) throws(FormatError) -> Int64 {
        var node = root
        var n = n
        for _ in 0..<SearchIndexReader.maxListDepth {
            guard node.isInner else {
                guard n >= 0, n < node.count else { throw corrupt(node, "position \(n) is outside a list leaf of \(node.count)") }
                return node[n]
            }
            let (j, start) = try locate(node, n)
            node = try child(node, j)
            n -= start
        }
        throw corrupt(node, "nests too deep")
    }

    func all() throws(FormatError) -> [Int64] {
        var out = [Int64]()
        func visit(_ node: MutableNode, _ depth: Int) throws(FormatError) {
            guard depth < SearchIndexReader.maxListDepth else { throw corrupt(node, "nests too deep") }
            guard node.isInner else {
                out += node.integers
                return
            }
            for j in 0..<childCount(node) { try visit(try child(node, j), depth + 1) }
        }
        try visit(root, 0)
        return out
    }

    mutating func insert(_ key: Int64, at n: Int) throws(FormatError) {
        guard let right = try insert(key, at: n, into: root, depth: 0) else { return }
        // The root split: a new root above both halves.
        let newRoot = MutableNode(integers: [0], hasRefs: true, isInner: true)
        newRoot.append(0)
        newRoot.setChild(1, root)
        newRoot.append(0)
        newRoot.setChild(2, right)
        let sizes = [try size(root), try size(right)]
        newRoot.append(0)
        newRoot.setTagged(3, Int64(sizes[0] + sizes[1]))
        try setForm(newRoot, sizes: sizes, keepCompact: nil, capacity: try capacity(ofChildrenOf: newRoot))
        root = newRoot
    }

    mutating func remove(at n: Int) throws(FormatError) {
        try remove(at: n, from: root, depth: 0)
        while root.isInner && childCount(root) == 1 {
            let only = try child(root, 0)
            root[1] = 0
            try nodes.releaseSubtree(root)
            root = only
        }
    }

    // MARK: recursion

    /// Inserts into the subtree at `node`; returns a new right sibling when `node` split.
    private func insert(_ key: Int64, at n: Int, into node: MutableNode, depth: Int) throws(FormatError) -> MutableNode? {
        guard depth < SearchIndexReader.maxListDepth else { throw corrupt(node, "nests too deep") }
        guard node.isInner else {
            var values = node.integers
            guard n >= 0, n <= values.count else { throw corrupt(node, "insert position \(n) is outside a leaf of \(values.count)") }
            if values.count < maxNodeSize {
                values.insert(key, at: n)
                node.integers = values
                return nil
            }
            // Full leaf: an append starts a new leaf; otherwise the tail moves to the new leaf.
            if n == values.count { return MutableNode(integers: [key]) }
            let tail = Array(values[n...])
            values.removeSubrange(n...)
            values.append(key)
            node.integers = values
            return MutableNode(integers: tail)
        }
        var sizes = try childSizes(node)
        let total = sizes.reduce(0, +)
        let (j, start) = try locate(node, min(n, total), sizes: sizes)
        let target = try child(node, j)
        let right = try insert(key, at: n - start, into: target, depth: depth + 1)
        let wasCompact = compactElements(node)
        if let right {
            sizes[j] = try size(target)
            sizes.insert(try size(right), at: j + 1)
            node.insertChild(right, at: j + 2)
        } else {
            sizes[j] += 1
        }
        node.setTagged(node.count - 1, Int64(total + 1))
        guard sizes.count > maxNodeSize else {
            try setForm(node, sizes: sizes, keepCompact: wasCompact, capacity: nil)
            return nil
        }
        // Too many children: the new one (and those after it, unless it is the last) move
        // to a new sibling.
        let from = j + 1
        let sibling = MutableNode(integers: [0], hasRefs: true, isInner: true)
        for slot in (from + 1)...sizes.count {
            sibling.append(0)
            sibling.setChild(sibling.count - 1, try child(node, slot - 1))
        }
        let moved = Array(sizes[from...])
        sizes.removeSubrange(from...)
        for slot in stride(from: sizes.count + moved.count, to: sizes.count, by: -1) { node.remove(at: slot) }
        node.setTagged(node.count - 1, Int64(sizes.reduce(0, +)))
        sibling.append(0)
        sibling.setTagged(sibling.count - 1, Int64(moved.reduce(0, +)))
        try setForm(node, sizes: sizes, keepCompact: wasCompact, capacity: nil)
        try setForm(sibling, sizes: moved, keepCompact: nil, capacity: try capacity(ofChildrenOf: sibling))
        return sibling
    }

    private func remove(at n: Int, from node: MutableNode, depth: Int) throws(FormatError) {
        guard depth < SearchIndexReader.maxListDepth else { throw corrupt(node, "nests too deep") }
        guard node.isInner else {
            guard n >= 0, n < node.count else { throw corrupt(node, "position \(n) is outside a list leaf of \(node.count)") }
            node.remove(at: n)
            return
        }
        var sizes = try childSizes(node)
        let total = sizes.reduce(0, +)
        guard n >= 0, n < total else { throw corrupt(node, "position \(n) is outside a list of \(total)") }
        let (j, start) = try locate(node, n, sizes: sizes)
        let target = try child(node, j)
        try remove(at: n - start, from: target, depth: depth + 1)
        let wasCompact = compactElements(node)
        sizes[j] -= 1
        if sizes[j] == 0 {
            sizes.remove(at: j)
            node.remove(at: j + 1)
            try nodes.releaseSubtree(target)
        }
        node.setTagged(node.count - 1, Int64(total - 1))
        if !sizes.isEmpty { try setForm(node, sizes: sizes, keepCompact: wasCompact, capacity: nil) }
    }

    // MARK: node access

    private func corrupt(_ node: MutableNode, _ what: String) -> FormatError {
        .corrupt(offset: node.originalRef ?? 0, reason: "search index duplicate list \(what)")
    }

    private func childCount(_ inner: MutableNode) -> Int { max(inner.count - 2, 0) }

    private func child(_ inner: MutableNode, _ j: Int) throws(FormatError) -> MutableNode {
        guard j >= 0, j < childCount(inner), let node = try nodes.child(inner, j + 1, unsigned: false) else {
            throw corrupt(inner, "inner node has no child \(j)")
        }
        return node
    }

    /// Elements below `node`: a leaf's count, an inner node's size slot.
    private func size(_ node: MutableNode) throws(FormatError) -> Int {
        guard node.isInner else { return node.count }
        guard node.count >= 2, let s = node.tagged(node.count - 1), s >= 0 else {
            throw corrupt(node, "inner node has no size slot")
        }
        return Int(s)
    }

    /// E of a compact-form inner node, nil in the general form.
    private func compactElements(_ inner: MutableNode) -> Int? {
        inner.tagged(0).map(Int.init)
    }

    /// The number of elements below each child, from the node's form (no child is loaded).
    private func childSizes(_ inner: MutableNode) throws(FormatError) -> [Int] {
        let n = childCount(inner)
        guard n > 0 else { throw corrupt(inner, "inner node has no children") }
        let total = try size(inner)
        if let e = compactElements(inner) {
            let last = total - e * (n - 1)
            guard e > 0, last >= 0, last <= e else { throw corrupt(inner, "compact node sizes do not add up") }
            return Array(repeating: e, count: n - 1) + [last]
        }
        guard let offsets = try nodes.child(inner, 0, unsigned: true), offsets.count == n - 1 else {
            throw corrupt(inner, "inner node has no offsets for its \(n) children")
        }
        var sizes = [Int]()
        var previous: Int64 = 0
        for o in offsets.integers + [Int64(total)] {
            guard o >= previous else { throw corrupt(inner, "offsets are not ascending") }
            sizes.append(Int(o - previous))
            previous = o
        }
        return sizes
    }

    private func locate(_ inner: MutableNode, _ n: Int) throws(FormatError) -> (Int, Int) {
        try locate(inner, n, sizes: try childSizes(inner))
    }

    /// The child holding position `n` (an append goes to the last child) and its first position.
    private func locate(_ inner: MutableNode, _ n: Int, sizes: [Int]) throws(FormatError) -> (Int, Int) {
        var start = 0
        for (j, s) in sizes.enumerated() {
            if n < start + s || j == sizes.count - 1 { return (j, start) }
            start += s
        }
        throw corrupt(inner, "inner node has no children")
    }

    /// Elements a full child of `inner` holds: maxNodeSize^height.
    private func capacity(ofChildrenOf inner: MutableNode) throws(FormatError) -> Int {
        var node = try child(inner, 0)
        var capacity = maxNodeSize
        while node.isInner {
            capacity *= maxNodeSize
            node = try child(node, 0)
        }
        return capacity
    }

    /// Compact form when every child but the last holds exactly E elements and the last at
    /// most E — E the existing one (`keepCompact`), or `capacity` for a new node; otherwise
    /// the general form with cumulative offsets.
    private func setForm(_ inner: MutableNode, sizes: [Int], keepCompact: Int?, capacity: Int?) throws(FormatError) {
        if let e = keepCompact ?? capacity,
           sizes.dropLast().allSatisfy({ $0 == e }), let last = sizes.last, last <= e {
            if inner.tagged(0) == nil, let old = try nodes.child(inner, 0, unsigned: true) {
                inner[0] = 0
                try nodes.releaseSubtree(old)
            }
            inner.setTagged(0, Int64(e))
            return
        }
        var offsets = [Int64]()
        var sum = 0
        for s in sizes.dropLast() {
            sum += s
            offsets.append(Int64(sum))
        }
        if inner.tagged(0) == nil, let existing = try nodes.child(inner, 0, unsigned: true) {
            existing.integers = offsets
        } else {
            inner[0] = 0                                    // was T(E)
            inner.setChild(0, MutableNode(integers: offsets, unsigned: true))
        }
    }
}
