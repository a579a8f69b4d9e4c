/// Search indexes under edit (realm-format.md §12): entries erased and inserted one by one,
/// pending entries of new objects flushed in index-key order, whole indexes rebuilt.
extension TableEditor {
    func indexRoot(_ c: Int) throws(FormatError) -> MutableNode {
        if let root = indexRoots[c] { return root }
        guard let indexes = try transaction.child(top, 4),
              let root = try transaction.child(indexes, columns[c].key.leafIndex) else {
            throw .corrupt(offset: table.ref, reason: "table '\(table.name)': column '\(columns[c].name)' has no search index")
        }
        indexRoots[c] = root
        return root
    }

    func indexWriter(_ c: Int) -> SearchIndexWriter {
        SearchIndexWriter(columnType: columns[c].type, nodes: transaction) { [unowned self] k throws(FormatError) in
            try self.value(k, column: c)
        }
    }

    /// Replaces the index of column `c` by one holding every object now in the table (§12.4:
    /// the same entries, whatever order built them); the old tree's space is released.
    func rebuildIndex(_ c: Int) throws(FormatError) {
        if let built = try rebuiltFromCommittedEntries(c) {
            try transaction.releaseSubtree(try indexRoot(c))
            indexRoots[c] = built
            if c == primaryKeyColumn { pendingPrimaryKeys = PendingPrimaryKeys() }
            return
        }
        var entries: PendingIndexEntries
        if let (values, keys) = try keptIntEntries(column: c) {
            // A required int column (a primary key): values and ObjKeys as plain arrays.
            entries = PendingIndexEntries(ints: values, keys: keys)
        } else {
            entries = PendingIndexEntries()
            for leaf in leaves {
                let values = try cells(leaf, c)
                for (row, key) in leaf.keys.enumerated() { entries.append(values[row], key: key) }
            }
        }
        try transaction.releaseSubtree(try indexRoot(c))
        indexRoots[c] = SearchIndexWriter.makeEmpty()
        // The rebuilt index holds every object, new ones included.
        if c == primaryKeyColumn { pendingPrimaryKeys = PendingPrimaryKeys() }
        pendingIndex[c] = entries
        try flushPendingIndex(c)
    }

    /// The index of int column `c` built anew from the committed index's own entries, those
    /// of the objects still in the table, read in index order (`singleEntries`): no value is
    /// read and nothing sorted. Only for an index this transaction has not changed (so it lists
    /// exactly the committed objects with their committed values, and removals are all that
    /// happened to the column's objects since: a mass removal flushes pending entries first,
    /// which changes the tree); nil otherwise, or when the scan declines.
    func rebuiltFromCommittedEntries(_ c: Int) throws(FormatError) -> MutableNode? {
        guard options.rebuildsIndexesFromCommittedEntries, columns[c].type == .int, !indexesBuiltAtFinish.contains(c),
              pendingIndex[c]?.isEmpty ?? true, objectCount > 0, let ref = try unchangedIndexRef(c),
              let lowest = leaves.first?.keys.first, let highest = leaves.last?.keys.last,
              // Two bits per key of the range, refused when the keys are spread much wider than
              // the objects (they must stay cheap next to a value per object); keys from disk
              // may be anything, so the spread is computed without overflowing.
              case let (spread, overflow) = highest.subtractingReportingOverflow(lowest),
              !overflow, spread >= 0, spread < Int64(64 * objectCount + 4096) else { return nil }
        var kept = KeptObjKeys(lowest: lowest, highest: highest)
        for leaf in leaves {
            for key in leaf.keys { guard kept.insert(key) else { return nil } }
        }
        guard kept.count == objectCount else { return nil }
        snapshot.resetWorkBudget()
        // A damaged index is not an error here: the general path rebuilds from the values.
        guard let scanned = (try? SearchIndexReader(snapshot: snapshot, rootRef: ref).singleEntries(keeping: kept)) ?? nil else { return nil }
        return try indexWriter(c).build(distinctLevelKeys: scanned.levelKeys, objKeys: scanned.objKeys, unique: c == primaryKeyColumn)
    }

