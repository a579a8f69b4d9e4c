import Foundation
import RealmFormat
import RealmObjects
@testable import RealmSQLite
import RealmTestSupport
import XCTest

/// What the export stores and refuses: values as Docs/commands.md documents them, names SQLite
/// would reject or conflate, `--class`, the public SDK files, the reading thread.
final class SQLiteExportBehaviourTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func export(_ file: RealmFile, _ name: String, classes: [String] = []) throws -> (SQLiteConnection, SQLiteExportSummary) {
        let path = directory + "/" + name + ".db"
        let summary = try SQLiteExporter(file: file, classNames: classes).write(toDatabaseAt: path)
        return (try SQLiteConnection(path: path, readOnly: true), summary)
    }

    func text(_ s: String) -> SQLiteValue { .text(Array(s.utf8)) }

    func testValuesAreStoredAsTheDocumentedSQLiteTypes() throws {
        let (db, _) = try export(try RealmFile(path: Fixtures.path("realm-core/alltypes.realm")), "alltypes")
        func one(_ sql: String) throws -> [SQLiteValue] { try db.rows(sql).first ?? [] }
        // Dates: ISO 8601 text, UTC, always nine fraction digits, so that text order is date order.
        XCTAssertEqual(try db.rows("SELECT dateCol FROM AllTypes WHERE dateCol LIKE '1969%'"), [[text("1969-12-31T23:59:58.500000000Z")], [text("1969-12-31T23:59:58.500000000Z")]])
        XCTAssertEqual(try db.rows("SELECT count(*) FROM AllTypes WHERE length(dateCol) != 30"), [[.integer(0)]])
        XCTAssertEqual(try one("SELECT min(value), max(value) FROM AllTypes_dateList"), [text("0001-01-01T00:00:00.000000000Z"), text("9999-12-31T23:59:59.999999999Z")])
        // Doubles: REAL, ±inf as REAL, NaN as the text 'NaN' (never NULL).
        XCTAssertEqual(try db.rows("SELECT DISTINCT typeof(doubleCol) FROM AllTypes ORDER BY 1"), [[text("real")], [text("text")]])
        XCTAssertEqual(try one("SELECT count(*) FROM AllTypes WHERE doubleCol = 'NaN'"), [.integer(2)])
        XCTAssertEqual(try one("SELECT count(*) FROM AllTypes WHERE doubleCol = 9e999 OR doubleCol = -9e999"), [.integer(3)])
        XCTAssertEqual(try one("SELECT count(*) FROM AllTypes WHERE doubleCol IS NULL"), [.integer(0)])
        // Bools 0/1, ids as lowercase hex text, decimals as Realm's text, binary as BLOB.
        XCTAssertEqual(try db.rows("SELECT DISTINCT boolCol FROM AllTypes ORDER BY 1"), [[.integer(0)], [.integer(1)]])
        XCTAssertEqual(try one("SELECT count(*) FROM AllTypes WHERE length(_id) != 24 OR _id GLOB '*[^0-9a-f]*'"), [.integer(0)])
        XCTAssertEqual(try one("SELECT uuidCol FROM AllTypes WHERE uuidCol LIKE '3b24%'"), [text("3b241101-e2bb-4255-8caf-4136c566a962")])
        XCTAssertEqual(try db.rows("SELECT decimalCol FROM AllTypes WHERE decimalCol IN ('-123.456', '1E10', 'NaN')").count, 3)
        XCTAssertEqual(try one("SELECT typeof(dataCol), length(dataCol) FROM AllTypes ORDER BY length(dataCol) DESC LIMIT 1"), [text("blob"), .integer(70_000)])
        XCTAssertEqual(try one("SELECT count(*) FROM AllTypes WHERE dataCol IS NULL"), [.integer(0)], "an empty binary is an empty blob")
        // Mixed: the value by its own type, the Realm type beside it; collections as JSON.
        XCTAssertEqual(try db.rows("SELECT mixedCol_type, typeof(mixedCol) FROM AllTypes WHERE mixedCol_type IS NOT NULL ORDER BY 1"),
                       [[text("data"), text("blob")], [text("dictionary"), text("text")], [text("double"), text("real")], [text("int"), text("integer")],
                        [text("list"), text("text")], [text("object:LinkTarget"), text("text")], [text("string"), text("text")]])
        XCTAssertEqual(try one("SELECT json_extract(mixedCol, '$[4].$link.class'), json_extract(mixedCol, '$[4].$link.id.$key') FROM AllTypes WHERE mixedCol_type = 'list'"),
                       [text("NoPK"), .integer(2)], "a link in a nested Mixed list, as the dump writes it")
        XCTAssertEqual(try one("SELECT count(*) FROM AllTypes WHERE mixedCol_type IN ('list', 'dictionary') AND NOT json_valid(mixedCol)"), [.integer(0)])
        // The schema version, and a row per class, property, backlink and table.
        XCTAssertEqual(try one("SELECT version FROM _realm_schema WHERE kind = 'schema_version'"), [.integer(1)])
        XCTAssertEqual(try one("SELECT count(*) FROM _realm_schema WHERE kind = 'property' AND class = 'AllTypes'"), [.integer(97)])
        XCTAssertEqual(try one("SELECT sql_table, sql_column, sql_type_column FROM _realm_schema WHERE class = 'AllTypes' AND property = 'mixedList'"),
                       [text("AllTypes_mixedList"), text("value"), text("value_type")])
        XCTAssertEqual(try db.rows("SELECT origin_class, origin_property FROM _realm_schema WHERE kind = 'backlink' AND class = 'NoPK'"),
                       [[text("AllTypes"), text("noPkCol")], [text("AllTypes"), text("mixedCol")]])
        XCTAssertEqual(try one("SELECT count(*) FROM _realm_schema WHERE kind = 'table'"),
                       try one("SELECT count(*) - 1 FROM sqlite_schema WHERE type = 'table'"))
    }

    func testSchemaHasKeysForeignKeysAndIndexes() throws {
        let (db, _) = try export(try RealmFile(path: Fixtures.path("realm-core/alltypes.realm")), "alltypes")
        func sql(_ name: String) throws -> String { try db.rows("SELECT sql FROM sqlite_schema WHERE name = '\(name)'").first?.first?.text ?? "" }
        XCTAssertTrue(try sql("IntPK").contains(#""_id" INTEGER PRIMARY KEY"#))
        XCTAssertTrue(try sql("LinkTarget").contains(#""_id" TEXT PRIMARY KEY NOT NULL"#))
        // An optional primary key cannot be what links refer to: `_key` is, the key stays UNIQUE.
        XCTAssertTrue(try sql("OptIntPK").contains(#""_key" INTEGER PRIMARY KEY"#) && (try sql("OptIntPK")).contains(#""_id" INTEGER UNIQUE"#))
        XCTAssertTrue(try sql("AllTypes").contains(#""objectCol" TEXT REFERENCES "LinkTarget" ("_id") ON DELETE SET NULL"#))
        XCTAssertTrue(try sql("AllTypes_objectList").contains(#""value" TEXT NOT NULL REFERENCES "LinkTarget" ("_id") ON DELETE CASCADE"#))
        XCTAssertTrue(try sql("AllTypes_embeddedList").contains(#""_parent" TEXT NOT NULL REFERENCES "AllTypes" ("_id") ON DELETE CASCADE"#))
        XCTAssertTrue(try sql("AllTypes_embeddedList_inner").contains(#""_parent" INTEGER NOT NULL REFERENCES "AllTypes_embeddedList" ("_key")"#))
        XCTAssertTrue(try sql("AllTypes_intList").contains(#"PRIMARY KEY ("parent", "position")"#))
        XCTAssertTrue(try sql("AllTypes_intDict").contains(#"PRIMARY KEY ("parent", "key")"#))
        XCTAssertTrue(try sql("AllTypes").contains(#""stringCol" TEXT NOT NULL"#) && (try sql("AllTypes")).contains(#""optStringCol" TEXT,"#))
        let indexes = try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").compactMap { $0.first?.text }
        XCTAssertTrue(indexes.contains("AllTypes_indexedString_index") && indexes.contains("AllTypes_indexedInt_index"), "\(indexes)")
        XCTAssertTrue(indexes.contains("AllTypes_objectCol_index") && indexes.contains("AllTypes_objectList_value_index"), "\(indexes)")
        // Deleting through the foreign keys does what Realm does: embedded objects and list
        // entries go with their owner, links to a deleted object become NULL.
        let path = directory + "/alltypes.db"
        let rw = try SQLiteConnection(path: path)
        try rw.execute("PRAGMA foreign_keys = ON; DELETE FROM LinkTarget WHERE _id = 'alpha'; DELETE FROM AllTypes WHERE _id = 'b414e3e28358094d4ff5f203'")
        XCTAssertEqual(try rw.rows("SELECT count(*) FROM AllTypes_embeddedDict WHERE _parent = 'b414e3e28358094d4ff5f203'"), [[.integer(0)]])
        XCTAssertEqual(try rw.rows("SELECT count(*) FROM AllTypes_embeddedDict_tags"), [[.integer(0)]])
        XCTAssertEqual(try rw.rows("SELECT count(*) FROM AllTypes_objectList WHERE value = 'alpha'"), [[.integer(0)]])
        XCTAssertEqual(try rw.rows("SELECT count(*) FROM AllTypes_objectDict WHERE value IS NULL AND key = 't0'"), [[.integer(5)]])
        XCTAssertEqual(try rw.rows("PRAGMA foreign_key_check"), [])
    }

    /// Realm names that SQLite would refuse (`sqlite_…`), conflate (`Item` and `item`: SQL
    /// names ignore ASCII case) or that collide with the names the export makes (a class
    /// `Item_tags` beside the table of `Item.tags`, a property `x_type` beside Mixed `x`'s type
    /// column, properties named like the structural columns) get unique names; the database
    /// still reads back as realmsh's own canonical dump of the file.
    func testNamesSQLiteWouldRejectOrConflateGetUniqueNames() throws {
        let path = directory + "/names.realm"
        func property(_ name: String, _ type: String, optional: Bool = false, pk: Bool = false, collection: String? = nil, objectType: String? = nil) -> String {
            let quotedName = JSONValue.text(name).compactText
            let c = collection.map { "\"" + $0 + "\"" } ?? "null", o = objectType.map { "\"" + $0 + "\"" } ?? "null"
            return "{\"name\": \(quotedName), \"type\": \"\(type)\", \"optional\": \(optional), \"indexed\": \(pk), \"primaryKey\": \(pk), "
                + "\"collection\": \(c), \"objectType\": \(o), \"linkOrigin\": null}"
        }
        let schema = """
            [{"name": "Item", "primaryKey": "id", "embedded": false, "properties": [\(property("id", "int", pk: true)),
                \(property("x", "mixed", optional: true)), \(property("x_type", "string")), \(property("tags", "string", collection: "list")),
                \(property("ref", "object", optional: true, objectType: "item")), \(property("parts", "object", collection: "list", objectType: "Part")),
                \(property("toCase", "object", optional: true, objectType: "Case"))]},
             {"name": "Case", "primaryKey": "id", "embedded": false, "properties": [\(property("ID", "string")), \(property("id", "int", pk: true))]},
             {"name": "item", "primaryKey": null, "embedded": false, "properties": [\(property("_key", "int")), \(property("Name", "string")), \(property("name", "string"))]},
             {"name": "Item_tags", "primaryKey": null, "embedded": false, "properties": [\(property("parent", "int"))]},
             {"name": "sqlite_master", "primaryKey": null, "embedded": false, "properties": [\(property("a\"b", "string")), \(property("select", "int"))]},
             {"name": "Part", "primaryKey": null, "embedded": true, "properties": [\(property("_parent", "string")), \(property("_position", "int"))]}]
            """
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: try JSONParser.parse(schema), schemaVersion: 3)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(NewFile.bytes(tableNames: names, tables: try models.map { try TableEncoder.encode($0) }))))
        let writer = try RealmWriter(path: path)
        try writer.write(className: "Case", objects: [try JSONParser.parse(#"{"ID": "upper", "id": 5}"#)], policy: .insert)
        // A property named `_key` is only reachable through the typed API (JSON input skips `_key`).
        _ = try writer.create(try XCTUnwrap(writer.file.objectClass(named: "item")), values: [.int(7), .string(Array("upper".utf8)), .string(Array("lower".utf8))])
        try writer.write(className: "Item", objects: [try JSONParser.parse(#"""
            {"id": 1, "x": {"$date": "2020-01-01T00:00:00.5Z"}, "x_type": "not a tag", "tags": ["a", "b"], "ref": {"$key": 0},
             "parts": [{"_parent": "p", "_position": 9}, {"_parent": "q", "_position": 8}], "toCase": 5}
            """#), try JSONParser.parse(#"{"id": 2, "x": -0.0, "x_type": "", "tags": [], "parts": []}"#)], policy: .insert)
        try writer.write(className: "Item_tags", objects: [try JSONParser.parse(#"{"parent": 5}"#)], policy: .insert)
        try writer.write(className: "sqlite_master", objects: [try JSONParser.parse(#"{"a\"b": "quoted", "select": 1}"#)], policy: .insert)
        try writer.commit()

        let file = try RealmFile(path: path)
        let (db, _) = try export(file, "names")
        XCTAssertEqual(try db.rows("PRAGMA integrity_check"), [[text("ok")]])
        XCTAssertEqual(try db.rows("PRAGMA foreign_key_check"), [])
        let tables = try db.rows("SELECT sql_table FROM _realm_schema WHERE kind = 'table' ORDER BY rowid").compactMap { $0.first?.text }
        XCTAssertEqual(tables, ["Case", "Item", "Item_tags_2", "Item_parts", "Item_tags", "item_2", "_sqlite_master"])
        // Properties `ID` and `id` (the primary key): the second in column order gets `_2`,
        // and links name the key column as it is called.
        let caseColumns = try db.rows(#"SELECT property, sql_column FROM _realm_schema WHERE kind = 'property' AND class = 'Case' ORDER BY property"#)
        XCTAssertEqual(Set(caseColumns.map { $0[1] }), [text("id"), text("ID_2")], "\(caseColumns)")
        let keyColumn = try XCTUnwrap(caseColumns.first { $0[0] == text("id") }?[1].text)
        XCTAssertEqual(try db.rows(#"SELECT sql_column FROM _realm_schema WHERE kind = 'class' AND class = 'Case'"#), [[text(keyColumn)]])
        XCTAssertTrue(try db.rows("SELECT sql FROM sqlite_schema WHERE name = 'Item'").first?.first?.text?.contains(#"REFERENCES "Case" ("\#(keyColumn)")"#) == true)
        XCTAssertEqual(try db.rows("SELECT toCase FROM Item WHERE id = 1"), [[.integer(5)]])
        XCTAssertEqual(try db.rows(#"SELECT "_key", "_key_2", "Name", "name_2" FROM item_2"#), [[.integer(0), .integer(7), text("upper"), text("lower")]])
        XCTAssertEqual(try db.rows(#"SELECT x, x_type_2, x_type FROM Item WHERE id = 1"#), [[text("2020-01-01T00:00:00.500000000Z"), text("date"), text("not a tag")]])
        // A Mixed column has no affinity: −0.0 keeps its sign there (a REAL column stores 0).
        guard case let .real(negativeZero)? = try db.rows("SELECT x FROM Item WHERE id = 2").first?.first else { return XCTFail("no −0.0") }
        XCTAssertTrue(negativeZero == 0 && negativeZero.sign == .minus)
        XCTAssertEqual(try db.rows(#"SELECT "_parent_2", "_position_2", "_position" FROM Item_parts ORDER BY "_position""#),
                       [[text("p"), .integer(9), .integer(0)], [text("q"), .integer(8), .integer(1)]])
        XCTAssertEqual(try db.rows(#"SELECT "a""b", "select" FROM _sqlite_master"#), [[text("quoted"), .integer(1)]])

        let sink = MemorySink()
        try CanonicalDump.write(file, to: sink)
        try DumpComparison.compare("names.realm", expected: JSONParser.parse(sink.bytes),
                                           actual: DumpFromSQLite(path: directory + "/names.db"), danglingLinks: 0)
    }

    func testClassSelectionKeepsLinksOutOfTheSelectionWithoutForeignKeys() throws {
        let file = try RealmFile(path: Fixtures.path("realm-core/basic.realm"))
        let (db, summary) = try export(file, "dogs", classes: ["Dog"])
        XCTAssertEqual(summary.objects, ["Dog": 8])
        XCTAssertEqual(try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"), [[text("Dog")], [text("_realm_schema")]])
        XCTAssertEqual(try db.rows("PRAGMA foreign_key_list(Dog)"), [], "Person is not in the database")
        XCTAssertEqual(try db.rows("SELECT owner FROM Dog ORDER BY _key LIMIT 2"), [[.integer(0)], [.integer(1)]], "the owner's key is kept")
        XCTAssertEqual(try db.rows("PRAGMA foreign_key_check"), [])

        let alltypes = try RealmFile(path: Fixtures.path("realm-core/alltypes.realm"))
        let (embedded, _) = try export(alltypes, "alltypes", classes: ["AllTypes"])
        XCTAssertEqual(try embedded.rows("SELECT count(*) FROM AllTypes_embeddedCol_inner"), [[.integer(1)]], "embedded objects come with their owners")
        XCTAssertThrowsError(try SQLiteExporter(file: alltypes, classNames: ["EmbeddedObj"])) { error in
            guard case .embeddedClass("EmbeddedObj")? = error as? SQLiteExportError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try SQLiteExporter(file: alltypes, classNames: ["Nope"])) { error in
            guard case .unknownClass("Nope")? = error as? SQLiteExportError else { return XCTFail("\(error)") }
        }
    }

    func testTheTargetMustBeANewDatabase() throws {
        let path = directory + "/existing.db"
        try SQLiteConnection(path: path).execute("CREATE TABLE mine (x)")
        XCTAssertThrowsError(try SQLiteExporter(file: try RealmFile(path: Fixtures.path("realm-core/basic.realm"))).write(toDatabaseAt: path)) { error in
            guard case .notEmpty? = error as? SQLiteExportError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try SQLiteConnection(path: path).rows("SELECT name FROM sqlite_schema"), [[text("mine")]])
    }

    func testEncryptedRealmsExportWithTheirKey() throws {
        let path = Fixtures.path("realm-core/encrypted.realm")
        let file = try RealmFile(path: path, snapshot: Snapshot(path: path, key: EncryptionKey(file: Fixtures.path("realm-core/encrypted.key"))))
        let (db, summary) = try export(file, "encrypted")
        XCTAssertEqual(summary.objects, ["Dog": 8, "Person": 10])
        XCTAssertEqual(try db.rows("SELECT name FROM Person ORDER BY _key LIMIT 1"), [[text("Alice")]])
    }

    /// Every realm file of Realm's public SDK repositories (formats 2–24, the encrypted ones
    /// with their manifest keys) exports to a valid database with each class's objects, and
    /// reads back as realmsh's own canonical dump of it. (Whether that dump is realm-core's,
    /// where public/ has one, is the reader's conformance test: the export must carry what
    /// realmsh reads, exactly.)
    func testPublicSDKFilesExportToValidDatabases() throws {
        let fixtures = Fixtures.publicFixtures()
        XCTAssertEqual(fixtures.count, 142, "public/manifest.tsv")
        var exported = 0
        for fixture in fixtures {
            let name = fixture.name, path = fixture.path
            let key = try fixture.keyHex.map { hex throws in try EncryptionKey(hex: hex) }
            let file = try RealmFile(path: path, snapshot: Snapshot(path: path, key: key))
            let (db, summary) = try export(file, name)
            XCTAssertEqual(try db.rows("PRAGMA integrity_check"), [[text("ok")]], name)
            XCTAssertEqual(try db.rows("PRAGMA foreign_key_check"), [], name)
            for c in file.classes where !c.isEmbedded {
                XCTAssertEqual(summary.objects[c.name], try file.objectCount(of: c), "\(name): \(c.name)")
            }
            exported += 1
            let dump = MemorySink()
            try CanonicalDump.write(file, to: dump)
            try DumpComparison.compare(name, expected: JSONParser.parse(dump.bytes),
                                       actual: DumpFromSQLite(path: directory + "/" + name + ".db"), danglingLinks: summary.danglingLinks)
        }
        print("public SDK files: \(exported) exported and read back (\(fixtures.filter { $0.keyHex != nil }.count) encrypted)")
    }

    /// The reading thread hands over every leaf in order, and stops — without hanging or
    /// leaving the file in use — when the writer fails part way.
    func testTheReadingThreadStopsWhenTheWriterFails() throws {
        let file = try RealmFile(path: Fixtures.path("realm-core/large.realm"))
        let item = try XCTUnwrap(file.objectClass(named: "Item"))
        var sequential: [Int64] = [], pipelined: [Int64] = []
        try file.forEachLeaf(of: item, properties: []) { keys, _ in sequential += keys }
        try LeafPipeline.forEachLeaf(of: item, in: file) { keys, columns in
            XCTAssertEqual(columns.count, item.properties.count)
            pipelined += keys
        }
        XCTAssertEqual(pipelined, sequential)
        struct Stop: Error {}
        for after in [0, 3, 200] {
            var leaves = 0
            XCTAssertThrowsError(try LeafPipeline.forEachLeaf(of: item, in: file) { _, _ in
                if leaves == after { throw Stop() }
                leaves += 1
            }) { XCTAssertTrue($0 is Stop, "\($0)") }
        }
        XCTAssertEqual(try file.objectCount(of: item), 150_000)
    }
}
