import Foundation
import RealmObjects
import RealmSQLite
import RealmTestSupport
import XCTest

/// Queries agree: for query vectors of `queries.json` with an obvious SQL form, a hand-written
/// SQL query on the export finds the objects realm-core found (the same order where the query
/// sorts or limits; ties and unsorted results are in ObjKey order, which is `_key` or, for a
/// table keyed by a non-integer primary key, the rowid the rows were inserted in).
///
/// The SQL shows how the mapping is queried: a link column holds the target's primary key, a
/// list is a child table (`parent`, `position`, `value`), a backlink is the foreign key read the
/// other way, dates compare as their fixed-width ISO text, NaN is the text 'NaN' (kept out of
/// numeric comparisons with `typeof(x) = 'real'`). Vectors whose Realm semantics SQL does not
/// share are left out (`intList.@sum` wraps around in Realm, SQLite's `sum` stops; Decimal128
/// compares as numbers, its text does not). A Mixed value is compared with its type
/// tag, nested Mixed collections are JSON.
final class SQLQueryEquivalenceTests: XCTestCase {
    /// RQL (as in queries.json) → SQL whose one column is the object's identity.
    static let basic: [(String, String)] = [
        ("age > 30", "SELECT _key FROM Person WHERE age > 30"),
        ("age BETWEEN {25, 53}", "SELECT _key FROM Person WHERE age BETWEEN 25 AND 53"),
        ("age != 18", "SELECT _key FROM Person WHERE age != 18"),
        ("name BEGINSWITH 'G'", "SELECT _key FROM Person WHERE name GLOB 'G*'"),
        ("name ENDSWITH[c] 'E'", "SELECT _key FROM Person WHERE name LIKE '%E'"),
        ("name CONTAINS 'an'", "SELECT _key FROM Person WHERE instr(name, 'an') > 0"),
        ("name LIKE '*a?'", "SELECT _key FROM Person WHERE name GLOB '*a?'"),
        ("name ==[c] 'alice'", "SELECT _key FROM Person WHERE name = 'alice' COLLATE NOCASE"),
        ("email == nil", "SELECT _key FROM Person WHERE email IS NULL"),
        ("email != nil SORT(name DESC)", "SELECT _key FROM Person WHERE email IS NOT NULL ORDER BY name DESC, _key"),
        ("height > 160.5", "SELECT _key FROM Person WHERE height > 160.5"),
        ("(age > 20 AND age < 50) OR name == 'Judy'", "SELECT _key FROM Person WHERE (age > 20 AND age < 50) OR name = 'Judy'"),
        ("!(isAdmin == false) && age < 50", "SELECT _key FROM Person WHERE NOT (isAdmin = 0) AND age < 50"),
        ("name IN {'Alice', 'Bob', 'Zed'}", "SELECT _key FROM Person WHERE name IN ('Alice', 'Bob', 'Zed')"),
        ("dogs.@count > 1", "SELECT _key FROM Person p WHERE (SELECT count(*) FROM Person_dogs WHERE parent = p._key) > 1"),
        ("dogs.@size == 0", "SELECT _key FROM Person p WHERE NOT EXISTS (SELECT 1 FROM Person_dogs WHERE parent = p._key)"),
        ("ANY dogs.name == 'Rex'",
         "SELECT _key FROM Person p WHERE EXISTS (SELECT 1 FROM Person_dogs l JOIN Dog d ON d._key = l.value WHERE l.parent = p._key AND d.name = 'Rex')"),
        ("ALL dogs.age > 2",
         "SELECT _key FROM Person p WHERE NOT EXISTS (SELECT 1 FROM Person_dogs l JOIN Dog d ON d._key = l.value WHERE l.parent = p._key AND NOT coalesce(d.age > 2, 0))"),
        ("NONE dogs.name BEGINSWITH 'R'",
         "SELECT _key FROM Person p WHERE NOT EXISTS (SELECT 1 FROM Person_dogs l JOIN Dog d ON d._key = l.value WHERE l.parent = p._key AND d.name GLOB 'R*')"),
        ("dogs.@sum.age > 5",
         "SELECT _key FROM Person p WHERE (SELECT total(d.age) FROM Person_dogs l JOIN Dog d ON d._key = l.value WHERE l.parent = p._key) > 5"),
        ("dogs.@max.age > 5",
         "SELECT _key FROM Person p WHERE (SELECT max(d.age) FROM Person_dogs l JOIN Dog d ON d._key = l.value WHERE l.parent = p._key) > 5"),
        ("SUBQUERY(dogs, $d, $d.age > 2 AND $d.name CONTAINS 'a').@count > 0",
         "SELECT _key FROM Person p WHERE EXISTS (SELECT 1 FROM Person_dogs l JOIN Dog d ON d._key = l.value WHERE l.parent = p._key AND d.age > 2 AND instr(d.name, 'a') > 0)"),
        ("nicknames.@count == 2", "SELECT _key FROM Person p WHERE (SELECT count(*) FROM Person_nicknames WHERE parent = p._key) = 2"),
        ("ANY nicknames BEGINSWITH 'F'", "SELECT _key FROM Person p WHERE EXISTS (SELECT 1 FROM Person_nicknames WHERE parent = p._key AND value GLOB 'F*')"),
        ("nicknames CONTAINS[c] 'iv'", "SELECT _key FROM Person p WHERE EXISTS (SELECT 1 FROM Person_nicknames WHERE parent = p._key AND value LIKE '%iv%')"),
        ("bestFriend == nil", "SELECT _key FROM Person WHERE bestFriend IS NULL"),
        ("bestFriend.age > 40", "SELECT p._key FROM Person p JOIN Person f ON f._key = p.bestFriend WHERE f.age > 40"),
        ("birthday < 1963-01-01@00:00:00", "SELECT _key FROM Person WHERE birthday < '1963-01-01T00:00:00.000000000Z'"),
        ("TRUEPREDICATE SORT(age DESC)", "SELECT _key FROM Person ORDER BY age DESC, _key"),
        ("TRUEPREDICATE SORT(name ASC) LIMIT(3)", "SELECT _key FROM Person ORDER BY name, _key LIMIT 3"),
        ("TRUEPREDICATE DISTINCT(isAdmin)", "SELECT min(_key) FROM Person GROUP BY isAdmin"),
        ("age > 20 SORT(isAdmin DESC, name ASC)", "SELECT _key FROM Person WHERE age > 20 ORDER BY isAdmin DESC, name, _key"),
        // Backlinks are the foreign key read the other way.
        ("@links.Dog.owner.@count > 0", "SELECT _key FROM Person p WHERE EXISTS (SELECT 1 FROM Dog WHERE owner = p._key)"),
        ("ANY @links.Dog.owner.name == 'Luna'", "SELECT _key FROM Person p WHERE EXISTS (SELECT 1 FROM Dog WHERE owner = p._key AND name = 'Luna')"),
    ]

