import Foundation
@testable import RealmFormat
@testable import RealmObjects
import RealmTestSupport
import XCTest

/// A bulk insert packs each new cluster leaf it fills into its file form
/// (`TableEditor.pack`, issue #16) and unpacks it when the same transaction comes back to it.
/// Pinned against the general path (`TableEditor.Options.packsFullLeaves` off: every leaf
/// keeps its cells until the commit): the same changes give the same file, byte for byte —
/// a plain bulk insert, and one followed by reads, updates (an indexed column among them),
/// removals and inserts into leaves already packed, then a second transaction appending to
/// the committed table.
final class PackedLeafTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Every column kind that packs (int, bool, bool?, double, string short to long, string?,
    /// date, date?), one that does not (int?: kept as values), an indexed string; and a
    /// class without primary key, whose objects keep the keys they are given.
    static let schema = #"""
        [{"name": "Row", "primaryKey": "id", "embedded": false, "properties": [
          {"name": "id", "type": "int", "optional": false, "indexed": true, "primaryKey": true, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "name", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "note", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "tag", "type": "string", "optional": false, "indexed": true, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "n", "type": "int", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "maybe", "type": "int", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "flag", "type": "bool", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "tri", "type": "bool", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "score", "type": "double", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "when", "type": "date", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "until", "type": "date", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}]},
         {"name": "Plain", "primaryKey": null, "embedded": false, "properties": [
          {"name": "k", "type": "int", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "s", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}]}]
        """#

    /// A new file of `schema` at `name`.
    func newFile(_ name: String) throws -> String {
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: try JSONParser.parse(Self.schema), schemaVersion: 0)
        var tables = [MutableNode]()
        for m in models { tables.append(try TableEncoder.encode(m)) }
        let path = dir + "/" + name
        try Data(NewFile.bytes(tableNames: names, tables: tables)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func text(_ s: String) -> Value { .string(Array(s.utf8)) }

    /// Row `i`'s cells by property name; strings of every leaf form (short, medium, long;
    /// empty; null).
    static func row(_ i: Int) -> [String: Value] {
        let note: Value
        switch i % 5 {
        case 0: note = .null
        case 1: note = text("")
        case 2: note = text("n\(i)")
        case 3: note = text("a medium note for row \(i)")
        default: note = text(String(repeating: "long note \(i) ", count: 8))
        }
        return ["id": .int(Int64(i * 3 - 700)), "name": text("Name \(i % 97)"), "note": note,
                "tag": text("t\(i % 13)"), "n": .int(Int64(i % 9 == 0 ? -i * 1000 : i % 50)),
                "maybe": i % 4 == 0 ? .null : .int(Int64(i)), "flag": .bool(i % 3 == 0),
                "tri": i % 7 == 0 ? .null : .bool(i % 2 == 0),
                "score": .double(i % 11 == 0 ? -0.0 : Double(i) / 8),
                "when": .timestamp(Timestamp(seconds: 1_600_000_000 + Int64(i) * 37, nanoseconds: i % 6 == 0 ? Int32(i) : 0)),
                "until": i % 3 == 1 ? .null : .timestamp(Timestamp(seconds: -Int64(i), nanoseconds: 0))]
    }

    /// Inserts `rows` of `c` through the bulk-load path (`ScalarRowInserter`, as a CSV import).
    func insert(_ rows: [[String: Value]], of c: ObjectClass, keys: [Int64]? = nil, into writer: RealmWriter) throws {
        let inserter = try XCTUnwrap(try writer.scalarRowInserter(c))
        for (r, cells) in rows.enumerated() {
            var row = inserter.defaultRow
            for (i, p) in c.properties.enumerated() { row[inserter.columns[i]] = cells[p.name] ?? row[inserter.columns[i]] }
            try inserter.insert(row, key: keys?[r])
        }
    }

    /// Leaves of `c`'s table packed now, and all leaves.
    func packedLeaves(_ c: ObjectClass, _ writer: RealmWriter) throws -> (packed: Int, leaves: Int) {
        let editor = try writer.editor(c.table.position)
        return (editor.leaves.filter { $0.packed != nil }.count, editor.leaves.count)
    }

    /// The changes, on a new file, packing or not; returns the packed leaves seen.
    func run(_ path: String, packing: Bool, edits: Bool) throws -> [Int] {
        let options = TableEditor.Options(packsFullLeaves: packing)
        var seen: [Int] = []
        let writer = try RealmWriter(path: path, editorOptions: options)
        let rowClass = try XCTUnwrap(writer.file.objectClass(named: "Row"))
        let plain = try XCTUnwrap(writer.file.objectClass(named: "Plain"))
        let p = { (name: String) throws -> Property in try XCTUnwrap(rowClass.property(named: name)) }
        try insert((0..<1500).map(Self.row), of: rowClass, into: writer)
        // Every other key, so that later objects can go between them.
        try insert((0..<800).map { ["k": .int(Int64($0)), "s": $0 % 2 == 0 ? .null : Self.text("s\($0)")] }, of: plain,
                   keys: (0..<800).map { Int64($0 * 2) }, into: writer)
        seen.append(try packedLeaves(rowClass, writer).packed)
        seen.append(try packedLeaves(plain, writer).packed)
        if edits {
            // Reads and updates of objects in packed leaves, an indexed column among them.
            let key = { (i: Int) throws -> Int64 in
                try XCTUnwrap(try writer.editor(rowClass.table.position).objectKey(primaryKey: .int(Int64(i * 3 - 700))))
            }
            XCTAssertEqual(try writer.value(rowClass, key: try key(40), try p("note")), Self.row(40)["note"])
            XCTAssertEqual(try writer.value(rowClass, key: try key(41), try p("until")), Self.row(41)["until"])
            try writer.set(rowClass, key: try key(300), try p("name"), Self.text("Renamed, and longer than before"))
            try writer.set(rowClass, key: try key(301), try p("note"), .null)
            try writer.set(rowClass, key: try key(700), try p("when"), .timestamp(Timestamp(seconds: 5, nanoseconds: 7)))
            try writer.set(rowClass, key: try key(900), try p("tri"), .null)
            try writer.set(rowClass, key: try key(901), try p("maybe"), .int(-1))
            try writer.set(rowClass, key: try key(1100), try p("tag"), Self.text("retagged"))
            // Removals from packed leaves, and inserts into them (kept keys between others).
            try writer.delete(className: "Row", keys: try (1000..<1010).map(key) + [try key(1200)])
            try writer.delete(className: "Plain", keys: [10, 12, 700])
            // 1025 goes into a full packed leaf, which splits.
            try insert([["k": .int(-1), "s": Self.text("between")], ["k": .int(-3), "s": .null], ["k": .int(-5), "s": Self.text("split")]],
                       of: plain, keys: [301, 3, 1025], into: writer)
            seen.append(try packedLeaves(plain, writer).packed)
            seen.append(try packedLeaves(rowClass, writer).packed)
        }
        try writer.commit()
        // A second transaction appends to the committed table: its new leaves pack too.
        let second = try RealmWriter(path: path, editorOptions: options)
        try insert((1500..<2100).map(Self.row), of: rowClass, into: second)
        seen.append(try packedLeaves(rowClass, second).packed)
        if edits {
            let k = try XCTUnwrap(try second.editor(rowClass.table.position).objectKey(primaryKey: .int(Int64(1600 * 3 - 700))))
            try second.set(rowClass, key: k, try p("score"), .double(.nan))
        }
        try second.commit()
        return seen
    }

    func testPackedLeavesGiveTheFileTheCellsGive() throws {
        for edits in [false, true] {
            let fast = try newFile("fast-\(edits).realm"), general = try newFile("general-\(edits).realm")
            let seen = try run(fast, packing: true, edits: edits)
            let none = try run(general, packing: false, edits: edits)
            XCTAssertEqual(none, [Int](repeating: 0, count: none.count), "nothing packs on the general path")
            // 1500 Rows fill 5 leaves (the 6th is the one being filled), 800 Plains 3; the
            // first of each is the new file's committed empty leaf, which does not pack.
            XCTAssertEqual(Array(seen.prefix(2)), [4, 2], "full new leaves were packed")
            // Removals and the split unpack whole leaves (both packed Plain leaves, Row's 3rd
            // and 4th); reads and updates only their column (Row's 1st and 2nd keep the others).
            if edits { XCTAssertEqual(Array(seen[2...3]), [0, 2], "Plain, then Row: the columns the edits touched were unpacked") }
            XCTAssertEqual(seen.last, 2, "the second transaction's new full leaves were packed")
            let a = try Data(contentsOf: URL(fileURLWithPath: fast)), b = try Data(contentsOf: URL(fileURLWithPath: general))
            XCTAssertEqual(a.count, b.count, "edits: \(edits)")
            XCTAssertTrue(a == b, "the same file either way (edits: \(edits))")
            XCTAssertEqual(try SmallItemsFile.rows(fast, "Row"), try SmallItemsFile.rows(general, "Row"))
            XCTAssertEqual(try SmallItemsFile.rows(fast, "Plain"), try SmallItemsFile.rows(general, "Plain"))
            XCTAssertEqual(try SmallItemsFile.rows(fast, "Row").count, edits ? 2100 - 11 : 2100)
            try SmallItemsFile.assertVerifies(fast)
        }
    }
}
