import XCTest
import Foundation
import RealmFormat
import RealmObjects
@testable import RealmBrowser
import RealmTestSupport

/// Writes from the browser (`--write`): strictly typed edits, new objects, deletes with their
/// confirmation; each one transaction through RealmWriter, on copies of the fixtures.
final class EditTests: XCTestCase {
    var directory = ""

    override func tearDown() {
        if !directory.isEmpty { try? FileManager.default.removeItem(atPath: directory) }
    }

    func copy(_ fixture: String) throws -> String {
        let (dir, path) = try BrowserFixtures.copy(fixture)
        directory = dir
        return path
    }

    func value(_ path: String, _ className: String, key: Int64, _ property: String) throws -> Value {
        let file = try RealmFile(path: path)
        let c = try XCTUnwrap(file.objectClass(named: className))
        var found: Value?
        try file.forEachObject(of: c, properties: [try XCTUnwrap(c.property(named: property))]) { k, values in
            if k == key { found = values[0] }
        }
        return try XCTUnwrap(found, "\(className) #\(key) is gone")
    }

    func assertVerifies(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let report = Verifier.verify(try Snapshot(path: path))
        XCTAssertTrue(report.isOK, "\(report.problems)", file: file, line: line)
    }

    func testEditsAreStrictAndEachCommitsOnce() throws {
        let path = try copy("realm-core/basic.realm")
        let session = try BrowserFixtures.session(path, className: "Person", writable: true)
        XCTAssertTrue(session.screen[0].hasSuffix(" WRITABLE "))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let version = session.version
        session.table?.moveTo(column: "age")
        session.type(.character("e"))
        XCTAssertEqual(session.input?.prompt, "age (int) = ")
        XCTAssertEqual(session.input?.text, "18")
        session.type(.control("u"))
        session.type(text: "123abc")
        session.type(.enter)
        XCTAssertEqual(session.message?.text, "age expects an int; '123abc' is not one (nothing was written)")
        XCTAssertNotNil(session.input, "the value stays in the line to be fixed")
        XCTAssertEqual(session.screen[session.size.rows - 2].trimmingCharacters(in: .whitespaces), session.message?.text, "shown above the line")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)

        session.type(.control("u"))
        session.type(text: "40")
        session.type(.enter)
        XCTAssertNil(session.input)
        XCTAssertEqual(session.message?.style, .success, session.message?.text ?? "")
        XCTAssertEqual(try value(path, "Person", key: 0, "age"), .int(40))
        XCTAssertEqual(session.version, version + 1)
        XCTAssertEqual(session.table?.columnTexts("age").first, "40", "the table shows the committed value")
        try assertVerifies(path)

        // null: allowed for an optional property, refused for a required one.
        session.table?.moveTo(column: "email")
        session.type(.down, .character("e"), .control("u"))
        session.type(text: "null")
        session.type(.enter)
        XCTAssertEqual(try value(path, "Person", key: 1, "email"), .null)
        session.table?.moveTo(column: "name")
        session.type(.character("e"), .control("u"))
        session.type(text: "null")
        session.type(.enter)
        XCTAssertTrue(session.message?.text.hasPrefix("name is required (string); null is not allowed") == true, session.message?.text ?? "")
        session.type(.escape)
        XCTAssertEqual(try value(path, "Person", key: 1, "name"), .string(Array("Bob".utf8)))

