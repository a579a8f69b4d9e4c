@testable import RealmFormat
import RealmTestSupport
import XCTest

/// `ByteStringTable`, the value list of an enumerated column while it is built: each distinct
/// string (and null) once, at the position it was first added, found again through its hash
/// table after any number of growths; realm-core's order of values for sorting the list.
final class ByteStringTableTests: XCTestCase {
    func testEachValueKeepsTheFirstPositionItWasGivenThroughGrowth() {
        var random = SeededRandom(seed: 2026)
        var table = ByteStringTable()
        var expected: [[UInt8]?: Int] = [:]
        var order: [[UInt8]?] = []
        for _ in 0..<20_000 {
            // Short and long values, empty strings, prefixes of each other, and null.
            let length = Int.random(in: 0...40, using: &random)
            let value: [UInt8]? = Int.random(in: 0..<500, using: &random) == 0
                ? nil : (0..<length).map { _ in UInt8.random(in: 0...3, using: &random) }
            let (p, inserted) = value.map { v in v.withUnsafeBufferPointer { table.insert($0) } } ?? table.insert(nil)
            if let known = expected[value] {
                XCTAssertFalse(inserted, "\(String(describing: value)) was added twice")
                XCTAssertEqual(p, known, "\(String(describing: value)) moved")
            } else {
                XCTAssertTrue(inserted)
                XCTAssertEqual(p, order.count, "a new value goes at the end")
                expected[value] = p
                order.append(value)
            }
        }
        XCTAssertEqual(table.count, order.count)
        XCTAssertGreaterThan(order.count, 1000, "the table grew many times")
        for (p, v) in order.enumerated() { XCTAssertEqual(table.value(p), v, "position \(p)") }
        XCTAssertEqual(table.nullPosition, order.firstIndex { $0 == nil })
    }

    /// Values of up to 16 bytes are found by their bytes packed in two words with the length
    /// (`ShortSlot`), longer ones through the byte buffer: around that boundary, with zero and
    /// 0xFF bytes (a value that is another plus trailing zeros, a value of all ones), each
    /// value still has exactly one position.
    func testValuesAroundTheShortKeyBoundaryKeepOnePositionEach() {
        var random = SeededRandom(seed: 16)
        var pool: [[UInt8]] = []
        for length in 0...20 {
            pool.append([UInt8](repeating: 0, count: length))
            pool.append([UInt8](repeating: 0xFF, count: length))
            for _ in 0..<60 {
                pool.append((0..<length).map { _ in [0, 0xFF, UInt8.random(in: 0...255, using: &random)][Int.random(in: 0..<3, using: &random)] })
            }
        }
        var table = ByteStringTable()
        var expected: [[UInt8]: Int] = [:]
        for _ in 0..<30_000 {
            let value = pool[Int.random(in: 0..<pool.count, using: &random)]
            let (p, inserted) = value.withUnsafeBufferPointer { table.insert($0) }
            if let known = expected[value] {
                XCTAssertEqual(p, known, "\(value) moved")
                XCTAssertFalse(inserted)
            } else {
                XCTAssertEqual(p, expected.count, "\(value): a new value goes at the end")
                XCTAssertTrue(inserted, "\(value) was taken for another value")
                expected[value] = p
            }
        }
        XCTAssertEqual(table.count, expected.count)
        XCTAssertEqual(expected.count, Set(pool).count, "every value of the pool was drawn")
        for (v, p) in expected { XCTAssertEqual(table.value(p), v) }

        // `sorted` orders by the first 16 bytes as two words and the length before any
        // byte-by-byte comparison: the same order as sorting by `precedes` alone, null first.
        _ = table.insert(nil)
        let plainOrder = (0..<table.count).sorted { table.precedes($0, $1) }
        let (sorted, rank) = table.sorted()
        XCTAssertEqual((0..<sorted.count).map { sorted.value($0) }, plainOrder.map { table.value($0) })
        XCTAssertEqual(plainOrder.enumerated().map { rank[$0.element] }, (0..<Int64(plainOrder.count)).map { $0 })
        XCTAssertEqual(sorted.nullPosition, 0)
    }

