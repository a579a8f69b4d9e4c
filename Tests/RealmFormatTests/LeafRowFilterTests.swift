import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// `LeafRowFilter` removes rows from committed leaves byte by byte; these tests hold it to the
/// general path (`ColumnCells.decode(keeping:)` then `encode`): whenever it gives a leaf, that
/// leaf reads back as exactly the kept values, and on damaged leaves it gives nil or throws
/// `FormatError`, never traps.
final class LeafRowFilterTests: XCTestCase {
    /// Any fixture table and column: typed kinds use them in messages only.
    private static let placeholder: (Table, Column) = {
        let snapshot = try! Snapshot(path: Fixtures.path("realm-core/alltypes.realm"))
        let table = snapshot.tables.first { !$0.columns.isEmpty }!
        return (table, table.columns[0])
    }()

    private static func read(_ snapshot: Snapshot, _ ref: Int, _ kind: ColumnCells.Kind, expected: Int, keeping keep: [Bool]? = nil) throws -> [Value] {
        let (table, column) = placeholder
        let cells = try ColumnCells.decode(snapshot, ref: ref, kind: kind, column: column, of: table, expected: expected, keeping: keep)
        return (0..<cells.count).map { cells[$0] }
    }

    /// The filtered leaf, laid out in a file of its own, read back.
    private static func filteredValues(_ snapshot: Snapshot, _ ref: Int, _ kind: ColumnCells.Kind, keep: [Bool]) throws -> [Value]? {
        let kept = keep.filter { $0 }.count
        guard let node = try LeafRowFilter.filtered(snapshot, ref: ref, kind: kind, keep: keep, kept: kept) else { return nil }
        let out = try LaidOutIndex(node)
        return try read(out.snapshot, out.rootRef, kind, expected: kept)
    }

    private static let kinds: [(ColumnType, Bool)] = [(.int, false), (.bool, false), (.bool, true), (.double, false), (.double, true),
                                                       (.string, false), (.string, true), (.timestamp, false), (.timestamp, true)]

    /// A leaf of `count` random values; strings at most `longest` bytes (short ≤ 15, medium ≤ 63).
    private static func leaf(_ type: ColumnType, nullable: Bool, count: Int, longest: Int, _ rng: inout SplitMix64) -> [Value] {
        (0..<count).map { _ in
            if type == .string {
                if nullable && rng.below(6) == 0 { return .null }
                return .string((0..<Int(rng.below(UInt64(longest + 1)))).map { _ in UInt8(0x61 + rng.below(26)) })
            }
            return ColumnCellsTests.randomValue(type, nullable: nullable, &rng)
        }
    }

    func testFilteredLeavesHoldTheKeptValuesAsTheGeneralPathReadsThem() throws {
        var filtered = 0
        for (index, (type, nullable)) in Self.kinds.enumerated() {
            let column = ColumnCellsTests.column(type, nullable: nullable)
            let kind = ColumnCells.Kind(column, enumValues: nil)
            var rng = SplitMix64(seed: UInt64(index + 11) &* 0x9E37_79B9)
            for round in 0..<40 {
                let count = [1, 2, 7, 64, 200, 256, 1000][round % 7]
                let longest = [15, 63, 8][round % 3]
                let values = Self.leaf(type, nullable: nullable, count: count, longest: longest, &rng)
                let laid = try LaidOutIndex(try TableEncoder.encodeColumn(values, column: column))
                var keep = values.map { _ in rng.below(3) != 0 }
                if round % 5 == 0 { keep = keep.indices.map { $0 == count - 1 } }     // one row left
                if !keep.contains(true) { keep[0] = true }
                let what = "\(type)\(nullable ? "?" : "") round \(round), \(count) rows"
                let general = try Self.read(laid.snapshot, laid.rootRef, kind, expected: count, keeping: keep)
                XCTAssertNil(ColumnCellsTests.difference(general, values.indices.filter { keep[$0] }.map { values[$0] }), what)
                let fast = try Self.filteredValues(laid.snapshot, laid.rootRef, kind, keep: keep)
                XCTAssertNotNil(fast, "\(what): a leaf of a handled form takes the byte-level path")
                if let fast {
                    XCTAssertNil(ColumnCellsTests.difference(fast, general), what)
                    filtered += 1
                }
            }
        }
        XCTAssertEqual(filtered, Self.kinds.count * 40)
    }