        // A link by ObjKey; a key that names nothing is refused by the writer.
        session.table?.moveTo(column: "bestFriend")
        session.type(.character("e"), .control("u"))
        session.type(text: "#4")
        session.type(.enter)
        XCTAssertEqual(try value(path, "Person", key: 1, "bestFriend"), .link(4))
        let afterLink = try Data(contentsOf: URL(fileURLWithPath: path))
        session.type(.character("e"), .control("u"))
        session.type(text: "#99")
        session.type(.enter)
        XCTAssertEqual(session.message?.style, .error)
        XCTAssertTrue(session.message?.text.contains("no Person object has key 99") == true, session.message?.text ?? "")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), afterLink)

        // Dates in ISO 8601, nanoseconds kept.
        session.table?.moveTo(column: "birthday")
        session.type(.character("e"), .control("u"))
        session.type(text: "2020-01-02T03:04:05.000000007Z")
        session.type(.enter)
        XCTAssertEqual(try value(path, "Person", key: 1, "birthday"), .timestamp(Timestamp(seconds: 1_577_934_245, nanoseconds: 7)))

        // Lists and the ObjKey are not edited in place.
        session.table?.moveTo(column: "dogs")
        session.type(.character("e"))
        XCTAssertNil(session.input)
        XCTAssertTrue(session.message?.text.contains("realmsh update --json") == true)
        try assertVerifies(path)
    }

    func testReadOnlySessionRefusesWritesAndTouchesNothing() throws {
        let path = try copy("realm-core/basic.realm")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let session = try BrowserFixtures.session(path, className: "Person")
        XCTAssertTrue(session.screen[0].hasSuffix(" READ-ONLY "))
        for key: Key in [.character("e"), .character("n"), .character("D")] {
            session.handle(key)
            XCTAssertTrue(session.message?.text.hasPrefix("Read-only") == true)
        }
        // Browsing about: filter, sort, links, detail, backlinks, search.
        session.type(.character(":"))
        session.type(text: "age > 30")
        session.type(.enter, .character("l"), .character("s"), .character("d"), .backspace, .character("b"), .enter,
                     .backspace, .backspace, .character("/"))
        session.type(text: "a")
        session.type(.enter, .character("R"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"), "a read-only browse never creates the .lock")
    }

    func testNewObjectAsksForEachRequiredValue() throws {
        let path = try copy("realm-core/basic.realm")
        let session = try BrowserFixtures.session(path, className: "Person", writable: true)
        session.type(.character("n"))
        XCTAssertEqual(session.input?.prompt, "new Person 1/3: name (string) = ")
        session.type(text: "Zed")
        session.type(.enter)
        XCTAssertEqual(session.input?.prompt, "new Person 2/3: age (int) = ")
        session.type(.control("u"))
        session.type(text: "seven")
        session.type(.enter)
        XCTAssertEqual(session.message?.text, "age expects an int; 'seven' is not one (nothing was written)")
        session.type(.control("u"))
        session.type(text: "7")
        session.type(.enter)
        XCTAssertEqual(session.input?.prompt, "new Person 3/3: isAdmin (bool) = ")
        XCTAssertEqual(session.input?.text, "false")
        session.type(.enter)
        XCTAssertEqual(session.message?.style, .success, session.message?.text ?? "")
        let table = try XCTUnwrap(session.table)
        XCTAssertEqual(table.rowCount, 11)
        XCTAssertEqual(table.columnTexts("name")[table.cursor], "Zed")
        XCTAssertEqual(table.columnTexts("age")[table.cursor], "7")
        XCTAssertEqual(table.columnTexts("dogs")[table.cursor], "[0 Dog]")
        XCTAssertEqual(table.columnTexts("email")[table.cursor], "null")
        try assertVerifies(path)

        // Embedded objects are created inside their parent only.
        let all = try copy("realm-core/alltypes.realm")
        let embedded = try BrowserFixtures.session(all, className: "EmbeddedObj", writable: true)
        embedded.type(.character("n"))
        XCTAssertNil(embedded.input)
        XCTAssertTrue(embedded.message?.text.contains("embedded") == true)
    }

    func testDeleteAsksNamingWhatItNullifiesRemovesAndCascadesTo() throws {
        let path = try copy("realm-core/basic.realm")
        let session = try BrowserFixtures.session(path, className: "Dog", writable: true)
        let people = try BrowserFixtures.objects("realm-core/basic.realm", "Person")
        let holders = people.filter { ($0["dogs"] as! [Any]).compactMap(BrowserFixtures.key).contains(0) }
        let entries = people.reduce(0) { $0 + ($1["dogs"] as! [Any]).compactMap(BrowserFixtures.key).filter { $0 == 0 }.count }
        session.type(.character("D"))
        XCTAssertEqual(session.confirmation?.question,
                       "Delete Dog(#0)? This removes \(entries) entries from Person.dogs of \(holders.count) objects. [y/N]")
        XCTAssertTrue(session.screen.last!.hasPrefix("Delete Dog(#0)?"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        session.type(.character("n"))
        XCTAssertEqual(session.message?.text, "Nothing was deleted.")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)

        session.type(.character("D"), .character("y"))
        XCTAssertEqual(session.message?.style, .success, session.message?.text ?? "")
        XCTAssertEqual(session.table?.rowCount, 7)
        guard case let .list(aliceDogs) = try value(path, "Person", key: 0, "dogs") else { return XCTFail("not a list") }
        XCTAssertEqual(aliceDogs, [.link(4)])
        try assertVerifies(path)

        // A person: the dogs it owns lose their owner.
        session.show(className: "Person")
        session.type(.character("D"))
        let owned = try BrowserFixtures.objects("realm-core/basic.realm", "Dog").filter { BrowserFixtures.key($0["owner"]) == 0 && ($0["_key"] as! NSNumber).int64Value != 0 }
        XCTAssertEqual(session.confirmation?.question, "Delete Person(#0)? This sets Dog.owner to null in \(owned.count == 1 ? "1 object" : "\(owned.count) objects"). [y/N]")
        session.type(.escape)

        // Embedded objects go with their owner.
        let all = try copy("realm-core/alltypes.realm")
        let allTypes = try BrowserFixtures.session(all, className: "AllTypes", writable: true)
        allTypes.type(.down, .character("D"))
        let question = try XCTUnwrap(allTypes.confirmation?.question)
        XCTAssertTrue(question.contains("embedded objects with it (") && question.contains("EmbeddedObj"), question)
        allTypes.type(.character("y"))
        XCTAssertEqual(allTypes.table?.rowCount, 7)
        try assertVerifies(all)
    }

    func testAnotherProcessCommitRefreshesTheView() throws {
        let path = try copy("realm-core/basic.realm")
        let session = try BrowserFixtures.session(path, className: "Person")
        session.type(.down, .down)
        XCTAssertFalse(session.checkForChanges())
        let writer = try RealmWriter(path: path)
        try writer.update(className: "Person", keys: [2], values: .object([(key: "age", value: .number("77"))]))
        try writer.commit()
        XCTAssertTrue(session.checkForChanges())
        XCTAssertTrue(session.message?.text.contains("now version") == true, session.message?.text ?? "")
        let table = try XCTUnwrap(session.table)
        XCTAssertEqual(table.cursor, 2, "the cursor stays on the object it was on")
        XCTAssertEqual(table.columnTexts("age")[2], "77")
    }
}
