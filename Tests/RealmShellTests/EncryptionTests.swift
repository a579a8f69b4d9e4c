import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// Reading encrypted files (realm-format.md §14) and the distinct messages of issue #5.
final class EncryptionTests: XCTestCase {
    let encrypted = Fixtures.path("realm-core/encrypted.realm")
    let keyFile = Fixtures.path("realm-core/encrypted.key")

    func testEveryEncryptedFixtureWithAKeyExportsItsDump() throws {
        var compared = 0
        for path in Fixtures.allRealmFiles() {
            let key = String(path.dropLast(".realm".count)) + ".key"
            guard FileManager.default.fileExists(atPath: key), let expected = Fixtures.expectedDump(for: path) else { continue }
            let run = realmsh("export", "--key-file", key, path)
            XCTAssertEqual(run.code, 0, run.stderr)
            if let difference = DumpDifference.describe(fixture: path, expected: expected, actual: Data(run.stdout)) {
                XCTFail(difference)
            }
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 1)
    }

    func testKeyFromHexOptionAndEnvironmentAndRawBytes() throws {
        let hex = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let viaOption = realmsh("info", "--key", hex, encrypted)
        XCTAssertEqual(viaOption.code, 0)
        XCTAssertTrue(viaOption.out.contains("Encrypted:      yes"))
        XCTAssertTrue(viaOption.stderr.contains("visible to other users"), "--key is warned against")
        XCTAssertFalse(viaOption.out.contains(hex) || viaOption.stderr.contains(hex), "the key is never printed")

        setenv("REALMSH_KEY", hex, 1)
        defer { unsetenv("REALMSH_KEY") }
        XCTAssertEqual(realmsh("schema", encrypted).code, 0)

        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var raw = [UInt8]()
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            raw.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/raw.key", contents: Data(raw)))
        unsetenv("REALMSH_KEY")
        XCTAssertEqual(realmsh("info", "--key-file", dir + "/raw.key", encrypted).code, 0)
    }

    func testDistinctErrorsForMissingWrongAndUnneededKeys() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let wrong = dir + "/wrong.key"
        XCTAssertTrue(FileManager.default.createFile(atPath: wrong, contents: Data(String(repeating: "ab", count: 64).utf8)))
        let short = dir + "/short.key"
        XCTAssertTrue(FileManager.default.createFile(atPath: short, contents: Data("1234\n".utf8)))
        let cases: [([String], Int32, String)] = [
            (["info", encrypted], 77, "encrypted: a key is needed"),
            (["info", "--key-file", wrong, encrypted], 77, "wrong key (authentication failed at page 0)"),
            (["info", "--key-file", keyFile, Fixtures.path("realm-core/basic.realm")], 65, "this file is not encrypted"),
            (["info", "--key-file", keyFile, Fixtures.path("README.md")], 65, "not a Realm file"),
            (["info", "--key-file", short, encrypted], 64, "invalid key"),
            (["info", "--key-file", dir + "/missing.key", encrypted], 66, "No such file"),
        ]
        for (args, code, text) in cases {
            let run = realmsh(args)
            XCTAssertEqual(run.code, code, "\(args.dropLast()): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(text), "\(args.dropLast()): \(run.stderr)")
        }
    }

