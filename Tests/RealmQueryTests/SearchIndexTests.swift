import RealmFormat
@testable import RealmQuery
import RealmTestSupport
import XCTest

/// The search-index reader against every fixture: each object must be among the candidates
/// of its own value, and an equality answered through the index must equal the brute-force
/// answer over the decoded column.
final class SearchIndexTests: XCTestCase {
    func testIndexKeysFollowRealmsChunking() {
        XCTAssertEqual(IndexKey.key(.null, offset: 0), 0)
        XCTAssertEqual(IndexKey.key(.bytes(Array("".utf8)), offset: 0), 0x5800_0000)
        XCTAssertEqual(IndexKey.key(.bytes([0]), offset: 0), 0x0058_0000)
        XCTAssertEqual(IndexKey.key(.bytes(Array("John".utf8)), offset: 0), 0x4A6F_686E)
        XCTAssertEqual(IndexKey.key(.bytes(Array("Beatles".utf8)), offset: 0), 0x4265_6174)
        XCTAssertEqual(IndexKey.key(.bytes(Array("Beatles".utf8)), offset: 4), 0x6C65_7358)
        XCTAssertEqual(IndexKey.key(.bytes(Array("John".utf8)), offset: 4), 0x5800_0000)
        XCTAssertEqual(IndexKey.key(.bytes(Array("John".utf8)), offset: 8), 0, "past the end")
        XCTAssertLessThan(IndexKey.key(.bytes([0xC3, 0xA9]), offset: 0), 0, "a first byte ≥ 0x80 is negative")
    }

    func testEveryIndexedValueFindsItsObjects() throws {
        var lookups = 0, viaIndex = 0
        for path in Fixtures.allRealmFiles() where !Fixtures.isEncrypted(path) {
            guard let snapshot = try? Snapshot(path: path), snapshot.fileFormat >= 20 else { continue }
            let store = ObjectStore(snapshot: snapshot)
            for name in store.classNames {
                guard let table = store.table(className: name) else { continue }
                for column in table.table.publicColumns where column.hasSearchIndex && column.collection == nil {
                    guard let type = DataType(column: column.type), [DataType.string, .objectId, .uuid].contains(type),
                          let root = column.searchIndexRef else { continue }
                    let values = try table.values(column)
                    let keys = try table.keys()
                    let index = SearchIndexReader(snapshot: snapshot, rootRef: root)
                    // Each distinct value once: the index must list every object holding it.
                    var rowsByValue: [[UInt8]?: [Int]] = [:]
                    var probes: [Value] = [.null, .string(Array("no such value \u{1F600}".utf8))]
                    for (row, value) in values.enumerated() {
                        let bytes: [UInt8]?
                        switch value {
                        case let .string(b): bytes = b
                        case let .objectId(o): bytes = o.bytes
                        case let .uuid(u): bytes = u.bytes
                        default: bytes = nil
                        }
                        if rowsByValue[bytes] == nil, probes.count < 100 { probes.append(value) }
                        rowsByValue[bytes, default: []].append(row)
                    }
                    let realKeys = leavesHoldProductionKeys(try table.leaves().map(\.leaf.count))
                    for (bytes, rows) in rowsByValue where realKeys {
                        let found = Set(try index.candidates(bytes.map(IndexBytes.bytes) ?? .null))
                        for row in rows {
                            XCTAssertTrue(found.contains(keys[row]), "\(path) \(name).\(column.name) row \(row)")
                        }
                    }
                    let all = Bitset(count: values.count, filled: true)
                    for probe in probes {
                        let q = QValue(probe)
                        guard q.type == nil || q.type == type else { continue }
                        try check(table, column, type, q, values, all, path, &lookups, &viaIndex)
                    }
                }
            }
        }
        print("search index: \(viaIndex) of \(lookups) equality look-ups answered through the index")
        XCTAssertGreaterThan(viaIndex, 100, "the index path was taken (\(viaIndex) of \(lookups) look-ups)")
    }

    /// See IndexLookup: tables of realm-core test builds (≤ 4 objects per leaf) number their
    /// objects differently from the cluster reader's keys.
    private func leavesHoldProductionKeys(_ counts: [Int]) -> Bool {
        counts.count == 1 || counts.contains { $0 > 4 }
    }

    private func check(_ table: TableData, _ column: Column, _ type: DataType, _ value: QValue, _ values: [Value],
                       _ all: Bitset, _ path: String, _ lookups: inout Int, _ viaIndex: inout Int) throws {
        let d = DirectCondition(column: column, type: type, op: .equal, value: value)
        lookups += 1
        guard let found = try Evaluator(table: table).indexLookup(d, all) else { return }
        viaIndex += 1
        var got = [Int]()
        found.forEach { got.append($0) }
        let expected = values.indices.filter { QValue(values[$0]) == value }
        XCTAssertEqual(got, expected, "\(path) \(table.className).\(column.name) == \(value)")
    }
}
