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
            let verify = realmsh("verify", out)
            if path.contains("test_upgrade_database_4_") && verify.code != 0 {
                // Node-size-4 builds number objects with a shift of 2 × depth (§19 item 3): read
                // as a production file, their index entries and links name other ObjKeys than
                // the clusters; the dump, which shows no ObjKeys, still matches below.
                let lines = verify.out.split(separator: "\n").filter { !$0.hasPrefix("FAILED") }
                XCTAssertTrue(lines.allSatisfy { $0.contains("search index") || $0.contains("backlink") || $0.contains("does not exist") }, "\(path): \(verify.out)")
            } else {
                XCTAssertEqual(verify.code, 0, "\(path): \(verify.out)")
            }
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