    /// The committed root of column `c`'s index while this transaction has not changed it
    /// (not loaded, or loaded and unchanged below); nil once it has.
    func unchangedIndexRef(_ c: Int) throws(FormatError) -> Int? {
        if let root = indexRoots[c] { return root.needsWrite ? nil : root.originalRef }
        guard let indexes = try transaction.child(top, 4) else { return nil }
        let slot = columns[c].key.leafIndex
        if let loaded = indexes.loadedChild(slot) { return loaded.needsWrite ? nil : loaded.originalRef }
        guard slot >= 0, slot < indexes.count else { return nil }
        let v = indexes.integers[slot]
        return v != 0 && v & 1 == 0 ? Int(v) : nil
    }

    /// Every object's value and ObjKey of a required int column, in leaf order, read in place
    /// from the leaves still on disk (only the kept rows where a removal is pending, as
    /// `ColumnCells.decode` reads them) or taken from cells held as ints; nil when some leaf
    /// is in another state (the general path boxes the values).
    func keptIntEntries(column c: Int) throws(FormatError) -> (values: [Int64], keys: [Int64])? {
        guard cellKinds[c] == .int else { return nil }
        var values = [Int64](), keys = [Int64]()
        values.reserveCapacity(objectCount)
        keys.reserveCapacity(objectCount)
        for leaf in leaves {
            try unpack(leaf, only: c)
            if let cells = leaf.cells[c] {
                guard let ints = cells.intValues, ints.count == leaf.keys.count else { return nil }
                values += ints
            } else {
                let node = try snapshot.plainInts(try columnRef(leaf, c))
                if leaf.removalPending[c] {
                    guard let keep = leaf.removalMask, node.count == keep.count,
                          Self.appendKept(PackedInts(node), keep: keep, expected: leaf.keys.count, to: &values) else { return nil }
                } else {
                    guard node.count == leaf.keys.count else { return nil }
                    let ints = PackedInts(node)
                    for i in 0..<node.count { values.append(ints.int(i)) }
                }
            }
            keys += leaf.keys
        }
        return (values, keys)
    }

    /// Appends the elements of `ints` whose `keep` flag is set (as many as `keep`, which must
    /// have `expected` set flags: false otherwise, `values` unchanged). Without a branch per
    /// row: a mass removal keeps rows at random, and every row up to the last kept one is
    /// stored at the next free place, which moves on only past a kept row.
    static func appendKept(_ ints: PackedInts, keep: [Bool], expected: Int, to values: inout [Int64]) -> Bool {
        guard ints.count == keep.count, LeafRowFilter.trueCount(keep) == expected else { return false }
        guard expected > 0, let last = keep.lastIndex(of: true) else { return true }
        let start = values.count
        values.append(contentsOf: repeatElement(0, count: expected))
        values.withUnsafeMutableBufferPointer { out in
            keep.withUnsafeBufferPointer { keep in
                var k = start
                for r in 0...last {
                    out[k] = ints.int(r)
                    k &+= Int(unsafeBitCast(keep[r], to: UInt8.self))
                }
            }
        }
        return true
    }

