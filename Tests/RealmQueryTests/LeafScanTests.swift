import RealmFormat
@testable import RealmQuery
import RealmTestSupport
import XCTest

/// The leaf scans of single-property conditions (Evaluator.scan: ints, bools and doubles marked
/// a leaf at a time, strings tested in place) give exactly what the decoded path gives: the
/// same `DirectCondition` applied to every decoded value. On the `large` fixture (50,000 items,
/// many leaves; short, medium and null strings).
final class LeafScanTests: XCTestCase {
    func testScansAgreeWithTheDecodedValuesForEveryOperator() throws {
        let store = ObjectStore(snapshot: try Snapshot(path: Fixtures.path("realm-core/large.realm")))
        let items = try XCTUnwrap(store.table(className: "Item"))
        let n = try items.count()
        let ops: [DirectCondition.Operator] = [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual,
                                               .equalIns, .notEqualIns, .beginsWith, .beginsWithIns, .endsWith, .endsWithIns,
                                               .contains, .containsIns, .like, .likeIns]
        let constants: [String: (DataType, [QValue])] = [
            "quantity": (.int, [.int(0), .int(50), .int(-1), .int(Int64.min), .int(Int64.max), .null]),
            "optInt": (.int, [.int(0), .int(7), .int(Int64.min), .int(Int64.max), .null]),
            "active": (.bool, [.bool(true), .bool(false), .null]),
            "score": (.double, [.double(50), .double(0), .double(.nan), .float(2.5), .null]),
            "name": (.string, [.string(Array("item".utf8)), .string(Array("ITEM 1".utf8)), .string([]), .string(Array("é".utf8)), .null]),
            "optString": (.string, [.string(Array("a".utf8)), .string(Array("S".utf8)), .string([]), .null]),
        ]
        var checked = 0, matchedSome = 0
        for (name, (type, values)) in constants {
            let column = try XCTUnwrap(items.column(named: name))
            let decoded = try items.values(column)
            for op in ops where type == .string || [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(op) {
                for value in values {
                    let d = DirectCondition(column: column, type: type, op: op, value: value)
                    // Every row a candidate, and every third row.
                    for stride in [1, 3] {
                        var candidates = Bitset(count: n)
                        for r in Swift.stride(from: 0, to: n, by: stride) { candidates.insert(r) }
                        let scanned = try XCTUnwrap(try Evaluator(table: items).scan(d, candidates), "\(name) is scanned")
                        var expected = Bitset(count: n)
                        candidates.forEach { r in if d.matches(decoded[r]) { expected.insert(r) } }
                        XCTAssertEqual(scanned, expected, "\(name) \(op) \(value), every \(stride) rows")
                        if stride == 1, let counted = Evaluator(table: items).scanCount(d) {
                            XCTAssertEqual(counted, expected.cardinality, "\(name) \(op) \(value) counted")
                        }
                        checked += 1
                        if !expected.isEmpty && expected != candidates { matchedSome += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(matchedSome, checked / 5, "the conditions select proper subsets, not only all or nothing")
    }

    /// The whole-column int and bool scans (`IntegerColumn`: leaves checked once, marked in one
    /// loop with prefetching, counted without a table-wide bit set) mark and count exactly what
    /// the leaf-by-leaf scan (`IntegerLeaf.markRange` per cluster leaf) marks, for every
    /// property form (int, nullable int, bool), ranges inside, outside and empty, and with
    /// leaves left out.
    func testColumnScansAgreeWithTheLeafByLeafScan() throws {
        let snapshot = try Snapshot(path: Fixtures.path("realm-core/large.realm"))
        let items = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Item"))
        let leaves = try items.leaves()
        XCTAssertGreaterThan(leaves.count, 20)
        let n = try items.count()
        for name in ["quantity", "optInt", "active"] {
            let c = try XCTUnwrap(items.column(named: name))
            let column = try XCTUnwrap(items.integerColumn(c, nullable: c.isNullable), "\(name) reads whole")
            XCTAssertEqual(column.count, n)
            let refs = try items.columnRefs(c)
            let ranges: [(Int64, Int64, Bool, Bool)] = [(0, 0, false, false), (1, 1, true, false), (10, 60, false, true),
                                                         (10, 60, true, true), (.min, 5, false, false), (5, 4, false, false),
                                                         (.min, .max, false, true), (-3, 1 << 40, true, false)]
            for (lower, upper, outside, nullMatches) in ranges {
                for skip in [0, 3] {
                    // Every leaf, or every leaf but each third one.
                    let included = { (l: Int) in skip == 0 || l % skip != 1 }
                    var expected = [UInt64](repeating: 0, count: (n + 63) / 64)
                    var total = 0
                    for (l, (_, start)) in leaves.enumerated() {
                        let leaf = try IntegerLeaf(snapshot, ref: refs[l], nullable: c.isNullable)
                        var own = [UInt64](repeating: 0, count: (leaf.count + 63) / 64)
                        leaf.markRange(lower, upper, outside: outside, nullMatches: nullMatches, into: &own, first: 0)
                        total += own.reduce(0) { $0 + $1.nonzeroBitCount }
                        if included(l) {
                            leaf.markRange(lower, upper, outside: outside, nullMatches: nullMatches, into: &expected, first: start)
                        }
                    }
                    var words = [UInt64](repeating: 0, count: (n + 63) / 64)
                    column.markRange(lower, upper, outside: outside, nullMatches: nullMatches, into: &words) { start, count in
                        let l = try! XCTUnwrap(leaves.firstIndex { $0.start == start })
                        XCTAssertEqual(count, leaves[l].leaf.count)
                        return included(l)
                    }
                    XCTAssertEqual(words, expected, "\(name) \(lower)...\(upper) outside \(outside), every leaf but 1 in \(skip)")
                    let what = "\(name) \(lower)...\(upper) outside \(outside) null \(nullMatches)"
                    XCTAssertEqual(column.countRange(lower, upper, outside: outside, nullMatches: nullMatches), total, what)
                }
            }
        }
    }

    /// A column with one damaged leaf is not read whole: the scan and the count go leaf by leaf
    /// and report the damage as before, and a clean column of the same file still reads whole.
    func testDamagedColumnLeafFallsBackToTheLeafByLeafError() throws {
        let path = Fixtures.path("realm-core/large.realm")
        let clean = try Snapshot(path: path)
        let items = try XCTUnwrap(ObjectStore(snapshot: clean).table(className: "Item"))
        let quantity = try XCTUnwrap(items.column(named: "quantity"))
        let ref = try items.columnRefs(quantity)[5]
        var bytes = [UInt8](try ByteImage.mapping(path: path).copy(0, clean.image.count))
        bytes[ref + 7] ^= 1                                 // the leaf's count, one off (§4.1)
        let damaged = try Snapshot(image: ByteImage(bytes: bytes))
        let store = ObjectStore(snapshot: damaged)
        let table = try XCTUnwrap(store.table(className: "Item"))
        XCTAssertNil(table.integerColumn(quantity, nullable: quantity.isNullable))
        XCTAssertNotNil(table.integerColumn(try XCTUnwrap(table.column(named: "optInt")), nullable: true))
        for q in ["quantity > 10", "quantity == 3 AND active == true", "quantity != 3 SORT(quantity ASC)"] {
            XCTAssertThrowsError(try Query(store: store, className: "Item", q).count(), q) { error in
                guard case FormatError.corrupt = error else { return XCTFail("\(q): \(error)") }
            }
        }
    }

    /// Timestamp conditions marked a leaf at a time (`TimestampLeaf.mark`) give what the
    /// decoded values give, for stored dates, dates a nanosecond either side, null and a
    /// constant of another type.
    func testTimestampScansAgreeWithTheDecodedValues() throws {
        let store = ObjectStore(snapshot: try Snapshot(path: Fixtures.path("realm-core/large.realm")))
        let items = try XCTUnwrap(store.table(className: "Item"))
        let created = try XCTUnwrap(items.column(named: "created"))
        let decoded = try items.values(created)
        let n = decoded.count
        var constants: [QValue] = [.null, .int(3)]
        for v in [decoded[0], decoded[n / 2], decoded[n - 1]] {
            guard case let .timestamp(t) = v else { continue }
            constants += [.timestamp(t), .timestamp(Timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds &+ 1)),
                          .timestamp(Timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds &- 1))]
        }
        XCTAssertGreaterThan(constants.count, 8, "the fixture holds dates")
        var proper = 0
        for op: DirectCondition.Operator in [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual] {
            for value in constants {
                let d = DirectCondition(column: created, type: .timestamp, op: op, value: value)
                for stride in [1, 3] {
                    var candidates = Bitset(count: n)
                    for r in Swift.stride(from: 0, to: n, by: stride) { candidates.insert(r) }
                    let scanned = try XCTUnwrap(try Evaluator(table: items).scan(d, candidates))
                    var expected = Bitset(count: n)
                    candidates.forEach { r in if d.matches(decoded[r]) { expected.insert(r) } }
                    XCTAssertEqual(scanned, expected, "created \(op) \(value), every \(stride) rows")
                    if !expected.isEmpty && expected != candidates { proper += 1 }
                }
            }
        }
        XCTAssertGreaterThan(proper, 20)
    }

    /// Counts take the bits set; a count with LIMIT still counts the rows shown.
    func testCountsWithAndWithoutOrderings() throws {
        let store = ObjectStore(snapshot: try Snapshot(path: Fixtures.path("realm-core/large.realm")))
        let q = try Query(store: store, className: "Item", "quantity > 10 AND active == true")
        XCTAssertEqual(try q.count(), try q.rows().count)
        XCTAssertEqual(try Query(store: store, className: "Item", "quantity > 10 LIMIT(5)").count(), 5)
    }

    /// Table aggregates summed in place agree with the decoded values.
    func testAggregatesAgreeWithTheDecodedValues() throws {
        let store = ObjectStore(snapshot: try Snapshot(path: Fixtures.path("realm-core/large.realm")))
        let items = try XCTUnwrap(store.table(className: "Item"))
        let q = try Query(store: store, className: "Item", "active == true")
        let rows = try q.rows()
        let score = try items.values(XCTUnwrap(items.column(named: "score")))
        let optInt = try items.values(XCTUnwrap(items.column(named: "optInt")))
        let scores = rows.compactMap { if case let .double(d) = score[$0] { return d } else { return nil } }
        let ints = rows.compactMap { optInt[$0].intValue }
        XCTAssertFalse(ints.isEmpty)
        XCTAssertEqual(try q.sum("score"), .double(scores.reduce(0, +)))
        XCTAssertEqual(try q.average("score"), .double(scores.reduce(0, +) / Double(scores.count)))
        XCTAssertEqual(try q.sum("optInt"), .int(ints.reduce(0, &+)))
        XCTAssertEqual(try q.max("optInt"), .int(ints.max()!))
        XCTAssertEqual(try q.min("optInt"), .int(ints.min()!))
        XCTAssertEqual(try Query(store: store, className: "Item", "FALSEPREDICATE").average("score"), .null)
    }

    /// A primary-key lookup through the index finds each object's row; a missing key finds none.
    func testPrimaryKeyLookupFindsEveryObject() throws {
        let store = ObjectStore(snapshot: try Snapshot(path: Fixtures.path("realm-core/large.realm")))
        let items = try XCTUnwrap(store.table(className: "Item"))
        let id = try XCTUnwrap(items.column(named: "id"))
        let ids = try items.values(id)
        for row in Swift.stride(from: 0, to: ids.count, by: 97) {
            XCTAssertEqual(try items.row(primaryKey: ids[row]), row)
            XCTAssertEqual(try items.value(of: id, atRow: row), ids[row])
        }
        XCTAssertNil(try items.row(primaryKey: .int(-12345)))
    }

    /// `==` on an indexed int property (here the primary key) asks the index and confirms each
    /// candidate in place: the same rows as the scan, for present, absent and null constants.
    func testIndexedIntEqualityAgreesWithTheScan() throws {
        let store = ObjectStore(snapshot: try Snapshot(path: Fixtures.path("realm-core/large.realm")))
        let items = try XCTUnwrap(store.table(className: "Item"))
        let id = try XCTUnwrap(items.column(named: "id"))
        XCTAssertTrue(id.hasSearchIndex)
        let n = try items.count()
        let all = Bitset(count: n, filled: true)
        var found = 0
        for v in try items.values(id).prefix(40).map(QValue.init) + [.int(-1), .int(Int64.max), .null] {
            let d = DirectCondition(column: id, type: .int, op: .equal, value: v)
            let indexed = try XCTUnwrap(try Evaluator(table: items).indexLookup(d, all), "\(v) goes through the index")
            XCTAssertEqual(indexed, try Evaluator(table: items).scan(d, all), "id == \(v)")
            found += indexed.cardinality
        }
        XCTAssertEqual(found, 40)
    }

    /// The leaf markers set exactly the bits of the matching elements wherever the leaf's
    /// first bit falls in a word (the 64-at-a-time loop, its head and its tail), and no others.
    func testLeafMarkingAtEveryWordOffset() throws {
        let snapshot = try Snapshot(path: Fixtures.path("realm-core/large.realm"))
        let items = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Item"))
        let leaf = try XCTUnwrap(try items.leaves().first { $0.leaf.count > 130 }).leaf
        let quantity = try XCTUnwrap(items.column(named: "quantity")), score = try XCTUnwrap(items.column(named: "score"))
        let ints = try IntegerLeaf(snapshot, ref: XCTUnwrap(leaf.columnRef(quantity.leafIndex)), nullable: quantity.isNullable)
        let doubles = try FloatingLeaf(snapshot, ref: XCTUnwrap(leaf.columnRef(score.leafIndex)), float: false)
        // A range holding about half the leaf's values.
        let sorted = (0..<ints.count).map { ints[$0] }.sorted()
        let (lower, upper) = (sorted[sorted.count / 4], sorted[3 * sorted.count / 4])
        for first in [0, 1, 5, 63, 64, 65, 100, 127, 200] {
            var words = [UInt64](repeating: 0, count: (first + ints.count + 63) / 64 + 1)
            ints.markRange(lower, upper, outside: false, nullMatches: false, into: &words, first: first)
            var expected = [UInt64](repeating: 0, count: words.count)
            for i in 0..<ints.count where (lower...upper).contains(ints[i]) { expected[(first + i) / 64] |= 1 << UInt64((first + i) % 64) }
            XCTAssertEqual(words, expected, "ints from bit \(first)")
            XCTAssertTrue(words.contains { $0 != 0 })

            words = [UInt64](repeating: 0, count: words.count)
            doubles.mark(.less, 50, nullMatches: false, into: &words, first: first)
            expected = [UInt64](repeating: 0, count: words.count)
            for i in 0..<doubles.count where (doubles[i] ?? .nan) < 50 { expected[(first + i) / 64] |= 1 << UInt64((first + i) % 64) }
            XCTAssertEqual(words, expected, "doubles from bit \(first)")
        }
        // Words that end inside the leaf: the elements past them are not marked.
        var short = [UInt64](repeating: 0, count: 1)
        ints.markRange(.min, .max, outside: false, nullMatches: true, into: &short, first: 10)
        XCTAssertEqual(short, [~UInt64(0) << 10])
    }
}
