import Foundation
import RealmFormat
import RealmObjects
@testable import RealmQuery
import RealmTestSupport
import XCTest

/// The int fast paths of the search index (realm-format.md §12) against the slow paths, on a
/// file laid out here: `Thing{id int pk, n int indexed, opt int? indexed, score double}` ×
/// 3,000 (12 cluster leaves). The values are chosen to reach every shape of int index entry:
/// duplicate lists (n = i % 50), values sharing only their low four bytes (2^32 + 7 next to 7,
/// so a sub-index), null next to 0 and 2^32 (all three have key 0 at level 0), int64 extremes.
final class IndexedIntTests: XCTestCase {
    static let rows = 3000
    static let shared = 1 << 32 + 7

    static func id(_ i: Int) -> Int64 { i % 3 == 0 ? Int64(i) << 32 | 5 : Int64(i * 7 - 5000) }
    static func n(_ i: Int) -> Int64 {
        if i % 97 == 0 { return Int64(shared) }
        if i == 5 { return .min }
        if i == 6 { return .max }
        return Int64(i % 50)
    }
    static func opt(_ i: Int) -> Value {
        if i % 5 == 0 { return .null }
        if i % 7 == 0 { return .int(0) }
        if i % 11 == 0 { return .int(1 << 32) }
        return .int(Int64(i % 13))
    }

    static let fileBytes: [UInt8] = {
        let schema = """
            [{"name": "Thing", "primaryKey": "id", "embedded": false, "properties": [
              {"name": "id", "type": "int", "optional": false, "indexed": true, "primaryKey": true, "collection": null, "objectType": null, "linkOrigin": null},
              {"name": "n", "type": "int", "optional": false, "indexed": true, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
              {"name": "opt", "type": "int", "optional": true, "indexed": true, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
              {"name": "score", "type": "double", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
              {"name": "small", "type": "int", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
              {"name": "flag", "type": "bool", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}]}]
            """
        var (names, models) = try! SchemaBuilder.tables(fromClassesJSON: try! JSONParser.parse(schema), schemaVersion: 1)
        let t = models.firstIndex { $0.name == "class_Thing" }!
        for i in 0..<rows {
            let key = models[t].nextObjectKey()
            models[t].insertObject(key: key, values: [.int(id(i)), .int(n(i)), opt(i), .double(i % 37 == 0 ? .nan : Double(i % 101) / 4),
                                                          .int(Int64(i * 7 % 256) - 128), .bool(i % 3 == 1)])
        }
        let bytes = NewFile.bytes(tableNames: names, tables: try! models.map { try TableEncoder.encode($0) })
        names = []
        return bytes
    }()

    let snapshot = try! Snapshot(image: ByteImage(bytes: IndexedIntTests.fileBytes))

    func thing() throws -> (ObjectStore, TableData) {
        let store = ObjectStore(snapshot: snapshot)
        let t = try XCTUnwrap(store.table(className: "Thing"))
        XCTAssertGreaterThan(try t.leaves().count, 4, "several cluster leaves")
        return (store, t)
    }

    func testIntIndexKeysAreTheKeysOfTheIntsBytes() {
        for v: Int64 in [0, 1, 47, -1, .min, .max, 1 << 32, 1 << 32 + 7, 0x0102_0304_0506_0708, -5000] {
            let bytes = IndexKey.bytes(of: .int(v), columnType: .int)!
            for offset in [0, 4, 8, 12] {
                XCTAssertEqual(IndexKey.key(int: v, offset: offset), IndexKey.key(bytes, offset: offset), "\(v) at \(offset)")
            }
        }
    }

    func testIntLookupFindsWhatTheByteLookupFinds() throws {
        let (_, t) = try thing()
        for name in ["id", "n", "opt"] {
            let column = try XCTUnwrap(t.column(named: name))
            let reader = SearchIndexReader(snapshot: snapshot, rootRef: try XCTUnwrap(column.searchIndexRef))
            var probes = try t.values(column).compactMap(\.intValue)
            probes += [12345, -1, 1 << 33, Int64(Self.shared) + 1]
            for v in probes {
                XCTAssertEqual(try reader.lookup(int: v), try reader.lookup(IndexKey.bytes(of: .int(v), columnType: .int)!), "\(name) \(v)")
            }
        }
    }

