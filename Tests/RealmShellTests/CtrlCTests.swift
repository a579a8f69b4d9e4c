import Foundation
import RealmTestSupport
import XCTest

/// Ctrl-C stops output at once, in every output mode, in the shell and on the command line:
/// the real executable on a pseudo-terminal (`TerminalSession`), Ctrl-C typed while
/// 30,000 objects of the large fixture (megabytes of output) are being printed, and what the
/// terminal got after it counted. Without the stop, the rest of the result — megabytes —
/// would follow.
final class CtrlCTests: XCTestCase {
    let large = Fixtures.path("realm-core/large.realm")
    /// What may still arrive after Ctrl-C: the pseudo-terminal's buffer and one piece of
    /// output in flight. The results here are 2–10 MB.
    let allowance = 128 << 10

    func start(_ arguments: [String]) throws -> TerminalSession {
        try TerminalSession(arguments: arguments, environment: ["REALMSH_HISTORY": ""], rows: 40, columns: 120)
    }

    /// Types Ctrl-C once output has begun and returns the bytes that came after it (until
    /// `until` appeared).
    func interrupt(_ shell: TerminalSession, after begun: String, until: String, _ what: String) -> Int {
        XCTAssertTrue(shell.waitFor(begun, timeout: 60), "\(what): no output\n\(shell.screen.suffix(2000))")
        shell.pump(milliseconds: 100)
        let before = shell.byteCount
        shell.type("\u{03}")
        XCTAssertTrue(shell.waitFor(until, timeout: 30), "\(what): not stopped\n\(shell.screen.suffix(2000))")
        return shell.byteCount - before
    }

    func testCtrlCStopsEveryModeInTheShell() throws {
        let shell = try start([large])
        XCTAssertTrue(shell.waitFor("large.realm> ", timeout: 30), shell.screen)
        shell.type(".maxrows 0\n.pager off\n")
        XCTAssertTrue(shell.waitFor("large.realm> "))
        XCTAssertTrue(shell.waitFor("large.realm> "))
        // Each mode, with what its output starts with.
        let modes: [(String, String)] = [("json", "\"category\""), ("jsonl", "{\"id\":"), ("csv", "id,name,"), ("box", "│ "),
                                         ("table", "| "), ("markdown", "| "), ("line", "category = ")]
        for (mode, begun) in modes {
            shell.type(".mode \(mode)\n")
            XCTAssertTrue(shell.waitFor("large.realm> "))
            shell.type("Item LIMIT(30000)\n")
            let after = interrupt(shell, after: begun, until: "Error: interrupted (Ctrl-C)", mode)
            XCTAssertLessThan(after, allowance, "\(mode): \(after) bytes after Ctrl-C")
            XCTAssertTrue(shell.waitFor("large.realm> ", timeout: 30), "\(mode): no prompt\n\(shell.screen.suffix(2000))")
        }
        // A subcommand's output, and an export to standard output.
        shell.type("query Item TRUEPREDICATE --format jsonl\n")
        XCTAssertLessThan(interrupt(shell, after: "{\"id\":", until: "Error: interrupted (Ctrl-C)", "query --format jsonl"), allowance)
        XCTAssertTrue(shell.waitFor("large.realm> ", timeout: 30))
        shell.type("export --format csv --class Item\n")
        XCTAssertLessThan(interrupt(shell, after: "id,name,", until: "Error: interrupted (Ctrl-C)", "export"), allowance)
        XCTAssertTrue(shell.waitFor("large.realm> ", timeout: 30))
        // Before the first row: while the objects are read.
        shell.type(".mode json\nItem\n")
        XCTAssertTrue(shell.waitFor("large.realm> "))
        XCTAssertTrue(shell.waitFor("Item\n"))
        shell.pump(milliseconds: 300)
        shell.type("\u{03}")
        XCTAssertTrue(shell.waitFor("Error: interrupted (Ctrl-C)", timeout: 30), shell.screen.suffix(2000).description)
        XCTAssertTrue(shell.waitFor("large.realm> ", timeout: 30))
        // The shell goes on, and the next command is not cancelled.
        shell.type(".mode box\nItem LIMIT(1)\n")
        XCTAssertTrue(shell.waitFor("150000 objects") || shell.screen.contains("1 object (1 shown)"), shell.screen.suffix(2000).description)
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(timeout: 30), 0)
    }

    /// An interrupted verify is not a damaged file: "interrupted", never "FAILED".
    func testAnInterruptedVerifySaysSo() throws {
        let shell = try start([large])
        XCTAssertTrue(shell.waitFor("large.realm> ", timeout: 30), shell.screen)
        shell.type("verify\n")
        XCTAssertTrue(shell.waitFor("verify\n"))
        shell.pump(milliseconds: 300)
        shell.type("\u{03}")
        XCTAssertTrue(shell.waitFor("Error: interrupted (Ctrl-C)", timeout: 60), shell.screen)
        XCTAssertFalse(shell.screen.contains("FAILED"), shell.screen)
        XCTAssertTrue(shell.waitFor("large.realm> "))
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(timeout: 30), 0)

        let command = try start(["verify", large])
        command.pump(milliseconds: 500)
        command.type("\u{03}")
        XCTAssertEqual(command.waitForExit(timeout: 30), 130, "128 + SIGINT")
        XCTAssertFalse(command.screen.contains("FAILED"), command.screen)
    }

    /// On the command line Ctrl-C ends realmsh (status 130) in the middle of the output.
    func testCtrlCStopsOutputOnTheCommandLine() throws {
        for arguments in [["query", large, "Item", "TRUEPREDICATE", "--format", "jsonl"], ["export", "--format", "jsonl", large],
                          ["query", large, "Item", "TRUEPREDICATE", "--format", "table", "--limit", "100000"]] {
            let command = try start(arguments)
            XCTAssertTrue(command.waitFor(arguments.contains("table") ? "| " : "{\"", timeout: 60), "\(arguments): \(command.screen.suffix(500))")
            command.pump(milliseconds: 100)
            let before = command.byteCount
            command.type("\u{03}")
            XCTAssertEqual(command.waitForExit(timeout: 30), 130, "\(arguments)")
            XCTAssertLessThan(command.byteCount - before, allowance, "\(arguments)")
        }
    }
}
