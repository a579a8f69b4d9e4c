/// Removing objects: rows leave their leaves in one pass per leaf (columns still on disk are
/// filtered byte by byte at `finish()`), and small leaves merge as Realm merges them (§8.3).
extension TableEditor {
    /// Removes objects (keys not present are skipped): each from its indexes, then their
    /// rows, in one pass over each leaf they are in.
    public func remove(_ keys: [Int64]) throws(FormatError) {
        snapshot.resetWorkBudget()
        try usable()
        try guarded { () throws(FormatError) in
            for c in maintainedIndexes { try flushPendingIndex(c) }
            // Removing a large part of the table: indexes are built again from the objects
            // that stay (in index-key order, appending) instead of erasing entry by entry.
            let rebuild = keys.count >= Self.rebuildIndexesFrom && keys.count * 3 >= objectCount
            try removeRows(keys, eraseFromIndexes: !rebuild)
            if rebuild { for c in maintainedIndexes { try rebuildIndex(c) } }
        }
    }

    func removeRows(_ keys: [Int64], eraseFromIndexes: Bool) throws(FormatError) {
        let sorted = Self.ascending(keys)
        var i = 0
        while i < sorted.count {
            let l = leafIndex(for: sorted[i])
            let leaf = leaves[l]
            let leafKeys = leaf.keys
            // The keys up to the next leaf's base are this leaf's (§8.4), found by searches
            // that each start at the previous row.
            let nextBase = l + 1 < leaves.count ? leaves[l + 1].base : nil
            var rows: [Int] = []
            var row = 0
            while i < sorted.count, nextBase.map({ sorted[i] < $0 }) ?? true {
                row = ClusterLeafEdit.nextLowerBound(sorted[i], in: leafKeys, from: row)
                if row < leafKeys.count, leafKeys[row] == sorted[i], rows.last != row { rows.append(row) }
                i += 1
            }
            guard !rows.isEmpty else { continue }
            try unpack(leaf)
            if eraseFromIndexes {
                for row in rows {
                    for c in maintainedIndexes { try indexErase(try cells(leaf, c)[row], key: leaf.keys[row], column: c) }
                }
            }
            var keep = [Bool](repeating: true, count: leaf.count)
            for row in rows { keep[row] = false }
            // A second removal from the leaf: the first one's pending columns are read first.
            if leaf.removalMask != nil {
                for c in columns.indices where leaf.removalPending[c] { _ = try cells(leaf, c) }
                leaf.removalMask = nil
            }
            // Columns still on disk are not read: their kept rows are copied byte by byte
            // when the leaf is written (`encode`), or decoded if something reads them first.
            for c in columns.indices {
                try checkWritable(leaf, c)
                if leaf.cells[c] != nil {
                    leaf.cells[c]!.filter(keep)
                } else {
                    _ = try columnRef(leaf, c)
                    leaf.removalPending[c] = true
                }
                leaf.dirty[c] = true
            }
            if leaf.removalPending.contains(true) { leaf.removalMask = keep }
            leaf.keys = Self.kept(leaf.keys, keep: keep, count: leaf.count - rows.count)
            leaf.keysChanged = true
            objectCount -= rows.count
            isModified = true
            if leaf.keys.isEmpty && leaves.count > 1, let l = leaves.firstIndex(where: { $0 === leaf }) {
                leaves.remove(at: l)
                if leaf.originalRef != nil { droppedLeaves.append(leaf) }
            }
        }
    }

    /// The elements of `keys` whose `keep` flag is set (`count` of them, as the caller
    /// counted; a count that disagrees with the mask gets the plain filter), without a branch
    /// per element: a mass removal drops rows at random, and every
    /// element up to the last kept one is stored at the next free place, which moves on only
    /// past a kept one.
    static func kept(_ keys: [Int64], keep: [Bool], count: Int) -> [Int64] {
        guard count > 0, keys.count == keep.count, LeafRowFilter.trueCount(keep) == count,
              let last = keep.lastIndex(of: true) else {
            return zip(keys, keep).filter(\.1).map(\.0)
        }
        var out = [Int64](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { out in
            keys.withUnsafeBufferPointer { keys in
                keep.withUnsafeBufferPointer { keep in
                    var k = 0
                    for j in 0...last {
                        out[k] = keys[j]
                        k &+= Int(unsafeBitCast(keep[j], to: UInt8.self))
                    }
                }
            }
        }
        return out
    }

    /// Realm's merge rule (§8.3), applied to leaves that lost objects.
    func mergeSmallLeaves() throws(FormatError) {
        var l = 0
        while l + 1 < leaves.count {
            let leaf = leaves[l], next = leaves[l + 1]
            if leaf.keysChanged && leaf.count < Self.mergeBelow && leaf.count + next.count < Self.mergedAtMost {
                try decodeAll(leaf)
                try decodeAll(next)
                leaf.keys += next.keys
                for c in columns.indices {
                    leaf.cells[c]!.append(contentsOf: next.cells[c]!)
                    leaf.dirty[c] = true
                }
                leaves.remove(at: l + 1)
                if next.originalRef != nil { droppedLeaves.append(next) }
                continue
            }
            l += 1
        }
    }
}
