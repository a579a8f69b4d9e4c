import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// realm-core changes a cluster tree in place: updates, and deletes that neither empty nor
/// merge a leaf, keep every inner node with its key offsets; only child refs and object counts
/// change (realm-format.md §8.2). `TableEditor.finish` does the same, so such a change leaves
/// the tree shaped as realm-core would leave it (`large`'s 150,000 Items sit under inner nodes
/// whose offsets realm-core left implicit).
final class ClusterShapeTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Each inner node of the tree at `root`, in tree order: its offsets slot (0 when implicit)
    /// and depth, and the objects below it.
    func innerNodes(_ snapshot: Snapshot, _ root: Int) throws -> [[Int64]] {
        let node = try snapshot.node(root)
        guard node.isInner else { return [] }
        var out = [[node.int(0) == 0 ? 0 : 1, node.int(1), node.int(2)]]
        for j in 3..<node.count { if let child = node.ref(j) { out += try innerNodes(snapshot, child) } }
        return out
    }

    func testUpdatesAndScatteredDeletesKeepTheInnerNodes() throws {
        let path = try Fixtures.copy("realm-core/large.realm", into: dir)
        let before = try Snapshot(path: path)
        let itemsBefore = try XCTUnwrap(before.table(named: "class_Item")?.clusterRef)
        let shape = try innerNodes(before, itemsBefore)
        XCTAssertGreaterThan(shape.count, 1, "large's Items sit under several inner nodes")

        var keys: [Int64] = []
        let file = try RealmFile(path: path)
        let item = try XCTUnwrap(file.objectClass(named: "Item"))
        try file.forEachObject(of: item, properties: []) { key, _ in keys.append(key) }
        let writer = try RealmWriter(path: path)
        let c = try XCTUnwrap(writer.file.objectClass(named: "Item"))
        let score = try XCTUnwrap(c.property(named: "score"))
        for key in keys where key % 7 == 0 { try writer.set(c, key: key, score, .double(-1)) }
        // One object in every 50: no leaf empties or shrinks below realm-core's merge size.
        let deleted = keys.filter { $0 % 50 == 3 }
        try writer.delete(className: "Item", keys: deleted)
        try writer.commit()

        let after = try Snapshot(path: path)
        XCTAssertEqual(Verifier.verify(after).problems.map(\.description), [])
        let itemsAfter = try XCTUnwrap(after.table(named: "class_Item")?.clusterRef)
        let newShape = try innerNodes(after, itemsAfter)
        XCTAssertEqual(newShape.map { [$0[0], $0[1]] }, shape.map { [$0[0], $0[1]] }, "offsets and depths as they were")
        XCTAssertEqual(newShape.first.map { $0[2] >> 1 }, Int64(keys.count - deleted.count), "the root counts the objects left (tagged)")
    }
}
