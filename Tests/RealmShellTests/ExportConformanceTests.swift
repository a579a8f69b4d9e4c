import Foundation
import RealmTestSupport
import XCTest

/// `export --format json` must reproduce realm-core's canonical dump of every fixture byte for
/// byte (fixtures/README.md). New fixtures are picked up automatically.
final class ExportConformanceTests: XCTestCase {
    func testEveryPlainFixtureExportsExactlyItsDump() throws {
        var compared = 0, refused = 0
        for path in Fixtures.allRealmFiles() where !Fixtures.isEncrypted(path) {
            let name = String(path.split(separator: "/").suffix(2).joined(separator: "/"))
            let run = realmsh("export", "--format", "json", path)
            guard let expected = Fixtures.expectedDump(for: path) else {
                // No dump: realm-core 14 cannot open it either (formats 2 and 9, sync histories).
                if run.code == 69 { refused += 1 }
                continue
            }
            compared += 1
            XCTAssertEqual(run.code, 0, "\(name): \(run.stderr)")
            if let difference = DumpDifference.describe(fixture: name, expected: expected, actual: Data(run.stdout)) {
                XCTFail(difference)
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 23, "fixtures with a dump")
        print("export conformance: \(compared) fixtures compared byte for byte, \(refused) older formats refused with 69")
    }

    func testSchemaJSONIsTheClassesPartOfTheDump() throws {
        for name in ["basic", "alltypes", "schema_v3", "noclasses"] {
            let path = Fixtures.path("realm-core/\(name).realm")
            let dump = String(decoding: Fixtures.expectedDump(for: path)!, as: UTF8.self)
            let lines = dump.split(separator: "\n", omittingEmptySubsequences: false)
            guard let start = lines.firstIndex(of: "  \"classes\": ["[...]) ?? lines.firstIndex(of: "  \"classes\": [],") else {
                return XCTFail("\(name): no classes member")
            }
            var expected: [Substring]
            if lines[start].hasSuffix("[],") {
                expected = ["[]"]
            } else {
                let end = lines[start...].firstIndex(of: "  ],")!
                expected = ["["] + lines[(start + 1)..<end].map { $0.dropFirst(2) } + ["]"]
            }
            let run = realmsh("schema", "--format", "json", path)
            XCTAssertEqual(run.code, 0)
            XCTAssertEqual(run.out, expected.joined(separator: "\n") + "\n", name)
        }
    }
}
