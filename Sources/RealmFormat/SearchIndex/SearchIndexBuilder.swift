/// Builds a general search index from scratch (realm-format.md §12.4) over entries already in
/// index order, level by level, instead of descending from the root for each entry: what an
/// import into an empty table and an index rebuild need.
///
/// The result is node for node the tree that `insert` gives for the same entries in the same
/// order. Inserted in index order, every entry lands at the right edge of the tree, a full
/// node (`maxNodeSize` keys) gets a new right sibling and a full root a new inner root, so
/// every node is full except those on the right edge: the same greedy packing done here.
/// Entries sharing their level-0 key become one entry made by `insert` itself (a duplicate
/// list or sub-index), so the rules for those stay in one place.
extension SearchIndexWriter {
    /// `entries` sorted by level-0 key, level-1 key, then ObjKey (the order `TableEditor`
    /// flushes new entries in); `unique` as for `insert`.
    public func build(sorted entries: [(value: Value, key: Int64)], unique: Bool = false) throws(FormatError) -> MutableNode {
        var leaves: [MutableNode] = []
        var leaf = Self.makeNode(inner: false)
        var leafKeys: [Int64] = []
        func closeLeaf() {
            leaf.loadedChild(0)!.withIntegers { $0 = leafKeys }
            leaves.append(leaf)
        }
        var i = 0
        while i < entries.count {
            let key = Int64(try levelKey(entries[i].value))
            var end = i + 1
            while end < entries.count, Int64(try levelKey(entries[end].value)) == key { end += 1 }
            if i > 0, let previous = leafKeys.last, key <= previous {
                throw .cannotWrite(reason: "search index entries are not in index order")
            }
            if leafKeys.count == maxNodeSize {
                closeLeaf()
                leaf = Self.makeNode(inner: false)
                leafKeys = []
            }
            leafKeys.append(key)
            if end == i + 1 {
                _ = try indexBytes(entries[i].value)          // refuses a value the column cannot index
                leaf.append(Self.tagged(entries[i].key))
            } else {
                // A one-key leaf gathers the group; its single entry moves into the new leaf.
                var group = Self.makeEmpty()
                for e in entries[i..<end] { group = try insert(e.value, objKey: e.key, into: group, unique: unique) }
                guard !group.isInner, let entry = group.loadedChild(1) else {
                    throw .cannotWrite(reason: "search index entries sharing key \(key) did not make one entry")
                }
                leaf.append(0)
                leaf.setChild(leaf.count - 1, entry)
            }
            i = end
        }
        closeLeaf()
        var level = leaves
        while level.count > 1 {
            var parents: [MutableNode] = []
            for start in stride(from: 0, to: level.count, by: maxNodeSize) {
                let parent = Self.makeNode(inner: true)
                var keys: [Int64] = []
                for child in level[start..<min(start + maxNodeSize, level.count)] {
                    keys.append(child.loadedChild(0)!.integers.last!)
                    parent.append(0)
                    parent.setChild(parent.count - 1, child)
                }
                parent.loadedChild(0)!.withIntegers { $0 = keys }
                parents.append(parent)
            }
            level = parents
        }
        return level[0]
    }

    /// The level-0 key of `value` (§12.3), without building index bytes for an int.
    func levelKey(_ value: Value) throws(FormatError) -> Int32 {
        if case let .int(v) = value, columnType == .int { return IndexKey.key(int: v, offset: 0) }
        return IndexKey.key(try indexBytes(value), offset: 0)
    }
}
