import Foundation
import RealmTestSupport
import XCTest

/// `realmsh migrate` and `schema --diff` (issue #7): the schema_v3 fixture migrated to v4 exports
/// the hand-written dump; every operation; failures leave the file byte for byte; encryption,
/// the lock, the generated script.
final class MigrateCommandTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func copyFixture(_ name: String) throws -> String { try Fixtures.copy(name, into: dir) }

    func script(_ text: String, name: String = "step.migration") throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func objects(_ path: String, _ className: String) throws -> [[String: Any]] {
        let run = realmsh("export", "--format", "jsonl", "--class", className, path)
        XCTAssertEqual(run.code, 0, run.stderr)
        return try run.out.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    func schema(_ path: String) throws -> [String: [String: [String: Any]]] {
        let run = realmsh("schema", "--format", "json", path)
        let classes = try JSONSerialization.jsonObject(with: Data(run.stdout)) as! [[String: Any]]
        var out = [String: [String: [String: Any]]]()
        for c in classes {
            var properties = [String: [String: Any]]()
            for p in c["properties"] as! [[String: Any]] { properties[p["name"] as! String] = p }
            out[c["name"] as! String] = properties
        }
        return out
    }

    func assertVerifies(_ path: String, line: UInt = #line) {
        let run = realmsh("verify", path)
        XCTAssertEqual(run.code, 0, run.out, line: line)
    }

    // MARK: the fixture

    func testSchemaV3MigratedToV4ExportsTheHandWrittenDump() throws {
        let path = try copyFixture("realm-core/schema_v3.realm")
        let step = Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.migration").path
        let expected = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.json"))
        let run = realmsh("migrate", path, step)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("schema version 3 → 4"), run.stderr)
        if let difference = DumpDifference.describe(fixture: "schema_v3 → v4", expected: expected, actual: Data(realmsh("export", path).stdout)) {
            XCTFail(difference)
        }
        assertVerifies(path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(),
                       ["schema_v3.realm", "schema_v3.realm.lock", "step.migration"].filter { $0 != "step.migration" })
        // Running it again finds nothing to do and writes nothing.
        let before = try bytes(path)
        let again = realmsh("migrate", path, step)
        XCTAssertEqual(again.code, 0)
        XCTAssertTrue(again.stderr.contains("nothing to do"), again.stderr)
        XCTAssertEqual(try bytes(path), before)
    }

    /// The same step on a copy whose string properties are enumerated (realm-format.md §9.4.4):
    /// the same objects; the migrated class is written plain again.
    func testSchemaV3EnumeratedMigratesToTheSameDump() throws {
        let path = dir + "/enumerated.realm"
        let compacted = realmsh("compact", "--enumerate-strings", "100", "-o", path, Fixtures.path("realm-core/schema_v3.realm"))
        XCTAssertEqual(compacted.code, 0, compacted.stderr)
        XCTAssertTrue(compacted.stderr.contains("Contact.fullName: 5 distinct values in 5 objects (100 %): enumerated\n"), compacted.stderr)
        let step = Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.migration").path
        let expected = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.json"))
        let run = realmsh("migrate", path, step)
        XCTAssertEqual(run.code, 0, run.stderr)
        if let difference = DumpDifference.describe(fixture: "enumerated schema_v3 → v4", expected: expected, actual: Data(realmsh("export", path).stdout)) {
            XCTFail(difference)
        }
        assertVerifies(path)
    }

    func testIssueExample() throws {
        let schemaPath = try script("""
            [{"name": "Person", "primaryKey": null, "embedded": false, "properties": [
              {"name": "firstName", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null},
              {"name": "lastName", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null}]}]
            """, name: "schema.json")
        let path = dir + "/people.realm"
        XCTAssertEqual(realmsh("create", "--schema", schemaPath, path).code, 0)
        XCTAssertEqual(realmsh("insert", path, "Person", #"[{"firstName": "Ada", "lastName": "Lovelace"}, {"firstName": "Alan", "lastName": "Turing"}]"#).code, 0)
        let step = try script("""
            version 1 {
              class Person {
                add fullName: string = firstName + " " + lastName
                remove firstName, lastName
              }
            }
            version 2 {
              class Person { add email: string = "" }
            }
            """)
        let run = realmsh("migrate", path, step)
        XCTAssertEqual(run.code, 0, run.stderr)
        let people = try objects(path, "Person")
        XCTAssertEqual(people.map { $0["fullName"] as? String }, ["Ada Lovelace", "Alan Turing"])
        XCTAssertEqual(people.map { $0["email"] as? String }, ["", ""])
        XCTAssertEqual(Set(try schema(path)["Person"]!.keys), ["fullName", "email"])
        let info = try JSONSerialization.jsonObject(with: Data(realmsh("info", "--format", "json", path).stdout)) as! [String: Any]
        XCTAssertEqual(info["schemaVersion"] as? Int, 2)
        assertVerifies(path)
    }

    // MARK: operations

    func testEveryOperation() throws {
        let path = try copyFixture("realm-core/basic.realm")
        let step = try script("""
            version 2 {
              add class Tag { label: string primary key; weight: int indexed }
              add embedded class Address { city: string }
              class Person {
                rename email -> mail                           // values kept
                add initial: string = substring(name, 0, 1)    // computed from the old object
                add address: Address?
                change age: string = "age " + string(age)      // type change with an expression
                change height: double = height ?? 0.0          // optional → required
                change isAdmin: bool?                          // required → optional, values kept
                set mail = lower(email) where "age > 30"     // expressions read the old object
                index initial
                unindex name
                remove nicknames
              }
              class Dog {
                delete where "age >= 7 OR age == nil"
                change age: int                                // optional → required: nulls are gone with the deleted dogs
                primary key name
              }
            }
            version 3 {
              rename class Dog -> Hound
              class Person { primary key name }
              remove class Tag
            }
            """)
        let run = realmsh("migrate", path, step)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies(path)
        let people = try objects(path, "Person")
        XCTAssertEqual(people.count, 10)
        let bob = people[1], charlie = people[2]
        XCTAssertEqual(bob["mail"] as? String, "Bob@example.com", "25: not lowered")
        XCTAssertEqual(charlie["mail"] as? String, "charlie@example.com")
        XCTAssertEqual(bob["initial"] as? String, "B")
        XCTAssertEqual(bob["age"] as? String, "age 25")
        XCTAssertEqual(bob["height"] as? Double, 0)
        XCTAssertEqual(charlie["height"] as? Double, 156.5)
        XCTAssertEqual(bob["isAdmin"] as? Bool, false)
        XCTAssertNil(bob["nicknames"])
        XCTAssertTrue(bob["address"] is NSNull)
        // Deleted dogs (Max: age null; Daisy, Buddy II: 7 and 8) leave the lists that held them.
        XCTAssertEqual(charlie["dogs"] as? [String], ["Bella", "Rex"], "Daisy is gone; links are by the new primary key")
        XCTAssertEqual((people[3]["dogs"] as? [Any])?.count, 0, "Diana's Max is gone")
        let hounds = try objects(path, "Hound")
        XCTAssertEqual(hounds.map { $0["name"] as? String }, ["Rex", "Fido", "Bella", "Luna", "Rocky"])
        XCTAssertEqual(hounds.map { $0["owner"] as? String }, ["Alice", "Bob", "Charlie", "Alice", "Bob"])
        let classes = try schema(path)
        XCTAssertEqual(Set(classes.keys), ["Address", "Hound", "Person"])
        XCTAssertEqual(classes["Person"]!["initial"]!["indexed"] as? Bool, true)
        XCTAssertEqual(classes["Person"]!["name"]!["primaryKey"] as? Bool, true)
        XCTAssertEqual(classes["Person"]!["isAdmin"]!["optional"] as? Bool, true)
        XCTAssertEqual(classes["Person"]!["dogs"]!["objectType"] as? String, "Hound")
        XCTAssertEqual(classes["Hound"]!["age"]!["optional"] as? Bool, false)
        // Backlinks follow: Rex is in Alice's and Charlie's lists.
        let links = realmsh("query", "--format", "count", path, "Hound", "@links.Person.dogs.@count == 2")
        XCTAssertEqual(links.out, "2\n", "Rex (Alice, Charlie) and Rocky (Frank twice)")
    }

    func testCollectionsMixedEmbeddedObjectsAndPrimaryKeys() throws {
        let out = dir + "/alltypes.realm"
        let step = try script("""
            version 10 {
              class AllTypes {
                remove embeddedCol                       // its embedded objects lose their owner and go
                set mixedCol = intCol
                add tagCount: int = count(stringList)
                change optIntCol: int = optIntCol ?? -1
                change indexedString: string? indexed = upper(indexedString)
                add copiedList: List<string> = stringList
                add setFromList: Set<int> = intList
                delete where "intCol == 0"               // its embedded objects go with it
              }
              class OptIntPK { change _id: int = _id ?? -7 }
              class IntPK { add small: int = _id % 1000 }
              rename class NoPK -> Plain
            }
            """)
        let run = realmsh("migrate", "-o", out, Fixtures.path("realm-core/alltypes.realm"), step)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies(out)
        let info = try JSONSerialization.jsonObject(with: Data(realmsh("info", "--format", "json", out).stdout)) as! [String: Any]
        let counts = Dictionary(uniqueKeysWithValues: (info["classes"] as! [[String: Any]]).map { ($0["name"] as! String, $0["objects"] as! Int) })
        XCTAssertEqual(counts, ["AllTypes": 7, "EmbeddedInner": 0, "EmbeddedObj": 9, "IntPK": 6, "LinkTarget": 8, "OptIntPK": 2,
                                "OptStringPK": 2, "Plain": 5, "UUIDPK": 4])
        XCTAssertEqual(realmsh("query", "--format", "count", out, "EmbeddedObj", "@links.@count != 1").out, "0\n", "every embedded object has one owner")
        XCTAssertEqual(try objects(out, "OptIntPK").map { $0["_id"] as? Int }, [-7, 5])
        let all = try objects(out, "AllTypes")
        for object in all {
            XCTAssertEqual(object["mixedCol"] as? Int, object["intCol"] as? Int)
            XCTAssertEqual((object["copiedList"] as? [String]), object["stringList"] as? [String])
            XCTAssertEqual(object["tagCount"] as? Int, (object["stringList"] as? [Any])?.count)
            XCTAssertEqual(object["setFromList"] as? [Int], Array(Set(object["intList"] as? [Int] ?? [])).sorted())
            XCTAssertNil(object["embeddedCol"])
        }
        let indexed = realmsh("query", "--format", "count", out, "AllTypes", "indexedString == 'HELLO'")
        XCTAssertEqual(indexed.code, 0, indexed.stderr)
    }

    func testDryRunPrintsThePlanAndWritesNothing() throws {
        let path = try copyFixture("realm-core/schema_v3.realm")
        let before = try bytes(path)
        let step = Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.migration").path
        let run = realmsh("migrate", "--dry-run", path, step)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.out, """
            \(path): schema version 3 → 4

            version 4:
              class Contact (5 objects, 5 rewritten)
                + firstName: string = split(fullName, " ", 0)
                + lastName: string = split(fullName, " ", -1)
                - fullName
                ~ phone: int → string (converted: string(phone))
                ~ age: string → int (converted: int(age))

            No problems found.

            """)
        XCTAssertEqual(try bytes(path), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"), "a dry run takes no lock")
    }

    // MARK: failures leave the file as it was

    func assertFails(_ text: String, exit code: Int32 = 65, _ messages: [String], line: UInt = #line) throws {
        try? FileManager.default.removeItem(atPath: dir + "/schema_v3.realm")
        let path = try copyFixture("realm-core/schema_v3.realm")
        let before = try bytes(path)
        let step = try script(text)
        let run = realmsh("migrate", path, step)
        XCTAssertEqual(run.code, code, run.stderr, line: line)
        for m in messages { XCTAssertTrue(run.stderr.contains(m), "\(m) not in: \(run.stderr)", line: line) }
        XCTAssertEqual(try bytes(path), before, "the file is untouched", line: line)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("tmp") }
        XCTAssertEqual(left, [], line: line)
    }

    func testAConversionFailingForOneObjectChangesNothing() throws {
        try assertFails("""
            version 4 { class Contact { set age = "x" + age where "fullName BEGINSWITH 'G'" } }
            version 5 { class Contact { change age: int } }
            """, [#"version 5: Contact object 2 (_key 2), age: cannot convert "x44" to int"#, "[script 2:41]", "nothing was written"])
        // The dry run lists the same problem.
        let path = dir + "/schema_v3.realm"
        let run = realmsh("migrate", "--dry-run", path, dir + "/step.migration")
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(run.out.contains("1 problem:\n  version 5: Contact object 2 (_key 2), age: cannot convert \"x44\" to int"), run.out)
    }

    func testADuplicatePrimaryKeyChangesNothing() throws {
        try assertFails("version 4 { class Contact { add code: int primary key = phone / 10000000 } }",
                        ["primary key 0 would be shared by objects _key 0 and _key 1 (primary keys must be unique)"])
        try assertFails("version 4 { class Category { set title = \"same\" } }",
                        [#"primary key "same" would be shared by objects title "same" and title "same""#])
    }

    func testScriptMistakesNameTheirPlace() throws {
        try assertFails("version 4 {\n  class Contact {\n    remove fulName\n  }\n}", ["step.migration:3:12: Contact has no property 'fulName'; did you mean 'fullName'?"])
        try assertFails("version 4 { class Contacts { } }", ["1:19: no class 'Contacts'; did you mean 'Contact'?"])
        try assertFails("version 4 { class Contact { add x: int = fullName } }", ["1:42: x is a int; a string cannot be stored in it"])
        try assertFails("version 4 { class Contact { delete where \"agee > 3\" } }", ["1:43: in the predicate: 'Contact' has no property 'agee'; did you mean 'age'?"])
        try assertFails("version 4 { remove class Category }", ["Contact.category links to Category, which this version removes"])
        try assertFails("version 4 { class Contact { change category: string } }", ["Category? values cannot be converted to string"])
        try assertFails("version 4 { class Contact { remove category }; remove class Category; add class Category { x: int } }",
                        ["1:81: class 'Category' is removed in this version; add it again in a later version"])
        try assertFails("version 4 { class Contact { add nick: string } }",
                        ["a new required property needs a value for the 5 existing objects: add nick: string = …"])
    }

    func testASetAfterChangeReplacesTheConversion() throws {
        let path = try copyFixture("realm-core/schema_v3.realm")
        let step = try script("""
            version 4 { class Contact { set age = "x" + age } }
            version 5 { class Contact { change age: int; set age = length(fullName) } }
            """)
        let run = realmsh("migrate", path, step)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(try objects(path, "Contact").map { $0["age"] as? Int }, [12, 11, 12, 15, 14])
    }

    func testNullIntoARequiredPropertyIsAProblem() throws {
        try assertFails("""
            version 4 { class Contact { set createdAt = null where "age == '30'" } }
            version 5 { class Contact { change createdAt: date } }
            """, ["version 5: Contact object 0 (_key 0), createdAt: is null, but the property becomes required"])
    }

    // MARK: encryption, locking, output

    func testEncryptionIsKept() throws {
        let key = Fixtures.path("realm-core/encrypted.key")
        let out = dir + "/migrated.realm"
        let step = try script("version 2 { class Dog { add label: string = name + \"!\" } }")
        let run = realmsh("migrate", "--key-file", key, "-o", out, Fixtures.path("realm-core/encrypted.realm"), step)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(realmsh("info", out).code, 77, "still encrypted")
        let dogs = realmsh("export", "--format", "jsonl", "--class", "Dog", "--key-file", key, out)
        XCTAssertTrue(dogs.out.hasPrefix(#"{"_class":"Dog","_key":0,"name":"Rex","age":1,"owner":{"$key":0},"label":"Rex!"}"#), dogs.out)
        XCTAssertEqual(realmsh("verify", "--key-file", key, out).code, 0)
    }

    func testALockedFileIsRefused() throws {
        let path = try copyFixture("realm-core/schema_v3.realm")
        let before = try bytes(path)
        XCTAssertTrue(FileManager.default.createFile(atPath: path + ".lock", contents: Data()))
        let fd = open(path + ".lock", O_RDWR)
        XCTAssertEqual(flock(fd, LOCK_SH), 0)
        defer { close(fd) }
        let run = realmsh("migrate", path, Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.migration").path)
        XCTAssertEqual(run.code, 75, run.stderr)
        XCTAssertEqual(try bytes(path), before)
    }

    func testOutputFileNeedsForceAndTheInputStays() throws {
        let input = Fixtures.path("realm-core/schema_v3.realm")
        let out = dir + "/v4.realm"
        let step = Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.migration").path
        XCTAssertTrue(FileManager.default.createFile(atPath: out, contents: Data("keep".utf8)))
        XCTAssertEqual(realmsh("migrate", "-o", out, input, step).code, 73)
        XCTAssertEqual(try bytes(out), Data("keep".utf8))
        XCTAssertEqual(realmsh("migrate", "--force", "-o", out, input, step).code, 0)
        XCTAssertEqual(Data(realmsh("export", out).stdout),
                       try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.json")))
    }

    // MARK: schema differences

    func testDiffAndGeneratedScript() throws {
        let input = Fixtures.path("realm-core/basic.realm")
        let target = try script("""
            [{"name": "Dog", "primaryKey": "name", "embedded": false, "properties": [
               {"name": "name", "type": "string", "optional": false, "indexed": true, "primaryKey": true, "collection": null, "objectType": null},
               {"name": "owner", "type": "object", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": "Person"}]},
             {"name": "Person", "primaryKey": null, "embedded": false, "properties": [
               {"name": "name", "type": "string", "optional": false, "indexed": true, "primaryKey": false, "collection": null, "objectType": null},
               {"name": "age", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null},
               {"name": "dogs", "type": "object", "optional": false, "indexed": false, "primaryKey": false, "collection": "list", "objectType": "Dog"},
               {"name": "nickname", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null}]},
             {"name": "Toy", "primaryKey": null, "embedded": true, "properties": [
               {"name": "label", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null}]}]
            """, name: "target.json")
        let diff = realmsh("schema", input, "--diff", target)
        XCTAssertEqual(diff.code, 1)
        XCTAssertEqual(diff.out, """
            + class Toy (embedded)
                label: string?
            ~ class Dog
                - age: int?
                ~ primary key: none → name
            ~ class Person
                ~ age: int → string
                - email: string?
                - height: double?
                - isAdmin: bool
                - birthday: date?
                - bestFriend: Person?
                - nicknames: List<string>
                + nickname: string

            """)
        let generated = realmsh("migrate", "--generate", input, target)
        XCTAssertEqual(generated.code, 0, generated.stderr)
        XCTAssertTrue(generated.out.contains("    add nickname: string = \"\"  // TODO: the value for existing objects\n"), generated.out)
        XCTAssertTrue(generated.out.contains("    change age: string  // converted with string(age)\n"), generated.out)
        let step = try script(generated.out, name: "generated.migration")
        let out = dir + "/out.realm"
        let run = realmsh("migrate", "-o", out, input, step)
        XCTAssertEqual(run.code, 0, run.stderr)
        let same = realmsh("schema", out, "--diff", target)
        XCTAssertEqual(same.code, 0, same.out)
        XCTAssertEqual(same.out, "The schemas are the same.\n")
        XCTAssertEqual(realmsh("schema", out, "--diff", out).code, 0, "a .realm file works as the other side too")
    }
}