    /// A batch (`insert(_:batch:positions:)`, then `flush`) gives each value the position one
    /// `insert` after the other gives, in the order of the calls, with short, long and null
    /// values mixed and the table growing in the middle of a batch.
    func testBatchedLookupsGiveThePositionsOfSingleInserts() {
        var random = SeededRandom(seed: 1616)
        let pool: [[UInt8]?] = (0..<3000).map { i in
            i % 97 == 0 ? nil : (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...2, using: &random) * 0x7F }
        }
        var single = ByteStringTable(), batched = ByteStringTable()
        var batch = ByteStringTable.Batch()
        var expected: [Int64] = [], positions: [Int64] = []
        for round in 0..<40 {
            for _ in 0..<(round * 37 % 300) {
                let v = pool[Int.random(in: 0..<pool.count, using: &random)]
                expected.append(Int64((v.map { b in b.withUnsafeBufferPointer { single.insert($0) } } ?? single.insert(nil)).position))
                if let v { v.withUnsafeBufferPointer { batched.insert($0, batch: &batch, positions: &positions) } }
                else { batched.insert(nil, batch: &batch, positions: &positions) }
            }
            batched.flush(&batch, positions: &positions)
        }
        XCTAssertEqual(positions, expected)
        XCTAssertEqual(batched.count, single.count)
        XCTAssertGreaterThan(single.count, 1000)
        for p in 0..<single.count { XCTAssertEqual(batched.value(p), single.value(p), "position \(p)") }
        XCTAssertEqual(batched.nullPosition, single.nullPosition)
    }

    func testPrecedesIsRealmCoresStringOrderAndReorderingKeepsValues() {
        let values: [[UInt8]?] = [[0x62], nil, [], [0x61, 0x62], [0xC3, 0xA9], [0x61], [0x7F], [0x61, 0x00]]
        var table = ByteStringTable()
        for v in values { _ = v.map { b in b.withUnsafeBufferPointer { table.insert($0) } } ?? table.insert(nil) }
        let order = (0..<table.count).sorted { table.precedes($0, $1) }
        // Null first, then unsigned bytes with a prefix first (StringData::operator<).
        let sorted: [[UInt8]?] = [nil, [], [0x61], [0x61, 0x00], [0x61, 0x62], [0x62], [0x7F], [0xC3, 0xA9]]
        XCTAssertEqual(order.map { table.value($0) }, sorted)
        let reordered = ByteStringTable(table, order: order)
        XCTAssertEqual((0..<reordered.count).map { reordered.value($0) }, sorted)
        XCTAssertEqual(reordered.nullPosition, 0)
    }

    /// A table read as `ByteStrings` (how a value list is encoded, `EnumValueWriter.encode`)
    /// gives the leaf its values copied out give, in each leaf form: short, medium and big,
    /// with null first, in the middle or absent, and all null.
    func testTableAsByteStringsEncodesTheLeafOfItsValues() throws {
        let samples: [[[UInt8]?]] = [
            [Array("a".utf8), nil, [], Array("fifteen bytes..".utf8)],
            [nil, Array("sixteen bytes...".utf8), Array("x".utf8)],
            [Array(String(repeating: "m", count: 63).utf8), [], Array("b".utf8)],
            [Array(String(repeating: "B", count: 64).utf8), nil, Array("c".utf8)],
            [nil],
            [],
        ]
        for values in samples {
            var table = ByteStringTable()
            for v in values {
                if let v { _ = v.withUnsafeBufferPointer { table.insert($0) } } else { _ = table.insert(nil) }
            }
            XCTAssertEqual(table.longest, values.longest, "\(values)")
            XCTAssertEqual(table.byteCount, values.byteCount)
            let direct = try TreeImage(LeafEncoder.stringLeaf(of: table)).bytes
            let copied = try TreeImage(LeafEncoder.stringLeaf(values)).bytes
            XCTAssertEqual(direct, copied, "\(values)")
        }
    }
}
