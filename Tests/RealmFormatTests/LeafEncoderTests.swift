import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// The leaf encoders (realm-format.md §9–§11): whatever the decoders read from a real file must
/// come back identical after encoding, laying out and decoding again; plus the edge rules.
final class LeafEncoderTests: XCTestCase {
    // MARK: - Helpers

    /// Value equality with floats, doubles and decimals compared by bit pattern (NaN included).
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case let (.float(x), .float(y)): return x.bitPattern == y.bitPattern
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.decimal(x), .decimal(y)):
            guard x == y else { return false }
            let bx = try? x.bidBits(), by = try? y.bidBits()
            return bx?.low == by?.low && bx?.high == by?.high
        case let (.list(x), .list(y)): return same(x, y)
        case let (.dictionary(x), .dictionary(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
        default: return a == b
        }
    }

    static func same(_ a: [Value], _ b: [Value]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    }

    /// First position where two value lists differ, for messages.
    static func difference(_ a: [Value], _ b: [Value]) -> String {
        if a.count != b.count { return "\(a.count) values became \(b.count)" }
        let i = a.indices.first { !same(a[$0], b[$0]) } ?? 0
        return "element \(i): \(a[i]) became \(b[i])"
    }

    /// Encodes a leaf, lays it out, decodes it.
    func leafRoundTrip(_ values: [Value], _ type: ColumnType, nullable: Bool = true,
                       context: Snapshot.LeafContext = .cluster) throws -> (TreeImage, [Value]) {
        let image = try TreeImage(try LeafEncoder.encode(values, type: type, nullable: nullable, context: context))
        let decoded = try image.snapshot.decodeLeaf(image.rootRef, type: type, nullable: nullable, context: context)
        XCTAssertTrue(Self.same(values, decoded), "\(type): " + Self.difference(values, decoded))
        return (image, decoded)
    }

    func collectionRoundTrip(_ values: [Value], _ type: ColumnType, nullable: Bool = true) throws -> TreeImage {
        let root = try XCTUnwrap(try LeafEncoder.encodeCollection(values, type: type, nullable: nullable))
        let image = try TreeImage(root)
        let decoded = try image.snapshot.decodeBPlusTree(image.rootRef, type: type, nullable: nullable)
        XCTAssertTrue(Self.same(values, decoded), "\(type) collection: " + Self.difference(values, decoded))
        return image
    }

    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
    static func str(_ s: String) -> Value { .string(Array(s.utf8)) }

    /// Leaves of a B+tree built by the encoder, in order.
    static func leaves(_ node: MutableNode) -> [MutableNode] {
        guard node.isInner else { return [node] }
        return (1..<(node.count - 1)).flatMap { leaves(node.loadedChild($0)!) }
    }

    /// §9.1: marker = largest value of the leaf's width, which no real value equals.
    static func checkMarkerRule(_ leaf: Node) -> String? {
        let values = leaf.ints()
        guard let marker = values.first else { return "no marker" }
        if leaf.width < 64 {
            let expected = leaf.width < 8 ? (Int64(1) << Int64(leaf.width)) - 1 : Int64.max >> Int64(64 - leaf.width)
            if marker != expected { return "marker \(marker) at width \(leaf.width)" }
        }
        if NodeWriting.minimalWidth(values) != leaf.width { return "width \(leaf.width) is not minimal" }
        return nil
    }


    // MARK: - Integers

    func testNullMarkerIsTheLargestValueOfTheWidth() throws {
        let cases: [([Int64?], width: Int, marker: Int64)] = [
            ([], 0, 0),
            ([nil, nil], 0, 0),
            ([0, nil], 1, 1),                                   // 0 alone fits width 0, but 0 is that width's marker
            ([1], 2, 3),
            ([3, nil], 4, 15),
            ([15], 8, 127),
            ((0...126).map { $0 }, 8, 127),
            ((0...127).map { $0 }, 16, 32767),                  // 127 present: one width wider
            ([-128, 126, nil], 8, 127),
            ([-129], 16, 32767),
            ([32767], 32, Int64(Int32.max)),
            ([Int64(Int32.max)], 64, Int64.max),
            ([Int64.max, Int64.max - 1, nil], 64, Int64.max - 2),
        ]
        for (values, width, marker) in cases {
            let leaf = LeafEncoder.nullableIntLeaf(values)
            let image = try TreeImage(leaf)
            let node = try image.root
            XCTAssertEqual(node.width, width, "\(values.prefix(4))…")
            XCTAssertEqual(node.int(0), marker, "\(values.prefix(4))…")
            XCTAssertEqual(node.count, values.count + 1)
            let decoded = try image.snapshot.decodeLeaf(image.rootRef, type: .int, nullable: true, context: .cluster)
            XCTAssertEqual(decoded, values.map { $0.map(Value.int) ?? .null })
        }
    }

    func testPlainIntsAndBoolsUseMinimalWidths() throws {
        let (ints, _) = try leafRoundTrip([.int(0), .int(3), .int(200)], .int, nullable: false)
        XCTAssertEqual(try ints.root.width, 16)
        let (zeros, _) = try leafRoundTrip([.int(0), .int(0)], .int, nullable: false)
        XCTAssertEqual(try zeros.root.width, 0)
        let (bools, _) = try leafRoundTrip([.bool(true), .bool(false), .null], .bool)
        XCTAssertEqual(try bools.root.ints(), [1, 0, 3])
        XCTAssertEqual(try bools.root.width, 2)
        let (allFalse, _) = try leafRoundTrip([.bool(false), .bool(false)], .bool, nullable: false)
        XCTAssertEqual(try allFalse.root.width, 0)
        XCTAssertThrowsError(try LeafEncoder.encode([.null], type: .int, nullable: false, context: .cluster))
        XCTAssertThrowsError(try LeafEncoder.encode([.null], type: .bool, nullable: false, context: .cluster))
        XCTAssertThrowsError(try LeafEncoder.encode([Self.str("1")], type: .int, nullable: true, context: .cluster))
    }

    // MARK: - Strings and binaries

    func testStringFormThresholds() throws {
        func form(_ length: Int) throws -> Node {
            let values: [Value] = [.string(Array(repeating: 0x61, count: length)), Self.str("x"), .string([]), .null]
            return try leafRoundTrip(values, .string).0.root
        }
        let short15 = try form(15)
        XCTAssertFalse(short15.hasRefs)
        XCTAssertEqual(short15.header.widthType, .multiply)
        XCTAssertEqual(short15.width, 16)
        let medium16 = try form(16)
        XCTAssertTrue(medium16.hasRefs)
        XCTAssertFalse(medium16.context)
        XCTAssertEqual(medium16.count, 3)
        let medium63 = try form(63)
        XCTAssertTrue(medium63.hasRefs)
        XCTAssertFalse(medium63.context)
        let big64 = try form(64)
        XCTAssertTrue(big64.hasRefs)
        XCTAssertTrue(big64.context)
        XCTAssertEqual(big64.count, 4)
        XCTAssertNil(big64.ref(3), "null is 0 in the big form")
        XCTAssertNotNil(big64.ref(2), "\"\" is a blob holding only the terminator")

        // Short-form width: the smallest power of two ≥ longest + 1.
        for (length, width) in [(0, 1), (1, 2), (2, 4), (3, 4), (4, 8), (7, 8), (8, 16), (15, 16)] {
            let node = try leafRoundTrip([.string(Array(repeating: 0x62, count: length))], .string).0.root
            XCTAssertEqual(node.width, width, "length \(length)")
        }
        XCTAssertEqual(try leafRoundTrip([.null, .null], .string).0.root.width, 0, "all null: width 0")
    }

    func testMediumAndBigStringsCarryTheirTerminator() throws {
        let image = try leafRoundTrip([Self.str(String(repeating: "m", count: 20)), .null, .string([])], .string).0
        let root = try image.root
        let offsets = try image.node(try XCTUnwrap(root.ref(0)))
        let blob = try image.node(try XCTUnwrap(root.ref(1)))
        let nulls = try image.node(try XCTUnwrap(root.ref(2)))
        XCTAssertEqual(offsets.ints(), [21, 22, 23])
        XCTAssertEqual(Array(blob.payloadBytes()), Array(repeating: 0x6D, count: 20) + [0, 0, 0])
        XCTAssertEqual(nulls.ints(), [0, 1, 0])
        let big = try leafRoundTrip([Self.str(String(repeating: "b", count: 70))], .string).0
        XCTAssertEqual(try big.snapshot.decodeBlob(try XCTUnwrap(try big.root.ref(0))).last, 0)
        XCTAssertEqual(try big.snapshot.decodeBlob(try XCTUnwrap(try big.root.ref(0))).count, 71)
    }

    func testNulBytesInShortStrings() throws {
        let values: [Value] = [.string([0]), .string([0, 0, 0]), .string([0x61, 0, 0x62]), .string([]), .null, .string([0x61, 0])]
        let node = try leafRoundTrip(values, .string).0.root
        XCTAssertFalse(node.hasRefs, "short form")
        XCTAssertEqual(node.width, 4)
    }

    func testEmptyAndNullStayDistinctInEveryForm() throws {
        for filler in [0, 20, 70] {
            var values: [Value] = [.null, .string([]), .null, .string([])]
            if filler > 0 { values.append(.string(Array(repeating: 0x7A, count: filler))) }
            _ = try leafRoundTrip(values, .string)
            _ = try collectionRoundTrip(values, .string)
        }
        for filler in [0, 64, 65, 70_001] {
            var values: [Value] = [.null, .binary([]), .null, .binary([]), .binary([0, 0])]
            if filler > 0 { values.append(.binary(Array(repeating: 0x7A, count: filler))) }
            let node = try leafRoundTrip(values, .binary).0.root
            XCTAssertEqual(node.context, filler > 64, "binary of \(filler) bytes")
        }
        XCTAssertThrowsError(try LeafEncoder.encode([.null], type: .string, nullable: false, context: .cluster))
    }

    func testSmallBinariesHaveNoTerminator() throws {
        let image = try leafRoundTrip([.binary([1, 2]), .null, .binary([])], .binary).0
        let root = try image.root
        XCTAssertEqual(try image.node(try XCTUnwrap(root.ref(0))).ints(), [2, 2, 2])
        XCTAssertEqual(try image.snapshot.decodeBlob(try XCTUnwrap(root.ref(1))), [1, 2])
    }

    // MARK: - Fixed-size values

    func testFloatsDoublesAndTheirNullPatterns() throws {
        let floats: [Value] = [.float(1.5), .null, .float(.nan), .float(-0.0), .float(.infinity), .float(Float(bitPattern: 0x7FC0_0001))]
        let floatLeaf = try leafRoundTrip(floats, .float).0.root
        XCTAssertEqual(floatLeaf.width, 4)
        XCTAssertEqual(floatLeaf.u32(at: 4), 0x7FC0_00AA)
        let doubles: [Value] = [.double(1.5), .null, .double(.nan), .double(-0.0), .double(-.infinity)]
        let doubleLeaf = try leafRoundTrip(doubles, .double).0.root
        XCTAssertEqual(doubleLeaf.u64(at: 8), 0x7FF8_0000_0000_00AA)
        XCTAssertThrowsError(try LeafEncoder.encode([.float(Float(bitPattern: 0x7FC0_00AA))], type: .float, nullable: true, context: .cluster))
        XCTAssertThrowsError(try LeafEncoder.encode([.double(Double(bitPattern: 0x7FF8_0000_0000_00AA))], type: .double, nullable: true, context: .cluster))
        XCTAssertThrowsError(try LeafEncoder.encode([.null], type: .double, nullable: false, context: .cluster))
    }

    func testDecimalsAreWidth16() throws {
        let values: [Value] = [
            .decimal(Decimal128(negative: false, coefficient: 15, exponent: -1)), .null,
            .decimal(Decimal128(kind: .nan, negative: false, coefficient: 0, exponent: 0)),
            .decimal(Decimal128(kind: .infinity, negative: true, coefficient: 0, exponent: 0)),
            .decimal(Decimal128(negative: true, coefficient: 0, exponent: 0)),
            .decimal(Decimal128(negative: false, coefficient: Decimal128.maxCoefficient, exponent: 6111)),
            .decimal(Decimal128(negative: false, coefficient: 1, exponent: -6176)),
        ]
        let node = try leafRoundTrip(values, .decimal).0.root
        XCTAssertEqual(node.width, 16)
        XCTAssertFalse(node.context)
        XCTAssertEqual(node.u64(at: 16), 0xAA)
        XCTAssertEqual(node.u64(at: 24), 0x7C00_0000_0000_0000)
        XCTAssertEqual(try Decimal128(negative: false, coefficient: 0, exponent: 0).bidBits().high, 0x3040_0000_0000_0000)
        XCTAssertThrowsError(try LeafEncoder.encode([.decimal(Decimal128(negative: false, coefficient: 1, exponent: 6112))],
                                                    type: .decimal, nullable: true, context: .cluster))
    }

    func testObjectIdsAndUUIDsInBlocksOfEight() throws {
        func objectId(_ i: Int) -> Value {
            let bytes: [UInt8] = (0..<12).map { j in UInt8(truncatingIfNeeded: j * 7 + i) }
            return .objectId(ObjectId(bytes: bytes))
        }
        let ids: [Value] = (0..<19).map { i in i % 5 == 2 ? Value.null : objectId(i) }
        let oidLeaf = try leafRoundTrip(ids, .objectId).0.root
        XCTAssertEqual(oidLeaf.count, 12 * 19 + 3, "bytes = 12n + ceil(n/8)")
        XCTAssertEqual(oidLeaf.byte(0), 0b1000_0100, "null bits of the first block")
        XCTAssertEqual((1...12).map { oidLeaf.byte(12 * 2 + $0) }, LeafEncoder.objectIdNull, "null sentinel")
        let uuids: [Value] = (0..<9).map { i in i == 8 ? .null : .uuid(UUID(bytes: (0..<16).map { UInt8($0 + i) })) }
        let uuidLeaf = try leafRoundTrip(uuids, .uuid).0.root
        XCTAssertEqual(uuidLeaf.count, 16 * 9 + 2)
        XCTAssertEqual(try leafRoundTrip([], .uuid).0.root.width, 0)
        XCTAssertThrowsError(try LeafEncoder.encode([.objectId(ObjectId(bytes: [1]))], type: .objectId, nullable: true, context: .cluster))
    }

    func testTimestamps() throws {
        let values: [Value] = [.timestamp(Timestamp(seconds: 0, nanoseconds: 0)), .null,
                               .timestamp(Timestamp(seconds: -1, nanoseconds: -999_999_999)),
                               .timestamp(Timestamp(seconds: Int64.max, nanoseconds: 999_999_999))]
        let image = try leafRoundTrip(values, .timestamp).0
        let seconds = try image.node(try XCTUnwrap(try image.root.ref(0)))
        XCTAssertNil(Self.checkMarkerRule(seconds))
        XCTAssertEqual(try image.node(try XCTUnwrap(try image.root.ref(1))).int(1), 0, "null row: nanoseconds 0")
        _ = try collectionRoundTrip(values, .timestamp)
    }

    // MARK: - Links

    func testLinksInClustersAndCollections() throws {
        let cluster = try leafRoundTrip([.link(0), .null, .link(41), .link(-43)], .link).0.root
        XCTAssertEqual(cluster.ints(), [1, 0, 42, -42], "ObjKey + 1, null 0 (§9.10)")
        let list = try leafRoundTrip([.link(0), .link(41)], .link, context: .collection).0.root
        XCTAssertEqual(list.ints(), [0, 41], "raw keys (§10.1)")
        XCTAssertThrowsError(try LeafEncoder.encode([.null], type: .link, nullable: true, context: .collection))
        XCTAssertFalse(try collectionRoundTrip([.link(1), .link(2)], .link).root.context)
        XCTAssertTrue(try collectionRoundTrip([.link(1), .link(-2)], .link).root.context, "unresolved link: context flag on the root")
        // The flag is on the root also when the tree has inner nodes, not on the leaves.
        let big = try XCTUnwrap(try LeafEncoder.encodeCollection((0..<1500).map { .link($0 == 1400 ? -7 : Int64($0)) }, type: .link, nullable: false))
        XCTAssertTrue(big.isInner && big.context)
        XCTAssertFalse(Self.leaves(big).contains { $0.context })
    }

    func testTypedLinks() throws {
        let values: [Value] = [.typedLink(table: TableKey(value: 3), key: 0), .null, .typedLink(table: TableKey(value: 0x10002), key: -2)]
        let node = try leafRoundTrip(values, .typedLink).0.root
        XCTAssertEqual(node.ints(), [4, 1, 0, 0, 0x10003, -1])
    }

    // MARK: - Mixed

    func testMixedPayloadsInRowOrder() throws {
        let values: [Value] = [
            .int(1), .int(-5), .int(1 << 40), .bool(true), .null, Self.str("hi"), .binary([0, 1]),
            .timestamp(Timestamp(seconds: 5, nanoseconds: 6)), .float(2.5), .double(-1), .double(.nan),
            .decimal(Decimal128(negative: true, coefficient: 12, exponent: -1)), .link(9),
            .objectId(ObjectId(bytes: Array(0..<12))), .typedLink(table: TableKey(value: 7), key: 8),
            .uuid(UUID(bytes: Array(100..<116))),
        ]
        let image = try leafRoundTrip(values, .mixed).0
        let root = try image.root
        XCTAssertEqual(root.count, 6)
        XCTAssertNil(root.ref(4), "no nested collections: no refs")
        XCTAssertNil(root.ref(5), "no nested collections: no keys")
        let composite = try image.node(try XCTUnwrap(root.ref(0))).ints()
        XCTAssertEqual(composite[0], 0x101)
        XCTAssertEqual(composite[1], -5 << 8 | 1)
        XCTAssertEqual(composite[2], 0x21, "first entry of ints")
        XCTAssertEqual(composite[5], 0x63)
        XCTAssertEqual(composite[6], 0x165)
        XCTAssertEqual(composite[8] & 0xFF, 0x2A)
        XCTAssertEqual(composite[14], 0x251, "typed link: third pair (after timestamp and decimal)")
        let strings = try image.snapshot.decodeStrings(try XCTUnwrap(root.ref(3)))
        XCTAssertEqual(strings.count, 4)
        XCTAssertEqual(strings[1], [0, 1])
        _ = try collectionRoundTrip(values, .mixed)
    }

    func testNestedMixedCollections() throws {
        let inner: Value = .dictionary([DictionaryEntry(key: Self.str("a"), value: .list([.int(1), .list([])])),
                                        DictionaryEntry(key: Self.str("b"), value: .dictionary([])),
                                        DictionaryEntry(key: Self.str("c"), value: .null)])
        let values: [Value] = [
            .list([.int(1), .list([]), inner, .list([Self.str("deep"), .list([.double(2)])])]),
            inner, .list([]), .dictionary([]), .int(5), .null,
        ]
        let image = try leafRoundTrip(values, .mixed).0
        let keys = try image.node(try XCTUnwrap(try image.root.ref(5))).ints()
        XCTAssertEqual(keys, [1, 2, 3, 4, 0, 0], "distinct non-zero ids for nested collections only")
        let refs = try image.node(try XCTUnwrap(try image.root.ref(4)))
        XCTAssertEqual(refs.count, 4)
        XCTAssertNil(refs.ref(2), "an empty nested list is ref 0")
        XCTAssertNil(refs.ref(3), "an empty nested dictionary is ref 0")

        // Ids are unique over a whole List<Mixed> B+tree, not per leaf.
        let many: [Value] = (0..<2500).map { $0 % 3 == 0 ? .list([.int(Int64($0))]) : .int(Int64($0)) }
        let tree = try XCTUnwrap(try LeafEncoder.encodeCollection(many, type: .mixed, nullable: true))
        let ids = Self.leaves(tree).flatMap { $0.loadedChild(5)?.integers ?? [] }.filter { $0 != 0 }
        XCTAssertEqual(ids.count, 834)
        XCTAssertEqual(Set(ids).count, ids.count)
        _ = try collectionRoundTrip(many, .mixed)

        // Nesting is limited to 100 levels.
        var deep: Value = .int(1)
        for _ in 0..<100 { deep = .list([deep]) }
        XCTAssertNoThrow(try LeafEncoder.encode([deep], type: .mixed, nullable: true, context: .cluster))
        XCTAssertThrowsError(try LeafEncoder.encode([.list([deep])], type: .mixed, nullable: true, context: .cluster))
    }

    // MARK: - B+trees

    func testListsSplitAfter1000Elements() throws {
        let thousand = try collectionRoundTrip((0..<1000).map { .int(Int64($0)) }, .int, nullable: false)
        XCTAssertFalse(try thousand.root.isInner)
        XCTAssertEqual(try thousand.root.count, 1000)

        let image = try collectionRoundTrip((0..<1001).map { .int(Int64($0)) }, .int, nullable: false)
        let root = try image.root
        XCTAssertTrue(root.isInner && root.hasRefs)
        XCTAssertEqual(root.count, 4, "[T(E), leaf, leaf, T(size)]")
        XCTAssertEqual(root.tagged(0), 1000, "compact form: 1000 elements per child")
        XCTAssertEqual(root.tagged(3), 1001)
        XCTAssertEqual(try image.node(try XCTUnwrap(root.ref(1))).count, 1000)
        XCTAssertEqual(try image.node(try XCTUnwrap(root.ref(2))).ints(), [1000])

        // Every leaf of a nullable int list has its own marker.
        let nullable: [Value] = (0..<1001).map { $0 == 1000 ? .null : .int(Int64($0)) }
        let split = try collectionRoundTrip(nullable, .int)
        let leaves = try (1...2).map { try split.node(try XCTUnwrap(try split.root.ref($0))) }
        XCTAssertEqual(leaves.map { $0.int(0) }, [32767, 0])
        XCTAssertEqual(leaves.map(\.count), [1001, 2])

        for type in [ColumnType.string, .binary, .timestamp, .objectId, .double, .bool, .typedLink] {
            let values: [Value] = (0..<1001).map { i in
                switch type {
                case .string: return Self.str("s\(i)")
                case .binary: return .binary([UInt8(i & 0xFF)])
                case .timestamp: return .timestamp(Timestamp(seconds: Int64(i), nanoseconds: 0))
                case .objectId: return .objectId(ObjectId(bytes: Array(repeating: UInt8(i & 0xFF), count: 12)))
                case .double: return .double(Double(i))
                case .bool: return .bool(i % 2 == 0)
                default: return .typedLink(table: TableKey(value: 1), key: Int64(i))
                }
            }
            XCTAssertTrue(try collectionRoundTrip(values, type).root.isInner, "\(type)")
        }
        XCTAssertNil(try LeafEncoder.encodeCollection([], type: .int, nullable: false), "empty: ref 0")
    }

    func testDeepBPlusTree() throws {
        let count = 1_000_001
        let root = try XCTUnwrap(try LeafEncoder.encodeCollection((0..<count).map { .int(Int64($0 & 7)) }, type: .int, nullable: false))
        let image = try TreeImage(root)
        let node = try image.root
        XCTAssertEqual(node.count, 4)
        XCTAssertEqual(node.tagged(0), 1_000_000, "E = 1000^2 at depth 2")
        XCTAssertEqual(node.tagged(3), UInt64(count))
        let first = try image.node(try XCTUnwrap(node.ref(1)))
        XCTAssertEqual(first.count, 1002)
        XCTAssertEqual(first.tagged(1001), 1_000_000)
        let values = try image.snapshot.decodeBPlusTree(image.rootRef, type: .int, nullable: false)
        XCTAssertEqual(values.count, count)
        XCTAssertEqual(values.last, .int(Int64(1_000_000 & 7)))
    }

    // MARK: - Dictionaries

    func testDictionaries() throws {
        let entries = [("b", Value.int(2)), ("a", .null), ("é", Self.str("x")), ("B", .list([.int(1)])), ("a", .bool(true))]
            .map { DictionaryEntry(key: Self.str($0.0), value: $0.1) }
        let sorted = LeafEncoder.dictionaryOrder(entries)
        XCTAssertEqual(sorted.map(\.key), ["B", "a", "b", "é"].map(Self.str), "byte-wise UTF-8, one entry per key")
        XCTAssertEqual(sorted[1].value, .bool(true), "the later entry wins")
        XCTAssertThrowsError(try LeafEncoder.encodeDictionary(entries, keyType: 2), "unsorted keys")
        let image = try TreeImage(try XCTUnwrap(try LeafEncoder.encodeDictionary(sorted, keyType: 2)))
        XCTAssertTrue(Self.same(.dictionary(try image.snapshot.decodeDictionary(image.rootRef, keyType: 2, nesting: 0)), .dictionary(sorted)))

        let intKeys = LeafEncoder.dictionaryOrder([DictionaryEntry(key: .int(10), value: .int(1)), DictionaryEntry(key: .int(-3), value: .int(2))])
        let intImage = try TreeImage(try XCTUnwrap(try LeafEncoder.encodeDictionary(intKeys, keyType: 0)))
        XCTAssertEqual(try intImage.snapshot.decodeDictionary(intImage.rootRef, keyType: 0, nesting: 0), intKeys)

        let large = (0..<1200).map { DictionaryEntry(key: Self.str(String(format: "k%05d", $0)), value: $0 % 100 == 0 ? .list([]) : .int(Int64($0))) }
        let largeRoot = try XCTUnwrap(try LeafEncoder.encodeDictionary(large, keyType: 2))
        let largeImage = try TreeImage(largeRoot)
        XCTAssertEqual(try largeImage.snapshot.decodeDictionary(largeImage.rootRef, keyType: 2, nesting: 0), large)
        let ids = Self.leaves(try XCTUnwrap(largeRoot.loadedChild(1))).flatMap { $0.loadedChild(5)?.integers ?? [] }.filter { $0 != 0 }
        XCTAssertEqual(Set(ids).count, 12, "ids unique over the values B+tree")

        XCTAssertNil(try LeafEncoder.encodeDictionary([], keyType: 2))
        for bad in ["$a", "a.b"] {
            XCTAssertThrowsError(try LeafEncoder.encodeDictionary([DictionaryEntry(key: Self.str(bad), value: .null)], keyType: 2), bad)
        }
        XCTAssertThrowsError(try LeafEncoder.encodeDictionary([DictionaryEntry(key: .null, value: .null)], keyType: 2))
    }

    // MARK: - Backlinks

    func testBacklinkCells() throws {
        let rows: [[Int64]] = [[], [5], [1, 2, 3], Array(0..<1500), [0]]
        let image = try TreeImage(LeafEncoder.encodeBacklinks(rows))
        let root = try image.root
        XCTAssertTrue(root.hasRefs)
        XCTAssertEqual(root.int(0), 0)
        XCTAssertEqual(root.tagged(1), 5)
        XCTAssertEqual(root.tagged(4), 0)
        XCTAssertTrue(try image.node(try XCTUnwrap(root.ref(3))).isInner)
        XCTAssertEqual(try image.snapshot.decodeBacklinks(image.rootRef), rows)
    }

    // MARK: - Set order

    /// Every set of alltypes.realm: given in its stored order, setOrder keeps it; its elements
    /// shuffled (and some repeated) come back in exactly the stored order, or, for float and
    /// double sets with a NaN, in the order Realm's insertion of the shuffled elements makes;
    /// dictionaries likewise.
    func testSetOrderReproducesEverySetInAlltypes() throws {
        let snapshot = try Snapshot(path: Fixtures.path("realm-core/alltypes.realm"))
        var generator = SeededRandom(seed: 24)
        var sets = 0, dictionaries = 0
        for table in snapshot.tables {
            guard let root = table.clusterRef else { continue }
            var leaves = [ClusterLeaf]()
            try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaves.append($0) }
            for leaf in leaves {
                for column in table.columns where column.collection == .set || column.collection == .dictionary {
                    guard let ref = leaf.columnRef(column.leafIndex) else { continue }
                    let refs = try snapshot.node(ref)
                    for i in 0..<refs.count {
                        guard let r = refs.ref(i) else { continue }
                        let what = "\(table.name).\(column.name) row \(i)"
                        if column.collection == .dictionary {
                            let stored = try snapshot.decodeDictionary(r, keyType: column.dictionaryKeyType, nesting: 0)
                            let ordered = LeafEncoder.dictionaryOrder(stored.shuffled(using: &generator))
                            XCTAssertTrue(Self.same(.dictionary(ordered), .dictionary(stored)), what)
                            dictionaries += 1
                            continue
                        }
                        let stored = try snapshot.decodeBPlusTree(r, type: column.type, nullable: column.isNullable)
                        XCTAssertTrue(Self.same(LeafEncoder.setOrder(stored, type: column.type), stored), "\(what): stored order kept")
                        var input = stored.shuffled(using: &generator)
                        input += input.prefix(2)                       // duplicates are dropped
                        let ordered = LeafEncoder.setOrder(input, type: column.type)
                        XCTAssertEqual(ordered.count, stored.count, what)
                        if (column.type == .float || column.type == .double) && stored.contains(where: Self.isNaN) {
                            XCTAssertTrue(Self.same(ordered, StoredValueModel.realmInsertion(input)), "\(what): \(ordered) is not Realm's insertion order")
                            XCTAssertTrue(Self.same(Self.withoutNaN(ordered).sorted { LeafEncoder.setCompare($0, $1, type: .double) < 0 },
                                                    Self.withoutNaN(stored)), what)
                        } else {
                            XCTAssertTrue(Self.same(ordered, stored), "\(what): \(Self.difference(stored, ordered))")
                        }
                        sets += 1
                    }
                }
            }
        }
        print("set order: \(sets) sets and \(dictionaries) dictionaries of alltypes.realm reproduced")
        XCTAssertGreaterThanOrEqual(sets, 100)
        XCTAssertGreaterThanOrEqual(dictionaries, 100)
    }

    static func isNaN(_ v: Value) -> Bool {
        switch v {
        case let .float(f): return f.isNaN
        case let .double(d): return d.isNaN
        case let .decimal(d): return d.kind == .nan
        default: return false
        }
    }

    static func withoutNaN(_ values: [Value]) -> [Value] { values.filter { !isNaN($0) } }

    func testSetOrderRules() throws {
        let d = { (c: UInt128, e: Int) in Value.decimal(Decimal128(negative: false, coefficient: c, exponent: e)) }
        XCTAssertEqual(LeafEncoder.setOrder([d(150, -2), .null, d(15, -1), d(2, 0), .decimal(Decimal128(kind: .nan, negative: false, coefficient: 0, exponent: 0))], type: .decimal),
                       [.decimal(Decimal128(kind: .nan, negative: false, coefficient: 0, exponent: 0)), .null, d(150, -2), d(2, 0)],
                       "NaN, null, then by value; 1.50 = 1.5")
        // Floats and doubles: Realm's insertion under IEEE `<` (realm-core 14 set.hpp,
        // `Set<T>::insert` → `std::lower_bound`): −0.0 = 0.0 (the first stays); a NaN compares
        // false both ways, so it lands at the search's end and later elements around it.
        let doubles = LeafEncoder.setOrder([.double(1), .double(.nan), .double(-0.0), .null, .double(0), .double(-.infinity)], type: .double)
        XCTAssertTrue(Self.same(doubles, [.null, .double(-.infinity), .double(-0.0), .double(.nan), .double(1)]), "\(doubles)")
        XCTAssertTrue(Self.same(LeafEncoder.setOrder([.double(1), .double(0.5), .double(.nan)], type: .double),
                                [.double(.nan), .double(0.5), .double(1)]), "inserted last, a NaN goes first")
        XCTAssertTrue(Self.same(LeafEncoder.setOrder([.null, .float(3), .float(.nan)], type: .float), [.null, .float(3), .float(.nan)]),
                      "an ascending order with one NaN after the nulls is kept")
        XCTAssertTrue(Self.same(LeafEncoder.setOrder([.double(.nan), .double(.nan), .double(1)], type: .double), [.double(1), .double(.nan)]),
                      "one NaN")
        // Realm's search misses the 3 beyond the NaN and would store it twice; one 3 is kept.
        XCTAssertTrue(Self.same(LeafEncoder.setOrder([3, .nan, 1, 4, 3].map(Value.double), type: .double), [1, 4, .nan, 3].map(Value.double)))
        XCTAssertEqual(LeafEncoder.setOrder([Self.str("b"), Self.str("ab"), .null, Self.str("a"), .string([0xC3, 0xA9]), Self.str("B")], type: .string),
                       [.null, Self.str("B"), Self.str("a"), Self.str("ab"), Self.str("b"), .string([0xC3, 0xA9])])
        XCTAssertEqual(LeafEncoder.setOrder([.bool(true), .null, .bool(false)], type: .bool), [.null, .bool(false), .bool(true)])
        XCTAssertEqual(LeafEncoder.setOrder([.link(3), .link(-5), .link(0)], type: .link), [.link(-5), .link(0), .link(3)])
        XCTAssertEqual(LeafEncoder.setOrder([Self.str("a"), .int(2), .double(1.5), .bool(true), .null, .binary([0]), .int(1)], type: .mixed),
                       [.null, .bool(true), .int(1), .double(1.5), .int(2), Self.str("a"), .binary([0])])
        XCTAssertEqual(LeafEncoder.setOrder([.int(1), .double(1.0)], type: .mixed), [.int(1)], "1 and 1.0 are one Mixed element")
        // Exact decimal order where doubles would tie.
        let a = d(1_000_000_000_000_000_000_000_000_000_000_001, -33), b = d(1_000_000_000_000_000_000_000_000_000_000_002, -33)
        XCTAssertEqual(LeafEncoder.setOrder([b, a], type: .decimal), [a, b])
    }

    /// `MutableNode.compacted` (a finished cluster leaf's integer arrays packed in file form
    /// while they wait for the commit, issue #16) against the nodes as they were: every array
    /// encodes to the same bytes, at every width, unsigned or with a minimum width, alone or
    /// below a has-refs node, whose own slots stay.
    func testCompactedNodesEncodeAsTheirIntegerForm() {
        let cases: [[Int64]] = [[], [0, 0], [1, 0, 1], [3, 2], [15, 7], [-1, 127], [-129, 300], [40_000, -5],
                                [Int64(Int32.max) + 1], [Int64.min, Int64.max], (0..<256).map { $0 * 1_000_003 }]
        for values in cases {
            for (unsigned, minimum) in [(false, 0), (true, 0), (false, 32)] where !unsigned || values.allSatisfy({ $0 >= 0 }) {
                let plain = MutableNode(integers: values, unsigned: unsigned)
                plain.minimumWidth = minimum
                let packed = plain.compacted()
                XCTAssertEqual(packed.encoded(slots: packed.integers), plain.encoded(slots: values), "\(values) unsigned \(unsigned) min \(minimum)")
                XCTAssertEqual(packed.count, values.count)
            }
        }
        let parent = MutableNode(integers: [0, 0, 7], hasRefs: true)
        parent.setChild(0, MutableNode(integers: [5, 6, 7]))
        parent.setChild(1, LeafEncoder.timestampLeaf([Timestamp(seconds: 1, nanoseconds: 2), nil]))
        let expected = [parent.loadedChild(0)!.encoded(slots: [5, 6, 7]),
                        parent.loadedChild(1)!.loadedChild(0)!.encoded(slots: parent.loadedChild(1)!.loadedChild(0)!.integers)]
        XCTAssertTrue(parent.compacted() === parent, "a has-refs node stays")
        XCTAssertEqual(parent.integers, [0, 0, 7])
        let child = parent.loadedChild(0)!, grandchild = parent.loadedChild(1)!.loadedChild(0)!
        XCTAssertEqual([child.encoded(slots: child.integers), grandchild.encoded(slots: grandchild.integers)], expected)
        if case .image = child.storage {} else { XCTFail("the integer child is packed") }
    }
}