    static let basicDogs: [(String, String)] = [
        ("owner.name == 'Alice'", "SELECT d._key FROM Dog d JOIN Person p ON p._key = d.owner WHERE p.name = 'Alice'"),
        ("owner.bestFriend.name == 'Diana'",
         "SELECT d._key FROM Dog d JOIN Person p ON p._key = d.owner JOIN Person f ON f._key = p.bestFriend WHERE f.name = 'Diana'"),
        ("owner == nil", "SELECT _key FROM Dog WHERE owner IS NULL"),
        ("age == nil OR age > 6", "SELECT _key FROM Dog WHERE age IS NULL OR age > 6"),
        ("@links.Person.dogs.@count == 0", "SELECT _key FROM Dog d WHERE (SELECT count(*) FROM Person_dogs WHERE value = d._key) = 0"),
        ("ANY @links.Person.dogs.name == 'Charlie'",
         "SELECT _key FROM Dog d WHERE EXISTS (SELECT 1 FROM Person_dogs l JOIN Person p ON p._key = l.parent WHERE l.value = d._key AND p.name = 'Charlie')"),
        ("@links.@count > 1", "SELECT _key FROM Dog d WHERE (SELECT count(*) FROM Person_dogs WHERE value = d._key) > 1"),
    ]

    static let allTypes: [(String, String)] = [
        ("intCol == -9223372036854775808", "SELECT _id FROM AllTypes WHERE intCol = -9223372036854775808"),
        ("boolCol == true", "SELECT _id FROM AllTypes WHERE boolCol = 1"),
        ("doubleCol > 0 SORT(doubleCol ASC)", "SELECT _id FROM AllTypes WHERE typeof(doubleCol) = 'real' AND doubleCol > 0 ORDER BY doubleCol, rowid"),
        // Realm orders NaN before every number (so NaN < 0 holds, NaN > 0 does not).
        ("floatCol < 0", "SELECT _id FROM AllTypes WHERE (typeof(floatCol) = 'real' AND floatCol < 0) OR floatCol = 'NaN'"),
        ("doubleCol == -inf OR floatCol == inf", "SELECT _id FROM AllTypes WHERE doubleCol = -9e999 OR floatCol = 9e999"),
        ("stringCol == ''", "SELECT _id FROM AllTypes WHERE stringCol = ''"),
        ("stringCol.@size > 1000", "SELECT _id FROM AllTypes WHERE length(CAST(stringCol AS BLOB)) > 1000"),
        ("stringCol CONTAINS[c] 'WORLD'", "SELECT _id FROM AllTypes WHERE stringCol LIKE '%WORLD%'"),
        ("optStringCol == nil", "SELECT _id FROM AllTypes WHERE optStringCol IS NULL"),
        ("stringCol BEGINSWITH B64\"SGVsbG8=\"", "SELECT _id FROM AllTypes WHERE substr(stringCol, 1, 5) = 'Hello'"),
        ("doubleList.@count > 0 AND ANY doubleList == nan",
         "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_doubleList WHERE parent = a._id AND value = 'NaN')"),
        ("decimalCol == -123.456", "SELECT _id FROM AllTypes WHERE decimalCol = '-123.456'"),
        ("objectIdCol == oid(5f1b3a9c8e4d2b0012345678)", "SELECT _id FROM AllTypes WHERE objectIdCol = '5f1b3a9c8e4d2b0012345678'"),
        ("uuidCol == uuid(3b241101-e2bb-4255-8caf-4136c566a962)", "SELECT _id FROM AllTypes WHERE uuidCol = '3b241101-e2bb-4255-8caf-4136c566a962'"),
        ("dataCol == bin(B64\"YmluYXJ5IHRleHQ=\")", "SELECT _id FROM AllTypes WHERE dataCol = CAST('binary text' AS BLOB)"),
        ("dataCol.@size > 65536", "SELECT _id FROM AllTypes WHERE length(dataCol) > 65536"),
        ("dateCol < 1970-01-01@00:00:00", "SELECT _id FROM AllTypes WHERE dateCol < '1970-01-01T00:00:00.000000000Z'"),
        ("dateCol == T-1:-500000000", "SELECT _id FROM AllTypes WHERE dateCol = '1969-12-31T23:59:58.500000000Z'"),
        ("optDateCol != nil", "SELECT _id FROM AllTypes WHERE optDateCol IS NOT NULL"),
        ("mixedCol == 'mixed string 日本語のテキスト'", "SELECT _id FROM AllTypes WHERE mixedCol_type = 'string' AND mixedCol = 'mixed string 日本語のテキスト'"),
        ("mixedCol.@type == 'double'", "SELECT _id FROM AllTypes WHERE mixedCol_type = 'double'"),
        ("mixedCol > -100", "SELECT _id FROM AllTypes WHERE mixedCol_type IN ('int', 'float', 'double') AND mixedCol > -100"),
        ("mixedCol[0] == 1", "SELECT _id FROM AllTypes WHERE mixedCol_type = 'list' AND json_extract(mixedCol, '$[0]') = 1"),
        ("mixedCol['oid'] == oid(5f1b3a9c8e4d2b0012345678)",
         "SELECT _id FROM AllTypes WHERE mixedCol_type = 'dictionary' AND json_extract(mixedCol, '$.oid.$oid') = '5f1b3a9c8e4d2b0012345678'"),
        ("mixedCol == nil", "SELECT _id FROM AllTypes WHERE mixedCol_type IS NULL"),
        ("mixedCol.@type == 'binary'", "SELECT _id FROM AllTypes WHERE mixedCol_type = 'data'"),
        ("intList.@count > 5", "SELECT _id FROM AllTypes a WHERE (SELECT count(*) FROM AllTypes_intList WHERE parent = a._id) > 5"),
        ("intList.@max == 9223372036854775807",
         "SELECT _id FROM AllTypes a WHERE (SELECT max(value) FROM AllTypes_intList WHERE parent = a._id) = 9223372036854775807"),
        ("ANY intList == 42", "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_intList WHERE parent = a._id AND value = 42)"),
        ("ALL intList > 0", "SELECT _id FROM AllTypes a WHERE NOT EXISTS (SELECT 1 FROM AllTypes_intList WHERE parent = a._id AND NOT value > 0)"),
        ("NONE intList == 0", "SELECT _id FROM AllTypes a WHERE NOT EXISTS (SELECT 1 FROM AllTypes_intList WHERE parent = a._id AND value = 0)"),
        ("optIntList.@count > 2 AND ANY optIntList == nil",
         "SELECT _id FROM AllTypes a WHERE (SELECT count(*) FROM AllTypes_optIntList WHERE parent = a._id) > 2 AND EXISTS (SELECT 1 FROM AllTypes_optIntList WHERE parent = a._id AND value IS NULL)"),
        ("intSet.@count >= 3", "SELECT _id FROM AllTypes a WHERE (SELECT count(*) FROM AllTypes_intSet WHERE parent = a._id) >= 3"),
        ("'hello' IN stringList", "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_stringList WHERE parent = a._id AND value = 'hello')"),
        ("ANY stringSet ==[c] 'HELLO'",
         "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_stringSet WHERE parent = a._id AND value = 'HELLO' COLLATE NOCASE)"),
        ("intDict.@values > 100", "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_intDict WHERE parent = a._id AND value > 100)"),
        ("intDict['key0'] == 42", "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_intDict WHERE parent = a._id AND key = 'key0' AND value = 42)"),
        ("ANY intDict.@keys == 'a3'", "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_intDict WHERE parent = a._id AND key = 'a3')"),
        ("mixedDict['m0'] == 3",
         "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_mixedDict WHERE parent = a._id AND key = 'm0' AND value_type IN ('int', 'float', 'double') AND value = 3)"),
        ("objectCol._id == 'gamma'", "SELECT _id FROM AllTypes WHERE objectCol = 'gamma'"),
        ("objectCol.value > 20", "SELECT a._id FROM AllTypes a JOIN LinkTarget t ON t._id = a.objectCol WHERE t.value > 20"),
        ("objectList.@count > 3", "SELECT _id FROM AllTypes a WHERE (SELECT count(*) FROM AllTypes_objectList WHERE parent = a._id) > 3"),
        ("ANY objectList._id == 'beta'", "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_objectList WHERE parent = a._id AND value = 'beta')"),
        ("objectList.@sum.value >= 100",
         "SELECT _id FROM AllTypes a WHERE (SELECT total(t.value) FROM AllTypes_objectList l JOIN LinkTarget t ON t._id = l.value WHERE l.parent = a._id) >= 100"),
        ("objectDict.@count > 1", "SELECT _id FROM AllTypes a WHERE (SELECT count(*) FROM AllTypes_objectDict WHERE parent = a._id) > 1"),
        ("ANY objectDict.value == 20",
         "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_objectDict d JOIN LinkTarget t ON t._id = d.value WHERE d.parent = a._id AND t.value = 20)"),
        // Embedded objects live in tables keyed by their owner.
        ("embeddedCol.street BEGINSWITH 'Main'", "SELECT a._id FROM AllTypes a JOIN AllTypes_embeddedCol e ON e._parent = a._id WHERE e.street GLOB 'Main*'"),
        ("embeddedCol.inner.note != nil",
         "SELECT a._id FROM AllTypes a JOIN AllTypes_embeddedCol e ON e._parent = a._id JOIN AllTypes_embeddedCol_inner i ON i._parent = e._key WHERE i.note IS NOT NULL"),
        ("embeddedList.@count == 2", "SELECT _id FROM AllTypes a WHERE (SELECT count(*) FROM AllTypes_embeddedList WHERE _parent = a._id) = 2"),
        ("ANY embeddedList.street == 'List St 1'",
         "SELECT _id FROM AllTypes a WHERE EXISTS (SELECT 1 FROM AllTypes_embeddedList WHERE _parent = a._id AND street = 'List St 1')"),
        ("intPkCol._id == -1", "SELECT _id FROM AllTypes WHERE intPkCol = -1"),
        ("uuidPkList.@count == 2", "SELECT _id FROM AllTypes a WHERE (SELECT count(*) FROM AllTypes_uuidPkList WHERE parent = a._id) = 2"),
        ("TRUEPREDICATE SORT(indexedInt ASC, intCol DESC)", "SELECT _id FROM AllTypes ORDER BY indexedInt, intCol DESC, rowid"),
        ("indexedString == 'idx1' OR indexedString == nil", "SELECT _id FROM AllTypes WHERE indexedString = 'idx1' OR indexedString IS NULL"),
    ]

