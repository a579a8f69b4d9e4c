import Foundation
import XCTest
import RealmFormat
import RealmShell

/// A tmux server of its own (a socket in the test's directory, no configuration file) with one window, driven
/// as a person drives a terminal: keys in (`send-keys`), the screen out (`capture-pane`).
final class Tmux {
    let executable: String
    /// The server's socket, in the test's scratch directory (removed with it).
    let socket: String
    let target = "browse"

    /// nil when tmux is not installed (the test is skipped then).
    static func find() -> String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    init(executable: String, directory: String, columns: Int, rows: Int, command: String) throws {
        self.executable = executable
        socket = directory + "/tmux.socket"
        // The server this starts would keep whatever Foundation's Process gives the client to
        // watch it by (so that Process never sees it end): started with posix_spawn instead.
        let args = [executable, "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", target,
                    "-x", String(columns), "-y", String(rows), command]
        guard let pid = Platform.spawn(executable, arguments: args), Platform.waitForExit(pid) == 0 else {
            throw Failure(message: "tmux new-session failed")
        }
        try run(["set-option", "-t", target, "window-size", "manual"])
    }

    struct Failure: Error { let message: String }

    deinit { _ = try? run(["kill-server"], capture: false) }

    @discardableResult
    func run(_ args: [String], capture: Bool = true) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = ["-S", socket] + args
        let out = Pipe()
        p.standardOutput = capture ? out : FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = capture ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Keys by tmux's names (`Enter`, `BSpace`, `PageDown`, `C-c`) or literal text (`-l`).
    func send(_ keys: String...) throws { try run(["send-keys", "-t", target] + keys) }
    func type(_ text: String) throws { try run(["send-keys", "-t", target, "-l", text]) }

    /// The visible screen, one string per row.
    func screen() throws -> [String] {
        try run(["capture-pane", "-p", "-t", target]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The screen with its attributes as SGR escape sequences (`capture-pane -e`): the
    /// parameter lists of every sequence, e.g. `["1", "7"]`, `["37", "44"]`.
    func attributes() throws -> [[String]] {
        let text = try run(["capture-pane", "-e", "-p", "-t", target])
        var out = [[String]]()
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !$0.isNumber && $0 != ";" }) else { break }
            if rest[end] == "m" { out.append(rest[..<end].split(separator: ";").map(String.init)) }
            rest = rest[rest.index(after: end)...]
        }
        return out
    }

    /// A pane format variable (`#{alternate_on}`, `#{cursor_flag}`, …).
    func pane(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", target, "-x", String(columns), "-y", String(rows)])
    }

    /// Waits (up to `seconds`) until the screen satisfies `condition`; the last screen either way.
    @discardableResult
    func wait(_ what: String, seconds: Double = 15, file: StaticString = #filePath, line: UInt = #line,
              until condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var last = [String]()
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("timed out waiting for \(what); the screen was:\n" + last.joined(separator: "\n"), file: file, line: line)
        return last
    }

    func wait(for text: String, seconds: Double = 15, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try wait("'\(text)'", seconds: seconds, file: file, line: line) { $0.contains { $0.contains(text) } }
    }

    /// The child process named `name` of the pane's shell.
    func childProcess(named name: String) throws -> Int32? {
        guard let shell = Int32(try pane("#{pane_pid}")) else { return nil }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let comm = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if comm == name, fields.count > 1, Int32(fields[1]) == shell { return pid }
        }
        return nil
    }
}