    /// The vector leaf markers (16 bytes, 64 bools, 8 doubles at a time) set what the element
    /// test sets, wherever the leaf starts in a word and for ranges inside, across and outside
    /// the leaf's width.
    func testVectorMarkersAgreeWithTheElementTest() throws {
        let (_, t) = try thing()
        let small = try XCTUnwrap(t.column(named: "small")), flag = try XCTUnwrap(t.column(named: "flag"))
        let score = try XCTUnwrap(t.column(named: "score"))
        let leaf = try t.leaves()[1].leaf
        let smallLeaf = try IntegerLeaf(snapshot, ref: XCTUnwrap(leaf.columnRef(small.leafIndex)), nullable: false)
        let flagLeaf = try IntegerLeaf(snapshot, ref: XCTUnwrap(leaf.columnRef(flag.leafIndex)), nullable: false)
        let scoreLeaf = try FloatingLeaf(snapshot, ref: XCTUnwrap(leaf.columnRef(score.leafIndex)), float: false)
        XCTAssertEqual(smallLeaf.width, 8)
        XCTAssertEqual(flagLeaf.width, 1)
        func expected(_ count: Int, _ first: Int, _ words: Int, _ test: (Int) -> Bool) -> [UInt64] {
            var out = [UInt64](repeating: 0, count: words)
            for i in 0..<count where test(i) && (first + i) / 64 < words { out[(first + i) / 64] |= 1 << UInt64((first + i) % 64) }
            return out
        }
        let ranges: [(Int64, Int64)] = [(-10, 40), (-128, 127), (.min, -100), (100, .max), (200, 300), (-300, -200), (0, 0), (1, 1), (0, 1), (5, 4)]
        for first in [0, 3, 64, 70, 127] {
            let count = (first + smallLeaf.count + 63) / 64
            for (lower, upper) in ranges {
                for outside in [false, true] {
                    for (leafValues, name) in [(smallLeaf, "small"), (flagLeaf, "flag")] {
                        var words = [UInt64](repeating: 0, count: count)
                        leafValues.markRange(lower, upper, outside: outside, nullMatches: false, into: &words, first: first)
                        let inside = { (i: Int) in lower <= upper && (lower...upper).contains(leafValues[i]) }
                        XCTAssertEqual(words, expected(leafValues.count, first, count) { inside($0) != outside },
                                       "\(name) \(lower)...\(upper) outside \(outside) from bit \(first)")
                    }
                }
            }
            for op: ElementComparison in [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual] {
                for c in [12.5, -1, 100, .nan, .infinity] {
                    var words = [UInt64](repeating: 0, count: count)
                    scoreLeaf.mark(op, c, nullMatches: op == .notEqual, into: &words, first: first)
                    XCTAssertEqual(words, expected(scoreLeaf.count, first, count) { i in
                        let v = scoreLeaf[i] ?? .nan
                        switch op {
                        case .equal: return v == c
                        case .notEqual: return v != c
                        case .less: return v < c
                        case .lessEqual: return v <= c
                        case .greater: return v > c
                        case .greaterEqual: return v >= c
                        }
                    }, "score \(op) \(c) from bit \(first)")
                }
            }
        }
    }

    /// On a snapshot no reader has listed the leaves of, `indexCount` finds the objects it
    /// confirms by descending the cluster tree; it answers as it does with the leaf list, and
    /// still lists no leaves.
    func testIndexedIntCountsOnAFreshSnapshotDescendTheTree() throws {
        let (_, listed) = try thing()
        let fresh = try Snapshot(image: ByteImage(bytes: IndexedIntTests.fileBytes))
        let t = try XCTUnwrap(ObjectStore(snapshot: fresh).table(className: "Thing"))
        let root = try XCTUnwrap(t.table.clusterRef)
        var answered = 0
        for name in ["n", "opt", "id"] {
            let column = try XCTUnwrap(t.column(named: name))
            let decoded = try listed.values(try XCTUnwrap(listed.column(named: name)))
            for v in Array(Set(decoded.compactMap(\.intValue))).prefix(200) + [12345, -1, 1 << 33] {
                let d = DirectCondition(column: column, type: .int, op: .equal, value: .int(v))
                guard let n = try Evaluator(table: t).indexCount(d) else { continue }
                answered += 1
                XCTAssertEqual(n, decoded.filter { $0 == .int(v) }.count, "\(name) == \(v) counted by descent")
            }
        }
        XCTAssertGreaterThan(answered, 100)
        XCTAssertNil(fresh.cachedClusterLeaves(rootRef: root), "no leaf list was made")
    }

