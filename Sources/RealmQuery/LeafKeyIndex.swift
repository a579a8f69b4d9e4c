import RealmFormat

/// Where each cluster leaf of a table starts and ends, as flat arrays: the row number of its
/// first object, its object count, its first and last ObjKeys (realm-format.md §8: keys ascend
/// through the tree). A binary search over these finds an object's leaf without touching any
/// leaf node, which matters for many single-object look-ups (primary keys, index candidates):
/// the leaves' own nodes lie all over the file. In a leaf whose keys are consecutive (objects
/// created in order; the compact form of §8.1 always is) the position is the key's distance
/// from the first, so no leaf is read at all. (A class: handed around once per look-up, it
/// costs one reference count, not one per array.)
final class LeafKeyIndex {
    let starts: [Int]
    let counts: [Int]
    let firstKeys: [Int64]
    let lastKeys: [Int64]
    /// Whether leaf l's keys are exactly firstKeys[l] ... lastKeys[l].
    let dense: [Bool]
    /// Whether the keys are production ObjKeys (see IndexLookup.swift: tables of realm-core's
    /// 4-objects-per-cluster test builds number theirs differently).
    let holdsProductionKeys: Bool
    /// When every leaf but the last holds this many objects (and the last no more), leaf l
    /// starts at row l · stride: a row's leaf is a division, not a search.
    let rowStride: Int?
    /// When, besides, every leaf is dense and leaf l's first key is `firstKeys[0] + l · stride`
    /// (objects created in order and never deleted, the usual table), a key's leaf is a
    /// division too.
    let keyStride: Int?
    /// log2 of `rowStride` when it is a power of two (realm-core's leaves hold 256 objects,
    /// §8.3): a shift and a mask instead of a 64-bit division on each look-up.
    let strideShift: Int?
    /// `strideShift` when `keyStride` is set too (else -1), and the table's first ObjKey: the
    /// look-up by key of the usual table tests one integer before shifting.
    private let keyShift: Int
    private let firstKey: Int64

    init(_ leaves: [(leaf: ClusterLeaf, start: Int)]) {
        starts = leaves.map(\.start)
        counts = leaves.map(\.leaf.count)
        // An empty leaf (only a hostile file has one) takes the previous leaf's last key, so
        // the array still ascends and a search never lands on it.
        var last = Int64.min
        var firsts = [Int64](), lasts = [Int64](), dense = [Bool]()
        firsts.reserveCapacity(leaves.count)
        lasts.reserveCapacity(leaves.count)
        dense.reserveCapacity(leaves.count)
        for (leaf, _) in leaves {
            let n = leaf.count
            let first = n > 0 ? leaf.objectKey(0) : last
            if n > 0 { last = leaf.objectKey(n - 1) }
            firsts.append(first)
            lasts.append(last)
            // Keys ascend strictly in a valid leaf (§8), so n keys spanning n values are all of
            // them. (In a hostile leaf that does not ascend, a key between its first and last
            // still maps to a position inside the leaf: a wrong row at worst, never a trap.)
            let (span, overflow) = last.subtractingReportingOverflow(first)
            dense.append(n > 0 && !overflow && span == Int64(n - 1))
        }
        firstKeys = firsts
        lastKeys = lasts
        self.dense = dense
        holdsProductionKeys = leaves.count == 1 || leaves.contains(where: { $0.leaf.count > 4 })
        let c = leaves.first?.leaf.count ?? 0
        let uniform = c > 0 && leaves.dropLast().allSatisfy { $0.leaf.count == c } && (leaves.last?.leaf.count ?? 0) <= c
        rowStride = uniform ? c : nil
        var consecutive = uniform && dense.allSatisfy { $0 }
        if consecutive {
            for l in leaves.indices where firsts[l] != firsts[0] &+ Int64(l) &* Int64(c) {
                consecutive = false
                break
            }
        }
        keyStride = consecutive ? c : nil
        strideShift = uniform && c & (c - 1) == 0 ? c.trailingZeroBitCount : nil
        keyShift = consecutive ? strideShift ?? -1 : -1
        firstKey = firsts.first ?? 0
    }

    /// The leaf holding row `row` and the row's position in it, nil when the row is outside
    /// the table (`leaf(ofRow:)` and the leaf's start in one step).
    @inline(__always)
    func position(ofRow row: Int) -> (leaf: Int, index: Int)? {
        if let s = strideShift {
            // Uniform leaves of 2^s objects: leaf l starts at row l << s.
            guard row >= 0 else { return nil }
            // (Masking shifts: s < 63, so they equal the checked ones, without their tests.)
            let l = row &>> s, i = row & (1 &<< s &- 1)
            return l < counts.count && i < counts[l] ? (l, i) : nil
        }
        guard let l = leaf(ofRow: row) else { return nil }
        return (l, row - starts[l])
    }

    /// The leaf holding row `row`, nil when the row is outside the table.
    func leaf(ofRow row: Int) -> Int? {
        guard row >= 0 else { return nil }
        if let c = rowStride {
            let l = strideShift.map { row >> $0 } ?? row / c
            return l < counts.count && row - starts[l] < counts[l] ? l : nil
        }
        // The last leaf starting at or before `row`.
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if starts[mid] <= row { lo = mid &+ 1 } else { hi = mid }
        }
        guard lo > 0, row - starts[lo - 1] < counts[lo - 1] else { return nil }
        return lo - 1
    }

    /// The leaf (position in `leaves`, which this index was made from) and the position within
    /// it of the object with ObjKey `key`; nil when no object has that key.
    func locate(_ key: Int64, in leaves: [(leaf: ClusterLeaf, start: Int)]) -> (leaf: Int, index: Int)? {
        if keyShift >= 0 {
            let (distance, overflow) = key.subtractingReportingOverflow(firstKey)
            guard !overflow, distance >= 0 else { return nil }
            let l = Int(distance &>> keyShift), i = Int(distance & (1 &<< keyShift &- 1))
            return l < counts.count && i < counts[l] ? (l, i) : nil
        }
        if let c = keyStride, let first = firstKeys.first {
            guard key >= first else { return nil }
            let (distance, overflow) = key.subtractingReportingOverflow(first)
            guard !overflow else { return nil }
            let l: Int, i: Int
            if let s = strideShift {
                l = Int(distance >> s)
                i = Int(distance & Int64(c &- 1))
            } else {
                l = Int(distance / Int64(c))
                i = Int(distance % Int64(c))
            }
            return l < counts.count && i < counts[l] ? (l, i) : nil
        }
        // The first leaf whose last key is ≥ key.
        var lo = 0, hi = lastKeys.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if lastKeys[mid] < key { lo = mid &+ 1 } else { hi = mid }
        }
        guard lo < lastKeys.count, lo < leaves.count, counts[lo] > 0 else { return nil }
        if dense[lo] {
            guard key >= firstKeys[lo] else { return nil }
            return (lo, Int(key &- firstKeys[lo]))
        }
        let leaf = leaves[lo].leaf
        var a = 0, b = leaf.count
        while a < b {
            let mid = (a &+ b) >> 1
            if leaf.objectKey(mid) < key { a = mid &+ 1 } else { b = mid }
        }
        return a < leaf.count && leaf.objectKey(a) == key ? (lo, a) : nil
    }
}
