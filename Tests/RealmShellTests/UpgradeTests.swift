import Foundation
import RealmTestSupport
import XCTest

/// `realmsh upgrade` (issue #5): a format-24 copy of every older fixture that realm-core 14 can
/// open shows exactly the objects realm-core shows after its own upgrade.
final class UpgradeTests: XCTestCase {
    func testEveryOlderFixtureUpgradesToTheDumpRealmCoreShows() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var upgraded = 0
        for path in Fixtures.allRealmFiles() where !Fixtures.isEncrypted(path) {
            guard let expected = Fixtures.expectedDump(for: path) else { continue }
            let info = realmsh("info", "--format", "json", path)
            guard let object = try? JSONSerialization.jsonObject(with: Data(info.stdout)) as? [String: Any],
                  let format = object["formatVersion"] as? Int, format != 24, format != 0 else { continue }
            let out = dir + "/\(upgraded).realm"
            let run = realmsh("upgrade", "-o", out, path)
            if path.hasSuffix("test_upgrade_database_20.realm") {
                // Its table holds sync tombstones, which realmsh does not write.
                XCTAssertEqual(run.code, 69, run.stderr)
                continue
            }
            XCTAssertEqual(run.code, 0, "\(path): \(run.stderr)")
            XCTAssertEqual(realmsh("verify", out).code, 0, "\(path): \(realmsh("verify", out).out)")
            let after = realmsh("info", "--format", "json", out)
            XCTAssertTrue(after.out.contains("\"formatVersion\": 24"), after.out)
            // The dump records the format found on disk; everything after that line must match.
            var wanted = String(decoding: expected, as: UTF8.self)
            wanted = wanted.replacingOccurrences(of: "\"formatVersion\": \(format),", with: "\"formatVersion\": 24,")
            if let difference = DumpDifference.describe(fixture: "upgraded " + path, expected: Data(wanted.utf8), actual: Data(realmsh("export", out).stdout)) {
                XCTFail(difference)
            }
            upgraded += 1
        }
        XCTAssertGreaterThanOrEqual(upgraded, 10)
        print("upgrade: \(upgraded) older fixtures upgraded to format 24 with realm-core's dump")
    }

    func testFormat24FilesAndMissingOutputAreRefused() {
        let basic = Fixtures.path("realm-core/basic.realm")
        XCTAssertEqual(realmsh("upgrade", "-o", "/tmp/never-written.realm", basic).code, 69)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/never-written.realm"))
        XCTAssertEqual(realmsh("upgrade", basic).code, 64)
    }
}
