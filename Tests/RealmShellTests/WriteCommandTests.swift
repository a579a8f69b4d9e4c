import Foundation
import RealmTestSupport
import XCTest

/// `create`, `insert`, `upsert`, `import`, `update`, `delete` (issue #4): every commit verifies,
/// exports exactly the expected objects, and a failing command leaves the file byte for byte.
final class WriteCommandTests: XCTestCase {
    var dir = ""
    var file = ""
    let schema = Fixtures.packageRoot.appendingPathComponent("Fixtures/schemas/shop.json").path

    override func setUpWithError() throws {
        dir = Fixtures.temporaryDirectory()
        file = dir + "/shop.realm"
        let run = realmsh("create", "--schema", schema, "--schema-version", "3", file)
        XCTAssertEqual(run.code, 0, run.stderr)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func assertVerifies(_ line: UInt = #line) {
        let run = realmsh("verify", file)
        XCTAssertEqual(run.code, 0, run.out, line: line)
    }

    func objects(_ className: String) throws -> [[String: Any]] {
        let run = realmsh("export", "--format", "jsonl", "--class", className, file)
        XCTAssertEqual(run.code, 0, run.stderr)
        return try run.out.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file)) }

    func testCreateLaysOutTheSchemaAnSDKWould() throws {
        assertVerifies()
        let info = realmsh("info", "--format", "json", file)
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout)) as! [String: Any]
        XCTAssertEqual(object["formatVersion"] as? Int, 24)
        XCTAssertEqual(object["schemaVersion"] as? Int, 3)
        XCTAssertEqual(object["historyType"] as? Int, 2)
        XCTAssertEqual(object["historySchemaVersion"] as? Int, 1)
        // The schema reads back as given, plus the backlinks each link creates.
        let written = try JSONSerialization.jsonObject(with: Data(realmsh("schema", "--format", "json", file).stdout)) as! [[String: Any]]
        let given = (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: schema))) as! [[String: Any]])
            .sorted { ($0["name"] as! String) < ($1["name"] as! String) }
        XCTAssertEqual(written.map { $0["name"] as! String }, given.map { $0["name"] as! String })
        for (w, g) in zip(written, given) {
            XCTAssertEqual(NSArray(array: w["properties"] as! [Any]), NSArray(array: g["properties"] as! [Any]), g["name"] as! String)
        }
        let person = written.first { $0["name"] as? String == "Person" }!
        let backlinks = (person["backlinks"] as! [[String: String]]).map { "\($0["originClass"]!).\($0["originProperty"]!)" }
        XCTAssertEqual(Set(backlinks), ["Dog.owner", "Person.bestFriend", "Note.about"])
        XCTAssertEqual(realmsh("create", "--schema", schema, file).code, 73, "an existing file is not replaced")
    }

    func testInsertThenExportShowsTheObjectsWithLinksAndEmbeddedObjects() throws {
        var run = realmsh("insert", file, "Dog", #"[{"name": "Rex", "age": 3}, {"name": "Fido"}]"#)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("inserted 2"), run.stderr)
        assertVerifies()
        run = realmsh("insert", file, "Person", """
            {"id": 1, "name": "Ada", "age": 36, "active": true, "dogs": ["Rex", "Fido", "Rex"],
             "address": {"city": "London"}, "born": "1815-12-10T00:00:00Z", "tags": ["b", "a", "b"],
             "scores": [3, null, 1], "meta": {"k": 1, "j": "x"}, "extra": 2.5,
             "token": {"$oid": "0123456789abcdef01234567"}, "balance": {"$numberDecimal": "1.50"}, "weight": 61.5}
            """)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        let people = try objects("Person")
        XCTAssertEqual(people.count, 1)
        let ada = people[0]
        XCTAssertEqual(ada["name"] as? String, "Ada")
        XCTAssertEqual(ada["dogs"] as? [String], ["Rex", "Fido", "Rex"])
        XCTAssertEqual((ada["address"] as? [String: Any])?["city"] as? String, "London")
        XCTAssertEqual(ada["tags"] as? [String], ["a", "b"], "sets are stored sorted and unique")
        XCTAssertEqual((ada["born"] as? [String: String])?["$date"], "1815-12-10T00:00:00Z")
        XCTAssertEqual((ada["balance"] as? [String: String])?["$numberDecimal"], "1.50")
        XCTAssertEqual(ada["scores"] as? NSArray, [3, NSNull(), 1] as NSArray)
        // Backlinks: Rex is linked twice from Ada's list.
        let dogs = realmsh("query", file, "Dog", "@links.Person.dogs.@count == 2", "--format", "count")
        if dogs.code == 0 { XCTAssertEqual(dogs.out, "1\n") }
    }

    func testStrictTypesAndUniquePrimaryKeysLeaveTheFileUntouched() throws {
        XCTAssertEqual(realmsh("insert", file, "Dog", #"{"name": "Rex"}"#).code, 0)
        let before = try bytes()
        let cases: [(String, String, String)] = [
            ("Dog", #"{"name": "Rex"}"#, "already exists"),
            ("Dog", #"[{"name": "Max"}, {"name": 5}]"#, "object 1: Dog.name: expects a string, got the number 5"),
            ("Person", #"{"id": 2, "name": "Bo", "active": true}"#, "Person.age: is required but missing"),
            ("Person", #"{"id": 2, "name": "Bo", "age": 1, "active": true, "nmae": "x"}"#, "Person.nmae: no such property"),
            ("Person", #"{"id": 2, "name": "Bo", "age": 1, "active": true, "dogs": ["Nobody"]}"#, "no Dog object has primary key \"Nobody\""),
            ("Person", #"{"id": 2, "name": "Bo", "age": 1.5, "active": true}"#, "Person.age: expects an int"),
            ("Address", #"{"city": "X"}"#, "embedded objects are created inside their parent"),
            ("Cat", #"{}"#, "Cat: no such class"),
        ]
        for (className, json, message) in cases {
            let run = realmsh("insert", file, className, json)
            XCTAssertEqual(run.code, 65, "\(json): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(json): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("nothing was written"), run.stderr)
            XCTAssertEqual(try bytes(), before, "\(json) changed the file")
        }
        XCTAssertEqual(realmsh("insert", file, "Dog", "{not json").code, 65)
        XCTAssertEqual(try bytes(), before)
    }

    func testUpsertUpdatesByPrimaryKeyAndReplacesEmbeddedObjects() throws {
        XCTAssertEqual(realmsh("insert", file, "Person", #"{"id": 1, "name": "Ada", "age": 36, "active": true, "address": {"city": "London"}}"#).code, 0)
        let run = realmsh("upsert", file, "Person", #"[{"id": 1, "age": 37, "address": {"city": "Paris"}}, {"id": 2, "name": "Bo", "age": 5, "active": false}]"#)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("inserted 1, updated 1"), run.stderr)
        assertVerifies()
        let people = try objects("Person")
        XCTAssertEqual(people.map { $0["age"] as? Int }, [37, 5])
        XCTAssertEqual(people[0]["name"] as? String, "Ada", "properties missing from an update are kept")
        XCTAssertEqual((people[0]["address"] as? [String: Any])?["city"] as? String, "Paris")
        XCTAssertTrue(realmsh("info", file).out.contains("Address   1 object"), "the replaced embedded object is gone")
    }

    func testImportCreatesNestedObjectsAndDeleteRepairsLinks() throws {
        let data = dir + "/people.json"
        try Data("""
            [{"id": 1, "name": "Ada", "age": 36, "active": true, "dogs": [{"name": "Rex", "age": 2}, {"name": "Fido"}]},
             {"id": 2, "name": "Bo", "age": 5, "active": false, "bestFriend": 1, "dogs": ["Rex"]}]
            """.utf8).write(to: URL(fileURLWithPath: data))
        var run = realmsh("import", file, "Person", data)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(try objects("Dog").count, 2)
        run = realmsh("insert", file, "Note", #"{"text": "hi", "about": 1}"#)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        run = realmsh("delete", file, "Person", "--where", "id == 1")
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        let people = try objects("Person")
        XCTAssertEqual(people.count, 1)
        XCTAssertTrue(people[0]["bestFriend"] is NSNull, "a to-one link to a deleted object becomes null")
        XCTAssertTrue(try objects("Note")[0]["about"] is NSNull)
        run = realmsh("delete", file, "Dog", "--all")
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        XCTAssertEqual(try objects("Person")[0]["dogs"] as? [String], [], "list entries of deleted objects are removed")
    }

    func testUpdateSetsLiteralValues() throws {
        XCTAssertEqual(realmsh("insert", file, "Person", #"[{"id": 1, "name": "Ada", "age": 36, "active": true}, {"id": 2, "name": "Bo", "age": 5, "active": true}]"#).code, 0)
        let run = realmsh("update", file, "Person", "--where", "age > 30", "--set", "name='Lovelace'", "--set", "born=1815-12-10@00:00:00", "--set", "email=null")
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("updated 1"), run.stderr)
        assertVerifies()
        let people = try objects("Person")
        XCTAssertEqual(people.map { $0["name"] as? String }, ["Lovelace", "Bo"])
        XCTAssertEqual((people[0]["born"] as? [String: String])?["$date"], "1815-12-10T00:00:00Z")
        XCTAssertEqual(realmsh("update", file, "Person", "--all", "--set", "id=9").code, 65, "primary keys do not change")
    }

    func testWritesIntoRealmCoreFilesKeepEverythingElse() throws {
        let copy = dir + "/alltypes.realm"
        try FileManager.default.copyItem(atPath: Fixtures.path("realm-core/alltypes.realm"), toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        let before = realmsh("export", copy).out
        let run = realmsh("insert", copy, "LinkTarget", #"{"_id": "new-target", "value": 7}"#)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(realmsh("verify", copy).code, 0, realmsh("verify", copy).out)
        let after = realmsh("export", copy).out
        XCTAssertNotEqual(before, after)
        XCTAssertTrue(after.contains("\"new-target\""))
        // Every other class exports exactly as before.
        for className in ["AllTypes", "IntPK", "UUIDPK", "NoPK", "OptIntPK", "OptStringPK"] {
            XCTAssertEqual(realmsh("export", "--class", className, copy).out, realmsh("export", "--class", className, Fixtures.path("realm-core/alltypes.realm")).out, className)
        }
    }

    func testAWriteWaitsForNoOneAndStopsWhileAnAppHoldsTheFile() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: file + ".lock", contents: Data()))
        let fd = open(file + ".lock", O_RDWR)
        XCTAssertEqual(flock(fd, LOCK_SH), 0)
        defer { close(fd) }
        let before = try bytes()
        let run = realmsh("insert", file, "Dog", #"{"name": "Rex"}"#)
        XCTAssertEqual(run.code, 75, run.stderr)
        XCTAssertTrue(run.stderr.contains("open in another process"), run.stderr)
        XCTAssertEqual(try bytes(), before)
    }
}