    static let allTypesOthers: [(String, String, String)] = [
        ("LinkTarget", "@links.AllTypes.objectList.@count > 2", "SELECT _id FROM LinkTarget t WHERE (SELECT count(*) FROM AllTypes_objectList WHERE value = t._id) > 2"),
        ("LinkTarget", "_id BEGINSWITH 'long'", "SELECT _id FROM LinkTarget WHERE _id GLOB 'long*'"),
        ("LinkTarget", "label == nil SORT(value DESC)", "SELECT _id FROM LinkTarget WHERE label IS NULL ORDER BY value DESC, rowid"),
        ("NoPK", "allTypes.intCol > 0", "SELECT n._key FROM NoPK n JOIN AllTypes a ON a._id = n.allTypes WHERE a.intCol > 0"),
        ("NoPK", "count IN {0, 4, 16}", "SELECT _key FROM NoPK WHERE count IN (0, 4, 16)"),
        ("IntPK", "_id < 0", "SELECT _id FROM IntPK WHERE _id < 0"),
        ("UUIDPK", "_id == uuid(00000000-0000-0000-0000-000000000000)", "SELECT _id FROM UUIDPK WHERE _id = '00000000-0000-0000-0000-000000000000'"),
        ("OptIntPK", "_id == nil", "SELECT _id FROM OptIntPK WHERE _id IS NULL"),
        ("OptStringPK", "_id != nil", "SELECT _id FROM OptStringPK WHERE _id IS NOT NULL"),
    ]

