import Foundation
@testable import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// An update of scalar properties leaves each touched cluster leaf's objects and offset as
/// they were, so `TableEditor.finish` keeps the committed keys array (or compact count) by
/// ref and rewrites only the changed columns (realm-format.md §8.2). Pinned against the
/// general path (`TableEditor.Options.keepsUnchangedKeys` off: keys encoded again): the same
/// changes give the same objects, and both files verify (ours, and realm-core's own check
/// when present). On 3,000 Items (a dozen leaves), not the fixture's 150,000.
final class UpdateKeepsKeysTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Slot 0 (keys ref or tagged count) of every Item leaf.
    func keySlots(_ path: String) throws -> [Int64] {
        let snapshot = try Snapshot(path: path)
        let root = try XCTUnwrap(snapshot.table(named: "class_Item")?.clusterRef)
        return try snapshot.clusterLeaves(rootRef: root).map { $0.leaf.node.int(0) }
    }

    /// Deletes scattered Items (leaves take the general key form), then updates int, double,
    /// bool, date and optional int properties of every third object and commits.
    func change(_ path: String, fastPath: Bool) throws {
        let keys = try SmallItemsFile.itemKeys(path)
        let options = TableEditor.Options(keepsUnchangedKeys: fastPath)
        let deleter = try RealmWriter(path: path, editorOptions: options)
        try deleter.delete(className: "Item", keys: keys.filter { $0 % 50 == 3 })
        try deleter.commit()
        let slotsBefore = try keySlots(path)

        let writer = try RealmWriter(path: path, editorOptions: options)
        let c = try XCTUnwrap(writer.file.objectClass(named: "Item"))
        let p = { (name: String) throws -> Property in try XCTUnwrap(c.property(named: name)) }
        let (score, quantity, active, created, optInt) = (try p("score"), try p("quantity"), try p("active"), try p("created"), try p("optInt"))
        for key in keys where key % 3 == 0 && key % 50 != 3 {
            guard case let .double(v) = try writer.value(c, key: key, score) else { return XCTFail("score of \(key) is not a double") }
            try writer.set(c, key: key, score, .double(v + 1))
            try writer.set(c, key: key, quantity, .int(key * 7 - 1000))
            try writer.set(c, key: key, active, .bool(key % 2 == 0))
            try writer.set(c, key: key, created, .timestamp(Timestamp(seconds: 1_600_000_000 + key, nanoseconds: 5)))
            try writer.set(c, key: key, optInt, key % 6 == 0 ? .null : .int(-key))
        }
        try writer.commit()
        let slotsAfter = try keySlots(path)
        XCTAssertEqual(slotsAfter.count, slotsBefore.count, "an update keeps the leaves")
        let generalForm = zip(slotsBefore, slotsAfter).filter { $0.0 & 1 == 0 }
        XCTAssertFalse(generalForm.isEmpty, "the deletes left leaves with a keys array")
        if fastPath {
            XCTAssertEqual(slotsAfter, slotsBefore, "every leaf keeps its committed keys array or count")
        } else {
            XCTAssertTrue(generalForm.allSatisfy { $0.0 != $0.1 }, "the general path writes each touched leaf's keys again")
        }
    }

    func testUpdatedLeavesKeepTheirKeysAndMatchTheGeneralPath() throws {
        let fast = try SmallItemsFile.make(in: dir)
        let general = try SmallItemsFile.copy(fast, suffix: ".general")
        XCTAssertGreaterThan(try keySlots(fast).count, 10, "the Items span a dozen leaves")
        try change(fast, fastPath: true)
        try change(general, fastPath: false)

        let fastRows = try SmallItemsFile.rows(fast), generalRows = try SmallItemsFile.rows(general)
        XCTAssertEqual(fastRows.count, SmallItemsFile.itemCount - SmallItemsFile.itemCount / 50)
        XCTAssertEqual(fastRows, generalRows, "the same objects through either path")
        for path in [fast, general] { try SmallItemsFile.assertVerifies(path) }
    }
}
