import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// The leaf encoders against every fixture (realm-format.md §9–§11): every column leaf,
/// collection and backlink cell a real file holds comes back identical after decoding,
/// encoding, laying out and decoding again, and re-encoded leaves commit into files that
/// verify. The encoders' edge rules are `LeafEncoderTests`.
final class LeafEncoderFixtureTests: XCTestCase {
    struct Counts {
        var leaves = 0, values = 0, collections = 0, dictionaries = 0, backlinkLeaves = 0, fixtures = 0
    }

    /// Every column leaf, collection and backlink cell of every readable plain fixture:
    /// decode → encode → lay out → decode gives the same values.
    func testEveryLeafAndCollectionOfEveryFixtureRoundTrips() throws {
        var counts = Counts()
        var seenFormats = Set<Int>()
        for path in Fixtures.allRealmFiles() where !Fixtures.isEncrypted(path) {
            let name = (path as NSString).lastPathComponent
            let snapshot: Snapshot
            do {
                snapshot = try Snapshot(path: path)
            } catch .unsupportedFormat, .encrypted {
                continue                                     // formats 2 and 9, encrypted
            } catch {
                XCTFail("\(name) does not open: \(error.message)")
                continue
            }
            counts.fixtures += 1
            seenFormats.insert(snapshot.fileFormat)
            for table in snapshot.tables {
                for root in [table.clusterRef, table.tombstonesRef].compactMap({ $0 }) {
                    var leaves = [ClusterLeaf]()
                    try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaves.append($0) }
                    for leaf in leaves {
                        for column in table.columns {
                            guard let ref = leaf.columnRef(column.leafIndex) else { continue }
                            let what = "\(name) \(table.name).\(column.name.isEmpty ? "backlink \(column.specIndex)" : column.name) leaf at \(hex(leaf.node.ref))"
                            do {
                                try roundTripColumn(column, ref: ref, table: table, snapshot: snapshot, rows: leaf.count, what: what, counts: &counts)
                            } catch {
                                XCTFail("\(what): \(error)")
                            }
                        }
                    }
                }
            }
        }
        print("leaf round trip: \(counts.fixtures) fixtures (formats \(seenFormats.sorted())), \(counts.leaves) column leaves with \(counts.values) values, "
              + "\(counts.collections) lists/sets, \(counts.dictionaries) dictionaries, \(counts.backlinkLeaves) backlink leaves")
        XCTAssertGreaterThanOrEqual(counts.fixtures, 25)
        XCTAssertTrue(seenFormats.isSuperset(of: [22, 23, 24]))
        XCTAssertGreaterThan(counts.collections, 1000)
        XCTAssertGreaterThan(counts.dictionaries, 100)
    }

    func roundTripColumn(_ column: Column, ref: Int, table: Table, snapshot: Snapshot, rows: Int,
                         what: String, counts: inout Counts) throws {
        if column.isBacklink {
            let cells = try snapshot.decodeBacklinks(ref)
            let image = try TreeImage(LeafEncoder.encodeBacklinks(cells))
            XCTAssertEqual(try image.snapshot.decodeBacklinks(image.rootRef), cells, what)
            counts.backlinkLeaves += 1
            return
        }
        guard let kind = column.collection else {
            let values = try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                                                 enumValues: table.enumValuesRef(for: column))
            let encoded = try LeafEncoder.encode(values, type: column.type, nullable: column.isNullable, context: .cluster)
            let image = try TreeImage(encoded)
            let again = try image.snapshot.decodeLeaf(image.rootRef, type: column.type, nullable: column.isNullable, context: .cluster)
            XCTAssertTrue(LeafEncoderTests.same(values, again), "\(what): " + LeafEncoderTests.difference(values, again))
            if column.type == .int && column.isNullable, let problem = LeafEncoderTests.checkMarkerRule(try image.root) {
                XCTFail("\(what): \(problem)")
            }
            counts.leaves += 1
            counts.values += values.count
            return
        }
        // A collection column: one root per row (ArrayRef).
        let refs = try snapshot.node(ref)
        var cells = [Value]()
        for i in 0..<refs.count {
            guard let r = refs.ref(i) else {
                cells.append(kind == .dictionary ? .dictionary([]) : .list([]))
                continue
            }
            if kind == .dictionary {
                let format = snapshot.fileFormat
                let entries = format == 21 || format == 22
                    ? try snapshot.decodeClusterDictionary(r, keyType: column.dictionaryKeyType)
                    : try snapshot.decodeDictionary(r, keyType: column.dictionaryKeyType, nesting: 0)
                let sorted = LeafEncoder.dictionaryOrder(entries)
                if format >= 23 {
                    XCTAssertTrue(LeafEncoderTests.same(.dictionary(entries), .dictionary(sorted)), "\(what) row \(i): stored keys not in dictionaryOrder")
                }
                cells.append(.dictionary(sorted))
                counts.dictionaries += 1
            } else {
                cells.append(.list(try snapshot.decodeBPlusTree(r, type: column.type, nullable: column.isNullable)))
                counts.collections += 1
            }
        }
        let encoded = try LeafEncoder.encodeCollectionColumn(cells, type: column.type, nullable: column.isNullable,
                                                             kind: kind, dictionaryKeyType: column.dictionaryKeyType)
        let image = try TreeImage(encoded)
        let column2 = try image.root
        XCTAssertEqual(column2.count, cells.count, what)
        for (i, cell) in cells.enumerated() {
            let r = column2.ref(i)
            let again: Value
            switch cell {
            case let .dictionary(entries):
                XCTAssertEqual(r == nil, entries.isEmpty, "\(what) row \(i): empty dictionaries are ref 0")
                again = .dictionary(try r.map { r throws in try image.snapshot.decodeDictionary(r, keyType: column.dictionaryKeyType, nesting: 0) } ?? [])
            case let .list(elements):
                XCTAssertEqual(r == nil, elements.isEmpty, "\(what) row \(i): empty collections are ref 0")
                again = .list(try r.map { r throws in try image.snapshot.decodeBPlusTree(r, type: column.type, nullable: column.isNullable) } ?? [])
                if let r, column.type == .link {
                    let unresolved = elements.contains { if case let .link(k) = $0 { return k <= -2 } else { return false } }
                    XCTAssertEqual(try image.node(r).context, unresolved, "\(what) row \(i): context flag of a link B+tree")
                }
                if let r, column.type == .int && column.isNullable {
                    try BPlusTree(snapshot: image.snapshot, rootRef: r).forEachLeaf { leaf in
                        if let problem = LeafEncoderTests.checkMarkerRule(leaf) { XCTFail("\(what) row \(i): \(problem)") }
                    }
                }
            default:
                return XCTFail("\(what): unexpected cell \(cell)")
            }
            if case let .list(x) = cell, case let .list(y) = again, !LeafEncoderTests.same(x, y) {
                XCTFail("\(what) row \(i): " + LeafEncoderTests.difference(x, y))
            } else if !LeafEncoderTests.same(cell, again) {
                XCTFail("\(what) row \(i): \(cell) became \(again)")
            }
        }
    }

    /// The encoders' trees are commit-ready: replacing every column leaf, collection column and
    /// backlink column of a real file with its re-encoded form through a WriteTransaction gives
    /// a file that verifies and holds the same values.
    func testReencodedLeavesCommitAndVerify() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["alltypes.realm", "basic.realm", "large.realm"] {
            let path = dir + "/" + name
            try FileManager.default.copyItem(atPath: Fixtures.path("realm-core/" + name), toPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            let before = try Self.allColumnValues(try Snapshot(path: path))

            let txn = try WriteTransaction(path: path)
            var replaced = 0
            let tables = try XCTUnwrap(try txn.child(txn.top, 1))
            for table in txn.snapshot.tables {
                guard let root = table.clusterRef else { continue }
                // New column leaves by cluster leaf ref, from the committed snapshot.
                var replacements = [Int: [(slot: Int, node: MutableNode)]]()
                var leaves = [ClusterLeaf]()
                try ClusterTree(snapshot: txn.snapshot, rootRef: root).forEachLeaf { leaves.append($0) }
                for leaf in leaves {
                    replacements[leaf.node.ref] = try table.columns.compactMap { column in
                        guard let ref = leaf.columnRef(column.leafIndex) else { return nil }
                        return (column.leafIndex + 1, try Self.reencode(column, ref: ref, table: table, snapshot: txn.snapshot))
                    }
                }
                let tableTop = try XCTUnwrap(try txn.child(tables, table.position))
                func visit(_ node: MutableNode) throws {
                    if node.isInner {
                        for i in 3..<node.count { try visit(try XCTUnwrap(try txn.child(node, i))) }
                        return
                    }
                    for (slot, new) in replacements[try XCTUnwrap(node.originalRef)] ?? [] {
                        try txn.releaseSubtree(ref: Int(node.integers[slot]))
                        node.setChild(slot, new)
                        replaced += 1
                    }
                }
                try visit(try XCTUnwrap(try txn.child(tableTop, 2)))
            }
            try txn.commit()

            let after = try Snapshot(path: path)
            let report = Verifier.verify(after)
            XCTAssertTrue(report.isOK, "\(name): " + report.problems.prefix(5).map(\.description).joined(separator: "\n"))
            let values = try Self.allColumnValues(after)
            XCTAssertEqual(values.count, before.count, name)
            for (key, old) in before {
                guard let new = values[key] else { XCTFail("\(name) \(key): missing"); continue }
                XCTAssertTrue(LeafEncoderTests.same(old, new), "\(name) \(key): " + LeafEncoderTests.difference(old, new))
            }
            XCTAssertGreaterThan(replaced, 0, name)
        }
    }

    /// The column's leaf re-encoded from its decoded values.
    static func reencode(_ column: Column, ref: Int, table: Table, snapshot: Snapshot) throws -> MutableNode {
        if column.isBacklink { return LeafEncoder.encodeBacklinks(try snapshot.decodeBacklinks(ref)) }
        guard let kind = column.collection else {
            let values = try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                                                 enumValues: table.enumValuesRef(for: column))
            return try LeafEncoder.encode(values, type: column.type, nullable: column.isNullable, context: .cluster)
        }
        let refs = try snapshot.node(ref)
        let cells = try (0..<refs.count).map { i in try snapshot.decodeCollection(refs.ref(i), column: column) }
        return try LeafEncoder.encodeCollectionColumn(cells, type: column.type, nullable: column.isNullable,
                                                      kind: kind, dictionaryKeyType: column.dictionaryKeyType)
    }

    /// "table.column" → every value of the column in key order (backlinks as lists of keys).
    static func allColumnValues(_ snapshot: Snapshot) throws -> [String: [Value]] {
        var out = [String: [Value]]()
        for table in snapshot.tables {
            guard let root = table.clusterRef else { continue }
            var leaves = [ClusterLeaf]()
            try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaves.append($0) }
            for column in table.columns {
                var values = [Value]()
                for leaf in leaves {
                    guard let ref = leaf.columnRef(column.leafIndex) else { continue }
                    if column.isBacklink {
                        values += try snapshot.decodeBacklinks(ref).map { .list($0.map(Value.link)) }
                    } else if column.collection != nil {
                        let refs = try snapshot.node(ref)
                        values += try (0..<refs.count).map { i in try snapshot.decodeCollection(refs.ref(i), column: column) }
                    } else {
                        values += try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                                                          enumValues: table.enumValuesRef(for: column))
                    }
                }
                out["\(table.name).\(column.key.value)"] = values
            }
        }
        return out
    }
}