    /// `n == v` counted from the index (Query.count → Evaluator.indexCount) and through the
    /// index's bitset path give the scan's answer, for every stored value and some absent ones.
    func testIndexedIntCountsAgreeWithTheScan() throws {
        let (store, t) = try thing()
        var fromIndex = 0
        for name in ["n", "opt", "id"] {
            let column = try XCTUnwrap(t.column(named: name))
            let decoded = try t.values(column)
            var probes = Array(Set(decoded.compactMap(\.intValue)))
            probes += [12345, -1, 1 << 33, 7 << 32 | 7]
            let all = Bitset(count: decoded.count, filled: true)
            for v in probes {
                let expected = decoded.filter { $0 == .int(v) }.count
                let d = DirectCondition(column: column, type: .int, op: .equal, value: .int(v))
                if let n = try Evaluator(table: t).indexCount(d) {
                    fromIndex += 1
                    XCTAssertEqual(n, expected, "\(name) == \(v) counted from the index")
                }
                XCTAssertEqual(try Query(store: store, table: t, "\(name) == \(v)").count(), expected, "\(name) == \(v)")
                if let viaIndex = try Evaluator(table: t).indexLookup(d, all) {
                    XCTAssertEqual(viaIndex, try Evaluator(table: t).scan(d, all), "\(name) == \(v) through the index")
                }
            }
        }
        XCTAssertGreaterThan(fromIndex, 60, "most counts were answered from the index")
        // null, and the values whose key chains meet null's (key 0 at level 0).
        let opt = try XCTUnwrap(t.column(named: "opt"))
        let optValues = try t.values(opt)
        for (text, value) in [("nil", Value.null), ("0", .int(0)), ("\(1 << 32)", .int(1 << 32))] {
            let expected = optValues.filter { $0 == value }.count
            XCTAssertGreaterThan(expected, 0)
            XCTAssertEqual(try Query(store: store, table: t, "opt == \(text)").count(), expected, "opt == \(text)")
        }
    }

    /// Primary keys found through the int index path, by `row(primaryKey:)` and
    /// `find(primaryKey:)`, agree with the scan; absent keys and other types find nothing or
    /// what the scan finds.
    func testPrimaryKeyLookupsAgreeWithTheScan() throws {
        let (_, t) = try thing()
        let pk = try XCTUnwrap(t.table.primaryKeyColumn)
        let keys = try t.keys()
        for row in Swift.stride(from: 0, to: Self.rows, by: 7) {
            XCTAssertEqual(try t.row(primaryKey: .int(Self.id(row))), row)
            XCTAssertEqual(try t.find(primaryKey: .int(Self.id(row))), keys[row])
            XCTAssertEqual(try t.value(of: pk, atRow: row), .int(Self.id(row)))
        }
        for probe: QValue in [.int(12345), .int(Int64(9) << 32 | 6), .int(-1), .null, .double(Double(Self.id(1))), .double(0.5),
                              .string(Array("x".utf8))] {
            XCTAssertEqual(try t.find(primaryKey: probe), try t.scanPrimaryKey(pk, probe), "\(probe)")
        }
        XCTAssertEqual(try t.find(primaryKey: .double(Double(Self.id(1)))), keys[1], "an int key found by an equal double")
        XCTAssertNil(try t.row(primaryKey: .int(12345)))
    }

