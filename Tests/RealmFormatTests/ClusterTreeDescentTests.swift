@testable import RealmFormat
import RealmTestSupport
import XCTest

/// `ClusterTree.leaf(containing:)` (a descent from the root, §8.2) finds each object where a
/// walk over every leaf finds it, and nothing for keys no object has — on every fixture's
/// tables, the test builds' 4-object clusters and trees with explicit key offsets included.
final class ClusterTreeDescentTests: XCTestCase {
    func testDescentFindsEveryObjectWhereTheLeafWalkDoes() throws {
        var checkedKeys = 0, checkedTables = 0, innerRoots = 0, compactLeaves = 0
        for path in Fixtures.allRealmFiles() where !Fixtures.isEncrypted(path) {
            guard let snapshot = try? Snapshot(path: path) else { continue }
            for table in snapshot.tables {
                guard let root = table.clusterRef else { continue }
                let tree = ClusterTree(snapshot: snapshot, rootRef: root)
                var found: [Int64: (base: UInt64, row: Int)] = [:]
                guard (try? tree.forEachLeaf { leaf in
                    if leaf.keys == nil { compactLeaves += 1 }
                    for row in 0..<leaf.count { found[leaf.objectKey(row)] = (leaf.baseKey, row) }
                }) != nil else { continue }
                if try snapshot.node(root).isInner { innerRoots += 1 }
                checkedTables += 1
                for (key, place) in found {
                    let got = try tree.leaf(containing: key)
                    XCTAssertEqual(got?.row, place.row, "\(path), table \(table.name), key \(key)")
                    XCTAssertEqual(got?.leaf.baseKey, place.base, "\(path), table \(table.name), key \(key)")
                    checkedKeys += 1
                    if found[key + 1] == nil, key < Int64.max {
                        XCTAssertNil(try tree.leaf(containing: key + 1), "\(path), table \(table.name), absent key \(key + 1)")
                    }
                }
                XCTAssertNil(try tree.leaf(containing: -1))
                if found[Int64.max] == nil { XCTAssertNil(try tree.leaf(containing: Int64.max)) }
            }
        }
        XCTAssertGreaterThan(checkedTables, 100)
        XCTAssertGreaterThan(checkedKeys, 10_000)
        XCTAssertGreaterThan(innerRoots, 5, "trees of more than one level were checked")
        XCTAssertGreaterThan(compactLeaves, 0, "leaves with compact keys (base + row, found without a search) were checked")
    }
}
