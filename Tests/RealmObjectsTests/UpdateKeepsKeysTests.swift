import Foundation
@testable import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// An update of scalar properties leaves each touched cluster leaf's objects and offset as
/// they were, so `TableEditor.finish` keeps the committed keys array (or compact count) by
/// ref and rewrites only the changed columns (realm-format.md §8.2). Pinned against the
/// general path (`keepsUnchangedKeys` off: keys encoded again): the same changes give the
/// same objects, and both files verify (ours, and realm-core's own check when present).
final class UpdateKeepsKeysTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() {
        TableEditor.keepsUnchangedKeys = true
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Every Item's key and values, in key order.
    func items(_ path: String) throws -> [String] {
        let file = try RealmFile(path: path)
        let item = try XCTUnwrap(file.objectClass(named: "Item"))
        var rows: [String] = []
        try file.forEachObject(of: item) { key, values in rows.append("\(key): \(Array(values))") }
        return rows
    }

    /// Slot 0 (keys ref or tagged count) of every Item leaf.
    func keySlots(_ path: String) throws -> [Int64] {
        let snapshot = try Snapshot(path: path)
        let root = try XCTUnwrap(snapshot.table(named: "class_Item")?.clusterRef)
        return try snapshot.clusterLeaves(rootRef: root).map { $0.leaf.node.int(0) }
    }

    /// Deletes scattered Items (leaves take the general key form), then updates int, double,
    /// bool, date and optional int properties of every third object and commits.
    func change(_ path: String, fastPath: Bool) throws {
        TableEditor.keepsUnchangedKeys = fastPath
        defer { TableEditor.keepsUnchangedKeys = true }
        var keys: [Int64] = []
        let file = try RealmFile(path: path)
        try file.forEachObject(of: try XCTUnwrap(file.objectClass(named: "Item")), properties: []) { key, _ in keys.append(key) }
        let deleter = try RealmWriter(path: path)
        try deleter.delete(className: "Item", keys: keys.filter { $0 % 50 == 3 })
        try deleter.commit()
        let slotsBefore = try keySlots(path)

        let writer = try RealmWriter(path: path)
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
        let fast = try Fixtures.copy("realm-core/large.realm", into: dir)
        let generalDir = dir + "/general"
        try FileManager.default.createDirectory(atPath: generalDir, withIntermediateDirectories: true)
        let general = try Fixtures.copy("realm-core/large.realm", into: generalDir)
        try change(fast, fastPath: true)
        try change(general, fastPath: false)

        let fastRows = try items(fast), generalRows = try items(general)
        XCTAssertGreaterThan(fastRows.count, 100_000)
        XCTAssertEqual(fastRows, generalRows, "the same objects through either path")
        for path in [fast, general] {
            XCTAssertEqual(Verifier.verify(try Snapshot(path: path)).problems.map(\.description), [], path)
            let check = "/tmp/realm-check/realm-check"
            guard FileManager.default.isExecutableFile(atPath: check) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: check)
            process.arguments = ["verify", path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "realm-core's Group::verify on \(path)")
        }
    }
}
