import Foundation
import RealmTestSupport
import XCTest

/// A fatal signal while a command writes an output file leaves nothing behind: the temporary
/// `OUT.realmsh-tmp-PID` is removed by the signal handler and OUT never appears (issue #17).
/// The real executable, exporting the largest fixture, is signalled once its temporary file
/// exists.
final class InterruptedOutputTests: XCTestCase {
    func interrupt(_ arguments: (String) -> [String], with signal: Int32, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/items.jsonl"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Executable.require())
        process.arguments = arguments(out)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let temporary = out + ".realmsh-tmp-\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: temporary) && process.isRunning && Date() < deadline { usleep(2_000) }
        XCTAssertTrue(process.isRunning, "the export ended before it could be interrupted", file: file, line: line)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "it dies of the signal", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, signal, file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "nothing left behind", file: file, line: line)
    }

    let large = Fixtures.path("realm-core/large.realm")

    func testSIGINTDuringAnExportRemovesTheTemporaryFile() throws {
        try interrupt({ ["export", "--format", "jsonl", "-o", $0, self.large] }, with: SIGINT)
    }

    func testSIGTERMDuringAnExportRemovesTheTemporaryFile() throws {
        try interrupt({ ["export", "--format", "jsonl", "-o", $0, self.large] }, with: SIGTERM)
    }

    func testSIGTERMDuringAnExportInAShellScriptRemovesTheTemporaryFile() throws {
        try interrupt({ [self.large, "-c", "export --format jsonl -o \($0)"] }, with: SIGTERM)
    }
}