    static let large: [(String, String, String)] = [
        ("Item", "id BETWEEN {1000, 1010}", "SELECT id FROM Item WHERE id BETWEEN 1000 AND 1010"),
        ("Item", "category == 'books' AND score > 999", "SELECT id FROM Item WHERE category = 'books' AND score > 999"),
        ("Item", "name BEGINSWITH 'red green' AND id < 5000", "SELECT id FROM Item WHERE substr(name, 1, 9) = 'red green' AND id < 5000"),
        ("Item", "optInt == nil AND id < 30", "SELECT id FROM Item WHERE optInt IS NULL AND id < 30"),
        ("Item", "optString == 'opt-5' LIMIT(10)", "SELECT id FROM Item WHERE optString = 'opt-5' ORDER BY rowid LIMIT 10"),
        ("Item", "active == true AND quantity > 99990", "SELECT id FROM Item WHERE active AND quantity > 99990"),
        ("Item", "TRUEPREDICATE SORT(score DESC, id ASC) LIMIT(5)", "SELECT id FROM Item ORDER BY score DESC, id LIMIT 5"),
        ("Item", "category IN {'toys', 'food'} AND quantity < 15", "SELECT id FROM Item WHERE category IN ('toys', 'food') AND quantity < 15"),
        ("Item", "TRUEPREDICATE DISTINCT(category)", "SELECT min(id) FROM Item GROUP BY category"),
        ("Item", "name.@size > 100 AND id < 20000", "SELECT id FROM Item WHERE length(CAST(name AS BLOB)) > 100 AND id < 20000"),
        ("Item", "@links.Bucket.items.@count >= 4 AND id < 3000",
         "SELECT id FROM Item i WHERE id < 3000 AND (SELECT count(*) FROM Bucket_items WHERE value = i.id) >= 4"),
        ("Bucket", "items.@count > 196", "SELECT name FROM Bucket b WHERE (SELECT count(*) FROM Bucket_items WHERE parent = b.name) > 196"),
        ("Bucket", "ANY items.id == 12345", "SELECT name FROM Bucket b WHERE EXISTS (SELECT 1 FROM Bucket_items WHERE parent = b.name AND value = 12345)"),
        ("Bucket", "items.@avg.score > 100 AND weight == 3",
         "SELECT name FROM Bucket b WHERE weight = 3 AND (SELECT avg(i.score) FROM Bucket_items l JOIN Item i ON i.id = l.value WHERE l.parent = b.name) > 100"),
        ("Bucket", "items.@count < 3 AND weight > 5 SORT(name ASC)",
         "SELECT name FROM Bucket b WHERE weight > 5 AND (SELECT count(*) FROM Bucket_items WHERE parent = b.name) < 3 ORDER BY name"),
    ]

