import RealmFormat
import RealmObjects

/// Where a command's output goes and what kind of terminal it talks to. Tests pass memory
/// sinks; `realmsh` passes the process's stdout and stderr.
public final class ShellIO {
    /// Data: tables, JSON, CSV.
    public let stdout: ByteSink
    /// Messages: errors, warnings, progress.
    public let stderr: ByteSink
    public let stdoutIsTerminal: Bool
    /// Colour only on a terminal, and never with NO_COLOR set.
    public let useColor: Bool
    public let terminalWidth: Int
    /// Lines of the terminal standard output is (nil when it is none): the default row cap.
    public let terminalRows: Int?
    /// Progress bars only on a terminal.
    public let stderrIsTerminal: Bool
    /// Where the interactive shell reads commands (`realmsh FILE`); nil: no input (in-process use).
    public let stdin: Int32?
    /// Set by the shell once it has warned that `--key` shows in the process list.
    public var quietKeyWarning = false

    public init(stdout: ByteSink, stderr: ByteSink, stdoutIsTerminal: Bool = false, useColor: Bool = false, terminalWidth: Int = 80,
                stderrIsTerminal: Bool = false, stdin: Int32? = nil, terminalRows: Int? = nil) {
        self.stderrIsTerminal = stderrIsTerminal
        self.terminalRows = stdoutIsTerminal ? terminalRows : nil
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutIsTerminal = stdoutIsTerminal
        self.useColor = useColor
        self.terminalWidth = terminalWidth
        self.stdin = stdin
    }

    /// The process's own streams.
    public static func standard() -> ShellIO {
        let tty = Platform.isTerminal(1)
        let color = tty && Platform.environment("NO_COLOR") == nil
        let width = Int(Platform.environment("COLUMNS") ?? "") ?? Platform.terminalColumns(1) ?? 80
        return ShellIO(stdout: FileSink(.standardOutput), stderr: FileSink(.standardError), stdoutIsTerminal: tty, useColor: color, terminalWidth: width,
                       stderrIsTerminal: Platform.isTerminal(2), stdin: 0, terminalRows: standardRows())
    }

    /// The terminal's lines: `LINES`, else its size.
    static func standardRows() -> Int? {
        Platform.environment("LINES").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? Platform.terminalRows(1)
    }

    public func print(_ text: String) { stdout.write(Array((text + "\n").utf8)) }
    public func printError(_ text: String) { stderr.write(Array((text + "\n").utf8)) }

    /// Bold text for headings, when colour is on.
    public func bold(_ text: String) -> String { useColor ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    public func dim(_ text: String) -> String { useColor ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    public func warn(_ text: String) -> String { useColor ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
}
