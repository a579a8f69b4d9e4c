import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// `ColumnCells` keeps edited leaf columns typed; these tests pin down that it is only a
/// faster way to hold the same values: what it reads, encodes and refuses is what the
/// `[Value]` path (`decodeColumn`, `TableEncoder.encodeColumn`) reads, encodes and refuses.
final class ColumnCellsTests: XCTestCase {
    /// The first row where two value lists differ, nil when equal; values compare by their
    /// description, so a NaN equals the same NaN (Realm's null pattern is one).
    static func difference(_ a: [Value], _ b: [Value]) -> String? {
        if a.count != b.count { return "\(a.count) vs \(b.count) values" }
        if a == b { return nil }
        guard let row = a.indices.first(where: { "\(a[$0])" != "\(b[$0])" }) else { return nil }
        return "row \(row): \(a[row]) vs \(b[row])"
    }

    static func column(_ type: ColumnType, nullable: Bool) -> TableModel.ColumnModel {
        TableModel.ColumnModel(name: "c", type: type, attributes: nullable ? .nullable : [], key: ColumnKey(value: 0),
                               specType: 0, specAttributes: 0, targetTable: nil, oppositeColumn: nil, isIndexed: false)
    }

    static func randomValue(_ type: ColumnType, nullable: Bool, _ rng: inout SplitMix64) -> Value {
        if nullable && rng.below(6) == 0 { return .null }
        switch type {
        case .int: return .int(rng.below(3) == 0 ? Int64(bitPattern: rng.next()) : Int64(rng.below(300)) - 20)
        case .bool: return .bool(rng.below(2) == 0)
        case .double: return .double(Double(Int64(rng.below(100_000)) - 500) / 7)
        case .timestamp: return .timestamp(Timestamp(seconds: Int64(rng.below(1 << 34)) - (1 << 30), nanoseconds: Int32(rng.below(1_000_000_000))))
        default:
            // Lengths that move a leaf between the short, medium and big forms (§9.4).
            let length = [0, 3, 15, 16, 40, 63, 64, 200][Int(rng.below(8))]
            return .string((0..<length).map { _ in UInt8(0x61 + rng.below(26)) })
        }
    }

    func testEditedCellsReadAndEncodeAsTheirValues() throws {
        let kinds: [(ColumnType, Bool)] = [(.int, false), (.bool, false), (.bool, true), (.double, false), (.double, true),
                                           (.string, false), (.string, true), (.timestamp, false), (.timestamp, true)]
        for (index, (type, nullable)) in kinds.enumerated() {
            let column = Self.column(type, nullable: nullable)
            let kind = ColumnCells.Kind(column, enumValues: nil)
            XCTAssertNotEqual(kind, .values, "\(type) is kept typed")
            var rng = SplitMix64(seed: UInt64(index + 3) &* 0x9E37_79B9)
            var cells = ColumnCells(kind: kind)
            var model: [Value] = []
            for step in 0..<400 {
                let v = Self.randomValue(type, nullable: nullable, &rng)
                switch rng.below(10) {
                case 0..<5:
                    cells.append(v)
                    model.append(v)
                case 5..<7:
                    let row = Int(rng.below(UInt64(model.count + 1)))
                    cells.insert(v, at: row)
                    model.insert(v, at: row)
                case 7 where !model.isEmpty:
                    let row = Int(rng.below(UInt64(model.count)))
                    cells.set(row, v)
                    model[row] = v
                case 8 where model.count > 2:
                    // A split and a merge, as leaves do (§8.3).
                    let row = Int(rng.below(UInt64(model.count)))
                    let tail = cells.removeSuffix(from: row)
                    XCTAssertNil(Self.difference((0..<tail.count).map { tail[$0] }, Array(model[row...])), "\(type) split")
                    cells.append(contentsOf: tail)
                default:
                    let keep = model.map { _ in rng.below(4) != 0 }
                    cells.filter(keep)
                    model = model.indices.filter { keep[$0] }.map { model[$0] }
                }
                let what = "\(type)\(nullable ? "?" : "") after step \(step)"
                XCTAssertEqual(cells.count, model.count, what)
                XCTAssertNil(Self.difference((0..<cells.count).map { cells[$0] }, model), what)
                if step % 20 == 0 || step == 399 {
                    let typed = try LaidOutIndex(try cells.encode(column)).bytes
                    let plain = try LaidOutIndex(try TableEncoder.encodeColumn(model, column: column)).bytes
                    XCTAssertEqual(typed, plain, "\(what): typed cells encode to other bytes than their values")
                }
            }
        }
    }

