import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// The typed API (`RealmWriter.create` / `set`) with `.typedLink`s in Mixed values, in a file
/// whose tables have no backlink column for them yet (a schema with only Mixed properties
/// creates none, realm-format.md §10.6): the first link makes it, every link gets its
/// backlink, deletes repair the Mixed values, and links Realm refuses are input errors.
final class MixedLinkTypedWritingTests: XCTestCase {
    var dir = ""
    var path = ""

    override func setUpWithError() throws {
        dir = Fixtures.temporaryDirectory()
        path = dir + "/mixed.realm"
        func property(_ name: String, _ type: String, optional: Bool = false, pk: Bool = false, collection: String? = nil,
                      objectType: String? = nil) -> String {
            """
            {"name": "\(name)", "type": "\(type)", "optional": \(optional), "indexed": \(pk), "primaryKey": \(pk),
             "collection": \(collection.map { "\"\($0)\"" } ?? "null"), "objectType": \(objectType.map { "\"\($0)\"" } ?? "null"), "linkOrigin": null}
            """
        }
        let schema = """
            [{"name": "Item", "primaryKey": "id", "embedded": false, "properties": [\(property("id", "int", pk: true)),
                \(property("any", "mixed", optional: true)), \(property("anyList", "mixed", optional: true, collection: "list")),
                \(property("owned", "object", optional: true, objectType: "Part"))]},
             {"name": "Tag", "primaryKey": "name", "embedded": false, "properties": [\(property("name", "string", pk: true))]},
             {"name": "Part", "primaryKey": null, "embedded": true, "properties": [\(property("size", "int"))]}]
            """
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: try JSONParser.parse(schema), schemaVersion: 1)
        let bytes = NewFile.bytes(tableNames: names, tables: try models.map { try TableEncoder.encode($0) })
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func assertVerifies(line: UInt = #line) throws {
        let report = Verifier.verify(try Snapshot(path: path))
        XCTAssertEqual(report.problems.map(\.description), [], line: line)
    }

    func text(_ s: String) -> Value { .string(Array(s.utf8)) }

    /// Items by id: (any, anyList).
    func items() throws -> [Int64: (Value, Value)] {
        let file = try RealmFile(path: path)
        let item = try XCTUnwrap(file.objectClass(named: "Item"))
        var out: [Int64: (Value, Value)] = [:]
        try file.forEachObject(of: item) { _, row in
            if case let .int(id) = row[0] { out[id] = (row[1], row[2]) }
        }
        return out
    }

    func testTypedLinksInMixedValuesGetBacklinksInANewBacklinkColumn() throws {
        let w = try RealmWriter(path: path)
        let tag = try XCTUnwrap(w.file.objectClass(named: "Tag")), item = try XCTUnwrap(w.file.objectClass(named: "Item"))
        XCTAssertTrue(tag.backlinks.isEmpty)
        let red = try w.create(tag, values: [text("red")]), blue = try w.create(tag, values: [text("blue")])
        let one = try w.create(item, values: [.int(1), .typedLink(table: tag.table.key, key: red),
                                              .list([.typedLink(table: tag.table.key, key: blue), .int(3), .typedLink(table: tag.table.key, key: blue)]), .null])
        // A link to an Item from an Item: the origin table gets the backlink column itself.
        try w.create(item, values: [.int(2), .typedLink(table: item.table.key, key: one), .list([]), .null])
        try w.commit()
        try assertVerifies()

        let file = try RealmFile(path: path)
        XCTAssertEqual(file.objectClass(named: "Tag")?.backlinks.map { $0.originProperty }, ["any", "anyList"])
        XCTAssertEqual(file.objectClass(named: "Item")?.backlinks.map { $0.originProperty }, ["any"])
        let stored = try items()
        XCTAssertEqual(stored[1]?.0, .typedLink(table: tag.table.key, key: red))
        XCTAssertEqual(stored[1]?.1, .list([.typedLink(table: tag.table.key, key: blue), .int(3), .typedLink(table: tag.table.key, key: blue)]))
        XCTAssertEqual(stored[2]?.0, .typedLink(table: item.table.key, key: one))
    }

    func testSettingAndDeletingMoveAndRepairTheLinks() throws {
        var w = try RealmWriter(path: path)
        let tag = try XCTUnwrap(w.file.objectClass(named: "Tag")), item = try XCTUnwrap(w.file.objectClass(named: "Item"))
        let red = try w.create(tag, values: [text("red")]), blue = try w.create(tag, values: [text("blue")])
        let one = try w.create(item, values: [.int(1), .null, .list([]), .null])
        let any = try XCTUnwrap(item.property(named: "any")), anyList = try XCTUnwrap(item.property(named: "anyList"))
        try w.set(item, key: one, any, .typedLink(table: tag.table.key, key: red))
        try w.set(item, key: one, anyList, .list([.typedLink(table: tag.table.key, key: red), .typedLink(table: tag.table.key, key: blue)]))
        try w.commit()
        try assertVerifies()

        w = try RealmWriter(path: path)
        try w.set(item, key: one, any, .typedLink(table: tag.table.key, key: blue))
        try w.commit()
        try assertVerifies()

        w = try RealmWriter(path: path)
        try w.delete(className: "Tag", keys: [blue])
        try w.commit()
        try assertVerifies()
        XCTAssertEqual(try items()[1]?.0, .null, "a Mixed value linking to a deleted object becomes null")
        XCTAssertEqual(try items()[1]?.1, .list([.typedLink(table: tag.table.key, key: red)]), "list entries linking to it go")
    }

    func testLinksRealmRefusesInMixedValuesAreInputErrors() throws {
        let w = try RealmWriter(path: path)
        let tag = try XCTUnwrap(w.file.objectClass(named: "Tag")), item = try XCTUnwrap(w.file.objectClass(named: "Item"))
        let part = try XCTUnwrap(w.file.objectClass(named: "Part"))
        let one = try w.create(item, values: [.int(1), .null, .list([]), .null])
        try w.update(className: "Item", keys: [one], values: try JSONParser.parse(#"{"owned": {"size": 3}}"#))
        let any = try XCTUnwrap(item.property(named: "any"))
        func message(_ value: Value) -> String? {
            do {
                try w.set(item, key: one, any, value)
                return nil
            } catch let error as InputError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message(.typedLink(table: tag.table.key, key: 99)), "Item.any: no Tag object has key 99")
        XCTAssertEqual(message(.typedLink(table: part.table.key, key: 0)), "Item.any: cannot link to embedded object (Part)")
        XCTAssertEqual(message(.link(0)), "Item.any: expects an optional mixed, got {\"$key\":0}",
                       "a link in a Mixed value names its table (realm-core: \"Link must be fully qualified\")")
        w.rollback()
    }
}
