import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// `RealmWriter.update(_:keys:_:transform:)`, the leaf-by-leaf update of one property of many
/// objects, pinned against `value` then `set` object by object on the same file: the same
/// objects on every column, both files verified (ours and realm-core's check when present);
/// a missing key, a failing transform and a value of the wrong type leave the file as it was.
final class BulkUpdateTests: XCTestCase {
    /// The 3,000-Item file, made once for all the tests (its deletes take seconds in debug).
    static let template: String? = try? SmallItemsFile.make(in: Fixtures.temporaryDirectory())
    var dir = ""

    override class func tearDown() {
        if let template { try? FileManager.default.removeItem(atPath: (template as NSString).deletingLastPathComponent) }
    }
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func copy(_ name: String) throws -> String {
        let template = try XCTUnwrap(Self.template, "the 3,000-Item file was made")
        let path = dir + "/" + name + ".realm"
        try FileManager.default.copyItem(atPath: template, toPath: path)
        return path
    }

    /// One change of one property: which objects, and the new value from the old one.
    struct Change {
        let property: String
        let keys: [Int64]
        let transform: (Int64, Value) -> Value
    }

    /// Scattered deletes (general-form leaves), then the changes (each key list ascending).
    /// Changes cover a double, an int, a bool, a date, an int? (null to int, int to null), a
    /// string, a string? and an indexed string changed on most objects (its index built at
    /// commit); selections cross leaf boundaries (256 objects a leaf) and take whole leaves.
    func changes(_ keys: [Int64]) -> [Change] {
        let third = keys.filter { $0 % 3 == 0 }
        let run = keys.filter { (200..<800).contains($0) }
        return [
            Change(property: "score", keys: third) { _, v in if case let .double(d) = v { return .double(d + 1) }; return v },
            Change(property: "quantity", keys: run) { k, _ in .int(k * 7 - 1000) },
            Change(property: "active", keys: keys.filter { $0 % 5 == 1 }) { k, _ in .bool(k % 2 == 0) },
            Change(property: "created", keys: run) { k, _ in .timestamp(Timestamp(seconds: 1_600_000_000 + k, nanoseconds: 5)) },
            Change(property: "optInt", keys: keys) { k, v in v == .null ? .int(-k) : k % 4 == 0 ? .null : v },
            Change(property: "name", keys: keys.filter { $0 % 7 == 2 }) { k, _ in .string(Array("renamed \(k)".utf8)) },
            Change(property: "optString", keys: third) { k, v in k % 2 == 0 ? .null : .string(Array("opt \(k)".utf8)) },
            Change(property: "category", keys: keys.filter { $0 % 10 != 9 }) { k, _ in .string(Array("cat \(k % 13)".utf8)) },
        ]
    }

    func deleteScattered(_ path: String) throws -> [Int64] {
        let writer = try RealmWriter(path: path)
        try writer.delete(className: "Item", keys: try SmallItemsFile.itemKeys(path).filter { $0 % 50 == 3 })
        try writer.commit()
        return try SmallItemsFile.itemKeys(path)
    }

    func testBulkUpdateGivesTheObjectsOfPerObjectUpdates() throws {
        let bulk = try copy("bulk"), single = try copy("single")
        let keys = try deleteScattered(bulk)
        XCTAssertEqual(try deleteScattered(single), keys)

        let perObject = try RealmWriter(path: single)
        let c1 = try XCTUnwrap(perObject.file.objectClass(named: "Item"))
        for change in changes(keys) {
            let p = try XCTUnwrap(c1.property(named: change.property))
            for key in change.keys { try perObject.set(c1, key: key, p, change.transform(key, try perObject.value(c1, key: key, p))) }
        }
        try perObject.commit()

        let writer = try RealmWriter(path: bulk)
        let c2 = try XCTUnwrap(writer.file.objectClass(named: "Item"))
        var updated = 0
        for change in changes(keys) {
            let p = try XCTUnwrap(c2.property(named: change.property))
            // Reversed, with a repeat: each object is still changed once.
            let given = change.property == "quantity" ? change.keys.reversed() + change.keys.prefix(3) : change.keys
            var next = change.keys.makeIterator()
            updated += try writer.update(c2, keys: given, p) { old in change.transform(next.next()!, old) }
        }
        XCTAssertEqual(updated, perObject.summary.updated, "each object counted once per property")
        XCTAssertEqual(writer.summary.updated, perObject.summary.updated)
        try writer.commit()

        let bulkRows = try SmallItemsFile.rows(bulk), singleRows = try SmallItemsFile.rows(single)
        XCTAssertEqual(bulkRows.count, keys.count)
        XCTAssertEqual(bulkRows, singleRows, "the same Items through either path")
        XCTAssertEqual(try SmallItemsFile.rows(bulk, "Bucket"), try SmallItemsFile.rows(single, "Bucket"))
        // Item 0 as the fixture has it: score -147.66, optInt null, category "books".
        let file = try RealmFile(path: bulk)
        let item = try XCTUnwrap(file.objectClass(named: "Item"))
        var first: [Value] = []
        try file.forEachObject(of: item) { key, values in if key == 0 { first = Array(values) } }
        let value = { (name: String) in first[item.properties.firstIndex { $0.name == name }!] }
        XCTAssertEqual(value("score"), .double(-147.66 + 1))
        XCTAssertEqual(value("optInt"), .int(0))
        XCTAssertEqual(value("category"), .string(Array("cat 0".utf8)))
        // The verifiers check the category index (built again at commit) against the column.
        for path in [bulk, single] { try SmallItemsFile.assertVerifies(path) }
    }

