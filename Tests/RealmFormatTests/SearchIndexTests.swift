import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// The general search index (realm-format.md §12, §13.10): lookups through every index of the
/// fixtures, indexes rebuilt by insertion compared with realm-core's node for node, and seeded
/// random insert/erase sequences checked against a model.
final class SearchIndexTests: XCTestCase {
    // MARK: key derivation (§12.3)

    func testKeyDerivationMatchesTheDocumentedExamples() {
        func key(_ v: Value, _ t: ColumnType, level: Int = 0) -> UInt32 {
            UInt32(bitPattern: IndexKey.key(IndexKey.bytes(of: v, columnType: t)!, offset: 4 * level))
        }
        XCTAssertEqual(key(.int(1), .int), 0x0100_0000)
        XCTAssertEqual(key(.int(47), .int), 0x2F00_0000)
        XCTAssertEqual(key(.int(47), .int, level: 1), 0)
        XCTAssertEqual(key(.int(47), .int, level: 2), 0x5800_0000)
        XCTAssertEqual(key(.int(47), .int, level: 3), 0)
        XCTAssertEqual(key(.string([]), .string), 0x5800_0000)
        XCTAssertEqual(key(.string([0]), .string), 0x0058_0000)
        XCTAssertEqual(key(.string(Array("John".utf8)), .string), 0x4A6F_686E)
        XCTAssertEqual(key(.string(Array("Beatles".utf8)), .string), 0x4265_6174)
        XCTAssertEqual(key(.string(Array("Beatles".utf8)), .string, level: 1), 0x6C65_7358)
        XCTAssertEqual(key(.null, .string), 0)
        XCTAssertEqual(key(.bool(true), .bool), key(.int(1), .int))
        XCTAssertEqual(IndexKey.bytes(of: .double(3.0), columnType: .mixed), IndexKey.bytes(of: .int(3), columnType: .mixed))
        XCTAssertEqual(IndexKey.bytes(of: .double(0.5), columnType: .mixed), .bytes(withUnsafeBytes(of: (0.5).bitPattern.littleEndian, Array.init)))
        XCTAssertNil(IndexKey.bytes(of: .int(1), columnType: .string))
        // A first byte ≥ 0x80 makes a negative key, which sorts first.
        XCTAssertLessThan(IndexKey.key(.bytes([0xC3, 0xA9]), offset: 0), IndexKey.key(.bytes([0x41]), offset: 0))
    }

    // MARK: fixtures

    /// Every general index on a plain column of a readable, unencrypted fixture. The two
    /// node-size-4 files are left out: their cluster keys need the test build's shift (§19 item 3).
    static func indexedColumns() throws -> [IndexedColumn] {
        var out = [IndexedColumn]()
        for path in Fixtures.allRealmFiles() where !Fixtures.isEncrypted(path) {
            let name = (path as NSString).lastPathComponent
            guard !VerifierTests.nodeSize4Files.contains(name) else { continue }
            let snapshot: Snapshot
            do { snapshot = try Snapshot(path: path) } catch .unsupportedFormat { continue }
            for table in snapshot.tables {
                for column in table.columns where SearchIndexVerifier.isCheckable(column) {
                    let values = try SearchIndexVerifier.columnValues(snapshot: snapshot, table: table, column: column)
                    out.append(IndexedColumn(file: name, snapshot: snapshot, table: table, column: column, values: values))
                }
            }
        }
        return out
    }

    /// `IndexNode.lowerBound` (interpolation guess, gallop, binary search) gives the plain
    /// binary search's position on every index node of every fixture, for each key the node
    /// holds, the keys between and around them, and the int32 extremes.
    func testIndexNodeLowerBoundAgreesWithABinarySearch() throws {
        var nodes = 0, probes = 0
        for c in try Self.indexedColumns() {
            let reader = SearchIndexReader(snapshot: c.snapshot, rootRef: c.column.searchIndexRef!)
            var pending = [c.column.searchIndexRef!]
            while let ref = pending.popLast() {
                let node = try reader.indexNode(ref)
                nodes += 1
                let keys = (0..<node.keyCount).map { Int32(truncatingIfNeeded: node.key($0)) }
                var tries: [Int32] = [.min, .max, 0]
                for k in keys { tries += [k, k &- 1, k &+ 1] }
                for key in tries {
                    let expected = keys.firstIndex { $0 >= key } ?? keys.count
                    XCTAssertEqual(node.lowerBound(key), expected, "\(c.description) node \(ref) key \(key)")
                    probes += 1
                }
                for i in 0..<node.keyCount {
                    if node.isInner {
                        pending.append(try node.childRef(i))
                    } else if case let .subIndex(sub) = try reader.leafEntry(node, i) {
                        pending.append(sub)
                    }
                }
            }
        }
        XCTAssertGreaterThan(nodes, 100)
        print("lowerBound: \(probes) keys on \(nodes) index nodes")
    }

