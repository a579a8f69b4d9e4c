import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// Key lists handed to a `TableEditor` (query results, user input) may be unsorted, repeat
/// keys, and name objects that do not exist — below the first key, between leaves, inside a
/// leaf's gaps, past the last key (`Int64.max` once made a removal loop forever). The
/// leaf-by-leaf searches must answer as a lookup per key.
final class TableEditorKeyTests: XCTestCase {
    func testPresentKeysAndRemovalsAgreeWithOneLookupPerKey() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Fixtures.copy("realm-core/large.realm", into: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let before = try Snapshot(path: path)
        let table = try XCTUnwrap(before.table(named: "class_Item"))
        var existing: [Int64] = []
        try ClusterTree(snapshot: before, rootRef: try XCTUnwrap(table.clusterRef)).forEachLeaf { leaf throws(FormatError) in
            for r in 0..<leaf.count { existing.append(leaf.objectKey(r)) }
        }
        XCTAssertGreaterThan(existing.count, 100_000)

        var random = SeededRandom(seed: 7)
        var keys: [Int64] = [-5, -1, existing.first!, existing.last!, existing.last! + 1, Int64.max, Int64.min]
        for _ in 0..<3000 {
            let k = existing[Int.random(in: 0..<existing.count, using: &random)]
            keys.append(k)
            keys.append(k + Int64.random(in: -3...3, using: &random))       // neighbours, some absent
        }
        keys += keys.prefix(500)                                              // repeats
        keys.shuffle(using: &random)

        let txn = try WriteTransaction(path: path)
        let editor = try TableEditor(transaction: txn, table: table)
        let expected = Set(keys).filter { editor.contains($0) }.sorted()
        XCTAssertEqual(editor.presentKeys(keys), expected, "unsorted keys with repeats and absent keys")
        XCTAssertEqual(editor.presentKeys(keys.sorted()), expected, "the same keys in order")
        XCTAssertEqual(editor.presentKeys([]), [])
        // Dense, as a mass removal names them: every other object of every leaf, with each
        // one's absent neighbour key past the last.
        let everyOther = existing.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        XCTAssertEqual(editor.presentKeys(everyOther + everyOther.map { $0 + 1 }.filter { !editor.contains($0) }),
                       everyOther.sorted(), "every other object")

        // Removing the same list removes exactly the present objects, each once.
        try editor.remove(keys)
        XCTAssertEqual(editor.objectCount, existing.count - expected.count)
        for k in expected.prefix(200) { XCTAssertFalse(editor.contains(k), "object \(k) removed") }
        let kept = Set(existing).subtracting(expected)
        for k in kept.prefix(200) { XCTAssertTrue(editor.contains(k), "object \(k) kept") }
        try editor.finish()
        try txn.commit()
        // Read back: exactly the other objects, in order (link repair is RealmObjects' job,
        // so Bucket.items still names removed items and `verify` would say so).
        let after = try Snapshot(path: path)
        var left: [Int64] = []
        try ClusterTree(snapshot: after, rootRef: try XCTUnwrap(after.table(named: "class_Item")?.clusterRef)).forEachLeaf { leaf throws(FormatError) in
            for r in 0..<leaf.count { left.append(leaf.objectKey(r)) }
        }
        XCTAssertEqual(left, kept.sorted())
    }
}