    static let date: [(String, String, String)] = [
        ("Person", "birthday > $0", "SELECT _key FROM Person WHERE birthday > '1965-01-01T00:00:00.000000000Z'"),
    ]

    func testHandWrittenSQLFindsTheObjectsRealmCoreFound() throws {
        let vectors = try JSONParser.parse(Array(FileManager.default.contents(atPath: Fixtures.path("realm-core/queries.json"))!))
        guard case let .array(all) = vectors else { return XCTFail("queries.json is not an array") }
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var checked = 0
        let cases: [(String, [(String, String, String)])] = [
            ("basic", Self.basic.map { ("Person", $0.0, $0.1) } + Self.basicDogs.map { ("Dog", $0.0, $0.1) } + Self.date),
            ("alltypes", Self.allTypes.map { ("AllTypes", $0.0, $0.1) } + Self.allTypesOthers),
            ("large", Self.large),
        ]
        for (fixture, queries) in cases {
            let out = directory + "/\(fixture).db"
            let file = try RealmFile(path: Fixtures.path("realm-core/\(fixture).realm"))
            _ = try SQLiteExporter(file: file).write(toDatabaseAt: out)
            let reader = try DumpFromSQLite(path: out)
            for (className, rql, sql) in queries {
                guard let vector = all.first(where: { $0["file"]?.stringValue == "\(fixture).realm" && $0["class"]?.stringValue == className && $0["query"]?.stringValue == rql }),
                      case let .array(expected)? = vector["expect"] else {
                    XCTFail("\(fixture): no query vector \(className): \(rql)")
                    continue
                }
                let c = reader.classes.first { $0.name == className }!
                let pkType = c.primaryKey.flatMap { pk in c.properties.first { $0.name == pk }?.type }
                let found = try reader.db.rows(sql).map { row in
                    try pkType.map { try reader.scalar($0, row[0]) } ?? .object([("$key", try reader.scalar("int", row[0]))])
                }
                let ordered = rql.contains("SORT") || rql.contains("LIMIT")
                let e = expected.map(\.compactText), f = found.map(\.compactText)
                XCTAssertEqual(ordered ? f : f.sorted(), ordered ? e : e.sorted(), "\(fixture) \(className): \(rql)\n  SQL: \(sql)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 120, "query vectors with an SQL equivalent")
    }
}
