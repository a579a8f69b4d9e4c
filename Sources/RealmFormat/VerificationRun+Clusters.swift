/// The object trees' part of a verification (realm-format.md §8, §9): every cluster node's
/// shape, depth, key offsets and sizes, the ObjKeys' order and sign, and each column leaf's
/// value count against its cluster leaf's object count.
extension VerificationRun {
    struct ClusterWalk {
        let table: Table
        let tombstones: Bool
        /// Leaf slots that belong to a column (leaf index + 1).
        let usedSlots: Set<Int>
        var lastKey: UInt64?
        var what: String { "table '\(table.name)' \(tombstones ? "tombstone" : "object") tree" }
    }

    /// Checks the subtree at `ref`; returns its object count, nil when it could not be counted.
    func visitCluster(_ ref: Int, base: UInt64, expectedDepth: Int?, _ walk: inout ClusterWalk) -> Int? {
        guard !outOfBudget else { return nil }
        let node: Node
        do {
            node = try snapshot.node(ref)
        } catch {
            record(error, at: ref, walk.what)
            return nil
        }
        guard node.hasRefs, node.header.widthType == .bits, node.count >= 1 else {
            problem(ref, "\(walk.what): cluster node is not a non-empty has-refs array")
            return nil
        }
        if !node.isInner {
            if let depth = expectedDepth, depth != 0 {
                problem(ref, "\(walk.what): a leaf where an inner node of depth \(depth) was expected "
                        + "(leaves at different depths)")
            }
            return checkClusterLeaf(node, base: base, &walk)
        }
        guard node.count >= 3, let depth = node.tagged(1), depth >= 1, depth <= UInt64(Self.maxClusterDepth) else {
            problem(ref, "\(walk.what): inner node without a valid depth in slot 1")
            return nil
        }
        if let expected = expectedDepth, expected != Int(depth) {
            problem(ref, "\(walk.what): inner node of depth \(depth) where depth \(expected) was expected")
            return nil
        }
        let children = node.count - 3
        if children == 0 { problem(ref, "\(walk.what): inner node without children") }
        if children > Self.maxClusterNodeEntries {
            problem(ref, "\(walk.what): inner node has \(children) children (at most \(Self.maxClusterNodeEntries))")
        }
        var offsets: Node?
        let slot0 = node.int(0)
        if slot0 & 1 == 1 {
            problem(ref, "\(walk.what): inner node slot 0 holds a tagged value, not 0 or a ref to key offsets")
            return nil
        }
        if slot0 != 0 {
            let o: Node
            do {
                o = try snapshot.node(Int(slot0))
            } catch {
                record(error, at: ref, walk.what)
                return nil
            }
            guard !o.hasRefs, o.header.widthType == .bits, o.count == children else {
                problem(o.ref, "\(walk.what): key offsets are not a plain integer array of \(children) entries")
                return nil
            }
            if children > 0 && o.unsigned(0) != 0 {
                problem(o.ref, "\(walk.what): first key offset is \(o.unsigned(0)), not 0")
            }
            if children > 1, let j = (1..<children).first(where: { o.unsigned($0) <= o.unsigned($0 - 1) }) {
                problem(o.ref, "\(walk.what): key offset \(j) is not greater than the one before it")
            }
            offsets = o
        }
        let size = node.tagged(2)
        if size == nil { problem(ref, "\(walk.what): inner node has no tagged subtree size in slot 2") }
        var sum = 0
        var complete = true
        for j in 0..<children {
            guard let child = node.ref(3 + j) else {
                problem(ref, "\(walk.what): inner node child \(j) is not a ref")
                complete = false
                continue
            }
            let offset = offsets?.unsigned(j) ?? (UInt64(j) << (8 * depth))    // compact form (§8.2)
            if let n = visitCluster(child, base: base &+ offset, expectedDepth: Int(depth) - 1, &walk) {
                sum += n
            } else {
                complete = false
            }
            if outOfBudget { return nil }
        }
        guard complete else { return nil }
        if let size, size != UInt64(sum) {
            problem(ref, "\(walk.what): inner node size slot says \(size) objects but its children hold \(sum)")
        }
        return sum
    }