    func testEveryFixtureIndexFindsExactlyTheObjectsWithEachValue() throws {
        let columns = try Self.indexedColumns()
        for c in columns {
            let reader = SearchIndexReader(snapshot: c.snapshot, rootRef: c.column.searchIndexRef!)
            try checkLookups(reader, type: c.column.type, values: c.values, c.description)
            let problems = SearchIndexVerifier.verify(snapshot: c.snapshot, rootRef: reader.rootRef,
                                                      columnType: c.column.type, values: c.values)
            XCTAssertEqual(problems, [], c.description)
            XCTAssertEqual(try reader.allEntries().count, c.values.count, c.description)
        }
        let names = Set(columns.map(\.description))
        for expected in ["large.realm class_Item.id", "large.realm class_Item.category", "large.realm class_Bucket.name",
                         "basic.realm class_Person.name", "alltypes.realm class_AllTypes.indexedString",
                         "alltypes.realm class_AllTypes.indexedInt", "alltypes.realm class_AllTypes._id",
                         "alltypes.realm class_UUIDPK._id", "churn.realm class_Note.id", "schema_v3.realm class_Category.title",
                         "sync-metadata-v6.realm class_AppMetadata.id", "test_upgrade_database_1000_23.realm table2.mixed",
                         "test_upgrade_database_1000_23.realm table.id"] {
            XCTAssertTrue(names.contains(expected), "\(expected) not among \(names.sorted())")
        }
        print("search index lookups checked on \(columns.count) fixture indexes, \(columns.reduce(0) { $0 + $1.values.count }) objects")
    }

    /// Indexes rebuilt by inserting every (value, ObjKey) in ascending ObjKey order answer the
    /// same lookups; where realm-core built its index in that order too, the trees agree node
    /// for node.
    func testIndexesBuiltByInsertionAnswerLikeTheFixturesAndMatchRealmsTrees() throws {
        var matches = [String](), differences = [String]()
        for c in try Self.indexedColumns() {
            var model = [Int64: Value]()
            for (k, v) in c.values { model[k] = v }
            let writer = SearchIndexWriter(columnType: c.column.type) { k throws(FormatError) in
                guard let v = model[k] else { throw .corrupt(offset: 0, reason: "no object \(k)") }
                return v
            }
            var root = SearchIndexWriter.makeEmpty()
            for (k, v) in c.values { root = try writer.insert(v, objKey: k, into: root) }
            let built = try LaidOutIndex(root)
            XCTAssertEqual(SearchIndexVerifier.verify(snapshot: built.snapshot, rootRef: built.rootRef, columnType: c.column.type,
                                                      values: c.values, requireValueOrder: true), [], c.description)
            try checkLookups(built.reader, type: c.column.type, values: c.values, "rebuilt \(c.description)")
            if let difference = try IndexTreeComparison.difference(built.reader, SearchIndexReader(snapshot: c.snapshot, rootRef: c.column.searchIndexRef!)) {
                differences.append("\(c.description): \(difference)")
            } else {
                matches.append(c.description)
            }
        }
        print("rebuilt indexes identical to the fixture's node for node (\(matches.count)):\n  " + matches.joined(separator: "\n  "))
        print("rebuilt indexes that differ (\(differences.count)):\n  " + differences.joined(separator: "\n  "))
        // large.realm was written in 6 transactions of increasing keys: realm-core inserted
        // in ObjKey order, so its trees (leaf splits, compact duplicate lists) must reappear.
        for name in ["large.realm class_Item.id", "large.realm class_Item.category", "large.realm class_Bucket.name",
                     "basic.realm class_Person.name"] {
            XCTAssertTrue(matches.contains(name), "\(name) differs: \(differences.filter { $0.hasPrefix(name) })")
        }
    }

