/// Writing a table's changes into the transaction's tree (realm-format.md §8.2, §13.10).
extension TableEditor {
    /// Writes the changes into the transaction's tree: changed leaves, new inner nodes, index
    /// roots, the key sequence and content version (§13.10); releases what they replace. The
    /// editor is done then: it refuses further changes and reads (its cells are gone).
    public func finish() throws(FormatError) {
        snapshot.resetWorkBudget()
        try usable()
        guard isModified else { return }
        // Indexes whose build reads no column value wait until the leaves are encoded and
        // their cells dropped, so a large insert never holds its cells and a new index at once.
        var afterLeaves: [Int] = []
        try guarded { () throws(FormatError) in
            for c in indexedColumns {
                if indexesBuiltAtFinish.contains(c) {
                    try rebuildIndex(c)
                } else if try buildsWithoutValues(c) {
                    afterLeaves.append(c)
                    // No lookups follow: the primary keys' copy goes now.
                    pendingPrimaryKeys = PendingPrimaryKeys()
                } else {
                    try flushPendingIndex(c)
                }
            }
        }
        try mergeSmallLeaves()
        // The first leaf has offset 0 (§8.2): re-base it when an earlier leaf went away.
        if leaves[0].base != 0 {
            leaves[0].base = 0
            leaves[0].keysChanged = true
        }
        let keepsShape = droppedLeaves.isEmpty && leaves.map(\.originalRef) == committedLeafRefs
            && leaves.map(\.base) == committedLeafBases
        var level: [TableEncoder.ClusterLevelEntry] = []
        finished = true
        for leaf in leaves {
            level.append((leaf.base, try encode(leaf), leaf.count))
            // Encoded (packed, `compacted`), the leaf's cells are not needed again: dropped
            // leaf by leaf, a large insert never holds its objects both as cells and as nodes.
            leaf.releaseCells()
        }
        for leaf in droppedLeaves { try releaseDropped(leaf) }
        try guarded { () throws(FormatError) in
            for c in afterLeaves { try flushPendingIndex(c) }
        }
        if keepsShape, let root = table.clusterRef, try snapshot.node(root).isInner {
            // The same leaves under the same offsets: the committed inner nodes stay, with new
            // child refs and object counts, as realm-core changes its tree in place (§8.2).
            guard let rootNode = try transaction.child(top, 2) else {
                throw .corrupt(offset: root, reason: "table '\(table.name)': no cluster root")
            }
            var next = 0
            _ = try updateInnerNode(rootNode, level, &next, depth: 0)
            guard next == level.count else {
                throw .corrupt(offset: root, reason: "table '\(table.name)': the cluster tree holds \(next) leaves, not \(level.count)")
            }
        } else {
            if let root = table.clusterRef { try releaseInnerNodes(root) }
            TableEncoder.put(TableEncoder.clusterRoot(over: level), in: top, at: 2)
        }
        try writeEnumValueLists()
        if !indexRoots.isEmpty {
            guard let indexes = try transaction.child(top, 4) else {
                throw .corrupt(offset: table.ref, reason: "table '\(table.name)': no search index list")
            }
            for (c, root) in indexRoots { indexes.setChild(columns[c].key.leafIndex, root) }
        }
        top.setTagged(6, Int64(table.contentVersion + 1))
        top.setTagged(9, Int64(sequenceNumber))
    }

    func encode(_ leaf: ClusterLeafEdit) throws(FormatError) -> TableEncoder.ClusterChild {
        if let ref = leaf.originalRef, !leaf.isChanged { return .ref(ref) }
        let width = (columns.map { $0.key.leafIndex }.max() ?? -1) + 2
        let node = MutableNode(integers: [Int64](repeating: 0, count: max(width, leaf.originalSlots.count)), hasRefs: true)
        if options.keepsUnchangedKeys, leaf.originalRef != nil, !leaf.keysChanged, let committed = leaf.originalSlots.first {
            // The same objects under the same offset (an update): the committed keys array, or
            // the compact form's tagged count, stays as it is (§8.2) — no re-encoding, and the
            // old top ref still reaches the very same array (it is shared, not released).
            node[0] = committed
        } else {
            TableEncoder.setKeys(leaf.relativeKeys, of: node)
            if let ref = leaf.originalKeysRef { try transaction.releaseNode(ref: ref) }
        }
        for (c, column) in columns.enumerated() {
            let slot = 1 + column.key.leafIndex
            let original = leaf.originalColumnRef(column.key.leafIndex)
            if let packed = leaf.packedColumn(c) {
                // Packed by `pack` from the cells this branch would encode below (a new leaf).
                node.setChild(slot, packed)
            } else if leaf.cells[c] == nil, leaf.removalPending[c], let original, let keep = leaf.removalMask,
               let filtered = try LeafRowFilter.filtered(snapshot, ref: original, kind: cellKinds[c], keep: keep, kept: leaf.count) {
                node.setChild(slot, filtered)
                try transaction.releaseSubtree(ref: original)
            } else if leaf.dirty[c] || original == nil {
                let cells = try cells(leaf, c)
                node.setChild(slot, try cells.encode(column).compacted())
                if let original { try cells.releaseCommitted(original, in: transaction) }
            } else if let original {
                node[slot] = Int64(original)
            }
        }
        if let ref = leaf.originalRef { try transaction.releaseNode(ref: ref) }
        return .node(node)
    }

