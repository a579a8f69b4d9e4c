import RealmObjects
import RealmSQLite
import XCTest

/// A canonical dump against a database read back by `DumpFromSQLite`: each difference is one
/// failure naming the file, class, object (its identity) and property path.
enum DumpComparison {
    /// Compares the dump with the database: classes exactly, objects matched by identity (the
    /// primary key or `_key`; a table's row order is not the ObjKey order the dump lists).
    static func compare(_ name: String, expected: JSONValue, actual: DumpFromSQLite, danglingLinks: Int) throws {
        var missing = 0, negativeZeros = 0
        func check(_ path: String, _ e: JSONValue, _ a: JSONValue) {
            switch (e, a) {
            case let (.object(em), .object(am)):
                guard em.map(\.key) == am.map(\.key) else {
                    return XCTFail("\(name): \(path): members \(em.map(\.key)) but got \(am.map(\.key))")
                }
                for (x, y) in zip(em, am) { check(path + "." + x.key, x.value, y.value) }
            case let (.array(ea), .array(aa)):
                guard ea.count == aa.count else { return XCTFail("\(name): \(path): \(ea.count) elements but got \(aa.count): \(a.compactText)") }
                for (i, (x, y)) in zip(ea, aa).enumerated() { check(path + "[\(i)]", x, y) }
            case (.object, .null) where e["$missing"] != nil:
                // A link to an object that does not exist is NULL in the database.
                missing += 1
            case (.number("-0.0"), .number("0.0")) where !path.contains("mixed"):
                // A REAL column stores −0.0 as the integer 0 (SQLite's storage; Docs/commands.md).
                negativeZeros += 1
            default:
                if e != a { XCTFail("\(name): \(path): expected \(e.compactText) but got \(a.compactText)") }
            }
        }
        check("formatVersion", expected["formatVersion"]!, actual.formatVersion == .null ? .null : try actual.scalar("int", actual.formatVersion))
        check("schemaVersion", expected["schemaVersion"]!, try actual.scalar("int", actual.schemaVersion))
        check("classes", expected["classes"]!, actual.classesJSON)
        guard case let .object(objects)? = expected["objects"] else { return XCTFail("\(name): no objects") }
        for (className, expectedObjects) in objects {
            guard let c = actual.classes.first(where: { $0.name == className }), case let .array(list) = expectedObjects else {
                XCTFail("\(name): class \(className) is not in _realm_schema")
                continue
            }
            let identity: (JSONValue) -> String = { o in (c.primaryKey.flatMap { o[$0] } ?? o["_key"] ?? .null).compactText }
            let rows = try actual.objects(of: c)
            XCTAssertEqual(rows.count, list.count, "\(name): objects of \(className)")
            let byIdentity = Dictionary(rows.map { (identity($0), $0) }, uniquingKeysWith: { a, _ in a })
            for o in list {
                let id = identity(o)
                guard let row = byIdentity[id] else {
                    XCTFail("\(name): class \(className): no object \(id) in the database")
                    continue
                }
                check("class \(className), object \(id)", o, row)
            }
        }
        XCTAssertEqual(missing, danglingLinks, "\(name): links to missing objects")
        if name == "realm-core/alltypes.realm" { XCTAssertEqual(negativeZeros, 12, "\(name): −0.0 in REAL columns") }
    }
}