    /// Whether flushing column `c`'s pending entries reads no column value: a unique int
    /// index (a primary key, its values distinct) that is empty, whose pending values lie
    /// within 2^32 of each other, so their level-0 keys (the low 32 bits, §12.3) all differ
    /// and the level-by-level build makes one entry per key without comparing values.
    func buildsWithoutValues(_ c: Int) throws(FormatError) -> Bool {
        guard c == primaryKeyColumn, columns[c].type == .int, let pending = pendingIndex[c], !pending.isEmpty,
              pending.values == nil else { return false }
        let root = try indexRoot(c)
        guard !root.isInner, root.count == 1 else { return false }
        var lo = Int64.max, hi = Int64.min
        for v in pending.ints {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        let (spread, overflow) = hi.subtractingReportingOverflow(lo)
        return !overflow && spread < 1 << 32
    }

    /// Puts the pending entries of column `c` into its tree, in index-key order.
    func flushPendingIndex(_ c: Int) throws(FormatError) {
        if try flushedDistinctInts(c) { return }
        guard let pending = pendingIndex.removeValue(forKey: c), !pending.isEmpty else { return }
        if c == primaryKeyColumn { pendingPrimaryKeys = PendingPrimaryKeys() }
        let type = columns[c].type
        let intsOnly = pending.values == nil && type == .int
        // Ordered by the keys of the first two levels (§12.3), then ObjKey.
        var levelKeys: [(Int32, Int32)] = []
        levelKeys.reserveCapacity(pending.count)
        if intsOnly {
            for v in pending.ints { levelKeys.append((IndexKey.key(int: v, offset: 0), IndexKey.key(int: v, offset: 4))) }
        } else {
            for i in 0..<pending.count {
                let value = pending.value(i)
                if case let .int(v) = value, type == .int {
                    levelKeys.append((IndexKey.key(int: v, offset: 0), IndexKey.key(int: v, offset: 4)))
                    continue
                }
                let data = IndexKey.bytes(of: value, columnType: type) ?? .null
                levelKeys.append((IndexKey.key(data, offset: 0), IndexKey.key(data, offset: 4)))
            }
        }
        let order = IndexEntryOrder.permutation(levelKeys: levelKeys, objKeys: Array(pending.keys))
        let writer = indexWriter(c)
        var root = try indexRoot(c)
        let unique = c == primaryKeyColumn
        if !root.isInner && root.count == 1 {
            // An empty index (a new table, a rebuild): built level by level, the same tree.
            snapshot.resetWorkBudget()
            let built = intsOnly ? try writer.build(ints: Array(pending.ints), keys: Array(pending.keys), order: order, unique: unique)
                : try writer.build(pending.pairs, order: order, unique: unique)
            try transaction.releaseSubtree(root)
            indexRoots[c] = built
            return
        }
        for i in order {
            snapshot.resetWorkBudget()
            root = try writer.insert(pending.value(i), objKey: pending.keys[i], into: root, unique: unique)
        }
        indexRoots[c] = root
    }

    /// The level-by-level build of a primary key's pending ints into its empty index when
    /// their level-0 keys all differ (a bulk load's keys within 2^32 of each other, §12.3):
    /// the tree the general build makes from those entries, ordered by level-0 key alone
    /// (`IndexEntryOrder.distinctLevelOrder`), with no value read. The values are dropped
    /// before the tree is built, so a million-object import never holds them, their order and
    /// the new index at once (issue #16). False, nothing changed, when it does not apply.
    func flushedDistinctInts(_ c: Int) throws(FormatError) -> Bool {
        // No binding of the entries here: the dictionary's copy is the only one, freed below.
        guard c == primaryKeyColumn, columns[c].type == .int,
              pendingIndex[c].map({ !$0.isEmpty && $0.values == nil }) == true else { return false }
        let root = try indexRoot(c)
        guard !root.isInner, root.count == 1,
              let order = pendingIndex[c].flatMap({ IndexEntryOrder.distinctLevelOrder(ints: $0.ints) }),
              let objKeys = pendingIndex.removeValue(forKey: c)?.keys else { return false }
        pendingPrimaryKeys = PendingPrimaryKeys()
        snapshot.resetWorkBudget()
        let built = try indexWriter(c).build(distinctOrder: order, objKeys: objKeys, unique: true)
        try transaction.releaseSubtree(root)
        indexRoots[c] = built
        return true
    }

    func indexErase(_ value: Value, key: Int64, column c: Int) throws(FormatError) {
        indexRoots[c] = try indexWriter(c).erase(value, objKey: key, from: try indexRoot(c))
    }
}
