import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// A transaction that changes most of an indexed column builds that index again at commit
/// from the values then, instead of an erase and an insert per object (`TableEditor.set`, as
/// a mass removal does). Deletes and inserts in the same transaction, and changes before the
/// switch, end up in the built index like the rest: the verifier checks every entry against
/// the column, both ways (realm-format.md §12).
final class IndexedUpdateTests: XCTestCase {
    func testChangingMostOfAnIndexedColumnGivesAnExactIndex() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Fixtures.copy("realm-core/large.realm", into: dir)
        var keys: [Int64] = []
        let file = try RealmFile(path: path)
        try file.forEachObject(of: try XCTUnwrap(file.objectClass(named: "Item")), properties: []) { key, _ in keys.append(key) }

        let writer = try RealmWriter(path: path)
        let item = try XCTUnwrap(writer.file.objectClass(named: "Item"))
        let category = try XCTUnwrap(item.property(named: "category"))
        XCTAssertTrue(item.table.columns.contains { $0.name == "category" && $0.hasSearchIndex }, "category is indexed")
        // Deletes before and after the switch to a build at commit, changes on both sides of it,
        // objects created in between (their entries superseded too).
        var deleted = Set(keys.filter { $0 % 97 == 5 })
        try writer.delete(className: "Item", keys: Array(deleted))
        for (n, key) in keys.enumerated() where key % 3 != 0 && !deleted.contains(key) {
            try writer.set(item, key: key, category, .string(Array("c\(key % 11)".utf8)))
            if n == 40_000 {
                let more = keys.filter { $0 % 89 == 7 && !deleted.contains($0) }
                try writer.delete(className: "Item", keys: more)
                deleted.formUnion(more)
            }
            if n == 60_000 {
                var values = try (0..<item.properties.count).map { try writer.value(item, key: keys[1], item.properties[$0]) }
                values[0] = .int(900_000)
                _ = try writer.create(item, values: values)
            }
        }
        try writer.commit()
        let report = Verifier.verify(try Snapshot(path: path))
        XCTAssertEqual(report.problems.map(\.description), [])
    }
}
