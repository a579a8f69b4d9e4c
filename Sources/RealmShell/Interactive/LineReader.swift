import RealmFormat

/// What reading one line gave.
enum LineInput: Equatable {
    case line(String)
    /// Ctrl-C: the line being typed was thrown away.
    case interrupted
    /// Ctrl-D on an empty line, or the end of a script.
    case end
}

/// Where the shell's input comes from. The session sees only this: readline at a terminal
/// (`ReadlineLineReader`), or plain lines from a script, a pipe or `-c` (`ScriptLineReader`).
protocol LineReader: AnyObject {
    /// A person types the lines: prompts, history, confirmations.
    var isInteractive: Bool { get }
    /// One line without its newline. `prompt` is shown only by interactive readers.
    func readLine(prompt: String) -> LineInput
    /// Adds a finished command to the history (interactive readers only).
    func remember(_ entry: String)
    /// Where the next line comes from, for a script's error messages (`line 3`,
    /// `checks.txt line 3`); nil for a person at a terminal.
    var nextLocation: String? { get }
}

extension LineReader {
    var nextLocation: String? { nil }
}

/// Lines from a file descriptor (standard input) or from text (`-c`, `.read`): no prompt, no
/// echo, no history. A descriptor is read in chunks as lines are needed, so a pipe can feed
/// commands one at a time.
final class ScriptLineReader: LineReader {
    private var buffer: [UInt8]
    private var position = 0
    private let fd: Int32?
    private var finished: Bool
    /// The file a `.read` reads (nil: standard input or `-c`).
    private let name: String?
    private var linesRead = 0

    init(text: String, name: String? = nil) {
        buffer = Array(text.utf8)
        fd = nil
        finished = true
        self.name = name
    }

    init(fd: Int32) {
        buffer = []
        self.fd = fd
        finished = false
        name = nil
    }

    var isInteractive: Bool { false }

    var nextLocation: String? { (name.map { $0 + " " } ?? "") + "line \(linesRead + 1)" }

    /// Whether there is no input at all (reads the first chunk to know).
    var isEmpty: Bool {
        fill()
        return position >= buffer.count && finished
    }

    private func fill() {
        guard !finished, position >= buffer.count, let fd else { return }
        if let chunk = Platform.readSome(fd) {
            buffer = chunk
            position = 0
        } else {
            finished = true
        }
    }

    func readLine(prompt: String) -> LineInput {
        var line = [UInt8]()
        while true {
            fill()
            if position >= buffer.count {
                if line.isEmpty { return .end }
                break
            }
            if let newline = buffer[position...].firstIndex(of: 10) {
                line += buffer[position..<newline]
                position = newline + 1
                break
            }
            line += buffer[position...]
            position = buffer.count
            if fd == nil { break }
        }
        if line.last == 13 { line.removeLast() }
        linesRead += 1
        return .line(String(decoding: line, as: UTF8.self))
    }

    func remember(_ entry: String) {}
}