    /// Leaves of other forms or with values the general path would refuse or normalise are
    /// left to it.
    func testLeavesTheGeneralPathMustHandleAreNotFiltered() throws {
        let keep = [true, false, true]
        func filtered(_ values: [Value], _ type: ColumnType, nullable: Bool, as kind: ColumnCells.Kind) throws -> MutableNode? {
            let laid = try LaidOutIndex(try TableEncoder.encodeColumn(values, column: ColumnCellsTests.column(type, nullable: nullable)))
            return try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: kind, keep: keep, kept: 2)
        }
        let long = Value.string([UInt8](repeating: 0x62, count: 100))
        XCTAssertNil(try filtered([long, .string([1]), long], .string, nullable: false, as: .string(nullable: false)), "big strings")
        XCTAssertNil(try filtered([.null, .string([1]), .string([2])], .string, nullable: true, as: .string(nullable: false)), "a null kept in a required column")
        XCTAssertNil(try filtered([.null, .int(1), .int(2)], .int, nullable: true, as: .int), "nullable ints (n + 1 elements)")
        XCTAssertNil(try filtered([.bool(true), .null, .null], .bool, nullable: true, as: .bool(nullable: false)), "a null bool kept in a required column")
        XCTAssertNil(try filtered([.double(1), .null, .null], .double, nullable: true, as: .double(nullable: false)), "a null double kept in a required column")
        let ts = Value.timestamp(Timestamp(seconds: 5, nanoseconds: 0))
        XCTAssertNil(try filtered([.null, ts, ts], .timestamp, nullable: true, as: .timestamp(nullable: false)), "a null timestamp kept in a required column")
        XCTAssertNil(try filtered([.int(1), .int(2), .int(3)], .int, nullable: false, as: .values), "untyped columns")
        // No rows kept: the leaf goes, or the general path writes the empty one.
        let laid = try LaidOutIndex(try TableEncoder.encodeColumn([.int(1)], column: ColumnCellsTests.column(.int, nullable: false)))
        XCTAssertNil(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: .int, keep: [false], kept: 0))
    }

    /// Real leaves of the fixtures, every third row removed.
    func testFixtureLeavesFilterAsTheyDecode() throws {
        var filtered = 0
        try ColumnCellsTests.forEachFixtureLeaf { f in
            guard f.count > 1 else { return }
            let keep = (0..<f.count).map { $0 % 3 != 1 }
            do {
                let general = try ColumnCells.decode(f.snapshot, ref: f.ref, kind: f.kind, column: f.column, of: f.table, expected: f.count, keeping: keep)
                guard let fast = try Self.filteredValues(f.snapshot, f.ref, f.kind, keep: keep) else { return }
                XCTAssertNil(ColumnCellsTests.difference(fast, (0..<general.count).map { general[$0] }), f.description)
                filtered += 1
            } catch {
                XCTFail("\(f.description): \(error)")
            }
        }
        XCTAssertGreaterThan(filtered, 50, "fixture leaves were filtered byte by byte")
    }

    /// Damaged leaves: every byte of laid-out leaves (and their sub-arrays) changed in turn.
    /// The filter gives nil, throws `FormatError`, or gives a leaf that reads as the general
    /// path reads the damaged leaf.
    func testDamagedLeavesNeverTrapAndNeverDisagree() throws {
        var rng = SplitMix64(seed: 99)
        var agreed = 0
        for (type, nullable) in Self.kinds {
            let column = ColumnCellsTests.column(type, nullable: nullable)
            let kind = ColumnCells.Kind(column, enumValues: nil)
            for longest in type == .string ? [15, 40] : [0] {
                let values = Self.leaf(type, nullable: nullable, count: 20, longest: longest, &rng)
                let laid = try LaidOutIndex(try TableEncoder.encodeColumn(values, column: column))
                let keep = values.indices.map { $0 % 4 != 2 }
                for position in 24..<laid.bytes.count {
                    for replacement in [UInt8(0), 0xFF, laid.bytes[position] ^ 0x15] where replacement != laid.bytes[position] {
                        var bytes = laid.bytes
                        bytes[position] = replacement
                        guard let snapshot = try? Snapshot(image: ByteImage(bytes: bytes)) else { continue }
                        let fast: [Value]?
                        do { fast = try Self.filteredValues(snapshot, laid.rootRef, kind, keep: keep) } catch is FormatError { continue }
                        guard let fast else { continue }
                        let what = "\(type)\(nullable ? "?" : "") byte \(position) = \(replacement)"
                        do {
                            let general = try Self.read(snapshot, laid.rootRef, kind, expected: values.count, keeping: keep)
                            XCTAssertNil(ColumnCellsTests.difference(fast, general), what)
                            agreed += 1
                        } catch {
                            XCTFail("\(what): the general path refuses the leaf (\(error)) the filter accepted")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(agreed, 100)
    }

    /// Medium-string leaves: the branch-free whole-value copy (`LeafRowFilter.wholeValues`)
    /// gives the very bytes the run-by-run copy gives, for leaves with and without nulls,
    /// values of every medium length, and rows kept at random, in runs, all or one.
    func testWholeValueCopiesOfMediumStringsAreTheRunCopiesByteForByte() throws {
        var rng = SplitMix64(seed: 0xB1B)
        var compared = 0
        for nullable in [false, true] {
            let column = ColumnCellsTests.column(.string, nullable: nullable)
            let kind = ColumnCells.Kind(column, enumValues: nil)
            for round in 0..<60 {
                let count = [3, 20, 200, 1000][round % 4]
                var values = Self.leaf(.string, nullable: nullable, count: count, longest: [63, 20, 40][round % 3], &rng)
                // One value of 16 bytes or more: a medium leaf (§9.4.2).
                values[Int(rng.below(UInt64(count)))] = .string([UInt8](repeating: 0x61, count: 16 + Int(rng.below(48))))
                let laid = try LaidOutIndex(try TableEncoder.encodeColumn(values, column: column))
                var keep: [Bool]
                switch round % 5 {
                case 0: keep = values.map { _ in true }
                case 1: keep = values.indices.map { $0 == count / 2 }
                case 2: keep = values.indices.map { ($0 / 7) % 2 == 0 }
                default: keep = values.map { _ in rng.below(2) == 0 }
                }
                if !keep.contains(true) { keep[0] = true }
                let kept = keep.filter { $0 }.count
                let what = "string\(nullable ? "?" : "") round \(round), \(count) rows, \(kept) kept"
                let whole = try XCTUnwrap(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: kind, keep: keep, kept: kept), what)
                let runs = try XCTUnwrap(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: kind, keep: keep, kept: kept,
                                                                    copiesWholeValues: false), what)
                XCTAssertEqual(try LaidOutIndex(whole).bytes, try LaidOutIndex(runs).bytes, what)
                compared += 1
            }
        }
        XCTAssertEqual(compared, 120)
    }

    /// Medium leaves written by another writer, whose nulls take no blob byte or a byte that is
    /// not 0: both copies write each kept null as one 0 byte, the same bytes, reading back as
    /// the general path reads the leaf.
    func testWholeValueCopiesWriteNullsAsOneZeroByte() throws {
        var rng = SplitMix64(seed: 0x0DD)
        let kind = ColumnCells.Kind(ColumnCellsTests.column(.string, nullable: true), enumValues: nil)
        for round in 0..<20 {
            let count = 300
            var blob: [UInt8] = [], ends: [Int64] = [], nulls: [Int64] = []
            for r in 0..<count {
                if rng.below(4) == 0 {
                    if round % 2 == 0 { blob.append(0x7A) }            // else: no byte at all
                    nulls.append(1)
                } else {
                    blob += (0..<(r == 0 ? 20 : Int(rng.below(40)))).map { _ in UInt8(0x61 + rng.below(26)) } + [0]
                    nulls.append(0)
                }
                ends.append(Int64(blob.count))
            }
            let leaf = MutableNode(integers: [0, 0, 0], hasRefs: true)
            leaf.setChild(0, MutableNode(integers: ends))
            leaf.setChild(1, MutableNode(blob: blob))
            leaf.setChild(2, MutableNode(integers: nulls))
            let laid = try LaidOutIndex(leaf)
            let keep = (0..<count).map { _ in rng.below(2) == 0 }
            let kept = keep.filter { $0 }.count
            let what = "round \(round), nulls \(round % 2 == 0 ? "with a byte" : "without bytes")"
            let whole = try XCTUnwrap(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: kind, keep: keep, kept: kept), what)
            let runs = try XCTUnwrap(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: kind, keep: keep, kept: kept,
                                                                copiesWholeValues: false), what)
            XCTAssertEqual(try LaidOutIndex(whole).bytes, try LaidOutIndex(runs).bytes, what)
            let out = try LaidOutIndex(whole)
            let general = try Self.read(laid.snapshot, laid.rootRef, kind, expected: count, keeping: keep)
            XCTAssertNil(ColumnCellsTests.difference(try Self.read(out.snapshot, out.rootRef, kind, expected: kept), general), what)
        }
    }

    /// The one-pass filter of medium-string leaves (`LeafRowFilter.filteredMediumInOnePass`)
    /// gives the very bytes of the run-by-run filter, or refuses where it refuses, on leaves of
    /// every shape: nulls with and without a blob byte, empty strings, values up to 63 bytes
    /// and longer (another writer's), blobs shorter than one whole copy, damaged end offsets
    /// (negative, past the blob, going back, near Int64.max) in kept and removed rows, and
    /// masks keeping every row, none, one, the last one only, at random and in runs.
    func testOnePassFilterOfMediumStringsIsTheRunByRunFilterByteForByte() throws {
        var rng = SplitMix64(seed: 0x1_9A55)
        var compared = 0, refused = 0
        for round in 0..<400 {
            let nullable = round % 2 == 0
            let kind = ColumnCells.Kind(ColumnCellsTests.column(.string, nullable: nullable), enumValues: nil)
            let count = [1, 3, 17, 64, 255, 1000][round % 6]
            let longest = [63, 16, 100, 2][(round / 6) % 4]
            var blob: [UInt8] = [], ends: [Int64] = [], nulls: [Int64] = []
            for _ in 0..<count {
                if rng.below(5) == 0 {
                    if rng.below(2) == 0 { blob.append(round % 3 == 0 ? 0x7A : 0) }     // a null with a byte, or none
                    nulls.append(1)
                } else {
                    let length = rng.below(4) == 0 ? 0 : Int(rng.below(UInt64(longest + 1)))
                    blob += (0..<length).map { _ in UInt8(0x61 + rng.below(26)) } + [0]
                    nulls.append(0)
                }
                ends.append(Int64(blob.count))
            }
            if round % 7 == 3 {
                // Damage: a few ends changed (a kept one makes both filters refuse).
                for _ in 0..<(1 + Int(rng.below(3))) {
                    let r = Int(rng.below(UInt64(count)))
                    ends[r] = [-1, Int64(blob.count + 1), ends[r] / 2, Int64.max - 3, 0][Int(rng.below(5))]
                }
            }
            if round % 11 == 5, !blob.isEmpty { blob[Int(rng.below(UInt64(blob.count)))] = 0x21 }   // a terminator that is not 0
            let leaf = MutableNode(integers: [0, 0, 0], hasRefs: true)
            leaf.setChild(0, MutableNode(integers: ends))
            leaf.setChild(1, MutableNode(blob: blob))
            leaf.setChild(2, MutableNode(integers: nulls))
            let laid = try LaidOutIndex(leaf)
            var keep: [Bool]
            switch round % 6 {
            case 0: keep = ends.map { _ in true }
            case 1: keep = ends.map { _ in false }
            case 2: keep = ends.indices.map { $0 == count - 1 }
            case 3: keep = ends.indices.map { ($0 / 5) % 2 == 1 }
            default: keep = ends.map { _ in rng.below(2) == 0 }
            }
            let kept = keep.filter { $0 }.count
            let what = "round \(round): \(count) rows, \(kept) kept, values up to \(longest) bytes, blob \(blob.count)"
            let onePass = try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: kind, keep: keep, kept: kept)
            let runs = try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: kind, keep: keep, kept: kept, copiesWholeValues: false)
            XCTAssertEqual(onePass == nil, runs == nil, what)
            guard let onePass, let runs else {
                refused += 1
                continue
            }
            XCTAssertEqual(try LaidOutIndex(onePass).bytes, try LaidOutIndex(runs).bytes, what)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 150, "leaves filtered by both")
        XCTAssertGreaterThan(refused, 60, "leaves both refused (no row kept, damage, a value the general path must read)")
    }

    /// `LeafRowFilter.trueCount` (the check of every removal mask against its kept count)
    /// counts as a plain filter does, for masks shorter than a word, of whole words and with
    /// a tail, all true, all false and at random.
    func testTrueCountIsThePlainCountOfTrueFlags() {
        var rng = SplitMix64(seed: 0x7C0)
        for count in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 1003] {
            for round in 0..<3 {
                let flags = (0..<count).map { _ in round == 0 ? true : round == 1 ? false : rng.below(2) == 0 }
                XCTAssertEqual(LeafRowFilter.trueCount(flags), flags.filter { $0 }.count, "\(count) flags, round \(round)")
            }
        }
    }

    /// The byte-level copies fill nodes sized by `kept` without further checks: a `kept` that
    /// is not the number of kept rows is refused, never copied past the node.
    func testAKeptCountThatDisagreesWithTheMaskIsRefused() throws {
        let values: [Value] = (0..<50).map { .int(Int64($0) * 1_000_003) }
        let laid = try LaidOutIndex(try TableEncoder.encodeColumn(values, column: ColumnCellsTests.column(.int, nullable: false)))
        let keep = values.indices.map { $0 % 3 != 1 }
        let kept = keep.filter { $0 }.count
        XCTAssertNotNil(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: .int, keep: keep, kept: kept))
        XCTAssertNil(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: .int, keep: keep, kept: kept - 1))
        XCTAssertNil(try LeafRowFilter.filtered(laid.snapshot, ref: laid.rootRef, kind: .int, keep: keep, kept: kept + 1))
    }

    /// `TableEditor.appendKept` (the primary keys an index rebuild reads from a leaf that lost
    /// rows) appends exactly the kept elements, as a plain filter of `Node.int` gives them, at
    /// every width; a mask whose count disagrees leaves the values as they were.
    func testAppendKeptGivesThePlainFilterAtEveryWidth() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for bits in [0, 1, 2, 4, 7, 15, 31, 62] {
            for count in [1, 5, 64, 1000] {
                // Wider values sometimes negative (signed elements of 8 bits and more).
                let values: [Value] = (0..<count).map { _ in
                    let v = bits == 0 ? 0 : Int64(rng.below(UInt64(1) << UInt64(bits)))
                    return .int(bits > 4 && rng.below(2) == 0 ? -v : v)
                }
                let laid = try LaidOutIndex(try TableEncoder.encodeColumn(values, column: ColumnCellsTests.column(.int, nullable: false)))
                let node = try laid.snapshot.node(laid.rootRef)
                var keep = (0..<count).map { _ in rng.below(2) == 0 }
                if count > 2 { keep[count - 1] = false }           // rows after the last kept one
                let expected = [Int64(-7)] + (0..<count).filter { keep[$0] }.map { node.int($0) }
                var out: [Int64] = [-7]
                XCTAssertTrue(TableEditor.appendKept(PackedInts(node), keep: keep, expected: expected.count - 1, to: &out))
                XCTAssertEqual(out, expected, "\(bits) bits, \(count) rows")
                XCTAssertFalse(TableEditor.appendKept(PackedInts(node), keep: keep, expected: expected.count, to: &out))
                XCTAssertEqual(out, expected, "a refused mask changes nothing")
            }
        }
    }

    /// `TableEditor.kept` (a leaf's ObjKeys after a removal) gives the plain filter of the
    /// mask, with the last rows kept or dropped; a count that disagrees still gets the plain
    /// filter, never a short or padded array.
    func testKeptKeysAreThePlainFilterOfTheMask() {
        var rng = SplitMix64(seed: 0xD0_0D)
        for count in [1, 2, 3, 17, 1000] {
            let keys = (0..<count).map { Int64($0) * 5 + Int64(rng.below(5)) }
            for round in 0..<4 {
                var keep = keys.map { _ in rng.below(2) == 0 }
                if round == 1 { keep[count - 1] = true }
                if round == 2 { keep[count - 1] = false }
                if round == 3 { keep = keep.map { _ in false } }
                let plain = keys.indices.filter { keep[$0] }.map { keys[$0] }
                XCTAssertEqual(TableEditor.kept(keys, keep: keep, count: plain.count), plain, "\(count) keys, round \(round)")
                XCTAssertEqual(TableEditor.kept(keys, keep: keep, count: plain.count + 1), plain, "a count one too high")
            }
        }
    }

    /// `PackedInts.withReader` (the medium-string passes read offsets and null flags through
    /// it, widths fixed per leaf) reads every element as `PackedInts.int` does, at every width.
    func testWidthSpecializedReadersReadAsPackedIntsAtEveryWidth() throws {
        struct Collect: IntegerReaderVisitor {
            let count: Int
            func visit<Reader: IntegerReader>(_ reader: Reader) -> [Int64] { (0..<count).map { reader.int($0) } }
        }
        var rng = SplitMix64(seed: 0x5EED)
        for width in [0, 1, 2, 4, 8, 16, 32, 64] {
            let values: [Int64] = (0..<300).map { _ in
                switch width {
                case 0: return 0
                case 1, 2, 4: return Int64(rng.below(1 << UInt64(width)))
                case 64: return Int64(bitPattern: rng.next())
                default: return Int64(rng.below(1 << UInt64(width - 1))) - (rng.below(2) == 0 ? 0 : 1 << Int64(width - 2))
                }
            }
            let laid = try LaidOutIndex(MutableNode(integers: values))
            let node = try laid.snapshot.node(laid.rootRef)
            XCTAssertEqual(node.width, width, "the encoder chose width \(node.width) for values of width \(width)")
            let ints = PackedInts(node)
            XCTAssertEqual(ints.withReader(Collect(count: values.count)), values, "width \(width)")
            XCTAssertEqual(ints.withReader(Collect(count: values.count)), values.indices.map { ints.int($0) }, "width \(width)")
        }
    }
}
