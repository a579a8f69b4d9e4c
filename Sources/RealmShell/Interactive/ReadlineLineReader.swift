import CReadline
import RealmFormat

/// Lines from a person at a terminal through GNU readline: editing, history (up/down, Ctrl-R,
/// kept in a `HistoryFile` across sessions), Tab completion, Ctrl-C to drop the line, Ctrl-D
/// to leave.
///
/// Readline's alternate (callback) interface is used so that Ctrl-C can end a line: the
/// reader waits with `poll` (which a SIGINT interrupts, see `Platform.installInterruptHandler`)
/// and feeds readline one character at a time. Readline's callbacks are C functions that cannot
/// capture context, so the one active reader is reached through a static reference; the shell
/// uses it from its main thread only.
final class ReadlineLineReader: LineReader {
    /// The line the C line handler received (nil: none yet).
    nonisolated(unsafe) private static var received: LineInput?
    nonisolated(unsafe) private static var active: ReadlineLineReader?

    private let history: HistoryFile?
    private var lastEntry: String?
    /// Completions for the text before the cursor and the start of the word (a UTF-8 offset).
    let complete: (String, Int) -> Completion

    init(history: HistoryFile?, complete: @escaping (String, Int) -> Completion) {
        self.history = history
        self.complete = complete
        realmsh_rl_configure { text, start, end in ReadlineLineReader.completionHook(start: Int(start), end: Int(end)) }
        using_history()
        stifle_history(Int32(HistoryFile.limit))
        for entry in history?.load() ?? [] {
            add_history(entry)
            lastEntry = entry
        }
        Platform.installInterruptHandler()
        Self.active = self
    }

    var isInteractive: Bool { true }

    func readLine(prompt: String) -> LineInput {
        Self.received = nil
        _ = Platform.takeInterrupt()
        rl_callback_handler_install(prompt) { line in ReadlineLineReader.lineHandler(line) }
        while Self.received == nil {
            // The flag is checked before every wait, and waits are short: a Ctrl-C that lands
            // while readline is busy (not blocked in poll) is seen at once too.
            if Platform.takeInterrupt() {
                // Ctrl-C: drop the line, show ^C and start again on a fresh line.
                rl_free_line_state()
                rl_callback_sigcleanup()
                rl_replace_line("", 0)
                rl_callback_handler_remove()
                Platform.write("^C\n", to: 1)
                return .interrupted
            }
            switch Platform.waitForInput(0, milliseconds: 100) {
            case .ready:
                rl_callback_read_char()
            case .interrupted:
                rl_resize_terminal()
            case .timedOut:
                break
            case .closed:
                rl_callback_handler_remove()
                return .end
            }
        }
        return Self.received ?? .end
    }

    func remember(_ entry: String) {
        let line = String(entry.map { $0 == "\n" || $0 == "\r\n" ? " " : $0 })
        guard line != lastEntry else { return }
        lastEntry = line
        add_history(line)
        history?.append(line)
    }

    private static func lineHandler(_ line: UnsafeMutablePointer<CChar>?) {
        rl_callback_handler_remove()
        if let line {
            received = .line(String(cString: line))
            realmsh_rl_free(line)
        } else {
            // Ctrl-D on an empty line: end the prompt's line before leaving.
            Platform.write("\n", to: 1)
            received = .end
        }
    }

    /// readline's attempted-completion hook: matches in the layout readline expects (the
    /// common prefix first, then each match; NULL-terminated, malloc'd, owned by readline).
    private static func completionHook(start: Int, end: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        realmsh_rl_set_completion_over(1)
        realmsh_rl_set_append_character(Int32(UInt8(ascii: " ")))
        realmsh_rl_set_filename_completion(0)
        guard let reader = active, let buffer = realmsh_rl_line_buffer() else { return nil }
        let bytes = Array(String(cString: buffer).utf8)
        let point = max(0, min(Int(realmsh_rl_point()), bytes.count))
        let prefix = String(decoding: bytes[0..<point], as: UTF8.self)
        let completion = reader.complete(prefix, min(start, point))
        guard !completion.candidates.isEmpty else { return nil }
        if !completion.appendSpace { realmsh_rl_set_append_character(0) }
        if completion.filenames { realmsh_rl_set_filename_completion(1) }
        let candidates = completion.candidates
        let single = candidates.count == 1
        guard let matches = realmsh_rl_matches(single ? 1 : candidates.count + 1) else { return nil }
        matches[0] = realmsh_rl_strdup(single ? candidates[0] : Self.commonPrefix(candidates))
        if !single {
            for (i, c) in candidates.enumerated() { matches[i + 1] = realmsh_rl_strdup(c) }
        }
        return matches
    }

    /// The longest common prefix, in whole characters.
    static func commonPrefix(_ strings: [String]) -> String {
        guard var common = strings.first.map(Array.init) else { return "" }
        for s in strings.dropFirst() {
            let other = Array(s)
            var n = 0
            while n < common.count, n < other.count, common[n] == other[n] { n += 1 }
            common.removeLast(common.count - n)
        }
        return String(common)
    }
}
