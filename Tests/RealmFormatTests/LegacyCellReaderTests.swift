import Foundation
import XCTest
@testable import RealmFormat

/// The conversion reads integer, bool, DateTime and string columns straight into cells
/// (`LegacyColumnReader.intCells`, `stringCells`); these must be exactly the plain readers'
/// values (`ints`, `strings`) mapped into cells, on every column of every old public fixture.
final class LegacyCellReaderTests: XCTestCase {
    func testDirectCellReadersGiveThePlainReadersValues() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("../shared/fixtures/public").standardized.path
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".realm") }.sorted()
        var columnsCompared = 0, stringColumns = 0
        for name in names {
            guard let snapshot = try? Snapshot(path: dir + "/" + name, convertingLegacy: false),
                  let group = snapshot.legacy else { continue }
            for table in group.tables {
                guard let columns = table.columns else { continue }
                let reader = LegacyColumnReader(source: snapshot, table: table.name)
                let source = LegacyRowSource(columns: columns, hasIndexSlots: table.hasIndexSlots)
                for c in table.spec.columns {
                    guard let root = source.root(of: c) else { continue }
                    let context = "\(name) \(table.name).\(c.name)"
                    switch c.type {
                    case .int, .bool, .dateTime:
                        guard let plain = try? reader.ints(root, nullable: c.isNullable) else { continue }
                        let direct = try reader.intCells(root, nullable: c.isNullable) { .int($0) }
                        XCTAssertEqual(direct, plain.map { $0.map(Value.int) ?? .null }, context)
                        columnsCompared += 1
                    case .string where c.enumKeysRef == nil:
                        guard let plain = try? reader.strings(root, nullable: c.isNullable) else { continue }
                        let direct = try reader.stringCells(root, nullable: c.isNullable)
                        XCTAssertEqual(direct, plain.map { $0.map(Value.string) ?? .null }, context)
                        columnsCompared += 1
                        stringColumns += 1
                    default:
                        continue
                    }
                }
            }
        }
        XCTAssertGreaterThan(columnsCompared, 100, "the old fixtures have integer and string columns")
        XCTAssertGreaterThan(stringColumns, 20)
    }
}
