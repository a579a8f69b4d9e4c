import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// Writes change only what they reach (`TableEditor`): after each of a series of seeded random
/// transactions — leaf splits, in-place updates of indexed values and links, deletes that
/// empty and merge leaves, deletes repairing links through backlinks, emptying a table — the
/// file verifies (indexes, backlinks both ways, exact tiling of the free space) and reads back
/// exactly as an in-memory model of the same changes says.
final class IncrementalWriteTests: XCTestCase {
    struct Person: Equatable {
        var name: String
        var age: Int
        var dog: String?
        var dogs: [String]
        var tags: [String]
    }

    var dir = ""
    var path = ""
    var people: [Int: Person] = [:]
    var dogs: [String: Int] = [:]
    var random = SeededRandom(seed: 20261130)

    override func setUpWithError() throws {
        dir = Fixtures.temporaryDirectory()
        path = dir + "/people.realm"
        func property(_ name: String, _ type: String, optional: Bool = false, indexed: Bool = false, pk: Bool = false,
                      collection: String? = nil, objectType: String? = nil) -> String {
            """
            {"name": "\(name)", "type": "\(type)", "optional": \(optional), "indexed": \(indexed || pk), "primaryKey": \(pk),
             "collection": \(collection.map { "\"\($0)\"" } ?? "null"), "objectType": \(objectType.map { "\"\($0)\"" } ?? "null"), "linkOrigin": null}
            """
        }
        let schema = """
            [{"name": "Dog", "primaryKey": "name", "embedded": false, "properties": [\(property("name", "string", pk: true)), \(property("age", "int"))]},
             {"name": "Person", "primaryKey": "id", "embedded": false, "properties": [
                \(property("id", "int", pk: true)), \(property("name", "string", indexed: true)), \(property("age", "int")),
                \(property("dog", "object", optional: true, objectType: "Dog")), \(property("dogs", "object", collection: "list", objectType: "Dog")),
                \(property("tags", "string", collection: "list"))]}]
            """
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: try JSONParser.parse(schema), schemaVersion: 1)
        let bytes = NewFile.bytes(tableNames: names, tables: try models.map { try TableEncoder.encode($0) })
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    // MARK: the series

    func testRandomTransactionsVerifyAndReadBackAsTheModelSays() throws {
        try transaction("40 dogs, 700 people (leaf splits)") { w in
            for d in 0..<40 { try self.insertDog(w, "dog\(d)", age: d % 15) }
            for id in 0..<700 { try self.upsertPerson(w, id: id, new: true) }
        }
        try transaction("upsert 150 people: new names (index), new links, 50 new") { w in
            for _ in 0..<100 { try self.upsertPerson(w, id: Int.random(in: 0..<700, using: &self.random), new: false) }
            for id in 700..<750 { try self.upsertPerson(w, id: id, new: true) }
        }
        try transaction("delete 300 people (leaves shrink and merge)") { w in
            let doomed = Array(self.people.keys.sorted().shuffled(using: &self.random).prefix(300))
            try self.deletePeople(w, doomed)
        }
        try transaction("delete 10 dogs (links nulled, list entries removed)") { w in
            let doomed = Array(self.dogs.keys.sorted().shuffled(using: &self.random).prefix(10))
            try w.delete(className: "Dog", keys: try self.keys("Dog", doomed.map { .string(Array($0.utf8)) }))
            for name in doomed {
                self.dogs[name] = nil
                for id in self.people.keys {
                    if self.people[id]!.dog == name { self.people[id]!.dog = nil }
                    self.people[id]!.dogs.removeAll { $0 == name }
                }
            }
        }
        try transaction("the first 200 people go (the first leaf is re-based)") { w in
            try self.deletePeople(w, Array(self.people.keys.sorted().prefix(200)))
        }
        try transaction("everyone goes, then 5 come") { w in
            try self.deletePeople(w, Array(self.people.keys))
            for id in 1000..<1005 { try self.upsertPerson(w, id: id, new: true) }
        }
    }

