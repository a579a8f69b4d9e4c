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
        try build(entries, order: nil, unique: unique)
    }

    /// The same, over `entries` taken in `order` (positions into `entries`, nil: as they are),
    /// so that a large batch is not copied into index order first.
    func build(_ entries: [(value: Value, key: Int64)], order: [Int]?, unique: Bool = false) throws(FormatError) -> MutableNode {
        if let order, order.count != entries.count {
            throw .cannotWrite(reason: "search index build: \(order.count) positions for \(entries.count) entries")
        }
        func entry(_ j: Int) -> (value: Value, key: Int64) { entries[order?[j] ?? j] }
        // Level-0 keys first (this also refuses a value the column cannot index).
        var levelKeys = [Int64]()
        levelKeys.reserveCapacity(entries.count)
        for j in entries.indices { levelKeys.append(Int64(try levelKey(entry(j).value))) }
        return try build(levelKeys: levelKeys, objKey: { entry($0).key }, value: { entry($0).value }, unique: unique)
    }

    /// The same for an int column's entries as two plain arrays (values, ObjKeys) taken in
    /// `order`: no boxed value per entry, which is most of a large rebuild's cost.
    func build(ints values: [Int64], keys: [Int64], order: [Int], unique: Bool) throws(FormatError) -> MutableNode {
        guard columnType == .int, values.count == keys.count, order.count == values.count else {
            throw .cannotWrite(reason: "search index build: \(order.count) positions for \(values.count) int entries")
        }
        var levelKeys = [Int64]()
        levelKeys.reserveCapacity(values.count)
        for i in order { levelKeys.append(Int64(IndexKey.key(int: values[i], offset: 0))) }
        return try build(levelKeys: levelKeys, objKey: { keys[order[$0]] }, value: { .int(values[order[$0]]) }, unique: unique)
    }

    /// The same for entries whose level-0 keys all differ, given in ascending order with their
    /// ObjKeys (what `SearchIndexReader.singleEntries` reads): one T(ObjKey) per key, so no
    /// value is needed.
    func build(distinctLevelKeys levelKeys: [Int64], objKeys: [Int64], unique: Bool) throws(FormatError) -> MutableNode {
        guard levelKeys.count == objKeys.count, zip(levelKeys, levelKeys.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw .cannotWrite(reason: "search index build: level-0 keys that are not distinct and ascending")
        }
        // Every group has one entry: `value` is never asked for.
        return try build(levelKeys: levelKeys, objKey: { objKeys[$0] }, value: { _ in .null }, unique: unique)
    }

    /// The same over the words of `IndexEntryOrder.distinctLevelOrder`, read in place (no
    /// array of level keys or of ordered ObjKeys: a bulk load's primary-key index, issue #16);
    /// `objKeys` are the entries' ObjKeys by position.
    func build(distinctOrder words: [UInt64], objKeys: ConsecutiveInts, unique: Bool) throws(FormatError) -> MutableNode {
        guard words.count == objKeys.count else {
            throw .cannotWrite(reason: "search index build: \(words.count) ordered entries for \(objKeys.count) ObjKeys")
        }
        return try build(levelKeys: words.lazy.map(IndexEntryOrder.levelKey(ofWord:)),
                         objKey: { objKeys[IndexEntryOrder.position(ofWord: words[$0])] }, value: { _ in .null }, unique: unique)
    }

    /// The level-by-level build over entries 0 ..< levelKeys.count in index order: each one's
    /// level-0 key, ObjKey and (for entries sharing a key, which `insert` combines) value.
    private func build<LevelKeys: RandomAccessCollection<Int64>>(levelKeys: LevelKeys, objKey: (Int) -> Int64, value: (Int) -> Value,
                                                                 unique: Bool) throws(FormatError) -> MutableNode where LevelKeys.Index == Int {
        let count = levelKeys.count
        // A leaf's slots and keys are gathered in plain arrays and become nodes when full.
        var leaves: [MutableNode] = []
        var keys: [Int64] = [], slots: [Int64] = [0], children: [(Int, MutableNode)] = []
        keys.reserveCapacity(maxNodeSize)
        slots.reserveCapacity(maxNodeSize + 1)
        func closeLeaf() {
            leaves.append(Self.node(keys: keys, slots: slots, children: children, inner: false))
            keys = []
            slots = [0]
            keys.reserveCapacity(maxNodeSize)
            slots.reserveCapacity(maxNodeSize + 1)
            children = []
        }
        var lastClosedKey: Int64?
        var i = 0
        while i < count {
            let key = levelKeys[i]
            var end = i + 1
            while end < count, levelKeys[end] == key { end += 1 }
            if let previous = keys.last ?? lastClosedKey, key <= previous {
                throw .cannotWrite(reason: "search index entries are not in index order")
            }
            if keys.count == maxNodeSize {
                lastClosedKey = keys.last
                closeLeaf()
            }
            keys.append(key)
            if end == i + 1 {
                slots.append(Self.tagged(objKey(i)))
            } else if !unique, let list = try duplicateList(i..<end, objKey: objKey, value: value) {
                slots.append(0)
                children.append((slots.count - 1, list))
            } else {
                // A one-key leaf gathers the group; its single entry moves into the new leaf.
                var group = Self.makeEmpty()
                for j in i..<end { group = try insert(value(j), objKey: objKey(j), into: group, unique: unique) }
                guard !group.isInner, let entry = group.loadedChild(1) else {
                    throw .cannotWrite(reason: "search index entries sharing key \(key) did not make one entry")
                }
                slots.append(0)
                children.append((slots.count - 1, entry))
            }
            i = end
        }
        closeLeaf()
        var level = leaves
        while level.count > 1 {
            var parents: [MutableNode] = []
            for start in stride(from: 0, to: level.count, by: maxNodeSize) {
                let group = level[start..<min(start + maxNodeSize, level.count)]
                parents.append(Self.node(keys: group.map { $0.loadedChild(0)!.integers.last! },
                                         slots: [Int64](repeating: 0, count: group.count + 1),
                                         children: group.enumerated().map { ($0.offset + 1, $0.element) }, inner: true))
            }
            level = parents
        }
        return level[0]
    }

    /// The duplicate list (§12.2) that inserting `entries` one by one makes when they all hold
    /// the same value, in ascending ObjKey order: a pair, then appends (full leaves, compact
    /// form), without reading an object's value per insertion. nil for anything else (values
    /// that differ, types whose index equality is not plain value equality): `insert` decides.
    private func duplicateList(_ entries: Range<Int>, objKey: (Int) -> Int64, value: (Int) -> Value) throws(FormatError) -> MutableNode? {
        guard columnType == .int || columnType == .string, entries.count >= 2 else { return nil }
        let first = value(entries.lowerBound)
        for j in entries.dropFirst() where value(j) != first { return nil }
        for j in entries.dropFirst() where objKey(j) <= objKey(j - 1) { return nil }
        var list = IndexDuplicateList(root: IndexDuplicateList.make([objKey(entries.lowerBound), objKey(entries.lowerBound + 1)]),
                                      nodes: nodes, maxNodeSize: maxNodeSize)
        for j in entries.dropFirst(2) { try list.insert(objKey(j), at: j - entries.lowerBound) }
        return list.root
    }

    /// An index node as `makeNode` makes them (keys array 32 bits wide, §12.1) with its slots.
    private static func node(keys: [Int64], slots: [Int64], children: [(Int, MutableNode)], inner: Bool) -> MutableNode {
        let keysNode = MutableNode(integers: keys)
        keysNode.minimumWidth = 32
        let node = MutableNode(integers: slots, hasRefs: true, isInner: inner, context: true)
        node.setChild(0, keysNode)
        for (slot, child) in children { node.setChild(slot, child) }
        return node
    }

    /// The level-0 key of `value` (§12.3), without building index bytes for an int.
    func levelKey(_ value: Value) throws(FormatError) -> Int32 {
        if case let .int(v) = value, columnType == .int { return IndexKey.key(int: v, offset: 0) }
        return IndexKey.key(try indexBytes(value), offset: 0)
    }
}