    /// The REALM_MAX_BPNODE_SIZE=4 fixtures, read with that build's cluster shift (2 × depth,
    /// §19 item 3): every index verifies against its column, and `table.id` of the format-23
    /// file (40 int keys: ten 4-key leaves under two levels of inner nodes, so inner splits
    /// too) is rebuilt node for node by inserting in key order with 4-key nodes.
    func testNodeSize4FixturesAgreeWithTheirIndexesAndInnerSplitsMatchRealm() throws {
        var identical = [String]()
        for name in VerifierTests.nodeSize4Files.sorted() + ["test_upgrade_database_4_22.realm"] {
            let snapshot = try Snapshot(path: Fixtures.path("realm-core-tests/" + name))
            for table in snapshot.tables {
                for column in table.columns where SearchIndexVerifier.isCheckable(column) {
                    let what = "\(name) \(table.name).\(column.name)"
                    let values = try Self.clusterValues(snapshot, table, column, shiftPerDepth: 2)
                    let fixture = SearchIndexReader(snapshot: snapshot, rootRef: try XCTUnwrap(column.searchIndexRef))
                    XCTAssertEqual(SearchIndexVerifier.verify(snapshot: snapshot, rootRef: fixture.rootRef, columnType: column.type,
                                                              values: values, maxNodeSize: 4), [], what)
                    try checkLookups(fixture, type: column.type, values: values, what)
                    var model = [Int64: Value]()
                    for (k, v) in values { model[k] = v }
                    let writer = SearchIndexWriter(columnType: column.type, maxNodeSize: 4) { k throws(FormatError) in model[k] ?? .null }
                    var root = SearchIndexWriter.makeEmpty()
                    for (k, v) in values { root = try writer.insert(v, objKey: k, into: root) }
                    if try IndexTreeComparison.difference(try LaidOutIndex(root).reader, fixture) == nil { identical.append(what) }
                }
            }
        }
        XCTAssertTrue(identical.contains("test_upgrade_database_4_23.realm table.id"), "\(identical)")
        XCTAssertTrue(identical.contains("test_upgrade_database_4_10_to_11.realm table.id"), "\(identical)")
    }

    /// (ObjKey, value) of every object, in key order, for a cluster tree whose compact inner
    /// nodes use `shiftPerDepth` × depth (8 in production builds, 2 in node-size-4 builds).
    static func clusterValues(_ snapshot: Snapshot, _ table: Table, _ column: Column,
                              shiftPerDepth: UInt64) throws -> [(objKey: Int64, value: Value)] {
        var out = [(objKey: Int64, value: Value)]()
        func visit(_ ref: Int, base: UInt64, depth: Int) throws {
            XCTAssertLessThan(depth, 16)
            let node = try snapshot.node(ref)
            guard node.isInner else {
                let first = node.int(0)
                var keys = [UInt64]()
                if first & 1 == 1 {
                    keys = Array(0..<(UInt64(bitPattern: first) >> 1))
                } else {
                    let k = try snapshot.node(Int(first))
                    keys = (0..<k.count).map { k.unsigned($0) }
                }
                let values = try snapshot.decodeLeaf(try XCTUnwrap(node.ref(column.leafIndex + 1)), type: column.type,
                                                     nullable: column.isNullable, context: .cluster,
                                                     enumValues: table.enumValuesRef(for: column))
                for (row, key) in keys.enumerated() { out.append((Int64(bitPattern: base + key), values[row])) }
                return
            }
            let level = try XCTUnwrap(node.tagged(1))
            let offsets = try node.ref(0).map { try snapshot.node($0) }
            for j in 0..<(node.count - 3) {
                let offset = offsets.map { $0.unsigned(j) } ?? (UInt64(j) << (shiftPerDepth * level))
                try visit(try XCTUnwrap(node.ref(3 + j)), base: base + offset, depth: depth + 1)
            }
        }
        try visit(try XCTUnwrap(table.clusterRef), base: 0, depth: 0)
        return out
    }

    // MARK: random sequences