    /// Values read one object at a time (`value(of:atRow:)`) equal the whole decoded column,
    /// on the first read of each property (the general path, which keeps the int columns) and
    /// on later reads (ints read through the kept column and `LeafKeyIndex.position(ofRow:)`,
    /// nothing retained); rows outside the table throw on both.
    func testValuesByRowAgreeWithTheDecodedColumnsOnFirstAndLaterReads() throws {
        let (_, t) = try thing()
        let count = try t.count()
        for name in ["id", "n", "opt", "small", "flag"] {
            let column = try XCTUnwrap(t.column(named: name))
            let decoded = try t.values(column)
            XCTAssertEqual(decoded.count, count)
            for pass in 0..<2 {
                for row in 0..<count {
                    XCTAssertEqual(try t.value(of: column, atRow: row), decoded[row], "\(name) row \(row) pass \(pass)")
                }
                XCTAssertThrowsError(try t.value(of: column, atRow: count), "\(name) past the end")
                XCTAssertThrowsError(try t.value(of: column, atRow: -1), "\(name) before the start")
            }
        }
        let positions = try t.leafKeyIndex()
        XCTAssertNotNil(positions.strideShift, "leaves of 256 objects")
        for row in [-1, 0, 255, 256, count - 1, count, .max, .min] {
            let expected = positions.leaf(ofRow: row).map { ($0, row - positions.starts[$0]) }
            XCTAssertTrue(positions.position(ofRow: row).map { $0 == expected! } ?? (expected == nil), "row \(row)")
        }
    }

    /// `LeafKeyIndex` finds every object's leaf and position as the leaf-by-leaf search does,
    /// and nothing for absent keys or rows outside the table.
    func testLeafKeyIndexLocatesLikeTheLeafSearch() throws {
        let (_, t) = try thing()
        let leaves = try t.leaves()
        let index = LeafKeyIndex(leaves)
        let keys = try t.keys()
        for (row, key) in keys.enumerated() {
            let found = try XCTUnwrap(index.locate(key, in: leaves))
            XCTAssertEqual(leaves[found.leaf].start + found.index, row)
            XCTAssertTrue(found == t.locate(key, in: leaves)!)
            XCTAssertEqual(index.leaf(ofRow: row), found.leaf)
        }
        for absent in [-1, keys.last! + 1, Int64.max, Int64.min] { XCTAssertNil(index.locate(absent, in: leaves)) }
        XCTAssertNil(index.leaf(ofRow: -1))
        XCTAssertNil(index.leaf(ofRow: keys.count))
    }

    /// After deletes (leaves of different sizes, keys with gaps) the leaf index falls back from
    /// its divisions to its searches, and the primary-key path (kept index top, keys confirmed
    /// in place) still finds every remaining object and no deleted one.
    func testLookupsAfterDeletesAgreeWithTheLeafSearch() throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/thing.realm"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(Self.fileBytes)))
        let writer = try RealmWriter(path: path)
        let thing = try XCTUnwrap(writer.file.objectClass(named: "Thing"))
        let deleted = Set((0..<Self.rows).filter { $0 % 5 == 0 || (700..<1400).contains($0) })
        var keys = [Int64]()
        for row in deleted.sorted() { keys.append(try XCTUnwrap(try writer.objectKey(thing, primaryKey: .int(Self.id(row))))) }
        try writer.delete(className: "Thing", keys: keys)
        try writer.commit()