    func testAValueATypedColumnCannotHoldFailsAsTheEncoderFailsIt() throws {
        let cases: [(ColumnType, Bool, Value)] = [
            (.int, false, .null), (.int, false, .string([0x61])), (.bool, false, .null), (.double, false, .null),
            (.double, true, .double(Double(bitPattern: 0x7FF8_0000_0000_00AA))),     // Realm's null pattern
            (.string, false, .null), (.string, true, .int(1)), (.timestamp, false, .null), (.timestamp, true, .bool(true)),
        ]
        for (type, nullable, bad) in cases {
            let column = Self.column(type, nullable: nullable)
            var rng = SplitMix64(seed: 7)
            let good = Self.randomValue(type, nullable: false, &rng)
            var cells = ColumnCells(kind: ColumnCells.Kind(column, enumValues: nil))
            cells.append(good)
            cells.append(bad)
            cells.append(good)
            XCTAssertNil(Self.difference((0..<3).map { cells[$0] }, [good, bad, good]), "\(type): the value is kept as given")
            var expected = ""
            XCTAssertThrowsError(try TableEncoder.encodeColumn([good, bad, good], column: column)) { expected = "\($0)" }
            XCTAssertThrowsError(try cells.encode(column), "\(type) with \(bad)") { error in
                XCTAssertEqual("\(error)", expected, "\(type) with \(bad): another message than the encoder's")
            }
        }
    }

    /// One column leaf of a fixture, with what a test needs to read it.
    struct FixtureLeaf {
        let snapshot: Snapshot
        let table: Table
        let column: Column
        let kind: ColumnCells.Kind
        let ref: Int
        let count: Int
        let description: String
    }

    /// Every column leaf of every table of the fixtures that realmsh writes to.
    static func forEachFixtureLeaf(_ body: (FixtureLeaf) throws -> Void) throws {
        for fixture in ["realm-core/alltypes.realm", "realm-core/basic.realm", "realm-core/large.realm", "realm-core/churn.realm"] {
            let snapshot = try Snapshot(path: Fixtures.path(fixture))
            for table in snapshot.tables {
                guard let root = table.clusterRef else { continue }
                let models = try snapshot.columnModels(table)
                var leaves: [(ref: Int, slots: [Int64], count: Int)] = []
                try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
                    leaves.append((leaf.node.ref, leaf.node.ints(), leaf.count))
                }
                for leaf in leaves {
                    for (c, column) in table.columns.enumerated() where 1 + column.leafIndex < leaf.slots.count {
                        let ref = Int(leaf.slots[1 + column.leafIndex])
                        guard ref != 0, ref & 1 == 0 else { continue }
                        try body(FixtureLeaf(snapshot: snapshot, table: table, column: column,
                                             kind: ColumnCells.Kind(models[c], enumValues: try table.enumValuesRef(for: column).map { r throws(FormatError) in try EnumValueWriter(committed: try snapshot.enumValueList(r)) }),
                                             ref: ref, count: leaf.count, description: "\(fixture) \(table.name).\(column.name) leaf \(leaf.ref)"))
                    }
                }
            }
        }
    }

    /// Real leaves read typed give exactly what `decodeColumn` gives, for every column of
    /// every table of the fixtures that realmsh writes to.
    func testFixtureLeavesDecodeAsDecodeColumnDecodesThem() throws {
        var typedColumns = 0
        try Self.forEachFixtureLeaf { f in
            let cells = try ColumnCells.decode(f.snapshot, ref: f.ref, kind: f.kind, column: f.column, of: f.table, expected: f.count)
            let values = try f.snapshot.decodeColumn(f.ref, column: f.column, of: f.table)
            XCTAssertNil(Self.difference((0..<cells.count).map { cells[$0] }, values), f.description)
            // Reading only some rows (a removal) gives those rows.
            let keep = values.indices.map { $0 % 3 != 1 }
            let some = try ColumnCells.decode(f.snapshot, ref: f.ref, kind: f.kind, column: f.column, of: f.table, expected: f.count, keeping: keep)
            XCTAssertNil(Self.difference((0..<some.count).map { some[$0] }, values.indices.filter { keep[$0] }.map { values[$0] }),
                         "\(f.description), every third row left out")
            XCTAssertThrowsError(try ColumnCells.decode(f.snapshot, ref: f.ref, kind: f.kind, column: f.column, of: f.table, expected: f.count + 1),
                                 "\(f.description): a leaf with fewer values than objects is corrupt")
            if f.kind != .values { typedColumns += 1 }
        }
        XCTAssertGreaterThan(typedColumns, 50, "typed leaves were read")
    }
}