    func testMassDeletesRebuildIndexesThatStillFindEveryObject() throws {
        try transaction("10 dogs, 4000 people") { w in
            for d in 0..<10 { try self.insertDog(w, "dog\(d)", age: d) }
            for id in 0..<4000 { try self.upsertPerson(w, id: id, new: true) }
        }
        try transaction("delete 2500 people (indexes rebuilt, not erased entry by entry)") { w in
            try self.deletePeople(w, Array(self.people.keys.sorted().shuffled(using: &self.random).prefix(2500)))
            // In the same transaction, after the rebuild: lookups, upserts and new objects.
            for id in self.people.keys.sorted().prefix(20) { try self.upsertPerson(w, id: id, new: false) }
            for id in 4000..<4010 { try self.upsertPerson(w, id: id, new: true) }
        }
        try transaction("then everyone (indexes rebuilt empty), then 3 people") { w in
            try self.deletePeople(w, Array(self.people.keys))
            for id in [5, 4000, 7] { try self.upsertPerson(w, id: id, new: true) }
        }
        try transaction("upsert the three again") { w in
            for id in [5, 4000, 7] { try self.upsertPerson(w, id: id, new: false) }
        }
    }

    func testTypedWritesAreStrictAndSeeTheirOwnTransaction() throws {
        try transaction("typed create, set, duplicate and type errors") { w in
            let file = w.file
            let dog = try XCTUnwrap(file.objectClass(named: "Dog"))
            let person = try XCTUnwrap(file.objectClass(named: "Person"))
            func values(_ c: ObjectClass, _ pairs: [String: Value]) -> [Value] {
                c.properties.map { p in pairs[p.name] ?? (p.collection != nil ? .list([]) : .null) }
            }
            let rex = try w.create(dog, values: values(dog, ["name": .string(Array("rex".utf8)), "age": .int(3)]))
            self.dogs["rex"] = 3
            // A second object with the same primary key, in the same transaction: refused.
            XCTAssertThrowsError(try w.create(dog, values: values(dog, ["name": .string(Array("rex".utf8)), "age": .int(4)]))) {
                XCTAssertTrue("\($0)".contains("already exists"), "\($0)")
            }
            // Strict types: an int property given a string, a missing required value.
            XCTAssertThrowsError(try w.create(dog, values: values(dog, ["name": .string(Array("max".utf8)), "age": .string(Array("3".utf8))])))
            XCTAssertThrowsError(try w.create(dog, values: values(dog, ["name": .string(Array("max".utf8)), "age": .null])))
            let p = try w.create(person, values: values(person, [
                "id": .int(1), "name": .string(Array("Ann".utf8)), "age": .int(30), "dog": .link(rex), "dogs": .list([.link(rex), .link(rex)]),
            ]))
            self.people[1] = Person(name: "Ann", age: 30, dog: "rex", dogs: ["rex", "rex"], tags: [])
            let age = try XCTUnwrap(person.property(named: "age"))
            try w.set(person, key: p, age, .int(31))
            XCTAssertEqual(try w.value(person, key: p, age), .int(31))
            self.people[1]!.age = 31
            XCTAssertThrowsError(try w.set(person, key: p, try XCTUnwrap(person.property(named: "id")), .int(2)), "primary keys do not change")
            XCTAssertThrowsError(try w.set(person, key: p, try XCTUnwrap(person.property(named: "dog")), .link(9999)), "links go to existing objects")
            // An upsert finds the object made earlier in this transaction (through the edited index).
            try w.write(className: "Person", objects: [.object([("id", .number("1")), ("name", .text("Anna"))])], policy: .upsert)
            self.people[1]!.name = "Anna"
            XCTAssertEqual(w.summary.inserted, 2)
            XCTAssertEqual(try w.objectKey(person, primaryKey: .int(1)), p)
            XCTAssertNil(try w.objectKey(person, primaryKey: .int(2)))
        }
    }

    // MARK: changes, applied to the file and to the model

    func insertDog(_ w: RealmWriter, _ name: String, age: Int) throws {
        try w.write(className: "Dog", objects: [.object([("name", .text(name)), ("age", .number("\(age)"))])], policy: .insert)
        dogs[name] = age
    }