        let store = ObjectStore(snapshot: try Snapshot(path: path))
        let t = try XCTUnwrap(store.table(className: "Thing"))
        let leaves = try t.leaves()
        let index = LeafKeyIndex(leaves)
        XCTAssertNil(index.keyStride, "keys with gaps")
        let objectKeys = try t.keys()
        for (row, key) in objectKeys.enumerated() {
            let found = try XCTUnwrap(index.locate(key, in: leaves))
            XCTAssertTrue(found == t.locate(key, in: leaves)!)
            XCTAssertEqual(index.leaf(ofRow: row), found.leaf)
        }
        let id = try XCTUnwrap(t.column(named: "id"))
        let ids = try t.values(id)
        for (row, value) in ids.enumerated() {
            XCTAssertEqual(try t.row(primaryKey: value), row, "\(value)")
            XCTAssertEqual(try t.value(of: id, atRow: row), value)
        }
        // (Two rows share an id, 5: the first delete by it took one of them.)
        let remaining = Set(ids.compactMap(\.intValue))
        for row in deleted.sorted() where !remaining.contains(Self.id(row)) {
            XCTAssertNil(try t.row(primaryKey: .int(Self.id(row))), "deleted \(row)")
        }
    }

    /// A full SORT by int properties read in place (`ColumnSort`: nullable, extremes, ties)
    /// gives the general sort's order (`SortTable`), also after a filter.
    func testColumnSortByIntsAgreesWithTheGeneralSort() throws {
        let (store, t) = try thing()
        // (`small` and `id` hold negative values, `n` both int64 extremes, `opt` nulls.)
        for (filter, keys) in [("TRUEPREDICATE", "opt ASC, small DESC"), ("TRUEPREDICATE", "n DESC, id ASC"), ("TRUEPREDICATE", "small ASC, opt DESC"),
                               ("n > 10", "opt DESC"), ("flag == true", "small ASC, opt ASC")] {
            let q = try Query(store: store, table: t, "\(filter) SORT(\(keys))")
            guard case let .sort(sortKeys)? = q.orderings.first else { return XCTFail("no SORT in \(keys)") }
            let rows = try q.matches().members
            let sort = try XCTUnwrap(try ColumnSort.make(table: t, keys: sortKeys, rows: rows))
            XCTAssertEqual(sort.sorted(rows, prefix: nil), try SortTable(rows, sortKeys).sortedRows(prefix: nil), "\(filter) SORT(\(keys))")
        }
    }

    /// Several aggregates in one call give what each gives alone and what the decoded values
    /// give.
    func testAggregatesInOneCallAgreeWithSeparateCalls() throws {
        let (store, t) = try thing()
        let q = try Query(store: store, table: t, "n > 10 AND score < 1000.0")   // no NaN scores (IEEE <, a double constant)
        let rows = try q.rows()
        let scores = try t.values(XCTUnwrap(t.column(named: "score"))).enumerated().filter { rows.contains($0.offset) }.compactMap {
            if case let .double(d) = $0.element { return d } else { return nil }
        }
        let together = try q.aggregates([.sum("score"), .average("score"), .max("n"), .min("opt"), .max("score"), .sum("n")])
        XCTAssertEqual(together, [try q.sum("score"), try q.average("score"), try q.max("n"), try q.min("opt"), try q.max("score"), try q.sum("n")])
        XCTAssertEqual(together[0], .double(scores.reduce(0, +)))
        XCTAssertEqual(together[1], .double(scores.reduce(0, +) / Double(scores.count)))
        XCTAssertEqual(together[4], .double(scores.max()!))
        XCTAssertThrowsError(try q.aggregates([.sum("score"), .sum("nope")]))
    }

    /// Damaged copies of the file (a few bytes changed at random past the header) make the
    /// fast paths throw or answer, never trap: index look-ups and counts, primary keys, the
    /// leaf position index, the vector markers and the aggregates.
    func testDamagedFilesThrowInsteadOfTrapping() throws {
        var random = SeededRandom(seed: 20261130)
        var opened = 0, answered = 0
        for _ in 0..<300 {
            var bytes = Self.fileBytes
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 24..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let snapshot = try? Snapshot(image: ByteImage(bytes: bytes)) else { continue }
            opened += 1
            let store = ObjectStore(snapshot: snapshot)
            guard let t = store.table(className: "Thing") else { continue }
            for q in ["n == 7", "n == \(Self.shared)", "opt == 0", "opt == nil", "id == \(Self.id(10))",
                      "small > 3 AND flag == true AND score < 10.0", "score != 12.5", "small BETWEEN {-5, 5}"] {
                if let n = try? Query(store: store, table: t, q).count() { answered += n >= 0 ? 1 : 0 }
            }
            _ = try? Query(store: store, table: t, "n > 10").aggregates([.sum("score"), .average("score"), .max("n"), .min("small")])
            for i in Swift.stride(from: 0, to: Self.rows, by: 97) {
                if let row = try? t.row(primaryKey: .int(Self.id(i))), let pk = t.column(named: "id") {
                    _ = try? t.value(of: pk, atRow: row)
                }
                _ = try? t.find(primaryKey: .int(Self.id(i)))
            }
        }
        XCTAssertGreaterThan(opened, 200)
        XCTAssertGreaterThan(answered, 1000)
    }
}
