import Foundation
import RealmObjects
import RealmTestSupport
import XCTest

/// Every entry of `../shared/fixtures/realm-core/queries.json` (computed by realm-core 14.14
/// itself) must give realm-core's answer through `realmsh query`: the same objects in the same
/// order, or a rejection. The file is enumerated, so new entries are picked up.
final class QueryConformanceTests: XCTestCase {
    func testEveryQueriesJSONEntryGivesRealmCoresAnswer() throws {
        let directory = Fixtures.path("realm-core")
        let (passed, total) = try runEntries { file in directory + "/" + file }
        XCTAssertGreaterThanOrEqual(total, 174)
        XCTAssertEqual(passed, total)
    }

    /// The same entries on copies of the fixtures whose string properties are all enumerated
    /// (`compact --enumerate-strings 100`, realm-format.md §9.4.4): the same answers, since
    /// enumeration changes only how the strings are stored.
    func testEveryQueriesJSONEntryGivesTheSameAnswerOnEnumeratedCopies() throws {
        let directory = Fixtures.path("realm-core")
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var copies: [String: String] = [:]
        for file in ["alltypes.realm", "basic.realm", "large.realm"] {
            let run = realmsh(["compact", "--enumerate-strings", "100", "-o", scratch + "/" + file, directory + "/" + file])
            XCTAssertEqual(run.code, 0, "\(file): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(": enumerated\n"), "\(file): no property was enumerated: \(run.stderr)")
            copies[file] = scratch + "/" + file
        }
        let (passed, total) = try runEntries { file in copies[file] }
        XCTAssertGreaterThanOrEqual(total, 174)
        XCTAssertEqual(passed, total)
    }

    /// The same entries on encrypted copies of the fixtures (`encrypt`, §14): the same answers,
    /// since a query reads the decrypted pages through the same scans.
    func testEveryQueriesJSONEntryGivesTheSameAnswerOnEncryptedCopies() throws {
        let directory = Fixtures.path("realm-core")
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let key = scratch + "/k.key"
        XCTAssertEqual(realmsh("keygen", "-o", key).code, 0)
        var copies: [String: String] = [:]
        for file in ["alltypes.realm", "basic.realm", "large.realm"] {
            let run = realmsh(["encrypt", "--key-file", key, "-o", scratch + "/" + file, directory + "/" + file])
            XCTAssertEqual(run.code, 0, "\(file): \(run.stderr)")
            copies[file] = scratch + "/" + file
        }
        let (passed, total) = try runEntries(extraArguments: ["--key-file", key]) { file in copies[file] }
        XCTAssertGreaterThanOrEqual(total, 174)
        XCTAssertEqual(passed, total)
    }

    /// Runs every entry on the file `path(entry's file)` gives (entries whose file it does not
    /// give fail), with `extraArguments` before the file; returns how many gave realm-core's
    /// answer, of how many.
    private func runEntries(extraArguments: [String] = [], _ pathOf: (String) -> String?) throws -> (passed: Int, total: Int) {
        let directory = Fixtures.path("realm-core")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: directory + "/queries.json"))
        guard case let .array(entries) = try JSONParser.parse(Array(data)) else {
            XCTFail("queries.json is not an array")
            return (0, 0)
        }
        var passed = 0, rejections = 0, sameMessage = 0
        var primaryKeys = [String: String?]()
        for (n, entry) in entries.enumerated() {
            guard let file = entry["file"]?.stringValue, let cls = entry["class"]?.stringValue,
                  let query = entry["query"]?.stringValue else {
                XCTFail("entry \(n) lacks file, class or query")
                continue
            }
            guard let path = pathOf(file) else {
                XCTFail("entry \(n): no copy of \(file)")
                continue
            }
            var args = ["query", "--format", "json"] + extraArguments + [path, cls, query]
            if let a = entry["args"] { args += ["--args-json", a.compactText] }
            let run = realmsh(args)
            let label = "queries.json #\(n): \(file) \(cls) \"\(query)\""
            if entry["error"] == .bool(true) {
                rejections += 1
                let expected = entry["message"]?.stringValue ?? ""
                if run.code == 65 && run.stdout.isEmpty {
                    passed += 1
                    if run.stderr.hasPrefix("Error: " + expected + "\n") { sameMessage += 1 }
                } else {
                    XCTFail("\(label): realm-core rejects it (\(expected)) but realmsh exited \(run.code): \(run.out.prefix(300))")
                }
                continue
            }
            guard run.code == 0, case let .array(objects) = try JSONParser.parse(run.stdout) else {
                XCTFail("\(label): exited \(run.code): \(run.stderr)")
                continue
            }
            // The schema of the fixture itself (a copy has the same).
            let schemaPath = directory + "/" + file
            if primaryKeys[schemaPath + "/" + cls] == nil {
                primaryKeys[schemaPath + "/" + cls] = try RealmFile(path: schemaPath).objectClass(named: cls)?.primaryKey
            }
            let pk = primaryKeys[schemaPath + "/" + cls]!
            let got = objects.map { o -> String in
                if let pk { return o[pk]?.compactText ?? "?" }
                return "{\"$key\":" + (o["_key"]?.compactText ?? "?") + "}"
            }
            guard case let .array(expectedIdentities)? = entry["expect"] else {
                XCTFail("\(label): no expect")
                continue
            }
            let expected = expectedIdentities.map(\.compactText)
            if got == expected {
                passed += 1
            } else {
                XCTFail("\(label): expected \(expected.count) objects \(expected.prefix(20)) but got \(got.count) \(got.prefix(20))")
            }
        }
        print("queries.json conformance: \(passed)/\(entries.count) entries give realm-core's answer (\(rejections) rejections, \(sameMessage) with realm-core's exact message)")
        return (passed, entries.count)
    }
}