    func testRandomInsertEraseSequencesAgreeWithAModel() throws {
        let longPrefix = [UInt8](repeating: 0x4C, count: 203)
        let scenarios: [(String, ColumnType, Int, (inout SplitMix64) -> Value)] = [
            ("ints with duplicates and nulls, 1000-key nodes", .int, 1000, { rng in
                switch rng.below(10) {
                case 0: return .null
                case 1, 2: return .int(Int64(rng.below(1 << 40)) - (1 << 39))
                default: return .int(Int64(rng.below(60)) - 20)
                }
            }),
            ("ints, 4-key nodes (leaf and inner splits)", .int, 4, { rng in
                rng.below(5) == 0 ? .int(Int64(rng.below(8))) : .int(Int64(rng.below(1 << 20)) * 977)
            }),
            ("strings with shared prefixes, long strings, nulls, 4-key nodes", .string, 4, { rng in
                Self.randomString(&rng, longPrefix: longPrefix)
            }),
            ("strings with shared prefixes, long strings, nulls, 1000-key nodes", .string, 1000, { rng in
                Self.randomString(&rng, longPrefix: longPrefix)
            }),
            ("Mixed numbers, bools and strings sharing index bytes, 5-key nodes", .mixed, 5, { rng in
                let n = Int64(rng.below(12)) - 3
                switch rng.below(7) {
                case 0: return .double(Double(n))
                case 1: return .double(Double(n) + 0.5)
                case 2: return .bool(rng.below(2) == 0)
                case 3: return .null
                case 4: return .string(Array("s\(n)".utf8))
                case 5: return .float(Float(n))
                default: return .int(n)
                }
            }),
            ("ObjectIds, 4-key nodes", .objectId, 4, { rng in
                var bytes = [UInt8](repeating: 0x65, count: 12)
                bytes[Int(rng.below(12))] = UInt8(rng.below(4))
                bytes[11] = UInt8(rng.below(256))
                return rng.below(15) == 0 ? .null : .objectId(ObjectId(bytes: bytes))
            }),
        ]
        for (index, (name, type, nodeSize, generate)) in scenarios.enumerated() {
            try runRandomSequence(name, type: type, maxNodeSize: nodeSize, seed: UInt64(index + 1) &* 0x9E37_79B9, generate: generate)
        }
    }

    /// The bulk builder (imports into empty tables, index rebuilds) gives node for node the
    /// tree that inserting the same entries one by one in index order gives: splits of leaves
    /// and inner nodes, duplicate lists and sub-indexes included.
    func testBuildingFromSortedEntriesGivesTheTreeOfOneByOneInsertion() throws {
        let longPrefix = [UInt8](repeating: 0x4C, count: 203)
        let scenarios: [(String, ColumnType, Int, Int, (inout SplitMix64) -> Value)] = [
            ("distinct ints, 4-key nodes", .int, 4, 700, { rng in .int(Int64(rng.below(1 << 40)) - (1 << 39)) }),
            ("ints with duplicates and nulls, 5-key nodes", .int, 5, 900, { rng in
                rng.below(8) == 0 ? .null : .int(Int64(rng.below(50)) * (rng.below(3) == 0 ? 1 << 33 : 1))
            }),
            ("sequential ints, 1000-key nodes", .int, 1000, 2500, { rng in .int(Int64(rng.next() % 1_000_000)) }),
            ("strings with shared prefixes, long strings, nulls, 4-key nodes", .string, 4, 600, { rng in
                Self.randomString(&rng, longPrefix: longPrefix)
            }),
            ("Mixed numbers, bools and strings, 5-key nodes", .mixed, 5, 500, { rng in
                let n = Int64(rng.below(12)) - 3
                switch rng.below(5) {
                case 0: return .double(Double(n) + 0.5)
                case 1: return .bool(rng.below(2) == 0)
                case 2: return .string(Array("s\(n)".utf8))
                default: return .int(n)
                }
            }),
        ]
        for (index, (name, type, nodeSize, count, generate)) in scenarios.enumerated() {
            var rng = SplitMix64(seed: UInt64(index + 11) &* 0x9E37_79B9)
            var model = [Int64: Value]()
            var entries: [(value: Value, key: Int64)] = []
            for k in 0..<Int64(count) {
                let value = generate(&rng)
                model[k * 3] = value
                entries.append((value, k * 3))
            }
            func levels(_ v: Value) -> (Int32, Int32) {
                let data = IndexKey.bytes(of: v, columnType: type)!
                return (IndexKey.key(data, offset: 0), IndexKey.key(data, offset: 4))
            }
            entries.sort { a, b in
                let (x, y) = (levels(a.value), levels(b.value))
                return x.0 != y.0 ? x.0 < y.0 : x.1 != y.1 ? x.1 < y.1 : a.key < b.key
            }
            let writer = SearchIndexWriter(columnType: type, maxNodeSize: nodeSize) { k throws(FormatError) in
                guard let v = model[k] else { throw .corrupt(offset: 0, reason: "no object \(k)") }
                return v
            }
            var inserted = SearchIndexWriter.makeEmpty()
            for e in entries { inserted = try writer.insert(e.value, objKey: e.key, into: inserted) }
            let built = try writer.build(sorted: entries)
            let (a, b) = (try LaidOutIndex(inserted), try LaidOutIndex(built))
            XCTAssertNil(try IndexTreeComparison.difference(a.reader, b.reader), name)
            let values = model.sorted { $0.key < $1.key }.map { (objKey: $0.key, value: $0.value) }
            XCTAssertEqual(SearchIndexVerifier.verify(snapshot: b.snapshot, rootRef: b.rootRef, columnType: type, values: values,
                                                      requireValueOrder: true, maxNodeSize: nodeSize), [], name)
            XCTAssertTrue(b.bytes.count > 1000, "\(name): a tree of several nodes was built")
            // Built through a permutation of unsorted entries: the same bytes.
            let shuffled = entries.indices.reversed().map { entries[$0] }
            let viaOrder = try writer.build(shuffled, order: Array(shuffled.indices.reversed()))
            XCTAssertEqual(try LaidOutIndex(viaOrder).bytes, b.bytes, "\(name): built through an order")
            XCTAssertThrowsError(try writer.build(shuffled, order: [0]), "\(name): an order of the wrong length")
            // Ints as plain arrays (a rebuilt primary-key index): the same bytes.
            if type == .int, !shuffled.contains(where: { $0.value == .null }) {
                let ints = shuffled.map { e -> Int64 in if case let .int(v) = e.value { return v } else { return 0 } }
                let viaInts = try writer.build(ints: ints, keys: shuffled.map(\.key), order: Array(shuffled.indices.reversed()), unique: false)
                XCTAssertEqual(try LaidOutIndex(viaInts).bytes, b.bytes, "\(name): built from plain int arrays")
            }
        }
        let empty = try SearchIndexWriter(columnType: .int) { _ throws(FormatError) in .null }.build(sorted: [])
        XCTAssertEqual(empty.count, 1, "no entries: an empty leaf")
        // A unique index refuses equal values, as insertion does.
        let twice: [(value: Value, key: Int64)] = [(.int(5), 1), (.int(5), 2)]
        let unique = SearchIndexWriter(columnType: .int) { k throws(FormatError) in .int(5) }
        XCTAssertThrowsError(try unique.build(sorted: twice, unique: true)) { error in
            guard case FormatError.duplicateKey(existing: 1) = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try unique.build(sorted: [(.int(1), 1), (.int(1 << 8), 2)]), "entries out of index order (level-0 keys: 0x01000000 before 0x00010000)")
    }

