import Synchronization

/// A string column's distinct values and each object's position among them: what
/// `StringEnumerationPlan` counts before it enumerates a column (§9.4.4), as realm-enumerate
/// counts them — giving up as soon as there are more than the limit.
///
/// `counting` splits a long column's leaves in two halves and counts each on a thread of its
/// own, into a table of its own; the second half's values are then added to the first's in
/// the order they were first seen there, and its positions renumbered. That is exactly the
/// table and the positions one pass over all leaves gives (a value new to the second half is
/// first seen, in one pass, after all of the first half and in the same order among the second
/// half's), so the enumerated file does not depend on the split.
///
/// The threads read the leaves straight from the image (`Node(image:ref:)`, thread-safe, an
/// encrypted image's pages included), not through the snapshot, whose work budget and caches
/// are one thread's: each leaf is read once and its values are bounded by its cluster leaf's
/// object count, which the snapshot's walk of the cluster tree already charged.
struct DistinctStringCount {
    /// The distinct values (and null), in the order they were first seen.
    var values = ByteStringTable()
    /// For each leaf, in order, each object's position in `values`.
    var positions: [[Int64]] = []

    enum Outcome {
        case counted(DistinctStringCount)
        /// More than the limit.
        case tooMany
        /// A leaf is big (§9.4.3), enumerated, fails a check or cannot be read: count through
        /// each leaf's reader instead, which reports what is wrong.
        case notInPlace
    }

    /// A column's string leaf: its ref and its cluster leaf's number of objects.
    struct LeafRef: Sendable {
        let ref: Int
        let objects: Int
    }

    /// One half in progress: the table, its batch and its leaves' positions.
    private struct Part: Sendable {
        var count = DistinctStringCount()
        var batch = ByteStringTable.Batch()
        var ends: [Int32]
        var stopped: Stop?
    }

    /// Why a half stopped early.
    private enum Stop: Sendable {
        case tooMany, notInPlace
    }

    /// The census of the string leaves `leaves` of `image`, on two threads.
    static func counting(_ leaves: [LeafRef], of image: ByteImage, limit: Int) -> Outcome {
        let objects = leaves.reduce(0) { $0 + $1.objects }
        let widest = leaves.reduce(0) { max($0, $1.objects) }
        // Split where half the objects lie, so both threads have as much to do.
        var split = 0, before = 0
        while split < leaves.count, 2 * before < objects {
            before += leaves[split].objects
            split += 1
        }
        let halves = [leaves[..<split], leaves[split...]]
        let results = PartResults()
        let stop = Atomic<Bool>(false)
        Platform.onTwoThreads { i in
            var part = Part(ends: [Int32](repeating: 0, count: widest + 1))
            count(halves[i], of: image, limit: limit, into: &part, stop: stop)
            results.store(part, at: i)
        }
        guard var first = results.take(0), let second = results.take(1) else { return .notInPlace }
        switch (first.stopped, second.stopped) {
        case (.notInPlace, _), (_, .notInPlace): return .notInPlace
        case (.tooMany, _), (_, .tooMany): return .tooMany
        default: break
        }
        // The second half's values by their position there → their position in the first's.
        var renumbered = [Int64](repeating: 0, count: second.count.values.count)
        for p in 0..<renumbered.count {
            renumbered[p] = second.count.values.withValue(p) { Int64(first.count.values.insert($0).position) }
        }
        guard first.count.values.count <= limit else { return .tooMany }
        first.count.positions.reserveCapacity(leaves.count)
        for leaf in second.count.positions {
            first.count.positions.append(leaf.map { renumbered[Int($0)] })
        }
        return .counted(first.count)
    }

    private static func count(_ leaves: ArraySlice<LeafRef>, of image: ByteImage, limit: Int,
                              into part: inout Part, stop: borrowing Atomic<Bool>) {
        part.count.positions.reserveCapacity(leaves.count)
        for leaf in leaves {
            // The other half found too many (or a leaf it cannot read here): no need to go on.
            if stop.load(ordering: .relaxed) { part.stopped = .tooMany; return }
            guard let checked = try? StringColumn.Leaf(ref: leaf.ref, objects: leaf.objects,
                                                       reading: { ref throws(FormatError) in try Node(image: image, ref: ref) }) else {
                part.stopped = .notInPlace
                stop.store(true, ordering: .relaxed)
                return
            }
            var leafPositions = [Int64]()
            leafPositions.reserveCapacity(leaf.objects)
            let inPlace = checked.forEachValue(count: leaf.objects, ends: &part.ends) { v in
                part.count.values.insert(v, batch: &part.batch, positions: &leafPositions)
            }
            guard inPlace else {
                part.stopped = .notInPlace
                stop.store(true, ordering: .relaxed)
                return
            }
            part.count.values.flush(&part.batch, positions: &leafPositions)
            part.count.positions.append(leafPositions)
            if part.count.values.count > limit {
                part.stopped = .tooMany
                stop.store(true, ordering: .relaxed)
                return
            }
        }
    }

    /// Each thread's finished half, handed back under a lock.
    private final class PartResults: Sendable {
        private let parts = Mutex<[Part?]>([nil, nil])
        func store(_ part: Part, at i: Int) { parts.withLock { $0[i] = part } }
        func take(_ i: Int) -> Part? { parts.withLock { $0[i] } }
    }
}