    func upsertPerson(_ w: RealmWriter, id: Int, new: Bool) throws {
        let dogNames = dogs.keys.sorted()
        let person = Person(name: "p\(Int.random(in: 0..<50, using: &random))", age: Int.random(in: 0..<100, using: &random),
                            dog: Bool.random(using: &random) ? dogNames.randomElement(using: &random) : nil,
                            dogs: (0..<Int.random(in: 0..<4, using: &random)).map { _ in dogNames.randomElement(using: &random)! },
                            tags: (0..<Int.random(in: 0..<3, using: &random)).map { "t\($0)" })
        let json = JSONValue.object([
            ("id", .number("\(id)")), ("name", .text(person.name)), ("age", .number("\(person.age)")),
            ("dog", person.dog.map(JSONValue.text) ?? .null), ("dogs", .array(person.dogs.map(JSONValue.text))),
            ("tags", .array(person.tags.map(JSONValue.text))),
        ])
        try w.write(className: "Person", objects: [json], policy: new ? .insert : .upsert)
        people[id] = person
    }

    func deletePeople(_ w: RealmWriter, _ ids: [Int]) throws {
        try w.delete(className: "Person", keys: try keys("Person", ids.map { .int(Int64($0)) }))
        for id in ids { people[id] = nil }
    }

    /// ObjKeys of objects by primary key, in the committed version.
    func keys(_ className: String, _ primaryKeys: [Value]) throws -> [Int64] {
        let file = try RealmFile(path: path)
        let c = try XCTUnwrap(file.objectClass(named: className))
        let pk = try XCTUnwrap(c.property(named: c.primaryKey ?? ""))
        var byValue: [Int64] = []
        var all: [(Value, Int64)] = []
        try file.forEachObject(of: c, properties: [pk]) { key, row in all.append((row[0], key)) }
        for v in primaryKeys { if let hit = all.first(where: { $0.0 == v }) { byValue.append(hit.1) } }
        XCTAssertEqual(byValue.count, primaryKeys.count, "every object to delete exists")
        return byValue
    }

    // MARK: checking

    func transaction(_ what: String, line: UInt = #line, _ body: (RealmWriter) throws -> Void) throws {
        let writer = try RealmWriter(path: path)
        try body(writer)
        try writer.commit()
        let report = Verifier.verify(try Snapshot(path: path))
        XCTAssertEqual(report.problems.map(\.description), [], "after '\(what)'", line: line)
        try assertFileMatchesModel(what, line: line)
    }

    func assertFileMatchesModel(_ what: String, line: UInt) throws {
        let file = try RealmFile(path: path)
        let dogClass = try XCTUnwrap(file.objectClass(named: "Dog"))
        var dogName = [Int64: String]()
        var readDogs = [String: Int]()
        try file.forEachObject(of: dogClass) { key, row in
            guard case let .string(name) = row[0], case let .int(age) = row[1] else { return XCTFail("Dog \(key): \(Array(row))", line: line) }
            dogName[key] = String(decoding: name, as: UTF8.self)
            readDogs[dogName[key]!] = Int(age)
        }
        XCTAssertEqual(readDogs, dogs, "Dog objects after '\(what)'", line: line)
        let personClass = try XCTUnwrap(file.objectClass(named: "Person"))
        var readPeople = [Int: Person]()
        try file.forEachObject(of: personClass) { key, row in
            guard case let .int(id) = row[0], case let .string(name) = row[1], case let .int(age) = row[2],
                  case let .list(list) = row[4], case let .list(tags) = row[5] else { return XCTFail("Person \(key): \(Array(row))", line: line) }
            var dog: String?
            if case let .link(k) = row[3] { dog = dogName[k] ?? "missing dog \(k)" }
            readPeople[Int(id)] = Person(
                name: String(decoding: name, as: UTF8.self), age: Int(age), dog: dog,
                dogs: list.map { if case let .link(k) = $0 { return dogName[k] ?? "missing dog \(k)" } else { return "not a link" } },
                tags: tags.map { if case let .string(s) = $0 { return String(decoding: s, as: UTF8.self) } else { return "not a string" } })
        }
        XCTAssertEqual(readPeople.count, people.count, "Person count after '\(what)'", line: line)
        for (id, expected) in people.sorted(by: { $0.key < $1.key }) where readPeople[id] != expected {
            XCTFail("after '\(what)': Person id \(id) reads \(String(describing: readPeople[id])), expected \(expected)", line: line)
            break
        }
    }
}
