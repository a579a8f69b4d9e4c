import RealmObjects
@testable import RealmShell
import XCTest

/// A read run by `main` as `realmsh COMMAND` leaves its file for the process exit to close
/// (`CommandContext.leaveOpenUntilExit`). Everywhere else (the shell, the browser, tests that
/// call `RealmShell.run`) the command releases its file as it returns.
final class ProcessExitTests: XCTestCase {
    private final class Probe {}

    /// Whether an object handed to `leaveOpenUntilExit` outlives its last strong reference.
    private func isKept(endsProcess: Bool) -> Bool {
        let io = ShellIO(stdout: MemorySink(), stderr: MemorySink())
        weak var watched: Probe?
        do {
            let probe = Probe()
            watched = probe
            CommandContext(io: io, output: nil, results: CommandLineHost(), endsProcess: endsProcess).leaveOpenUntilExit(probe)
        }
        return watched != nil
    }

    func testAFileIsKeptOnlyWhenTheProcessEndsWithTheCommand() {
        XCTAssertFalse(isKept(endsProcess: false), "kept although the process goes on after the command")
        // One object kept for the rest of this test process, as `main` keeps its one file.
        XCTAssertTrue(isKept(endsProcess: true), "released before the exit")
    }

    func testOnlyMainsCommandLineHostEndsTheProcess() {
        XCTAssertFalse(CommandLineHost().endsProcess, "RealmShell.run's default, as tests and embedders call it")
        XCTAssertTrue(CommandLineHost(endsProcess: true).endsProcess)
    }
}
