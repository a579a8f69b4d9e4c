import Foundation
import RealmFormat
import RealmTestSupport
import XCTest

/// The session-lock probe readers use (`Platform.isLockHeld`, realm-format.md §15.3) sees an
/// app's shared flock and takes no lock itself, so a reader can never make a writer (an app, or
/// realmsh's own) that starts at the same instant believe the file is busy.
final class LockProbeTests: XCTestCase {
    func testTheProbeSeesASharedLockAndNeverStopsAWriter() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lock = dir + "/x.realm.lock"
        XCTAssertNil(Platform.isLockHeld(lockPath: lock), "no lock file: no session ever started")
        XCTAssertTrue(FileManager.default.createFile(atPath: lock, contents: Data()))
        XCTAssertEqual(Platform.isLockHeld(lockPath: lock), false)

        let app = open(lock, O_RDWR)
        defer { close(app) }
        XCTAssertEqual(flock(app, LOCK_SH), 0)
        XCTAssertEqual(Platform.isLockHeld(lockPath: lock), true, "an SDK session's shared lock")
        XCTAssertEqual(flock(app, LOCK_UN), 0)

        // A reader probing in a loop beside a writer taking the lock exclusively over and over:
        // the writer must get it every time (a probe that locked, even briefly, loses some).
        let stop = ManagedAtomicFlag()
        let reader = Thread {
            while !stop.isSet { _ = Platform.isLockHeld(lockPath: lock) }
        }
        reader.start()
        defer { stop.set() }
        let writer = open(lock, O_RDWR)
        defer { close(writer) }
        var refused = 0
        for _ in 0..<3000 {
            if flock(writer, LOCK_EX | LOCK_NB) == 0 { flock(writer, LOCK_UN) } else { refused += 1 }
        }
        XCTAssertEqual(refused, 0, "the writer was refused while only a reader probed")
    }
}

/// A flag one thread sets and another polls.
private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
