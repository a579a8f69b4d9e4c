/// One int or bool property's leaves across a whole cluster tree (realm-format.md §8.1, §9.1,
/// §9.2), each checked once, when the snapshot makes the column (`Snapshot.integerColumn`):
/// the cluster leaf holds a ref in the property's slot, the ref is a valid plain integer node
/// (`IntegerLeaf`), and it holds one value per object. A scan of the column then reads only
/// element bytes: no cluster leaf, no node header, no check and no reference count per leaf,
/// which on a table of small leaves cost more than comparing the elements did.
///
/// A snapshot never changes, so what was checked stays true; the column is kept like the
/// snapshot's leaf list and serves every later query on that snapshot.
public final class IntegerColumn {
    /// Owner of the bytes `leaves` point into: kept alive as long as the column.
    let image: ByteImage
    let leaves: [IntegerElements]
    /// Row of each leaf's first object.
    let starts: [Int]
    /// Most values in one leaf (at most `ClusterTree.maxLeafObjects`).
    let widest: Int

    /// How many leaves ahead of the one being read the scans ask for a leaf's bytes: enough
    /// for several misses to be in flight at once, few enough that the lines are still cached
    /// when the scan gets there (measured on the benchmark's 3,906 leaves: 8 is past the knee).
    static let prefetchDistance = 8

    init(image: ByteImage, leaves: [IntegerElements], starts: [Int]) {
        self.image = image
        self.leaves = leaves
        self.starts = starts
        widest = leaves.map(\.count).max() ?? 0
    }

    /// Number of objects (values) in the column.
    public var count: Int { (starts.last ?? 0) + (leaves.last?.count ?? 0) }

    /// The value of the object at position `i` of cluster leaf `l` (the column's leaves are the
    /// cluster's, in order), read in place; nil for null, and for a position outside the
    /// column.
    @inline(__always)
    public func value(leaf l: Int, at i: Int) -> Int64? {
        guard l >= 0, l < leaves.count, i >= 0, i < leaves[l].count else { return nil }
        return withExtendedLifetime(image) { leaves[l].value(i) }
    }

    /// `IntegerLeaf.markRange` over every leaf for which `include(start, count)` holds (the
    /// row of its first object and its number of objects): bit `start + i` of `words` is set
    /// for each matching element `i`. Bits are ORed in; rows past the end of `words` are not
    /// marked.
    public func markRange(_ lower: Int64, _ upper: Int64, outside: Bool, nullMatches: Bool,
                          into words: inout [UInt64], where include: (_ start: Int, _ count: Int) -> Bool) {
        withExtendedLifetime(image) {
            let n = leaves.count
            for l in 0..<n {
                if l + Self.prefetchDistance < n { prefetch(leaves[l + Self.prefetchDistance].bytes) }
                let leaf = leaves[l], start = starts[l]
                guard include(start, leaf.count) else { continue }
                leaf.markRange(lower, upper, outside: outside, nullMatches: nullMatches, into: &words, first: start)
            }
        }
    }

    /// The number of elements `markRange` would mark over all rows: each leaf is marked into a
    /// few words of scratch and counted there, so no bit set over the table is made.
    public func countRange(_ lower: Int64, _ upper: Int64, outside: Bool, nullMatches: Bool) -> Int {
        var scratch = [UInt64](repeating: 0, count: (widest + 63) / 64)
        var total = 0
        withExtendedLifetime(image) {
            let n = leaves.count
            for l in 0..<n {
                if l + Self.prefetchDistance < n { prefetch(leaves[l + Self.prefetchDistance].bytes) }
                let leaf = leaves[l]
                leaf.markRange(lower, upper, outside: outside, nullMatches: nullMatches, into: &scratch, first: 0)
                for w in 0..<(leaf.count + 63) / 64 {
                    total &+= scratch[w].nonzeroBitCount
                    scratch[w] = 0
                }
            }
        }
        return total
    }
}

extension Snapshot {
    /// The int or bool property in slot `leafIndex` of the cluster tree at `rootRef`, its
    /// leaves read as `nullable` or not, checked whole (see `IntegerColumn`). nil when any leaf
    /// fails a check, or reading fails (work budget, interrupt): the caller's leaf-by-leaf path
    /// then meets the same failure and reports it. Kept per snapshot once made.
    public func integerColumn(rootRef: Int, leafIndex: Int, nullable: Bool) -> IntegerColumn? {
        let key = IntegerColumnKey(rootRef: rootRef, leafIndex: leafIndex, nullable: nullable)
        if let column = integerColumns[key] { return column }
        guard let clusters = try? clusterLeaves(rootRef: rootRef),
              let refs = try? columnRefs(rootRef: rootRef, leafIndex: leafIndex), refs.count == clusters.count else { return nil }
        image.prefetchDecrypted(nodes: refs)
        var leaves = [IntegerElements]()
        leaves.reserveCapacity(clusters.count)
        for (l, (cluster, _)) in clusters.enumerated() {
            guard refs[l] != 0, let values = try? IntegerLeaf(self, ref: refs[l], nullable: nullable),
                  values.count == cluster.count else { return nil }
            leaves.append(values.elements)
        }
        let column = IntegerColumn(image: image, leaves: leaves, starts: clusters.map(\.start))
        integerColumns[key] = column
        return column
    }
}

/// What an `IntegerColumn` is kept by in its snapshot.
struct IntegerColumnKey: Hashable {
    let rootRef: Int
    let leafIndex: Int
    let nullable: Bool
}