    /// The radix order of index entries is the comparison order (level-0 key, level-1 key,
    /// ObjKey), for batches in ObjKey order and not, below and above the radix threshold.
    func testIndexEntryOrderIsTheComparisonOrder() {
        var rng = SplitMix64(seed: 99)
        for (n, ascending) in [(10, true), (5000, true), (5000, false), (20000, true)] {
            var keys: [Int64] = (0..<Int64(n)).map { $0 * 3 }
            if !ascending { keys.reverse() }
            let levels: [(Int32, Int32)] = (0..<n).map { _ in
                (Int32(truncatingIfNeeded: Int64(rng.below(64)) - 32) &* 0x0101_0101,
                 rng.below(3) == 0 ? Int32(bitPattern: UInt32(truncatingIfNeeded: rng.next())) : 0)
            }
            let expected = (0..<n).sorted { a, b in
                levels[a].0 != levels[b].0 ? levels[a].0 < levels[b].0 : levels[a].1 != levels[b].1 ? levels[a].1 < levels[b].1 : keys[a] < keys[b]
            }
            XCTAssertEqual(IndexEntryOrder.permutation(levelKeys: levels, objKeys: keys), expected, "\(n) entries, ascending keys: \(ascending)")
        }
    }

    static func randomString(_ rng: inout SplitMix64, longPrefix: [UInt8]) -> Value {
        let prefixes: [[UInt8]] = ["", "a", "ab", "abc", "abcd", "abcde", "shared-prefix-", "shared-prefix-x", "\u{e9}t\u{e9}"]
            .map { Array($0.utf8) }
        switch rng.below(12) {
        case 0: return .null
        case 1: return .string(longPrefix + [UInt8(0x61 + rng.below(3))])               // > 200 shared bytes
        case 2: return .string(longPrefix.prefix(196 + Int(rng.below(8))) + [UInt8(0x61 + rng.below(2))])
        default:
            var s = prefixes[Int(rng.below(UInt64(prefixes.count)))]
            for _ in 0..<rng.below(4) { s.append(UInt8(0x61 + rng.below(3))) }
            return .string(s)
        }
    }

