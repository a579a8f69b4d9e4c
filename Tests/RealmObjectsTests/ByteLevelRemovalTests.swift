import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// Mass deletes leave the columns they do not read on disk and filter them byte by byte at
/// commit (`LeafRowFilter`). Here a table with every typed kind (short, medium and big string
/// leaves, nullable bools, doubles and timestamps) goes through deletes that take that path,
/// deletes that meet it again in the same leaves, and reads, updates and inserts between them;
/// after each transaction the file verifies and reads back exactly as a model says.
class ByteLevelRemovalTests: XCTestCase {
    /// Whether the string properties are enumerated after the first transaction
    /// (`EnumeratedColumnEditTests`).
    var enumerates: Bool { false }

    var dir = ""
    var path = ""
    /// Values by primary key, in property order.
    var model: [Int64: [Value]] = [:]
    var random = SeededRandom(seed: 4_2026)

    override func setUpWithError() throws {
        dir = Fixtures.temporaryDirectory()
        path = dir + "/removal.realm"
        func property(_ name: String, _ type: String, optional: Bool = false, pk: Bool = false) -> String {
            """
            {"name": "\(name)", "type": "\(type)", "optional": \(optional), "indexed": \(pk), "primaryKey": \(pk),
             "collection": null, "objectType": null, "linkOrigin": null}
            """
        }
        let schema = """
            [{"name": "Row", "primaryKey": "id", "embedded": false, "properties": [
                \(property("id", "int", pk: true)), \(property("name", "string")), \(property("email", "string", optional: true)),
                \(property("bio", "string", optional: true)), \(property("score", "double")), \(property("weight", "double", optional: true)),
                \(property("active", "bool")), \(property("flag", "bool", optional: true)), \(property("created", "date")),
                \(property("seen", "date", optional: true)), \(property("age", "int"))]}]
            """
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: try JSONParser.parse(schema), schemaVersion: 1)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(NewFile.bytes(tableNames: names, tables: try models.map { try TableEncoder.encode($0) }))))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func string(_ length: Int) -> Value { .string((0..<length).map { _ in UInt8.random(in: 0x61...0x7A, using: &random) }) }

    func row(_ id: Int64) -> [Value] {
        func maybe(_ v: Value) -> Value { Int.random(in: 0..<5, using: &random) == 0 ? .null : v }
        // Bios longer than 63 bytes in some stretches of ids: big string leaves (general path).
        let bioLength = id % 1000 < 300 ? Int.random(in: 0...90, using: &random) : Int.random(in: 0...40, using: &random)
        return [
            .int(id), string(Int.random(in: 0...15, using: &random)), maybe(string(Int.random(in: 10...60, using: &random))),
            maybe(string(bioLength)), .double(Double.random(in: -1e6...1e6, using: &random)), maybe(.double(Double(Int.random(in: 0..<100, using: &random)))),
            .bool(Bool.random(using: &random)), maybe(.bool(Bool.random(using: &random))),
            .timestamp(Timestamp(seconds: Int64.random(in: -1 << 40...1 << 40, using: &random), nanoseconds: 0)),
            maybe(.timestamp(Timestamp(seconds: Int64.random(in: 0..<100_000, using: &random), nanoseconds: Int32.random(in: 0..<1_000_000_000, using: &random)))),
            .int(Int64.random(in: -50..<200, using: &random)),
        ]
    }

    func testMassDeletesFilterLeavesAndReadBackAsTheModelSays() throws {
        try transaction("3000 rows") { w, c in
            for id in 0..<3000 { try self.create(w, c, Int64(id)) }
        }
        if enumerates {
            try transaction("enumerate every string property") { w, _ in
                let report = try w.enumerateStrings(maxDistinctPercent: 100)
                XCTAssertEqual(report.map(\.property), ["name", "email", "bio"])
                XCTAssertEqual(report.map(\.enumerated), [true, true, true])
            }
        }
        try transaction("1000 scattered deletes (entries erased), then 1100 more in the same leaves (index rebuilt), then reads, updates, inserts") { w, c in
            try self.delete(w, c, self.model.keys.filter { $0 % 3 == 0 })
            try self.delete(w, c, Array(self.model.keys.filter { $0 % 3 == 1 }.sorted().prefix(1100)))
            let score = try XCTUnwrap(c.property(named: "score")), bio = try XCTUnwrap(c.property(named: "bio"))
            for id in self.model.keys.sorted().prefix(400) where id % 7 == 2 {
                let key = try XCTUnwrap(try w.objectKey(c, primaryKey: .int(id)))
                XCTAssertEqual("\(try w.value(c, key: key, bio))", "\(self.model[id]![3])", "a pending column read in the transaction")
                try w.set(c, key: key, score, .double(Double(id)))
                self.model[id]![4] = .double(Double(id))
            }
            // New strings, strings already held, nulls: appended to or found in an enumerated
            // column's value list.
            let name = try XCTUnwrap(c.property(named: "name")), email = try XCTUnwrap(c.property(named: "email"))
            for id in self.model.keys.sorted().suffix(300) where id % 5 != 0 {
                let key = try XCTUnwrap(try w.objectKey(c, primaryKey: .int(id)))
                let newName = id % 2 == 0 ? self.string(12) : self.model[id - id % 5]?[1] ?? .string([])
                let newEmail = id % 3 == 0 ? Value.null : self.string(40)
                try w.set(c, key: key, name, newName)
                try w.set(c, key: key, email, newEmail)
                self.model[id]![1] = newName
                self.model[id]![2] = newEmail
            }
            for id in 5000..<5100 { try self.create(w, c, Int64(id)) }
        }
        try transaction("half of what is left (byte-level only)") { w, c in
            try self.delete(w, c, self.model.keys.filter { $0 % 2 == 0 })
        }
        try transaction("all but one") { w, c in
            try self.delete(w, c, Array(self.model.keys.sorted().dropFirst()))
        }
        let table = try XCTUnwrap(try Snapshot(path: path).table(named: "class_Row"))
        let enumerated = table.columns.filter { table.enumValuesRef(for: $0) != nil }.map(\.name)
        XCTAssertEqual(enumerated, enumerates ? ["name", "email", "bio"] : [], "enumerated columns at the end")
    }

    // MARK: helpers

    func create(_ w: RealmWriter, _ c: ObjectClass, _ id: Int64) throws {
        let values = row(id)
        _ = try w.create(c, values: values)
        model[id] = values
    }

    func delete(_ w: RealmWriter, _ c: ObjectClass, _ ids: [Int64]) throws {
        var keys: [Int64] = []
        for id in ids { keys.append(try XCTUnwrap(try w.objectKey(c, primaryKey: .int(id)))) }
        try w.delete(className: "Row", keys: keys)
        for id in ids { model[id] = nil }
    }

    func transaction(_ what: String, line: UInt = #line, _ body: (RealmWriter, ObjectClass) throws -> Void) throws {
        let writer = try RealmWriter(path: path)
        try body(writer, try XCTUnwrap(writer.file.objectClass(named: "Row")))
        try writer.commit()
        let report = Verifier.verify(try Snapshot(path: path))
        XCTAssertEqual(report.problems.map(\.description), [], "after '\(what)'", line: line)
        let file = try RealmFile(path: path)
        var read: [Int64: [Value]] = [:]
        try file.forEachObject(of: try XCTUnwrap(file.objectClass(named: "Row"))) { _, row in
            guard case let .int(id) = row[0] else { return XCTFail("row without an id", line: line) }
            read[id] = Array(row)
        }
        XCTAssertEqual(read.count, model.count, "object count after '\(what)'", line: line)
        for (id, expected) in model.sorted(by: { $0.key < $1.key }) where "\(read[id] ?? [])" != "\(expected)" {
            XCTFail("after '\(what)': id \(id) reads \(read[id] ?? []), expected \(expected)", line: line)
            break
        }
    }
}

/// The same transactions with every string property enumerated after the first one
/// (realm-format.md §9.4.4): positions in value lists instead of strings, lists that grow
/// with new values and nulls, leaves filtered by position; each transaction reads back as
/// the model says and verifies, and the columns stay enumerated.
final class EnumeratedColumnEditTests: ByteLevelRemovalTests {
    override var enumerates: Bool { true }

    // Declared again: test discovery on Linux lists only a class's own methods.
    override func testMassDeletesFilterLeavesAndReadBackAsTheModelSays() throws {
        try super.testMassDeletesFilterLeavesAndReadBackAsTheModelSays()
    }
}
