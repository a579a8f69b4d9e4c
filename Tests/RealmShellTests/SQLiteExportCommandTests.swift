import Foundation
import RealmFormat
import RealmTestSupport
import XCTest

/// `realmsh export --format sqlite -o OUT`: the database appears whole or not at all, with the
/// exit codes of the product rules.
final class SQLiteExportCommandTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")
    var dir = ""

    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }

    func testExportWritesTheDatabaseAtomically() throws {
        let out = dir + "/basic.db"
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        XCTAssertEqual(realmsh("export", "--format", "sqlite", "-o", out, basic).code, 73, "an existing OUT needs --force")
        let run = realmsh("export", "--format", "sqlite", "--force", "-o", out, basic)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stdout, [], "data goes to the file, nothing to stdout")
        XCTAssertEqual(try files(), ["basic.db"], "no temporary file is left")
        XCTAssertEqual(try FileManager.default.contents(atPath: out)?.prefix(16), Data("SQLite format 3\0".utf8), "the old file was replaced")
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int), 0o644)
    }

    func testSQLiteNeedsAnOutputFile() {
        let run = realmsh("export", "--format", "sqlite", basic)
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("add -o OUT"), run.stderr)
    }

    func testClassSelection() throws {
        XCTAssertEqual(realmsh("export", "--format", "sqlite", "--class", "Dog", "-o", dir + "/dogs.db", basic).code, 0)
        let alltypes = Fixtures.path("realm-core/alltypes.realm")
        let embedded = realmsh("export", "--format", "sqlite", "--class", "EmbeddedObj", "-o", dir + "/e.db", alltypes)
        XCTAssertEqual(embedded.code, 64, embedded.stderr)
        XCTAssertTrue(embedded.stderr.contains("'EmbeddedObj' is an embedded class"), embedded.stderr)
        XCTAssertEqual(realmsh("export", "--format", "sqlite", "--class", "Dgo", "-o", dir + "/x.db", basic).code, 65)
        XCTAssertEqual(try files(), ["dogs.db"])
    }

    /// A realm that breaks part way through (Person's `name` leaf runs past the end of the
    /// file; Dog's rows are written first): exit 65, the old OUT untouched, nothing else left.
    func testAFailurePartWayLeavesNothing() throws {
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: basic)).map { $0 }
        let snapshot = try Snapshot(image: ByteImage(bytes: bytes))
        let person = try XCTUnwrap(snapshot.table(named: "class_Person"))
        let name = try XCTUnwrap(person.columns.first { $0.name == "name" })
        let leaf = try XCTUnwrap(try snapshot.clusterLeaves(rootRef: XCTUnwrap(person.clusterRef)).first?.leaf.columnRef(name.leafIndex))
        bytes.replaceSubrange((leaf + 5)..<(leaf + 8), with: [0xFF, 0xFF, 0xFF])     // the node's element count (§4.1)
        let bad = dir + "/bad.realm", out = dir + "/out.db"
        XCTAssertTrue(FileManager.default.createFile(atPath: bad, contents: Data(bytes)))
        XCTAssertTrue(FileManager.default.createFile(atPath: out, contents: Data("old".utf8)))
        let run = realmsh("export", "--format", "sqlite", "--force", "-o", out, bad)
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("bad.realm: corrupt file"), run.stderr)
        XCTAssertEqual(try files(), ["bad.realm", "out.db"])
        XCTAssertEqual(FileManager.default.contents(atPath: out), Data("old".utf8))
        XCTAssertEqual(realmsh("export", "--format", "sqlite", "-o", dir + "/no/such/dir.db", basic).code, 73)
    }

    func testEncryptedRealmNeedsItsKeyAndGivesAPrivateFile() throws {
        let encrypted = Fixtures.path("realm-core/encrypted.realm"), out = dir + "/e.db"
        XCTAssertEqual(realmsh("export", "--format", "sqlite", "-o", out, encrypted).code, 77)
        XCTAssertEqual(try files(), [])
        let run = realmsh("export", "--format", "sqlite", "--key-file", Fixtures.path("realm-core/encrypted.key"), "-o", out, encrypted)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int), 0o600)
    }

    func testDanglingLinksAreReportedAndProgressIsShownOnATerminal() throws {
        let dangling = Fixtures.path("realm-core-tests/test_upgrade_database_4_10_to_11.realm")
        let run = realmsh("export", "--format", "sqlite", "-o", dir + "/d.db", dangling)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("3 links to objects that do not exist were written as NULL"), run.stderr)
        let large = Fixtures.path("realm-core/large.realm")
        let shown = realmsh(["export", "--format", "sqlite", "-o", dir + "/l2.db", large], stderrTerminal: true)
        XCTAssertEqual(shown.code, 0, shown.stderr)
        XCTAssertTrue(shown.stderr.contains("exporting [") && shown.stderr.contains("100%"), shown.stderr)
    }
}
