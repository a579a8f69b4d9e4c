import Foundation
import RealmFormat
import RealmObjects
import RealmSQLite
import RealmTestSupport
import XCTest

/// Every fixture realmsh reads exports to a database SQLite accepts (`integrity_check`,
/// `foreign_key_check`), with each class's objects, and that database — read with nothing but
/// SQL and `_realm_schema` — gives back realm-core's canonical dump value by value: list order,
/// dictionary keys, embedded objects, Mixed values of every type.
final class SQLiteRoundTripTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// The fixtures with a dump that realmsh opens: all of realm-core/, and realm-core's own
    /// test files of formats 10–23 (raw form, upgrades, dangling links, asymmetric tables).
    static func fixtures() -> [String] {
        Fixtures.allRealmFiles().filter { Fixtures.expectedDump(for: $0) != nil || $0.contains("/realm-core/") }
    }

    static func open(_ path: String) throws -> RealmFile {
        let keyPath = String(path.dropLast(".realm".count)) + ".key"
        let key = FileManager.default.fileExists(atPath: keyPath) ? try EncryptionKey(file: keyPath) : nil
        return try RealmFile(path: path, snapshot: Snapshot(path: path, key: key))
    }

    func testEveryFixtureExportsToADatabaseThatReadsBackAsItsDump() throws {
        var compared = 0
        for path in Self.fixtures() {
            let name = String(path.split(separator: "/").suffix(2).joined(separator: "/"))
            let file = try Self.open(path)
            let out = directory + "/" + (name as NSString).lastPathComponent + ".db"
            let summary = try SQLiteExporter(file: file).write(toDatabaseAt: out)
            let db = try SQLiteConnection(path: out, readOnly: true)
            XCTAssertEqual(try db.rows("PRAGMA integrity_check"), [[.text(Array("ok".utf8))]], name)
            XCTAssertEqual(try db.rows("PRAGMA foreign_key_check"), [], "\(name): foreign keys")
            for c in file.classes where !c.isEmbedded {
                let count = try db.rows("SELECT count(*) FROM \"\(c.name)\"")
                XCTAssertEqual(count, [[.integer(Int64(try file.objectCount(of: c)))]], "\(name): objects of \(c.name)")
                XCTAssertEqual(summary.objects[c.name], try file.objectCount(of: c), "\(name): \(c.name)")
            }
            guard let dump = Fixtures.expectedDump(for: path) else { continue }
            try compare(name, expected: JSONParser.parse(Array(dump)), actual: DumpFromSQLite(path: out), danglingLinks: summary.danglingLinks)
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 24, "fixtures compared with their dump")
    }

    /// Compares the dump with the database: classes exactly, objects matched by identity (the
    /// primary key or `_key`; a table's row order is not the ObjKey order the dump lists).
    func compare(_ name: String, expected: JSONValue, actual: DumpFromSQLite, danglingLinks: Int) throws {
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
        if name.hasSuffix("alltypes.realm") { XCTAssertEqual(negativeZeros, 12, "\(name): −0.0 in REAL columns") }
    }
}
