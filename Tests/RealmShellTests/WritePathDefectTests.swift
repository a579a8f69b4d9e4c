import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// The six write-path defects random writes checked against Realm Core found (issue 19), each
/// on a copy of a fixture, through the commands a user runs.
final class WritePathDefectTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func copy(_ fixture: String) throws -> String { try Fixtures.copy(fixture, into: dir) }

    func assertVerifies(_ path: String, _ what: String, line: UInt = #line) {
        let run = realmsh("verify", path)
        XCTAssertEqual(run.code, 0, "\(what): \(run.out)\(run.stderr)", line: line)
    }

    /// Objects of a class as export writes them, by their `_id` (or `_key`).
    func objects(_ path: String, _ className: String) throws -> [String: String] {
        let run = realmsh("export", "--format", "jsonl", "--class", className, path)
        XCTAssertEqual(run.code, 0, run.stderr)
        var out: [String: String] = [:]
        for line in run.out.split(separator: "\n") {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try JSONSerialization.data(withJSONObject: object["_id"] ?? object["_key"] ?? NSNull(), options: [.fragmentsAllowed])
            out[String(decoding: id, as: UTF8.self)] = String(line)
        }
        return out
    }

    /// Per object of `className` and per set or dictionary column: the ref of its collection
    /// and the bytes of every node of it (pre-order).
    func collectionTrees(_ path: String, _ className: String) throws -> [String: (ref: Int, bytes: [UInt8])] {
        let snapshot = try Snapshot(path: path)
        let table = try XCTUnwrap(snapshot.tables.first { $0.name == "class_" + className })
        func bytes(_ ref: Int) throws(FormatError) -> [UInt8] {
            let node = try snapshot.node(ref)
            var out = [node.header.flags] + withUnsafeBytes(of: node.count) { Array($0) } + Array(node.payloadBytes())
            if node.hasRefs { for i in 0..<node.count { if let r = node.ref(i) { out += try bytes(r) } } }
            return out
        }
        var out: [String: (ref: Int, bytes: [UInt8])] = [:]
        try ClusterTree(snapshot: snapshot, rootRef: try XCTUnwrap(table.clusterRef)).forEachLeaf { leaf throws(FormatError) in
            for column in table.columns where column.collection == .set || column.collection == .dictionary {
                guard let columnRef = leaf.columnRef(column.leafIndex) else { continue }
                let roots = try snapshot.node(columnRef)
                for row in 0..<leaf.count {
                    guard let r = roots.ref(row) else { continue }
                    out["\(leaf.objectKey(row)).\(column.name)"] = (r, try bytes(r))
                }
            }
        }
        return out
    }

    // MARK: 1. sets keep their order and bytes

    /// An insert, an update of one object's set and a delete, each in the cluster leaf of every
    /// AllTypes object: the other objects' sets (floatSet `[3.14159, NaN]` among them, which
    /// Realm's binary search only finds in that order) and dictionaries keep their refs and
    /// bytes, and export as before.
    func testWritesInALeafKeepTheOtherObjectsSetsAsStored() throws {
        let path = try copy("realm-core/alltypes.realm")
        let original = try objects(path, "AllTypes")
        let trees = try collectionTrees(path, "AllTypes")
        XCTAssertTrue(original.values.contains { $0.contains(#""floatSet":[3.14159,{"$numberDouble":"NaN"}]"#) }, "the fixture's NaN-last set")

        var new = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(original[#"{"$oid":"000000000000000000000001"}"#]!.utf8)) as? [String: Any])
        new["_class"] = nil
        new["_id"] = ["$oid": "0000000000000000000000ff"]
        let insert = realmsh("insert", path, "AllTypes", String(decoding: try JSONSerialization.data(withJSONObject: new), as: UTF8.self))
        XCTAssertEqual(insert.code, 0, insert.stderr)
        assertVerifies(path, "after the insert")
        let update = realmsh("update", path, "AllTypes", "--where", "_id == oid(c6b83b8c68d8071790f3ba5f)",
                             "--json", #"{"floatSet": [2.5, {"$numberDouble": "NaN"}, 1.5], "stringDict": {"b": "2", "a": "1"}}"#)
        XCTAssertEqual(update.code, 0, update.stderr)
        assertVerifies(path, "after the update")
        let delete = realmsh("delete", path, "AllTypes", "--where", "_id == oid(42412bfe177fa7ce38e737f4)")
        XCTAssertEqual(delete.code, 0, delete.stderr)
        assertVerifies(path, "after the delete")

        let after = try objects(path, "AllTypes")
        let changed = [#"{"$oid":"c6b83b8c68d8071790f3ba5f"}"#, #"{"$oid":"42412bfe177fa7ce38e737f4"}"#]
        for (id, line) in original where !changed.contains(id) {
            XCTAssertEqual(after[id], line, "AllTypes \(id) changed")
        }
        // Realm inserts 2.5, then NaN (at the search's end: first), then 1.5 (before the NaN).
        XCTAssertTrue(after[changed[0]]?.contains(#""floatSet":[1.5,{"$numberDouble":"NaN"},2.5]"#) ?? false, after[changed[0]] ?? "gone")
        XCTAssertNil(after[changed[1]])
        let treesAfter = try collectionTrees(path, "AllTypes")
        let updatedKey = try XCTUnwrap(RealmFile(path: path).objectKey(className: "AllTypes", oid: "c6b83b8c68d8071790f3ba5f"))
        var kept = 0
        for (cell, tree) in trees {
            guard let now = treesAfter[cell] else { continue }            // the deleted object's
            if cell == "\(updatedKey).floatSet" || cell == "\(updatedKey).stringDict" { continue }
            XCTAssertEqual(now.ref, tree.ref, "\(cell): the collection moved")
            XCTAssertEqual(now.bytes, tree.bytes, "\(cell): the collection's bytes changed")
            kept += 1
        }
        XCTAssertGreaterThan(kept, 150)
    }

    // MARK: 2. index duplicate-list offsets are unsigned

    /// realm-core stores B+tree offsets as ArrayUnsigned: at width 16 an offset above 32,767 is
    /// legal. The write path read them signed and refused the file as corrupt.
    func testAnIndexDuplicateListWithOffsetsAbove32767TakesNewEntries() throws {
        let path = try copy("repro/index-import/before.realm")
        assertVerifies(path, "before")
        let run = realmsh("import", path, "Item", Fixtures.path("repro/index-import/payload.json"))
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies(path, "after the import")
    }

    // MARK: 3. dictionaries in Mixed values are sorted

    func testDictionariesInsideMixedValuesAreStoredInKeyOrder() throws {
        let path = try copy("repro/dictionary-import/before.realm")
        let run = realmsh("import", path, "AllTypes", Fixtures.path("repro/dictionary-import/payload.json"))
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies(path, "after the import")

        let alltypes = try copy("realm-core/alltypes.realm")
        let json = #"{"mixedCol": {"b": 2, "a": {"é": 1, "z": 2, "": 3}}, "mixedList": [{"d": 1, "c": [{"y": 1, "x": 2}]}], "mixedDict": {"k": {"n": 1, "m": 2}}}"#
        let update = realmsh("update", alltypes, "AllTypes", "--all", "--json", json)
        XCTAssertEqual(update.code, 0, update.stderr)
        assertVerifies(alltypes, "after update --json")
        // Stored (not just exported) in key order at every level.
        let file = try RealmFile(path: alltypes)
        let c = try XCTUnwrap(file.objectClass(named: "AllTypes"))
        let properties = try ["mixedCol", "mixedList", "mixedDict"].map { try XCTUnwrap(c.property(named: $0)) }
        var objects = 0
        try file.forEachObject(of: c, properties: properties) { _, row in
            for value in row { XCTAssertTrue(Self.keysAscend(value), "\(value)") }
            objects += 1
        }
        XCTAssertEqual(objects, 8)
    }

    static func keysAscend(_ value: Value) -> Bool {
        switch value {
        case let .list(elements): return elements.allSatisfy(keysAscend)
        case let .dictionary(entries):
            return zip(entries, entries.dropFirst()).allSatisfy { ValueOrder.compare($0.key, $1.key) < 0 } && entries.allSatisfy { keysAscend($0.value) }
        default: return true
        }
    }

    // MARK: 4. no collection inside a set

    func testANestedCollectionInAMixedSetIsRefusedNamingTheProperty() throws {
        let path = try copy("realm-core/alltypes.realm")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for json in [#"{"mixedSet": [[1, 2]]}"#, #"{"mixedSet": [1, {"a": 1}]}"#] {
            let run = realmsh("update", path, "AllTypes", "--all", "--json", json)
            XCTAssertEqual(run.code, 65, json)
            XCTAssertTrue(run.stderr.contains("AllTypes.mixedSet"), run.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(realmsh("update", path, "AllTypes", "--all", "--json", #"{"mixedList": [[1, 2], {"a": 1}]}"#).code, 0,
                       "lists and dictionaries nest collections")
    }

    // MARK: 5. nothing written means not a byte

    /// On a file `compact` wrote (streaming form: top ref in the footer), a refused write and a
    /// dry run leave bytes and modification time alone; a write that commits converts the header.
    func testRefusedWritesAndDryRunsLeaveACompactedFileUntouched() throws {
        let source = try copy("realm-core/basic.realm")
        let path = dir + "/compacted.realm"
        XCTAssertEqual(realmsh("compact", source, "-o", path).code, 0)
        XCTAssertTrue(try Snapshot(path: path).header.isStreaming)
        func state() throws -> (Data, Date) {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (try Data(contentsOf: URL(fileURLWithPath: path)), try XCTUnwrap(attributes[.modificationDate] as? Date))
        }
        let before = try state()
        usleep(20_000)
        XCTAssertEqual(realmsh("insert", path, "Dog", #"{"name": 3}"#).code, 65)
        XCTAssertEqual(realmsh("update", path, "Person", "--all", "--set", "age='old'").code, 65)
        XCTAssertEqual(realmsh("delete", path, "Dog", "--all", "--dry-run").code, 0)
        XCTAssertEqual(realmsh("delete", path, "Dog", "--where", "name == 'nobody'").code, 0, "deletes nothing")
        let after = try state()
        XCTAssertEqual(after.0, before.0, "the file's bytes changed")
        XCTAssertEqual(after.1, before.1, "the file's modification time changed")
        XCTAssertTrue(try Snapshot(path: path).header.isStreaming)

        XCTAssertEqual(realmsh("insert", path, "Dog", #"{"name": "New"}"#).code, 0)
        XCTAssertFalse(try Snapshot(path: path).header.isStreaming)
        assertVerifies(path, "after a commit")
    }

    // MARK: 6. links as export writes them

    /// Every AllTypes object exported, deleted and imported again: links by `{"$uuid": …}`
    /// (uuidPkList), int and string primary keys, sets with NaN, embedded objects — the class
    /// exports exactly as before. NoPK links to AllTypes by `{"$oid": …}`.
    func testAReimportOfTheExportRestoresTheObjects() throws {
        let path = try copy("realm-core/alltypes.realm")
        // JSON Lines, one object per line (`_class` is ignored on import), as one array.
        let lines = realmsh("export", "--format", "jsonl", "--class", "AllTypes", path)
        XCTAssertEqual(lines.code, 0)
        let objectsFile = dir + "/alltypes-objects.json"
        let array = "[" + lines.out.split(separator: "\n").joined(separator: ",") + "]"
        try Data(array.utf8).write(to: URL(fileURLWithPath: objectsFile))
        let before = realmsh("export", "--class", "AllTypes", path).out

        XCTAssertEqual(realmsh("delete", path, "AllTypes", "--all").code, 0)
        let run = realmsh("import", path, "AllTypes", objectsFile)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies(path, "after the re-import")
        XCTAssertEqual(realmsh("export", "--class", "AllTypes", path).out, before)

        let link = realmsh("insert", path, "NoPK", #"{"value": "v", "count": 1, "allTypes": {"$oid": "4611861c629efb5e254809e1"}}"#)
        XCTAssertEqual(link.code, 0, link.stderr)
        let linked = try objects(path, "NoPK").values.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["value"] as? String == "v" }
        XCTAssertEqual(linked.count, 1)
        XCTAssertEqual((linked.first?["allTypes"] as? [String: String])?["$oid"], "4611861c629efb5e254809e1")
        let missing = realmsh("insert", path, "NoPK", #"{"value": "w", "count": 1, "allTypes": {"$oid": "4611861c629efb5e25480900"}}"#)
        XCTAssertEqual(missing.code, 65)
        XCTAssertTrue(missing.stderr.contains("NoPK.allTypes: no AllTypes object has primary key"), missing.stderr)
    }
}

extension RealmFile {
    /// The ObjKey of the object of `className` whose ObjectId primary key has these hex digits.
    func objectKey(className: String, oid: String) throws -> Int64? {
        guard let c = objectClass(named: className), let pk = c.property(named: c.primaryKey ?? "") else { return nil }
        var found: Int64?
        try forEachObject(of: c, properties: [pk]) { key, row in
            if case let .objectId(id) = row[0], id.bytes.map({ String(format: "%02x", $0) }).joined() == oid { found = key }
        }
        return found
    }
}
