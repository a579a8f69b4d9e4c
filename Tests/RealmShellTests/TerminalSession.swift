import Foundation
import RealmFormat
import RealmShell
import RealmTestSupport
import XCTest

/// realmsh running on a pseudo-terminal, driven like a person at a keyboard: the child has
/// the terminal as its standard streams and controlling terminal (so Ctrl-C is a SIGINT), the
/// test types bytes and reads what the screen got. Every wait has a deadline; the child is
/// killed when the session ends.
final class TerminalSession {
    let controller: Int32
    let pid: Int32
    private var bytes = [UInt8]()
    private(set) var exitStatus: Int32?
    /// Where the last `waitFor` matched, so the next one looks only at newer output.
    private(set) var mark = 0

    init(arguments: [String], environment: [String: String], directory: String? = nil, rows: Int = 40, columns: Int = 100) throws {
        let executable = try Executable.require()
        guard let pty = Platform.openPseudoTerminal() else { throw XCTSkip("no pseudo-terminal available") }
        controller = pty.controller
        Platform.setTerminalSize(controller, rows: rows, columns: columns)
        let defaults = ["PATH": "/usr/bin:/bin", "TERM": "dumb", "INPUTRC": "/dev/null", "PAGER": "cat", "NO_COLOR": "1", "LANG": "C.UTF-8"]
        let env = defaults.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var argv = [executable] + arguments
        if let directory {
            // Start in `directory`: through the shell, which then execs realmsh.
            argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory] + argv
        }
        guard let pid = Platform.spawn(argv[0], arguments: argv, environment: env, terminal: pty.terminalPath) else {
            _ = Platform.closeFile(controller)
            throw XCTSkip("could not start realmsh on a pseudo-terminal")
        }
        self.pid = pid
    }

    deinit { close() }

    private var closed = false

    /// Kills the child if it still runs, reaps it and closes the terminal (once: the
    /// descriptor number may be reused right after).
    func close() {
        guard !closed else { return }
        closed = true
        if exitStatus == nil {
            Platform.sendSignal(pid, Platform.killSignal)
            exitStatus = Platform.waitForExit(pid)
        }
        _ = Platform.closeFile(controller)
    }

    func type(_ text: String) {
        Platform.write(text, to: controller)
    }

    /// Bytes the terminal showed so far (read by `waitFor` and `pump`).
    var byteCount: Int { bytes.count }

    /// Everything the terminal showed, with escape sequences and carriage returns removed.
    var screen: String { Self.plain(bytes) }

    /// The output after the last match.
    var recent: String { Self.plain(Array(bytes[min(mark, bytes.count)...])) }

    static func plain(_ raw: [UInt8]) -> String { String(decoding: plainBytes(raw).bytes, as: UTF8.self) }

    /// The bytes without escape sequences, and for each the offset of the raw byte it came from.
    static func plainBytes(_ raw: [UInt8]) -> (bytes: [UInt8], origin: [Int]) {
        var out = [UInt8]()
        var origin = [Int]()
        var i = 0
        while i < raw.count {
            let b = raw[i]
            if b == 0x1B {
                i += 1
                if i < raw.count, raw[i] == UInt8(ascii: "[") {
                    i += 1
                    while i < raw.count, !(0x40...0x7E).contains(raw[i]) { i += 1 }
                }
                i += 1
                continue
            }
            if b != 13 && b != 1 && b != 2 && b != 7 {
                out.append(b)
                origin.append(i)
            }
            i += 1
        }
        return (out, origin)
    }

    /// Reads until the output after the last match contains `needle`; true when it did
    /// before `timeout` seconds.
    @discardableResult
    func waitFor(_ needle: String, timeout: Double = 15) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (plain, origin) = Self.plainBytes(Array(bytes[min(mark, bytes.count)...]))
            if let range = plain.firstRange(of: Array(needle.utf8)) {
                // Later waits look only after the match.
                mark += origin[range.upperBound - 1] + 1
                return true
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            if !pump(milliseconds: Int32(min(200, left * 1000))) {
                let (rest, _) = Self.plainBytes(Array(bytes[min(mark, bytes.count)...]))
                return rest.firstRange(of: Array(needle.utf8)) != nil
            }
        }
    }

    /// Reads whatever arrives within `milliseconds`; false when the terminal closed.
    @discardableResult
    func pump(milliseconds: Int32) -> Bool {
        switch Platform.waitForInput(controller, milliseconds: milliseconds) {
        case .ready:
            guard let chunk = Platform.readSome(controller) else { return false }
            bytes += chunk
            return true
        case .timedOut, .interrupted:
            return true
        case .closed:
            // The child closed the terminal: take what is left.
            if let chunk = Platform.readSome(controller) { bytes += chunk }
            return false
        }
    }

    /// Waits for the child to exit (reading its last output); nil when it did not in time.
    func waitForExit(timeout: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = Platform.waitForExit(pid, block: false) {
                exitStatus = status
                while pump(milliseconds: 50), Platform.waitForInput(controller, milliseconds: 0) == .ready {}
                return status
            }
            pump(milliseconds: 50)
        }
        return nil
    }
}
