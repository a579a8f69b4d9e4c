import Foundation
import RealmTestSupport
import XCTest

/// A read never changes a byte of the file and creates nothing beside it (no lock file).
final class ReadOnlyTests: XCTestCase {
    func testNoCommandChangesAFixtureOrCreatesALockFile() throws {
        for path in Fixtures.allRealmFiles() {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let hadLock = FileManager.default.fileExists(atPath: path + ".lock")
            _ = realmsh("info", path)
            _ = realmsh("info", "--format", "json", path)
            for format in ["text", "json", "swift"] { _ = realmsh("schema", "--format", format, path) }
            _ = realmsh("export", path)
            _ = realmsh("export", "--format", "jsonl", path)
            _ = realmsh("verify", path)
            _ = realmsh(path)
            let after = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(before, after, "\(path) changed")
            XCTAssertEqual(hadLock, FileManager.default.fileExists(atPath: path + ".lock"), "\(path): lock file created")
        }
    }

    func testAHeldLockDoesNotStopAReadAndIsReported() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = dir + "/basic.realm"
        try FileManager.default.copyItem(atPath: Fixtures.path("realm-core/basic.realm"), toPath: copy)
        // An SDK session holds a shared flock on NAME.realm.lock for as long as it is open (§15.2).
        XCTAssertTrue(FileManager.default.createFile(atPath: copy + ".lock", contents: Data()))
        let fd = open(copy + ".lock", O_RDWR)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_SH), 0)
        defer { close(fd) }

        let info = realmsh("info", copy)
        XCTAssertEqual(info.code, 0)
        XCTAssertTrue(info.out.contains("held by another process"), info.out)
        let export = realmsh("export", copy)
        XCTAssertEqual(export.code, 0)
        XCTAssertEqual(Data(export.stdout), Fixtures.expectedDump(for: Fixtures.path("realm-core/basic.realm")))
        XCTAssertTrue(export.stderr.contains("open in another process"), export.stderr)

        flock(fd, LOCK_UN)
        XCTAssertTrue(realmsh("info", copy).out.contains("Lock:           not held"))
    }
}
