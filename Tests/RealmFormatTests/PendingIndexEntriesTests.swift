@testable import RealmFormat
import RealmTestSupport
import XCTest

/// `PendingIndexEntries` keeps ints as plain arrays until another kind of value arrives, and
/// hands out the same entries, in order, either way.
final class PendingIndexEntriesTests: XCTestCase {
    func testIntsStayPlainUntilAnotherValueArrivesAndOrderIsKept() {
        var entries = PendingIndexEntries()
        for k in 0..<5 { entries.append(.int(Int64(10 - k)), key: Int64(k)) }
        XCTAssertNil(entries.values, "ints only: no boxed values")
        XCTAssertEqual(Array(entries.ints), [10, 9, 8, 7, 6])
        entries.append(.null, key: 5)
        entries.append(.int(1), key: 6)
        XCTAssertEqual(entries.values, [.int(10), .int(9), .int(8), .int(7), .int(6), .null, .int(1)])
        XCTAssertEqual(Array(entries.keys), [0, 1, 2, 3, 4, 5, 6])
        XCTAssertEqual(entries.pairs.map(\.value), entries.values)
        var rebuilt = PendingIndexEntries(ints: [7, 2], keys: [3, 1])
        XCTAssertEqual(rebuilt.pairs.map(\.value), [.int(7), .int(2)])
        rebuilt.append(.string(Array("a".utf8)), key: 9)
        XCTAssertEqual(rebuilt.values, [.int(7), .int(2), .string(Array("a".utf8))])
        XCTAssertEqual(Array(rebuilt.keys), [3, 1, 9])
    }

    /// Consecutive values are a run until one is not; either way they read back as appended.
    func testConsecutiveIntsReadBackAsAppended() {
        var random = SeededRandom(seed: 3)
        for breakAt in [nil, 0, 1, 700] as [Int?] {
            var run = ConsecutiveInts(), expected: [Int64] = []
            var next = Int64.max - 300  // runs through the wrap-around
            for i in 0..<1000 {
                let v = i == breakAt ? Int64.random(in: -5...5, using: &random) : next
                next = v &+ 1
                run.append(v)
                expected.append(v)
            }
            XCTAssertEqual(Array(run), expected)
            XCTAssertEqual(run.isRun, breakAt == nil || breakAt == 0, "break at \(String(describing: breakAt))")
            run.keepFirst(400)
            XCTAssertEqual(Array(run), Array(expected.prefix(400)))
        }
    }

    /// The distinct-key order is `permutation`'s order; entries sharing a level-0 key get nil.
    func testDistinctLevelKeysOrderAsThePermutationDoes() {
        var random = SeededRandom(seed: 11)
        for n in [1, 5, 5000] {
            var seen = Set<Int64>(), ints = ConsecutiveInts(), keys = ConsecutiveInts()
            while ints.count < n {
                let v = Int64.random(in: -2_000_000_000...2_000_000_000, using: &random)
                guard seen.insert(v).inserted else { continue }
                ints.append(v)
                keys.append(Int64(ints.count * 3))
            }
            let words = IndexEntryOrder.distinctLevelOrder(ints: ints)
            let levels = ints.map { (IndexKey.key(int: $0, offset: 0), IndexKey.key(int: $0, offset: 4)) }
            let order = IndexEntryOrder.permutation(levelKeys: levels, objKeys: Array(keys))
            XCTAssertEqual(words?.map(IndexEntryOrder.position(ofWord:)), order, "n = \(n)")
            XCTAssertEqual(words?.map(IndexEntryOrder.levelKey(ofWord:)), order.map { Int64(levels[$0].0) }, "n = \(n)")
        }
        var ints = ConsecutiveInts(), keys = ConsecutiveInts()
        for (i, v) in [5, 1 << 32 + 5, 9].enumerated() {
            ints.append(Int64(v))
            keys.append(Int64(i))
        }
        XCTAssertNil(IndexEntryOrder.distinctLevelOrder(ints: ints), "5 and 2^32 + 5 share their level-0 key")
    }

    /// The build over `distinctLevelOrder`'s words is the tree the general build makes from
    /// the same entries (`build(ints:keys:order:)`), node for node as laid out in a file;
    /// with small nodes, so that it has inner levels.
    func testDistinctBuildIsTheGeneralBuild() throws {
        var random = SeededRandom(seed: 5)
        for (n, nodeSize) in [(1, 1000), (700, 4), (3000, 10), (3000, 1000)] {
            var seen = Set<Int64>(), ints = ConsecutiveInts(), keys = ConsecutiveInts()
            while ints.count < n {
                // Mostly counting up (a bulk load), some values anywhere within 2^31.
                let v = ints.count % 5 == 4 ? Int64.random(in: -(1 << 31)...(1 << 31), using: &random) : Int64(ints.count * 2)
                guard seen.insert(v).inserted else { continue }
                ints.append(v)
                keys.append(Int64(ints.count + 40))
            }
            let writer = SearchIndexWriter(columnType: .int, maxNodeSize: nodeSize) { _ throws(FormatError) in .null }
            let words = try XCTUnwrap(IndexEntryOrder.distinctLevelOrder(ints: ints))
            let distinct = try writer.build(distinctOrder: words, objKeys: keys, unique: true)
            let levels = ints.map { (IndexKey.key(int: $0, offset: 0), IndexKey.key(int: $0, offset: 4)) }
            let order = IndexEntryOrder.permutation(levelKeys: levels, objKeys: Array(keys))
            let general = try writer.build(ints: Array(ints), keys: Array(keys), order: order, unique: true)
            var a = NodeScratchImage(), b = NodeScratchImage()
            _ = a.append(distinct)
            _ = b.append(general)
            XCTAssertEqual(a.bytes, b.bytes, "n = \(n), nodes of \(nodeSize)")
            XCTAssertGreaterThan(a.bytes.count, 24)
        }
    }
}