    /// Releases a committed leaf that left the tree: its arrays, and below them what no
    /// leaf still uses (objects merged into a neighbour keep their collection trees).
    func releaseDropped(_ leaf: ClusterLeafEdit) throws(FormatError) {
        guard let ref = leaf.originalRef else { return }
        try transaction.releaseNode(ref: ref)
        if let keys = leaf.originalKeysRef { try transaction.releaseNode(ref: keys) }
        for slot in 1..<max(leaf.originalSlots.count, 1) {
            let v = leaf.originalSlots[slot]
            guard v != 0, v & 1 == 0 else { continue }
            let leafIndex = slot - 1
            if leafIndex < columnOfLeaf.count, let c = columnOfLeaf[leafIndex], c < leaf.cells.count, let cells = leaf.cells[c] {
                try cells.releaseCommitted(Int(v), in: transaction)
            } else {
                try transaction.releaseSubtree(ref: Int(v))
            }
        }
    }

    /// Spec slot 4 (§7.5): the value list of each enumerated column whose list is new or grew,
    /// in the has-refs array of one entry per public column, made with the first enumeration.
    func writeEnumValueLists() throws(FormatError) {
        let changed = enumValues.filter { $0.value.isChanged }.sorted { $0.key < $1.key }
        guard !changed.isEmpty else { return }
        guard let spec = try transaction.child(top, 0), spec.hasRefs, spec.count >= 6 else {
            throw .corrupt(offset: table.ref, reason: "table '\(table.name)': no Spec")
        }
        let publicColumns = table.publicColumns.count
        let lists: MutableNode
        if let existing = try transaction.child(spec, 4) {
            guard existing.hasRefs, existing.count >= publicColumns else {
                throw .corrupt(offset: table.ref, reason: "table '\(table.name)': the string value lists do not cover every column")
            }
            lists = existing
        } else {
            lists = MutableNode(integers: [Int64](repeating: 0, count: publicColumns), hasRefs: true)
            spec.setChild(4, lists)
        }
        for (c, list) in changed {
            if let old = list.committedRef { try transaction.releaseSubtree(ref: old) }
            lists.setChild(table.columns[c].specIndex, try list.encode())
        }
    }

    /// Puts the next leaves of `level` (in tree order) under the committed inner node `node`
    /// and its inner descendants, and its slot 2 to the objects below it; returns that count.
    func updateInnerNode(_ node: MutableNode, _ level: [TableEncoder.ClusterLevelEntry], _ next: inout Int,
                                 depth: Int) throws(FormatError) -> Int {
        guard depth < 64, node.isInner, node.hasRefs, node.count >= 3 else {
            throw .corrupt(offset: node.originalRef ?? 0, reason: "table '\(table.name)': malformed cluster inner node")
        }
        var size = 0
        for j in 3..<node.count {
            guard let childRef = node.loadedChild(j)?.originalRef ?? (node[j] != 0 && node[j] & 1 == 0 ? Int(node[j]) : nil) else {
                throw .corrupt(offset: node.originalRef ?? 0, reason: "table '\(table.name)': cluster inner node without a child in slot \(j)")
            }
            if try snapshot.node(childRef).isInner {
                guard let child = try transaction.child(node, j) else {
                    throw .corrupt(offset: childRef, reason: "table '\(table.name)': missing cluster inner node")
                }
                size += try updateInnerNode(child, level, &next, depth: depth + 1)
                continue
            }
            guard next < level.count, leaves[next].originalRef == childRef else {
                throw .corrupt(offset: childRef, reason: "table '\(table.name)': cluster leaves are not where they were read")
            }
            if case .node = level[next].child { TableEncoder.put(level[next].child, in: node, at: j) }
            size += level[next].size
            next += 1
        }
        if node.tagged(2) != Int64(size) { node.setTagged(2, Int64(size)) }
        return size
    }

    /// Releases the committed inner cluster nodes and their offset arrays (leaves are
    /// released one by one, as they are replaced).
    func releaseInnerNodes(_ ref: Int) throws(FormatError) {
        let node = try snapshot.node(ref)
        guard node.isInner else { return }
        try transaction.releaseNode(ref: ref)
        if let offsets = node.ref(0) { try transaction.releaseNode(ref: offsets) }
        for j in 3..<max(node.count, 3) {
            if let child = node.ref(j) { try releaseInnerNodes(child) }
        }
    }
}