    private func checkClusterLeaf(_ leaf: Node, base: UInt64, _ walk: inout ClusterWalk) -> Int? {
        let first = leaf.int(0)
        let count: Int
        var keys: Node?
        if first & 1 == 1 {
            let n = UInt64(bitPattern: first) >> 1
            guard n <= 0xFF_FFFF else {         // more than any column leaf can hold
                problem(leaf.ref, "\(walk.what): cluster leaf claims \(n) objects")
                return nil
            }
            count = Int(n)
        } else if first == 0 {
            problem(leaf.ref, "\(walk.what): cluster leaf has neither an object count nor a key array in slot 0")
            return nil
        } else {
            do {
                keys = try snapshot.node(Int(first))
            } catch {
                record(error, at: leaf.ref, walk.what)
                return nil
            }
            guard let k = keys, !k.hasRefs, k.header.widthType == .bits else {
                problem(Int(first), "\(walk.what): cluster key array is not a plain integer array")
                return nil
            }
            count = k.count
        }
        if count > Self.maxClusterNodeEntries {
            problem(leaf.ref, "\(walk.what): cluster leaf holds \(count) objects (at most \(Self.maxClusterNodeEntries))")
        }
        var orderReported = false, signReported = false
        for row in 0..<count {
            let (key, overflow) = base.addingReportingOverflow(keys?.unsigned(row) ?? UInt64(row))
            if overflow {
                problem(leaf.ref, "\(walk.what): ObjKey of row \(row) overflows 64 bits")
                break
            }
            if let last = walk.lastKey, key <= last, !orderReported {
                problem(keys?.ref ?? leaf.ref, "\(walk.what): ObjKey \(Int64(bitPattern: key)) (row \(row)) does not "
                        + "follow ObjKey \(Int64(bitPattern: last)): keys must be strictly ascending")
                orderReported = true
            }
            let signed = Int64(bitPattern: key)
            if (walk.tombstones ? signed > -2 : signed < 0) && !signReported {
                problem(leaf.ref, "\(walk.what): ObjKey \(signed) (row \(row)) is "
                        + (walk.tombstones ? "not a tombstone key (≤ −2)" : "negative"))
                signReported = true
            }
            walk.lastKey = key
        }
        checkColumnLeaves(leaf, objects: count, walk)
        return count
    }

    // MARK: - Column leaves (§9)

    private func checkColumnLeaves(_ leaf: Node, objects: Int, _ walk: ClusterWalk) {
        let table = walk.table
        for column in table.columns {
            if outOfBudget { return }
            let slot = column.leafIndex + 1
            let what = describe(column, of: table)
            guard slot < leaf.count else {
                problem(leaf.ref, "\(walk.what): cluster leaf has no slot for \(what) (leaf index \(column.leafIndex))")
                continue
            }
            guard let ref = leaf.ref(slot) else {
                problem(leaf.ref, "\(walk.what): cluster leaf slot \(slot) for \(what) holds no ref")
                continue
            }
            if let values = valueCount(ref, column, table, objects: objects, what), values != objects {
                problem(ref, "\(what) holds \(values) values for \(objects) objects")
            }
        }
        for slot in 1..<max(leaf.count, 1) where !walk.usedSlots.contains(slot) && leaf.int(slot) != 0 {
            problem(leaf.ref, "\(walk.what): cluster leaf slot \(slot) holds data but no column has leaf index \(slot - 1)")
        }
    }

    /// The number of values the column leaf at `ref` holds; nil when it could not be decoded
    /// (the reason is reported).
    private func valueCount(_ ref: Int, _ column: Column, _ table: Table, objects: Int, _ what: String) -> Int? {
        do throws(FormatError) {
            let node = try snapshot.node(ref)
            // A plain leaf never holds more than 17 elements per object (16-byte UUIDs plus null
            // bits); refusing larger ones before decoding keeps hostile counts from allocating.
            if !node.hasRefs, node.count > 17 * objects + 1 {
                problem(ref, "\(what) has \(node.count) elements for \(objects) objects")
                return nil
            }
            if column.isBacklink {
                guard node.hasRefs, node.header.widthType == .bits else {
                    throw FormatError.corrupt(offset: ref, reason: "backlink leaf is not a has-refs integer array")
                }
                return try snapshot.decodeBacklinks(ref).count
            }
            if column.collection != nil {
                guard node.hasRefs, node.header.widthType == .bits else {
                    throw FormatError.corrupt(offset: ref, reason: "collection leaf is not an array of refs")
                }
                for i in 0..<node.count {
                    if outOfBudget { return nil }
                    if node.int(i) & 1 == 1 {
                        problem(ref, "\(what): collection cell \(i) holds a tagged value, not a ref or 0")
                        continue
                    }
                    do {
                        _ = try snapshot.decodeCollection(node.ref(i), column: column)
                    } catch {
                        record(error, at: node.ref(i) ?? ref, "\(what), collection of row \(i)")
                    }
                }
                return node.count
            }
            return try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                                           enumValues: table.enumValuesRef(for: column)).count
        } catch {
            record(error, at: ref, what)
            return nil
        }
    }
}
