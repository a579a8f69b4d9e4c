import Foundation
import RealmTestSupport
import XCTest

/// A writer that dies at any point of a commit leaves the last committed version or the new one,
/// never a mix (realm-format.md §13.5); a reader running beside a writer sees one or the other.
/// Random kills over many trials are in Benchmarks/crash_stress.sh.
final class CrashSafetyTests: XCTestCase {
    func count(_ path: String, _ className: String, _ predicate: String) -> String {
        realmsh("query", path, className, predicate, "--format", "count").out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAWriterDyingAtEachStepOfTheCommitLeavesTheOldOrTheNewVersion() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = Fixtures.path("realm-core/churn.realm")
        let total = count(original, "Note", "TRUEPREDICATE")
        XCTAssertEqual(count(original, "Note", "n == -7"), "0")
        let steps = ["before-write": false, "mid-write": false, "after-nodes": false, "after-header-slot": false, "after-flip": true]
        for (step, committed) in steps.sorted(by: { $0.key < $1.key }) {
            let path = dir + "/\(step).realm"
            try FileManager.default.copyItem(atPath: original, toPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            let writer = try Executable.start(["update", path, "Note", "--all", "--set", "n=-7"], environment: ["REALMSH_FAILPOINT": step])
            writer.waitUntilExit()
            XCTAssertEqual(writer.terminationReason, .uncaughtSignal, "\(step): the writer should have died")
            let verify = realmsh("verify", path)
            XCTAssertEqual(verify.code, 0, "\(step): \(verify.out)")
            XCTAssertEqual(count(path, "Note", "n == -7"), committed ? total : "0", "\(step): expected the \(committed ? "new" : "old") version")
            // The next writer finds the file usable: it commits on top.
            XCTAssertEqual(realmsh("update", path, "Note", "--where", "id == 1", "--set", "n=5").code, 0, step)
            XCTAssertEqual(realmsh("verify", path).code, 0, "\(step): after a commit on top")
        }
    }

    func testAReaderBesideAWriterSeesTheOldOrTheNewVersion() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/churn.realm"
        try FileManager.default.copyItem(atPath: Fixtures.path("realm-core/churn.realm"), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let total = count(path, "Note", "TRUEPREDICATE")
        for round in 0..<3 {
            let writer = try Executable.start(["update", path, "Note", "--all", "--set", "n=\(-10 - round)"])
            var reads = 0
            repeat {
                let changed = count(path, "Note", "n == \(-10 - round)")
                XCTAssertTrue(changed == "0" || changed == total, "a reader saw \(changed) of \(total) objects changed")
                reads += 1
            } while writer.isRunning && reads < 500
            writer.waitUntilExit()
            XCTAssertEqual(writer.terminationStatus, 0)
            XCTAssertEqual(count(path, "Note", "n == \(-10 - round)"), total)
        }
        XCTAssertEqual(realmsh("verify", path).code, 0)
    }
}
