import Foundation
import RealmTestSupport
import XCTest

/// A `realmsh migrate` process killed (SIGKILL) at random moments leaves the file as it was
/// or as the finished migration makes it — never anything in between.
final class MigrateCrashTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testKilledMigrationLeavesTheOldOrTheNewFile() throws {
        _ = try Executable.require()
        // churn: 2 MB, 7,000 objects; long enough to be killed while computing or writing.
        let original = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("realm-core/churn.realm")))
        let script = dir + "/step.migration"
        try """
            version 2 {
              class Note { add label: string = text + " #" + string(id); change n: string }
              class Log { delete where "level > 3" }
            }
            """.write(toFile: script, atomically: true, encoding: .utf8)
        // The finished result, and how long a run takes.
        let reference = dir + "/reference.realm"
        let started = Date()
        let full = try Executable.start(["migrate", "-o", reference, Fixtures.path("realm-core/churn.realm"), script])
        full.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(full.terminationStatus, 0)
        let migrated = try Data(contentsOf: URL(fileURLWithPath: reference))
        XCTAssertNotEqual(migrated, original)

        var generator = SystemRandomNumberGenerator()
        var outcomes = (old: 0, new: 0)
        let path = dir + "/churn.realm"
        for round in 0..<24 {
            try? FileManager.default.removeItem(atPath: path)
            try original.write(to: URL(fileURLWithPath: path))
            let process = try Executable.start(["migrate", path, script])
            // Kill anywhere from the start to a little after the expected end.
            let delay = Double.random(in: 0...(duration * 1.2), using: &generator)
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Data(contentsOf: URL(fileURLWithPath: path))
            if now == original {
                outcomes.old += 1
            } else if now == migrated {
                outcomes.new += 1
            } else {
                XCTFail("round \(round), killed after \(delay) s: the file is neither the old nor the new one (\(now.count) bytes)")
            }
            // Whatever the outcome, the file opens and verifies, and a new run completes the job.
            let verify = try Executable.start(["verify", "--quiet", path])
            verify.waitUntilExit()
            XCTAssertEqual(verify.terminationStatus, 0, "round \(round)")
        }
        let rerun = try Executable.start(["migrate", path, script])
        rerun.waitUntilExit()
        XCTAssertEqual(rerun.terminationStatus, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), migrated)
        print("killed migrations: \(outcomes.old) left the old file, \(outcomes.new) the new one")
    }
}