    func testDamagedEncryptedFilesFailCleanly() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: encrypted))
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A flipped byte in the data page, in its IV entry, and a truncated file.
        for (name, offset) in [("data", 4096 + 100), ("entry", 10)] {
            var bytes = original
            bytes[offset] ^= 0x5A
            let path = dir + "/\(name).realm"
            try bytes.write(to: URL(fileURLWithPath: path))
            let run = realmsh("export", "--key-file", keyFile, path)
            XCTAssertEqual(run.code, 77, "\(name): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("wrong key (authentication failed at page 0)"), run.stderr)
        }
        let truncated = dir + "/truncated.realm"
        try original.prefix(6000).write(to: URL(fileURLWithPath: truncated))
        let run = realmsh("export", "--key-file", keyFile, truncated)
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stdout.isEmpty)
    }

    /// An encrypted copy of a 180-page fixture, made with `encrypt`.
    private func encryptedCopy(in dir: String) -> String {
        let out = dir + "/lazy.realm"
        let run = realmsh("encrypt", "--key-file", keyFile, "-o", out, Fixtures.path("public/core__test_upgrade_database_1000_24.realm"))
        XCTAssertEqual(run.code, 0, run.stderr)
        return out
    }

    /// Issue #16: pages are decrypted when first read, not all on open; reading everything
    /// (the export) then gives the plain file's dump.
    func testOpeningAnEncryptedFileDecryptsOnlyThePagesItReads() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = encryptedCopy(in: dir)
        let snapshot = try Snapshot(path: path, key: EncryptionKey(file: keyFile))
        let total = (snapshot.image.count + 4095) / 4096
        let opened = try XCTUnwrap(snapshot.image.decryptedPageCount)
        XCTAssertGreaterThanOrEqual(opened, 1, "page 0 (the header) is read on open")
        XCTAssertLessThan(opened, total / 4, "\(opened) of \(total) pages decrypted by opening alone")
        XCTAssertNil(try Snapshot(path: Fixtures.path("realm-core/basic.realm")).image.decryptedPageCount)
        let plain = realmsh("export", Fixtures.path("public/core__test_upgrade_database_1000_24.realm"))
        let lazy = realmsh("export", "--key-file", keyFile, path)
        XCTAssertEqual(lazy.code, 0, lazy.stderr)
        XCTAssertEqual(lazy.stdout, plain.stdout)
    }

    /// Decrypted pages never reach a file: the logical image of an encrypted file is marked
    /// "do not dump" (the `dd` flag in /proc/self/smaps), so a core dump leaves it out.
    func testDecryptedPagesAreLeftOutOfCoreDumps() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let snapshot = try Snapshot(path: encryptedCopy(in: dir), key: EncryptionKey(file: keyFile))
        let base = UInt(bitPattern: try XCTUnwrap(snapshot.image.bytes.baseAddress))
        // Read to the end: /proc files report a size of 0.
        let smaps = String(decoding: try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/smaps")).readToEnd() ?? Data(), as: UTF8.self)
        var inMapping = false, flags: String?
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16),
               let space = line.firstIndex(of: " "), let end = UInt(line[line.index(after: dash)..<space], radix: 16) {
                inMapping = start <= base && base < end
            } else if inMapping, line.hasPrefix("VmFlags:") {
                flags = String(line)
            }
        }
        let vmFlags = try XCTUnwrap(flags, "no mapping holds the decrypted image")
        XCTAssertTrue(vmFlags.split(separator: " ").contains("dd"), vmFlags)
    }

    /// A damaged page that opening does not read: `info` still works, and the read that first
    /// touches the page (the export) stops with a corrupt-file error naming the file and the
    /// page, exit 65, no trap and no partial claim of a wrong key.
    func testADamagedPageReadOnlyLazilyFailsCleanlyWhenTouched() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: encryptedCopy(in: dir)))
        let page = 90                                  // a data page among the tables' leaves
        bytes[page * 4096 + (page / 64 + 1) * 4096 + 100] ^= 0x5A
        let path = dir + "/damaged.realm"
        try bytes.write(to: URL(fileURLWithPath: path))
        let info = realmsh("info", "--key-file", keyFile, path)
        XCTAssertEqual(info.code, 0, "opening does not read page \(page): \(info.stderr)")
        let run = realmsh("export", "--key-file", keyFile, path)
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains(path), run.stderr)
        XCTAssertTrue(run.stderr.contains("encrypted page \(page) fails its HMAC check"), run.stderr)
    }

    func testOldPageLayoutDecryptsToAFormatNineHeader() throws {
        // realm-core's own test file (Core 4.0.3): the layout is unchanged; format 9 is read.
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let key = dir + "/legacy.key"
        XCTAssertTrue(FileManager.default.createFile(atPath: key, contents: Data("1234567890123456789012345678901123456789012345678901234567890123".utf8)))
        let run = realmsh("info", "--key-file", key, Fixtures.path("realm-core-tests/test_shared_decrypt_4k_page.realm"))
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.out.contains("Format:         9 — Realm Core 4-5"), run.out)
        XCTAssertTrue(run.out.contains("Encrypted:      yes"), run.out)
    }
}