    func runRandomSequence(_ name: String, type: ColumnType, maxNodeSize: Int, seed: UInt64,
                           generate: (inout SplitMix64) -> Value) throws {
        var rng = SplitMix64(seed: seed)
        var model = [Int64: Value]()
        var nextKey: Int64 = 0
        let writer = SearchIndexWriter(columnType: type, maxNodeSize: maxNodeSize) { k throws(FormatError) in
            guard let v = model[k] else { throw .corrupt(offset: 0, reason: "no object \(k)") }
            return v
        }
        var root = SearchIndexWriter.makeEmpty()
        var counts = (inserts: 0, erases: 0, updates: 0)
        for batch in 0..<12 {
            for _ in 0..<250 {
                let keys = model.isEmpty ? [] : Array(model.keys)
                switch (rng.below(8), keys.isEmpty) {
                case (0...3, _), (_, true):
                    let key = nextKey
                    nextKey += 1 + Int64(rng.below(3))
                    let value = generate(&rng)
                    model[key] = value
                    root = try writer.insert(value, objKey: key, into: root)
                    counts.inserts += 1
                case (4...5, false):
                    let key = keys[Int(rng.below(UInt64(keys.count)))]
                    root = try writer.erase(model[key]!, objKey: key, from: root)
                    model[key] = nil
                    counts.erases += 1
                default:
                    let key = keys[Int(rng.below(UInt64(keys.count)))]
                    let value = generate(&rng)
                    guard ValueOrder.compare(value, model[key]!) != 0 else { continue }   // Realm skips unchanged values
                    root = try writer.erase(model[key]!, objKey: key, from: root)
                    model[key] = value
                    root = try writer.insert(value, objKey: key, into: root)
                    counts.updates += 1
                }
            }
            let values = model.sorted { $0.key < $1.key }.map { (objKey: $0.key, value: $0.value) }
            let laid = try LaidOutIndex(root)
            let problems = SearchIndexVerifier.verify(snapshot: laid.snapshot, rootRef: laid.rootRef, columnType: type,
                                                      values: values, requireValueOrder: true, maxNodeSize: maxNodeSize)
            XCTAssertEqual(problems, [], "\(name), batch \(batch)")
            try checkLookups(laid.reader, type: type, values: values, "\(name), batch \(batch)")
            if !problems.isEmpty { return }
        }
        for key in model.keys.sorted() {
            root = try writer.erase(model[key]!, objKey: key, from: root)
            model[key] = nil
        }
        XCTAssertFalse(root.isInner, "\(name): an emptied index is a leaf")
        XCTAssertEqual(root.count, 1, "\(name): an emptied index has no entries")
        print("\(name): \(counts.inserts) inserts, \(counts.erases) erases, \(counts.updates) updates")
    }

    // MARK: write transactions

