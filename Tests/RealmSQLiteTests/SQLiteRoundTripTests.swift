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
        Fixtures.allRealmFiles().filter { path in
            let base = String(path.dropLast(".realm".count))
            return path.contains("/realm-core/") || [".json", ".json.gz"].contains { FileManager.default.fileExists(atPath: base + $0) }
        }
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
            try DumpComparison.compare(name, expected: JSONParser.parse(Array(dump)), actual: DumpFromSQLite(path: out), danglingLinks: summary.danglingLinks)
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 24, "fixtures compared with their dump")
    }
}
