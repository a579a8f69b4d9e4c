@testable import RealmFormat
import XCTest

/// `SearchIndexReader.listSummary` (a duplicate list's count, first and last ObjKey from its root
/// and two outer paths, realm-format.md §11) against reading every leaf (`listKeys`), on lists
/// of every height in both inner-node forms, and its refusal of lists whose sizes disagree.
final class IndexListSummaryTests: XCTestCase {
    /// A list of `count` ObjKeys built with 4-element nodes, by appending (Realm's compact form)
    /// or by inserting at seeded random positions (the general form, with offsets).
    func list(_ count: Int, appending: Bool, seed: UInt64 = 7) throws -> IndexDuplicateList {
        var list = IndexDuplicateList(root: IndexDuplicateList.make([]), nodes: InMemoryIndexNodes(), maxNodeSize: 4)
        var state = seed
        for i in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let at = appending ? i : Int(state >> 33) % (i + 1)
            try list.insert(Int64(i * 3 + 1), at: at)
        }
        return list
    }

    func testTheSummaryIsTheListsCountAndEndsInBothForms() throws {
        var heights = Set<Int>()
        for appending in [true, false] {
            for count in [1, 2, 4, 5, 16, 17, 64, 65, 300, 1001] {
                let laid = try LaidOutIndex(try list(count, appending: appending).root)
                let keys = try laid.reader.listKeys(laid.rootRef)
                XCTAssertEqual(keys.count, count)
                let summary = try XCTUnwrap(try laid.reader.listSummary(laid.rootRef), "\(count) keys, appending \(appending)")
                XCTAssertEqual(summary.count, keys.count, "\(count) keys, appending \(appending)")
                XCTAssertEqual(summary.first, keys.first, "\(count) keys, appending \(appending)")
                XCTAssertEqual(summary.last, keys.last, "\(count) keys, appending \(appending)")
                var node = try laid.snapshot.node(laid.rootRef), height = 0
                while node.isInner { node = try laid.snapshot.node(try XCTUnwrap(node.ref(1))); height += 1 }
                heights.insert(height)
            }
        }
        XCTAssertTrue(heights.isSuperset(of: [0, 1, 2, 3, 4]), "lists of heights \(heights.sorted())")
        let general = try list(300, appending: false).root
        XCTAssertNil(general.tagged(0), "random insertion leaves the root in the general form")
        XCTAssertNotNil(try list(300, appending: true).root.tagged(0), "appending keeps the compact form")
    }

    func testAnEmptyListHasNoSummary() throws {
        let laid = try LaidOutIndex(IndexDuplicateList.make([]))
        XCTAssertNil(try laid.reader.listSummary(laid.rootRef))
    }

    /// A root size slot, a compact E or an offset that does not add up along the right path
    /// gives no summary (the count is then taken by evaluating), never a count from the slot.
    func testSizesThatDisagreeAlongTheRightPathGiveNoSummary() throws {
        for (appending, damage) in [(true, "root size"), (false, "root size"), (true, "compact E"), (false, "last offset")] {
            let root = try list(300, appending: appending).root
            switch damage {
            case "root size": root.setTagged(root.count - 1, 301)
            case "compact E": root.setTagged(0, Int64(try XCTUnwrap(root.tagged(0))) + 1)
            default:
                let offsets = try XCTUnwrap(root.loadedChild(0))
                offsets[offsets.count - 1] += 1
            }
            let laid = try LaidOutIndex(root)
            XCTAssertNil(try laid.reader.listSummary(laid.rootRef), "\(damage), appending \(appending)")
            XCTAssertEqual(try laid.reader.listKeys(laid.rootRef).count, 300, "the keys themselves are intact")
        }
    }
}
