import Foundation
import RealmTestSupport
import XCTest

/// The commands as a user runs them: output on stdout, one-line errors on stderr, sysexits.
final class CommandTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")

    func testInfoShowsFormatVersionHistoryAndClassCounts() {
        let run = realmsh("info", basic)
        XCTAssertEqual(run.code, 0, run.stderr)
        for text in ["Format:         24", "Version:        4", "in-realm (local SDK), history schema 1",
                     "Schema version: 1", "Dog       8 objects", "Person    10 objects", "metadata  1 object"] {
            XCTAssertTrue(run.out.contains(text), "missing \(text) in\n\(run.out)")
        }
    }

    func testInfoNamesStreamingAndCompactedForms() {
        XCTAssertTrue(realmsh("info", Fixtures.path("realm-core/exported.realm")).out.contains("Form:           streaming"))
        XCTAssertTrue(realmsh("info", Fixtures.path("realm-core/compacted.realm")).out.contains("Form:           compacted"))
        let old = realmsh("info", Fixtures.path("realm-core-tests/test_upgrade_database_20.realm"))
        XCTAssertTrue(old.out.contains("Format:         20 — Realm Core 10"), old.out)
    }

    func testInfoJSONIsMachineReadable() throws {
        let run = realmsh("info", "--format", "json", Fixtures.path("realm-core/churn.realm"))
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout)) as! [String: Any]
        XCTAssertEqual(object["formatVersion"] as? Int, 24)
        XCTAssertEqual(object["version"] as? Int, 242)
        XCTAssertGreaterThan(object["freeBytes"] as! Int, 0)
        let classes = (object["classes"] as! [[String: Any]]).map { $0["name"] as! String }
        XCTAssertEqual(classes, ["Log", "Note"])
    }

    func testBareFileArgumentMeansInfo() {
        XCTAssertEqual(realmsh(basic).out, realmsh("info", basic).out)
    }

    func testSchemaTextAndSwift() {
        let text = realmsh("schema", basic).out
        XCTAssertTrue(text.contains("dogs:       List<Dog>"), text)
        XCTAssertTrue(text.contains("← linked from Person.dogs"), text)
        let swift = realmsh("schema", "--format", "swift", Fixtures.path("realm-core/alltypes.realm")).out
        for line in ["class AllTypes: Object {", "@Persisted(primaryKey: true) var _id: ObjectId",
                     "@Persisted var optIntList: List<Int?>", "class EmbeddedObj: EmbeddedObject {",
                     "@Persisted var mixedDict: Map<String, AnyRealmValue>", "@Persisted(indexed: true) var indexedString: String?"] {
            XCTAssertTrue(swift.contains(line), "missing \(line)")
        }
    }

    func testUnknownClassListsTheClassesAndExits65() {
        let run = realmsh("export", "--class", "Dgo", basic)
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(run.stderr.contains("did you mean 'Dog'"), run.stderr)
        XCTAssertTrue(run.stderr.contains("classes: Dog, Person"), run.stderr)
    }

    func testExportJSONLinesOnePerObject() {
        let lines = realmsh("export", "--format", "jsonl", basic).out.split(separator: "\n")
        XCTAssertEqual(lines.count, 18)
        XCTAssertEqual(lines[0], #"{"_class":"Dog","_key":0,"name":"Rex","age":1,"owner":{"$key":0}}"#)
    }

    func testExportCSVNeedsOneClassAndQuotesFields() {
        XCTAssertEqual(realmsh("export", "--format", "csv", basic).code, 64)
        let csv = realmsh("export", "--format", "csv", "--class", "Person", basic).out
        let rows = csv.split(separator: "\r\n")
        XCTAssertEqual(rows.count, 11)
        XCTAssertEqual(rows[0], "_key,name,age,email,height,isAdmin,birthday,dogs,bestFriend,nicknames")
        XCTAssertTrue(rows[1].hasPrefix("0,Alice,18,,150.0,true,1960-01-04T00:00:00Z,\"[{\"\"$key\"\":0}"), String(rows[1]))
    }

    func testExportToAFileIsAtomicAndLeavesNothingOnFailure() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/dump.json"
        XCTAssertEqual(realmsh("export", "-o", out, basic).code, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: out), Fixtures.expectedDump(for: basic))
        // A corrupt input: the export fails and neither the output nor a temporary file remains.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: basic))
        bytes.replaceSubrange(0x18..<0x800, with: Data(repeating: 0xEE, count: 0x800 - 0x18))
        let bad = dir + "/bad.realm"
        try bytes.write(to: URL(fileURLWithPath: bad))
        let run = realmsh("export", "-o", dir + "/bad.json", bad)
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["bad.realm", "dump.json"])
        XCTAssertEqual(realmsh("export", "-o", dir + "/no/such/dir.json", basic).code, 73)
    }

    func testErrorsAreOneLineWithSysexitsCodes() throws {
        // A format no Realm wrote (formats 2–9 open: Docs/legacy-formats.md).
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var unknown = [UInt8](repeating: 0, count: 4096)
        unknown[0] = 64
        unknown.replaceSubrange(16..<24, with: Array("T-DB".utf8) + [25, 25, 0, 0])
        let future = dir + "/future.realm"
        try Data(unknown).write(to: URL(fileURLWithPath: future))
        let cases: [([String], Int32, String)] = [
            (["info", "/nonexistent.realm"], 66, "No such file"),
            (["info", Fixtures.path("realm-core/encrypted.realm")], 77, "encrypted: a key is needed"),
            (["info", Fixtures.path("README.md")], 65, "not a Realm file"),
            (["info", future], 69, "file format 25 is not supported"),
            (["exprot", basic], 64, "did you mean 'export'"),
            (["info"], 64, "missing argument FILE"),
        ]
        for (args, code, text) in cases {
            let run = realmsh(args)
            XCTAssertEqual(run.code, code, "\(args): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: ") && run.stderr.contains(text), "\(args): \(run.stderr)")
            XCTAssertTrue(run.stdout.isEmpty, "\(args) wrote data")
        }
    }

    func testHelpForEverySubcommand() {
        for name in ["info", "schema", "export", "verify", "help"] {
            let viaHelp = realmsh("help", name), viaFlag = realmsh(name, "--help")
            XCTAssertEqual(viaHelp.code, 0)
            XCTAssertEqual(viaHelp.out, viaFlag.out)
            XCTAssertTrue(viaHelp.out.contains("USAGE: realmsh \(name)"), viaHelp.out)
        }
        XCTAssertTrue(realmsh("--version").out.hasPrefix("realmsh "))
        XCTAssertEqual(realmsh("--help").code, 0)
    }
}