    /// Erasing every object of an index and inserting them again in key order, committed
    /// through a write transaction: the file verifies (space accounting and index content)
    /// and the index is realm-core's again.
    func testRebuildingIndexesInAWriteTransactionCommitsAValidFile() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (file, table, column) in [("basic.realm", "class_Person", "name"), ("large.realm", "class_Item", "category")] {
            let path = dir + "/" + file
            try FileManager.default.copyItem(atPath: Fixtures.path("realm-core/" + file), toPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            let before = try Snapshot(path: path)
            let t = try XCTUnwrap(before.table(named: table))
            let c = try XCTUnwrap(t.column(named: column))
            let values = try SearchIndexVerifier.columnValues(snapshot: before, table: t, column: c)
            var model = [Int64: Value]()
            for (k, v) in values { model[k] = v }

            let txn = try WriteTransaction(path: path)
            let tables = try XCTUnwrap(txn.child(txn.top, 1))
            let tableTop = try XCTUnwrap(txn.child(tables, t.position))
            let indexes = try XCTUnwrap(txn.child(tableTop, 4))
            var root = try XCTUnwrap(txn.child(indexes, c.leafIndex))
            let writer = SearchIndexWriter(columnType: c.type, nodes: txn) { k throws(FormatError) in
                guard let v = model[k] else { throw .corrupt(offset: 0, reason: "no object \(k)") }
                return v
            }
            // Basic: everything out and back in. Large: a sample of objects out and back in.
            let sample = file == "basic.realm" ? values : values.enumerated().filter { $0.offset % 997 == 0 }.map(\.element)
            for (k, v) in sample.reversed() { root = try writer.erase(v, objKey: k, from: root) }
            if file == "basic.realm" { XCTAssertEqual(root.count, 1, "emptied") }
            for (k, v) in sample { root = try writer.insert(v, objKey: k, into: root) }
            indexes[c.leafIndex] = 0
            indexes.setChild(c.leafIndex, root)
            try txn.commit()

            let after = try Snapshot(path: path)
            let report = Verifier.verify(after)
            XCTAssertTrue(report.isOK, "\(file): " + report.problems.prefix(5).map(\.description).joined(separator: "\n"))
            let ref = try XCTUnwrap(after.table(named: table)?.column(named: column)?.searchIndexRef)
            try checkLookups(SearchIndexReader(snapshot: after, rootRef: ref), type: c.type, values: values, file)
            if file == "basic.realm" {
                XCTAssertNil(try IndexTreeComparison.difference(SearchIndexReader(snapshot: after, rootRef: ref),
                                                                SearchIndexReader(snapshot: before, rootRef: c.searchIndexRef!)))
            }
        }
    }

    /// The verifier checks index content: an entry naming the wrong object is reported.
    func testTheVerifierReportsAStaleIndexEntry() throws {
        var bytes = try VerifierTests.bytes(of: Fixtures.path("realm-core/basic.realm"))
        let snapshot = try VerifierTests.open(bytes)
        XCTAssertTrue(Verifier.verify(snapshot).isOK)
        let column = try XCTUnwrap(snapshot.table(named: "class_Person")?.column(named: "name"))
        let reader = SearchIndexReader(snapshot: snapshot, rootRef: try XCTUnwrap(column.searchIndexRef))
        let root = try reader.indexNode(reader.rootRef)
        XCTAssertFalse(root.isInner)
        let slot = try XCTUnwrap((1..<root.slots.count).first { root.slots.int($0) & 1 == 1 })
        let objKey = root.slots.int(slot) >> 1
        try VerifierTests.setElement(&bytes, node: reader.rootRef, index: slot, to: (objKey == 0 ? 1 : 0) << 1 | 1)
        let report = Verifier.verify(try VerifierTests.open(bytes))
        XCTAssertFalse(report.isOK)
        XCTAssertTrue(report.problems.allSatisfy { $0.message.contains("column 'name' search index") }, "\(report.problems)")
        XCTAssertTrue(report.problems.contains { $0.message.contains("object \(objKey)") && $0.message.contains("is missing") },
                      "\(report.problems)")
    }

    // MARK: hostile input

    func testHostileIndexesThrowInsteadOfTrapping() throws {
        var model = [Int64: Value]()
        var root = SearchIndexWriter.makeEmpty()
        let writer = SearchIndexWriter(columnType: .string, maxNodeSize: 4) { k throws(FormatError) in model[k] ?? .null }
        for k in 0..<200 {
            let v = Value.string(Array("value-\(k % 37)-\(k % 5)".utf8))
            model[Int64(k)] = v
            root = try writer.insert(v, objKey: Int64(k), into: root)
        }
        let laid = try LaidOutIndex(root)
        let clean = laid.bytes
        var rng = SplitMix64(seed: 42)
        var errors = 0
        for _ in 0..<150 {
            var bytes = clean
            for _ in 0..<1 + Int(rng.below(4)) {
                bytes[24 + Int(rng.below(UInt64(bytes.count - 24)))] ^= UInt8(1 << rng.below(8))
            }
            let snapshot = try Snapshot(image: ByteImage(bytes: bytes))
            let reader = SearchIndexReader(snapshot: snapshot, rootRef: laid.rootRef)
            do {
                _ = try reader.allEntries()
                for k in 0..<40 { _ = try reader.find(model[Int64(k)]!, columnType: .string) { key throws(FormatError) in model[key] ?? .null } }
                _ = SearchIndexVerifier.verify(snapshot: snapshot, rootRef: laid.rootRef, columnType: .string,
                                               values: model.map { ($0.key, $0.value) }, maxNodeSize: 4)
            } catch {
                errors += 1
            }
        }
        XCTAssertGreaterThan(errors, 0, "some flips must be detected")
        // A cycle: a sub-index entry pointing back at the root.
        var cyclic = clean
        let rootNode = try Node(image: ByteImage(bytes: clean), ref: laid.rootRef)
        if rootNode.count >= 2 {
            let w = rootNode.width / 8
            for b in 0..<w { cyclic[laid.rootRef + 8 + w + b] = UInt8(truncatingIfNeeded: laid.rootRef >> (8 * b)) }
            let snapshot = try Snapshot(image: ByteImage(bytes: cyclic))
            XCTAssertThrowsError(try SearchIndexReader(snapshot: snapshot, rootRef: laid.rootRef).allEntries())
        }
    }

