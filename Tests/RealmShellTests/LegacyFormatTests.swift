import Foundation
import RealmFormat
import RealmTestSupport
import XCTest

/// Files of formats 2–9 (issue 18, Docs/legacy-formats.md), on the 142 files of
/// `../shared/fixtures/public/`: each with a dump exports exactly it; every other one opens,
/// exports and verifies; `upgrade` gives a format-24 copy with the same export that verifies;
/// nothing of the original changes; writes in place are refused.
final class LegacyFormatTests: XCTestCase {
    private var scratch = ""

    override func setUp() {
        scratch = Fixtures.temporaryDirectory()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// `--key-file PATH` for an encrypted fixture, nothing otherwise.
    private func keyArguments(_ f: Fixtures.PublicFixture) throws -> [String] {
        guard let hex = f.keyHex else { return [] }
        return ["--key-file", try Fixtures.keyFile(hex, in: scratch)]
    }

    func testEveryPublicFixtureWithADumpExportsExactlyIt() throws {
        let fixtures = Fixtures.publicFixtures()
        XCTAssertEqual(fixtures.count, 142, "public/manifest.tsv")
        var compared = 0
        for f in fixtures {
            guard let expected = Fixtures.expectedDump(for: f.path) else { continue }
            let run = realmsh(["export", "--format", "json"] + (try keyArguments(f)) + [f.path])
            XCTAssertEqual(run.code, 0, "\(f.name): \(run.stderr)")
            if let difference = DumpDifference.describe(fixture: "public/" + f.name, expected: expected, actual: Data(run.stdout)) {
                XCTFail(difference)
            }
            compared += 1
        }
        XCTAssertEqual(compared, 60, "public fixtures with a dump")
        print("legacy conformance: \(compared) public fixtures export their dump byte for byte")
    }

    func testEveryOtherPublicFixtureOpensExportsAndVerifies() throws {
        var checked = 0, legacy = 0
        for f in Fixtures.publicFixtures() where Fixtures.expectedDump(for: f.path) == nil {
            let key = try keyArguments(f)
            let export = realmsh(["export", "--format", "json"] + key + [f.path])
            XCTAssertEqual(export.code, 0, "\(f.name) (format \(f.format)): \(export.stderr)")
            XCTAssertTrue(export.out.hasPrefix("{\n  \"formatVersion\": \(f.format),"), "\(f.name): \(export.out.prefix(60))")
            let verify = realmsh(["verify"] + key + [f.path])
            // realm-core's node-size-4 test files of formats 10+ do not verify (public/README.md).
            if f.format < 10 || !f.name.contains("_4_") {
                XCTAssertEqual(verify.code, 0, "\(f.name): \(verify.out)")
            }
            checked += 1
            if f.isLegacy { legacy += 1 }
        }
        XCTAssertEqual(checked, 82)
        print("legacy conformance: \(checked) public fixtures without a dump open, export and verify (\(legacy) of formats 2-9)")
    }

    /// realm-core's own old files: its format-2 test file, its format-9 sync and consistency
    /// samples, and the two files its Shared_DecryptExisting test encrypted with the key of
    /// those days (Core 4.0.3, 4 KiB and 64 KiB pages): one string of 1.5 pages of 'a'.
    func testOldRealmCoreTestFixturesOpen() throws {
        for name in ["test_upgrade_database_1000_1", "admin_realm_issue_1794", "client_file_migration_core6",
                     "consistency_full_0", "consistency_full_1"] {
            let path = Fixtures.path("realm-core-tests/\(name).realm")
            let run = realmsh("export", "--format", "json", path)
            XCTAssertEqual(run.code, 0, "\(name): \(run.stderr)")
            XCTAssertEqual(realmsh("verify", "-q", path).code, 0, name)
        }
        let key = try Fixtures.keyFile(Fixtures.sharedDecryptKeyHex, in: scratch)
        for (name, pageSize) in [("test_shared_decrypt_4k_page", 4096), ("test_shared_decrypt_64k_page", 65536)] {
            let run = realmsh("export", "--format", "json", "--key-file", key, Fixtures.path("realm-core-tests/\(name).realm"))
            XCTAssertEqual(run.code, 0, "\(name): \(run.stderr)")
            XCTAssertTrue(run.out.contains("\"string\": \"" + String(repeating: "a", count: pageSize * 3 / 2) + "\""), name)
            XCTAssertTrue(run.out.hasPrefix("{\n  \"formatVersion\": 9,"), name)
        }
    }

    func testUpgradeOfEveryOldFixtureExportsItsDumpAndVerifies() throws {
        var upgraded = 0
        for f in Fixtures.publicFixtures() where f.isLegacy {
            let key = try keyArguments(f)
            let out = scratch + "/up-\(upgraded).realm"
            let run = realmsh(["upgrade", "-o", out] + key + [f.path])
            if f.name == "java__sizefile.realm" {
                // Its header says format 2, but nothing was ever committed: nothing to upgrade.
                XCTAssertEqual(run.code, 69, run.stderr)
                XCTAssertTrue(run.stderr.contains("nothing has been committed"), run.stderr)
                continue
            }
            XCTAssertEqual(run.code, 0, "\(f.name): \(run.stderr)")
            XCTAssertEqual(realmsh(["verify", "-q"] + key + [out]).code, 0, "upgraded \(f.name): \(realmsh(["verify"] + key + [out]).out)")
            let exported = realmsh(["export", "--format", "json"] + key + [out])
            XCTAssertEqual(exported.code, 0, "upgraded \(f.name): \(exported.stderr)")
            // The same objects as the original shows, in a format-24 file.
            let original = realmsh(["export", "--format", "json"] + key + [f.path]).out
            let wanted = original.replacingOccurrences(of: "\"formatVersion\": \(f.format),", with: "\"formatVersion\": 24,")
            if let difference = DumpDifference.describe(fixture: "upgraded " + f.name, expected: Data(wanted.utf8), actual: Data(exported.stdout)) {
                XCTFail(difference)
            }
            if let dump = Fixtures.expectedDump(for: f.path) {
                XCTAssertEqual(original, String(decoding: dump, as: UTF8.self), f.name)
            }
            upgraded += 1
        }
        XCTAssertEqual(upgraded, 97, "public fixtures of formats 2-9 with something committed")
        print("legacy upgrade: \(upgraded) old fixtures upgraded to format 24, each verified and exporting what the original shows")
    }

    func testInfoNamesTheFormatAndTheSDKEraAndReadsChangeNoByte() throws {
        let path = try Fixtures.copy("public/java__default1.realm", into: scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let info = realmsh("info", path)
        XCTAssertEqual(info.code, 0, info.stderr)
        XCTAssertTrue(info.out.contains("Format:         9 — Realm Core 4-5 (2017-2019: Realm Java 4-6"), info.out)
        XCTAssertTrue(info.out.contains("Person    3 objects"), info.out)
        for args in [["export", path], ["query", path, "Person", "age > 20"], ["verify", path], ["schema", path]] {
            XCTAssertEqual(realmsh(args).code, 0, "\(args)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "a read changes no byte")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"), "nor makes a lock file")
        for format in [2, 3, 5, 6, 7, 8, 9] {     // no fixture has format 4
            let era = realmsh("info", "--format", "json", Fixtures.publicFixtures().first { $0.format == format && $0.keyHex == nil }!.path)
            XCTAssertTrue(era.out.contains("\"era\": \"Realm Core "), "format \(format): \(era.out)")
        }
    }

    /// `info` reads an old file's classes and counts from its old structures, without
    /// converting it (§8.4): the same classes, counts and schema version the export shows.
    func testInfoOfAnOldFileCountsWhatTheConversionHolds() throws {
        var checked = 0
        for f in Fixtures.publicFixtures() where f.isLegacy {
            let key = try keyArguments(f)
            let info = realmsh(["info", "--format", "json"] + key + [f.path])
            let export = realmsh(["export", "--format", "json"] + key + [f.path])
            let i = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(info.stdout)) as? [String: Any], f.name)
            let e = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(export.stdout)) as? [String: Any], f.name)
            let embedded = Set(((e["classes"] as? [[String: Any]]) ?? []).filter { $0["embedded"] as? Bool == true }.compactMap { $0["name"] as? String })
            var counted = [String: Int]()
            for c in (i["classes"] as? [[String: Any]]) ?? [] where !embedded.contains(c["name"] as? String ?? "") {
                counted[c["name"] as? String ?? ""] = c["objects"] as? Int
            }
            let exported = ((e["objects"] as? [String: [Any]]) ?? [:]).mapValues(\.count)
            XCTAssertEqual(counted, exported, f.name)
            XCTAssertEqual(i["schemaVersion"] as? Int, e["schemaVersion"] as? Int, f.name)
            checked += 1
        }
        XCTAssertEqual(checked, 98)
        let snapshot = try Snapshot(path: Fixtures.path("public/java__default1.realm"), convertingLegacy: false)
        XCTAssertTrue(snapshot.isLegacyCatalogue)
        XCTAssertTrue(snapshot.tables.isEmpty, "nothing converted")
    }

    func testWritesIntoAnOldFileAreRefusedWithTheAdviceToUpgradeACopy() throws {
        let path = try Fixtures.copy("public/java__default1.realm", into: scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for args in [["update", path, "Person", "--all", "--set", "age=1"],
                     ["insert", path, "Person", #"[{"age": 1, "fullName": "x"}]"#],
                     ["delete", path, "Person", "--all"], ["compact", path], ["compact", "-o", scratch + "/c.realm", path]] {
            let run = realmsh(args)
            XCTAssertEqual(run.code, 69, "\(args[0]): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("file format 9") && run.stderr.contains("upgrade"), run.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch + "/c.realm"))
    }

    /// Encrypting, decrypting and changing the key keep an old file's bytes as they are (the
    /// page encryption does not care about the format): no conversion sneaks in.
    func testEncryptionCommandsKeepAnOldFileAsItIs() throws {
        let f = try XCTUnwrap(Fixtures.publicFixtures().first { $0.name == "core__0.98.0-alltypes-default-encrypted.realm" })
        let key = try keyArguments(f)
        let plain = scratch + "/plain.realm"
        let decrypt = realmsh(["decrypt", "-o", plain] + key + [f.path])
        XCTAssertEqual(decrypt.code, 0, decrypt.stderr)
        let header = try [UInt8](Data(contentsOf: URL(fileURLWithPath: plain)).prefix(24))
        XCTAssertEqual(header[20 + Int(header[23] & 1)], 3, "still format 3")
        XCTAssertEqual(realmsh("export", plain).out, realmsh(["export"] + key + [f.path]).out)
    }

    /// A 0-byte file is a Realm nobody committed to yet (java__test_no_overwrite.realm).
    func testAnEmptyFileOpensAsAnEmptyRealm() throws {
        let path = Fixtures.path("public/java__test_no_overwrite.realm")
        let info = realmsh("info", "--format", "json", path)
        XCTAssertEqual(info.code, 0, info.stderr)
        XCTAssertTrue(info.out.contains("\"formatVersion\": 0,"), info.out)
        XCTAssertEqual(realmsh("export", path).out, "{\n  \"formatVersion\": 0,\n  \"schemaVersion\": null,\n  \"classes\": [],\n  \"objects\": {}\n}\n")
        XCTAssertEqual(realmsh("verify", "-q", path).code, 0)
    }
}
