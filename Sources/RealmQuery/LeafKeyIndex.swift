import RealmFormat

/// Where each cluster leaf of a table starts and ends, as two flat arrays: the row number of
/// its first object and the ObjKey of its last (realm-format.md §8: keys ascend through the
/// tree). A binary search over these finds an object's leaf without touching any leaf node but
/// the one it lands on, which matters for many single-object look-ups (primary keys, index
/// candidates): the leaves' own key arrays lie all over the file.
struct LeafKeyIndex {
    let starts: [Int]
    let lastKeys: [Int64]

    init(_ leaves: [(leaf: ClusterLeaf, start: Int)]) {
        starts = leaves.map(\.start)
        // An empty leaf (only a hostile file has one) takes the previous leaf's last key, so
        // the array still ascends and a search never lands on it.
        var last = Int64.min
        lastKeys = leaves.map { l in
            if l.leaf.count > 0 { last = l.leaf.objectKey(l.leaf.count - 1) }
            return last
        }
    }

    /// The leaf holding row `row`, nil when the row is outside the table.
    func leaf(ofRow row: Int, in leaves: [(leaf: ClusterLeaf, start: Int)]) -> Int? {
        guard row >= 0 else { return nil }
        // The last leaf starting at or before `row`.
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if starts[mid] <= row { lo = mid &+ 1 } else { hi = mid }
        }
        guard lo > 0, lo - 1 < leaves.count, row - starts[lo - 1] < leaves[lo - 1].leaf.count else { return nil }
        return lo - 1
    }

    /// The leaf (position in `leaves`) and the position within it of the object with ObjKey
    /// `key`; nil when no object has that key.
    func locate(_ key: Int64, in leaves: [(leaf: ClusterLeaf, start: Int)]) -> (leaf: Int, index: Int)? {
        // The first leaf whose last key is ≥ key.
        var lo = 0, hi = lastKeys.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if lastKeys[mid] < key { lo = mid &+ 1 } else { hi = mid }
        }
        guard lo < leaves.count else { return nil }
        let leaf = leaves[lo].leaf
        let n = leaf.count
        guard n > 0 else { return nil }
        // Keys of a leaf are mostly consecutive (objects created in order): try the position
        // the first key predicts before searching.
        let guess = key &- leaf.objectKey(0)
        if guess >= 0, guess < Int64(n), leaf.objectKey(Int(guess)) == key { return (lo, Int(guess)) }
        var a = 0, b = n
        while a < b {
            let mid = (a &+ b) >> 1
            if leaf.objectKey(mid) < key { a = mid &+ 1 } else { b = mid }
        }
        return a < n && leaf.objectKey(a) == key ? (lo, a) : nil
    }
}
