import RealmFormat

/// `property == constant` through the column's search index (realm-format.md §12), as
/// realm-core does for indexed string, ObjectId, UUID and int properties: the index names the
/// candidate objects, and each candidate is confirmed by reading its stored value, so the
/// answer is the scan's. Anything unexpected (a malformed index, a key the table does not hold,
/// too many candidates to be worth it) returns nil and the caller scans instead.
///
/// Ints need fewer reads. Their index bytes are the 8 bytes of the value (§12.3), and a
/// duplicate list holds only objects whose values have identical index bytes — for an int
/// column, equal values — kept sorted by value (§12.4: a differing value splits the entry into
/// a sub-index; only chains reaching the 200-byte limit, which 8 bytes never do, list unequal
/// values, and then still in value order). So when the list's first and last objects hold the
/// constant, every object of the list does: the list is the answer without reading the others
/// (realm-core relies on the same order: it searches these lists by value with a binary
/// search, `IndexArray::from_list`). Otherwise (a level-0
/// list of a value sharing only the low four bytes, null next to 0 in a nullable column) each
/// candidate is confirmed as usual.
extension Evaluator {
    /// The number of objects of the table matching `d`, answered from an int column's index
    /// (see above); nil when it cannot be (the caller evaluates instead).
    func indexCount(_ d: DirectCondition) throws -> Int? {
        guard let (reader, v) = intIndex(d), let root = table.table.clusterRef, !table.isHidden else { return nil }
        // Only the objects the index names are looked at: in the snapshot's leaf list when a
        // reader has made it, else each by a descent from the root — a count in a new process
        // does not list the table's leaves (4,000 of them in a 1M-object table) for two objects.
        let listed = table.snapshot.cachedClusterLeaves(rootRef: root)
        if let listed, !leavesHoldProductionKeys(listed) { return nil }
        let tree = ClusterTree(snapshot: table.snapshot, rootRef: root)
        let rootIsLeaf = listed == nil ? !(try table.snapshot.node(root).isInner) : true   // read only to descend
        func holds(_ key: Int64) throws -> Bool? {
            if let listed { return try self.holds(v, key: key, d.column, listed) }
            guard let (leaf, row) = try tree.leaf(containing: key),
                  rootIsLeaf || leaf.count > 4,                    // see leavesHoldProductionKeys
                  let ref = leaf.columnRef(d.column.leafIndex) else { return nil }
            let values = try IntegerLeaf(table.snapshot, ref: ref, nullable: d.column.isNullable)
            guard values.count == leaf.count else { return nil }
            return !values.isNull(row) && values[row] == v
        }
        switch try reader.lookup(int: v) {
        case .none:
            return 0
        case let .single(key, _):
            guard let matches = try holds(key) else { return nil }
            return matches ? 1 : 0
        case let .list(ref, _):
            guard let (count, first, last) = try reader.listSummary(ref),
                  try holds(first) == true, try holds(last) == true else { return nil }
            return count
        }
    }

    /// The index of an indexed int column with an int constant under `==`.
    private func intIndex(_ d: DirectCondition) -> (SearchIndexReader, Int64)? {
        guard table.snapshot.layoutFormat >= 20, d.op == .equal, d.type == .int, d.column.collection == nil,
              d.column.hasSearchIndex, let root = d.column.searchIndexRef, case let .int(v) = d.value else { return nil }
        return (SearchIndexReader(snapshot: table.snapshot, rootRef: root), v)
    }

    /// Whether the object with ObjKey `key` holds the int `v` in `column`; nil when no object
    /// has that key.
    private func holds(_ v: Int64, key: Int64, _ column: Column, _ leaves: [(leaf: ClusterLeaf, start: Int)]) throws -> Bool? {
        guard let (l, i) = table.locate(key, in: leaves),
              let ref = leaves[l].leaf.columnRef(column.leafIndex) else { return nil }
        let values = try IntegerLeaf(table.snapshot, ref: ref, nullable: column.isNullable)
        guard values.count == leaves[l].leaf.count else { return nil }
        return !values.isNull(i) && values[i] == v
    }

    /// Files from realm-core's test builds (4 objects per cluster) number objects with a
    /// smaller key shift than the cluster reader assumes, so the index's ObjKeys would not be
    /// the reader's; such tables have only leaves of ≤ 4 objects: they are scanned.
    private func leavesHoldProductionKeys(_ leaves: [(leaf: ClusterLeaf, start: Int)]) -> Bool {
        leaves.count == 1 || leaves.contains(where: { $0.leaf.count > 4 })
    }