    // MARK: helpers

    /// Checks that `find` returns exactly the objects with each value (one lookup per distinct
    /// value, which covers every object) and nothing for values the column does not hold.
    func checkLookups(_ reader: SearchIndexReader, type: ColumnType, values: [(objKey: Int64, value: Value)],
                      _ what: String) throws {
        var valueOf = [Int64: Value](minimumCapacity: values.count)
        for (k, v) in values { valueOf[k] = v }
        let read: (Int64) throws(FormatError) -> Value = { k throws(FormatError) in
            guard let v = valueOf[k] else { throw .corrupt(offset: 0, reason: "the index holds \(k), which is no object") }
            return v
        }
        // Objects with equal values have equal index bytes: group by bytes, then by value.
        var groups = [IndexBytes: [(objKey: Int64, value: Value)]]()
        for (k, v) in values {
            guard let b = IndexKey.bytes(of: v, columnType: type) else {
                XCTFail("\(what): object \(k) holds an unindexable value")
                continue
            }
            groups[b, default: []].append((k, v))
        }
        var failures = 0
        for (_, group) in groups {
            let sorted = group.count == 1 ? group : group.sorted { a, b in
                let c = ValueOrder.compare(a.value, b.value)
                return c != 0 ? c < 0 : a.objKey < b.objKey
            }
            var start = 0
            while start < sorted.count {
                var end = start + 1
                while end < sorted.count && ValueOrder.compare(sorted[end].value, sorted[start].value) == 0 { end += 1 }
                let expected = sorted[start..<end].map(\.objKey)
                let found = try reader.find(sorted[start].value, columnType: type, readValue: read).sorted()
                if found != expected && failures < 5 {
                    XCTFail("\(what): find(\(SearchIndexVerifier.describe(sorted[start].value))) gave \(found.prefix(10)), expected \(expected.prefix(10))")
                    failures += 1
                }
                start = end
            }
        }
        let present = Set(groups.keys)
        for candidate in Self.absentCandidates(values.prefix(64).map(\.value), type: type)
        where IndexKey.bytes(of: candidate, columnType: type).map({ !present.contains($0) }) ?? false {
            let found = try reader.find(candidate, columnType: type, readValue: read)
            XCTAssertEqual(found, [], "\(what): find(\(SearchIndexVerifier.describe(candidate))) of an absent value")
        }
    }

    /// Values near the given ones (one byte more, less or changed), and null.
    static func absentCandidates(_ values: [Value], type: ColumnType) -> [Value] {
        var out: [Value] = [.null, .string(Array("no such value".utf8)), .int(0x1234_5678_9ABC)]
        for v in values {
            switch v {
            case let .int(i): out += [.int(i &+ 1), .int(i &- 1), .int(i ^ (1 << 40))]
            case let .bool(b): out.append(.bool(!b))
            case let .string(s): out += [.string(s + [0x7A]), .string(Array(s.dropLast())), .string([0x21] + s)]
            case let .timestamp(t): out += [.timestamp(Timestamp(seconds: t.seconds &+ 1, nanoseconds: t.nanoseconds))]
            case let .objectId(o): out.append(.objectId(ObjectId(bytes: o.bytes.dropLast() + [o.bytes.last! ^ 1])))
            case let .uuid(u): out.append(.uuid(UUID(bytes: u.bytes.dropLast() + [u.bytes.last! ^ 1])))
            default: break
            }
        }
        return out.filter { IndexKey.bytes(of: $0, columnType: type) != nil }
    }
}


/// One indexed column of a fixture with its values.
struct IndexedColumn {
    let file: String
    let snapshot: Snapshot
    let table: Table
    let column: Column
    let values: [(objKey: Int64, value: Value)]
    var description: String { "\(file) \(table.name).\(column.name)" }
}
