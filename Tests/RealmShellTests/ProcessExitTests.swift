import RealmObjects
@testable import RealmShell
import XCTest

/// A read run by `main` as `realmsh COMMAND` leaves its file for the process exit to close
/// (`CommandContext.leaveOpenUntilExit`). Everywhere else (the shell, the browser, tests that
/// call `RealmShell.run`) the command releases its file as it returns.
final class ProcessExitTests: XCTestCase {
    private final class Probe {}

    func testAFileIsKeptOnlyWhenTheProcessEndsWithTheCommand() {
        let io = ShellIO(stdout: MemorySink(), stderr: MemorySink())
        weak var released: Probe?
        do {
            let probe = Probe()
            released = probe
            CommandContext(io: io, output: nil, results: CommandLineHost(), endsProcess: false).leaveOpenUntilExit(probe)
        }
        XCTAssertNil(released, "kept although the process goes on after the command")

        weak var kept: Probe?
        do {
            let probe = Probe()
            kept = probe
            CommandContext(io: io, output: nil, results: CommandLineHost(), endsProcess: true).leaveOpenUntilExit(probe)
        }
        // One object kept for the rest of this test process, as `main` keeps its one file.
        XCTAssertNotNil(kept, "released before the exit")
    }

    func testOnlyMainsCommandLineHostEndsTheProcess() {
        XCTAssertFalse(CommandLineHost().endsProcess, "RealmShell.run's default, as tests and embedders call it")
        XCTAssertTrue(CommandLineHost(endsProcess: true).endsProcess)
    }
}