    func indexLookup(_ d: DirectCondition, _ candidates: Bitset) throws -> Bitset? {
        // Indexes of files before format 20 hold row numbers, not ObjKeys.
        guard table.snapshot.layoutFormat >= 20, d.op == .equal, d.column.collection == nil, d.column.hasSearchIndex,
              let root = d.column.searchIndexRef else { return nil }
        let data: IndexBytes
        switch (d.type, d.value) {
        case (.string, .null), (.objectId, .null), (.uuid, .null), (.int, .null): data = .null
        case let (.string, .string(b)): data = .bytes(b)
        case let (.objectId, .objectId(id)): data = .bytes(id.bytes)
        case let (.uuid, .uuid(u)): data = .bytes(u.bytes)
        case let (.int, .int(i)):
            guard let b = IndexKey.bytes(of: .int(i), columnType: .int) else { return nil }
            data = b
        default: return nil
        }
        let reader = SearchIndexReader(snapshot: table.snapshot, rootRef: root)
        let leaves = try table.leaves()
        guard leavesHoldProductionKeys(leaves) else { return nil }
        // An int list whose ends hold the constant needs no confirmation (see above).
        var exact = false
        let keys: [Int64]
        if let (_, v) = intIndex(d) {
            guard let hit = try? reader.lookup(int: v) else { return nil }
            switch hit {
            case .none: keys = []
            case let .single(key, _): keys = [key]
            case let .list(ref, _):
                guard let list = try? reader.listKeys(ref), let first = list.first, let last = list.last else { return nil }
                keys = list
                exact = try holds(v, key: first, d.column, leaves) == true && holds(v, key: last, d.column, leaves) == true
            }
        } else {
            guard let k = try? reader.candidates(data) else { return nil }
            keys = k
        }
        guard keys.count <= max(16, candidates.count / 8) else { return nil }
        var out = Bitset(count: candidates.count)
        var decoded: [Int: [Value]] = [:]
        var ints: (leaf: Int, values: IntegerLeaf)?
        var hint = 0
        for key in keys {
            guard let (l, i) = table.locate(key, in: leaves, from: &hint) else { return nil }
            let (leaf, start) = leaves[l]
            guard candidates.contains(start + i) else { continue }
            if exact {
                out.insert(start + i)
                continue
            }
            if d.type == .int {
                // Ints are confirmed in place (the candidates of one leaf come together).
                if ints?.leaf != l {
                    guard let ref = leaf.columnRef(d.column.leafIndex) else { return nil }
                    let values = try IntegerLeaf(table.snapshot, ref: ref, nullable: d.column.isNullable)
                    guard values.count == leaf.count else { return nil }
                    ints = (l, values)
                }
                if let v = ints?.values, d.matchesInt(v.isNull(i) ? nil : v[i]) { out.insert(start + i) }
                continue
            }
            let values: [Value]
            if let v = decoded[l] {
                values = v
            } else {
                values = try table.decode(d.column, in: leaf)
                decoded[l] = values
            }
            if i < values.count, d.matches(values[i]) { out.insert(start + i) }
        }
        return out
    }
}

extension TableData {
    /// `locate`, for keys that mostly ascend (an index's duplicate lists hold them in order):
    /// walks on from the leaf of the previous key, and searches the whole tree only when the
    /// key lies before that leaf.
    func locate(_ key: Int64, in leaves: [(leaf: ClusterLeaf, start: Int)], from hint: inout Int) -> (Int, Int)? {
        var l = hint
        if l < leaves.count, leaves[l].leaf.count > 0, key >= leaves[l].leaf.objectKey(0) {
            while l < leaves.count, leaves[l].leaf.count == 0 || leaves[l].leaf.objectKey(leaves[l].leaf.count - 1) < key { l += 1 }
            guard l < leaves.count else { return nil }
            hint = l
            let leaf = leaves[l].leaf
            var a = 0, b = leaf.count
            while a < b {
                let mid = (a + b) / 2
                if leaf.objectKey(mid) < key { a = mid + 1 } else { b = mid }
            }
            return a < leaf.count && leaf.objectKey(a) == key ? (l, a) : nil
        }
        guard let found = locate(key, in: leaves) else { return nil }
        hint = found.0
        return found
    }

    /// The leaf (position in `leaves`) and row within it of an object, by binary search over
    /// the keys, which ascend through the cluster tree; nil when no object has that key.
    func locate(_ key: Int64, in leaves: [(leaf: ClusterLeaf, start: Int)]) -> (Int, Int)? {
        var lo = 0, hi = leaves.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let leaf = leaves[mid].leaf
            if leaf.count > 0 && leaf.objectKey(leaf.count - 1) < key { lo = mid + 1 } else { hi = mid }
        }
        guard lo < leaves.count else { return nil }
        let leaf = leaves[lo].leaf
        var a = 0, b = leaf.count
        while a < b {
            let mid = (a + b) / 2
            if leaf.objectKey(mid) < key { a = mid + 1 } else { b = mid }
        }
        return a < leaf.count && leaf.objectKey(a) == key ? (lo, a) : nil
    }
}