    /// Runs `body` on a writer of a fresh copy, expects it to throw an `InputError` whose
    /// message contains `expected`, commits what is left, and checks the file did not change.
    func assertNothingWritten(_ expected: String, _ body: (RealmWriter, ObjectClass) throws -> Void) throws {
        let path = try copy("refused-" + UUID().uuidString)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let writer = try RealmWriter(path: path)
        let c = try XCTUnwrap(writer.file.objectClass(named: "Item"))
        XCTAssertThrowsError(try body(writer, c)) { error in
            guard let error = error as? InputError else { return XCTFail("not an InputError: \(error)") }
            XCTAssertTrue(error.message.contains(expected), error.message)
        }
        XCTAssertEqual(writer.summary.updated, 0)
        try writer.commit()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the file is unchanged")
    }

    func testAKeyNotInTheTableFailsWithNothingWritten() throws {
        try assertNothingWritten("no object with key 3000") { writer, c in
            try writer.update(c, keys: [0, 1, 255, 256, 3000], try XCTUnwrap(c.property(named: "quantity"))) { _ in .int(1) }
        }
    }

    func testAValueOfTheWrongTypeFailsBeforeAnythingIsWritten() throws {
        // Only the last object's new value is wrong: the others were not written either.
        try assertNothingWritten("expects double, got") { writer, c in
            var n = 0
            try writer.update(c, keys: Array(0..<3000), try XCTUnwrap(c.property(named: "score"))) { old in
                n += 1
                guard n == 3000, case .double = old else { return .double(Double(n)) }
                return .string(Array("x".utf8))
            }
        }
        try assertNothingWritten("expects an optional int, got") { writer, c in
            var n = 0
            try writer.update(c, keys: Array(0..<600), try XCTUnwrap(c.property(named: "optInt"))) { _ in
                n += 1
                return n == 600 ? .double(1) : .null
            }
        }
        try assertNothingWritten("a primary key cannot be changed") { writer, c in
            try writer.update(c, keys: [1], try XCTUnwrap(c.property(named: "id"))) { _ in .int(5000) }
        }
    }

    func testAFailingTransformFailsWithNothingWritten() throws {
        struct Refused: Error {}
        let path = try copy("transform")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let writer = try RealmWriter(path: path)
        let c = try XCTUnwrap(writer.file.objectClass(named: "Item"))
        var n = 0
        XCTAssertThrowsError(try writer.update(c, keys: Array(0..<1000), try XCTUnwrap(c.property(named: "quantity"))) { _ in
            n += 1
            if n == 1000 { throw Refused() }
            return .int(7)
        }) { XCTAssertTrue($0 is Refused) }
        try writer.commit()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the file is unchanged")
    }

    /// The `update --set`/`--json` path (`update(className:keys:values:)`): plain scalars go
    /// leaf by leaf; the result is that of setting each object's properties one by one.
    func testJSONUpdateGivesTheObjectsOfPerObjectSets() throws {
        let bulk = try copy("json"), single = try copy("json-single")
        let keys = try SmallItemsFile.itemKeys(bulk).filter { $0 % 4 == 1 || (250..<260).contains($0) }
        let writer = try RealmWriter(path: bulk)
        try writer.update(className: "Item", keys: keys, values: try JSONParser.parse(
            #"{"quantity": 5, "optString": null, "active": true, "optInt": 12, "category": "updated", "created": {"$date": "2020-01-02T03:04:05Z"}}"#))
        XCTAssertEqual(writer.summary.updated, keys.count)
        try writer.commit()

        let perObject = try RealmWriter(path: single)
        let c = try XCTUnwrap(perObject.file.objectClass(named: "Item"))
        let p = { (name: String) throws -> Property in try XCTUnwrap(c.property(named: name)) }
        for key in keys {
            try perObject.set(c, key: key, try p("quantity"), .int(5))
            try perObject.set(c, key: key, try p("optString"), .null)
            try perObject.set(c, key: key, try p("active"), .bool(true))
            try perObject.set(c, key: key, try p("optInt"), .int(12))
            try perObject.set(c, key: key, try p("category"), .string(Array("updated".utf8)))
            try perObject.set(c, key: key, try p("created"), .timestamp(Timestamp(seconds: 1_577_934_245, nanoseconds: 0)))
        }
        try perObject.commit()
        XCTAssertEqual(try SmallItemsFile.rows(bulk), try SmallItemsFile.rows(single), "the same Items through either path")
        try SmallItemsFile.assertVerifies(bulk)
    }
}
