import RealmFormat
import RealmObjects
import RealmQuery

/// The interactive shell and script runner behind `realmsh FILE` and `realmsh shell`: reads
/// commands from a `LineReader`, runs subcommands on the open file, the short query form
/// `Class where PREDICATE`, and dot-commands; prints results in the chosen output mode and
/// keeps going after errors (unless `--bail` in a script).
final class ShellSession {
    struct Settings {
        /// `.mode`: a result format offered to the shell (`ResultFormats`).
        var mode: any ResultFormat = BoxFormat()
        var headers = true
        /// How null shows in the modes for people: `NULL`, dimmed on a terminal (as DuckDB),
        /// so that it differs from the string "null".
        var nullValue = "NULL"
        /// Objects shown in every mode (0: all; nil: as many as fit the screen on a terminal,
        /// all otherwise).
        var maxRows: Int? = 0
        /// Property types in table headers (`.types on`).
        var types = false
        /// Table width (0: the terminal's width; no limit when output is not a terminal).
        var maxWidth = 0
        var timer = false
        var pager = true
    }

    /// The process's streams.
    let io: ShellIO
    /// A person at a terminal: prompts, colour, confirmations, the pager, Ctrl-C handling.
    let interactive: Bool
    let bail: Bool
    var settings = Settings()
    private(set) var path: String?
    private(set) var keyFile: String?
    private(set) var keyHex: String?
    /// Commands that change the open file run only while this is on (`.write on`, `--write`);
    /// `CommandPipeline` checks every command's declared effect against it.
    var writeEnabled = false
    private var cache: (stamp: [Int]?, file: RealmFile, values: DisplayText)?
    /// `.output FILE` (kept) or `.once FILE` (for the next command).
    private var redirect: (path: String, sink: FileSink, once: Bool)?
    private var readDepth = 0
    private(set) var quitRequested = false
    /// The status `.exit N` asked for (nil: `.quit`, or the input ended).
    private(set) var exitStatus: ExitCode?
    private var keyWarningShown = false
    /// Time the current command's output spent in the pager.
    private var pagerSeconds = 0.0
    /// Where a confirmation is read while a subcommand runs.
    private var confirmationReader: LineReader?

    init(io: ShellIO, bail: Bool, interactive: Bool) {
        self.io = io
        self.bail = bail
        self.interactive = interactive
        settings.maxRows = interactive ? nil : 0
    }

    // MARK: the loop

    /// Runs commands until the input ends or `.quit`. Interactive sessions return success;
    /// scripts return the status of the last failed command (with `bail`, the first).
    /// `.exit N` (or `.quit`) ends every reader, `.read` files included, with `exitStatus`.
    func run(_ reader: LineReader) -> ExitCode {
        var failure: ExitCode?
        while !quitRequested {
            let location = reader.nextLocation
            let input = readCommand(reader)
            guard case let .line(text) = input else {
                if input == .end { break }
                continue
            }
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            if reader.isInteractive && !HistoryFile.holdsKey(trimmed) { reader.remember(trimmed) }
            let code = execute(trimmed, reader: reader, location: location)
            if code != .success {
                failure = code
                if bail && !reader.isInteractive { return code }
            }
        }
        if let exitStatus { return exitStatus }
        return reader.isInteractive ? .success : (failure ?? .success)
    }

    /// One command, over as many lines as its quotes and brackets need.
    func readCommand(_ reader: LineReader) -> LineInput {
        var text: String?
        while true {
            switch reader.readLine(prompt: text == nil ? prompt() : continuationPrompt()) {
            case .interrupted:
                return .interrupted
            case .end:
                // A script ending inside a quote: run what there is, the command reports it.
                if let text, !reader.isInteractive { return .line(text) }
                return .end
            case let .line(line):
                let joined = text.map { CommandText.join($0, line) } ?? line
                if !CommandText.needsMoreLines(joined) || joined.utf8.count > 1 << 20 { return .line(joined) }
                text = joined
            }
        }
    }

    var displayName: String {
        guard let path else { return "realmsh" }
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    func prompt() -> String {
        let name = displayName + (writeEnabled ? " [write]" : "")
        guard useColor else { return name + "> " }
        // \u{1}…\u{2} tell readline the escape sequences take no room on the screen.
        return "\u{1}\u{1B}[1;36m\u{2}" + name + "\u{1}\u{1B}[0m\u{2}> "
    }

    func continuationPrompt() -> String {
        let width = displayName.count + (writeEnabled ? 8 : 0)
        return String(repeating: " ", count: max(0, width - 3)) + "...> "
    }

    private var useColor: Bool { interactive && io.useColor }

    /// The banner an interactive session starts with.
    func banner() -> String {
        var text = "realmsh \(RealmShell.version)"
        if let path, let file = try? currentFile() {
            let classes = file.classes.count
            text += " — \(path): \(classes) \(classes == 1 ? "class" : "classes"), format \(file.snapshot.fileFormat)"
            text += writeEnabled ? ", writable" : ", read-only"
        } else if path == nil {
            text += " — no file open: .open FILE opens one"
        }
        return text + "\nType .help for help, 'Class where predicate' to query, .quit or Ctrl-D to leave."
    }

    // MARK: running one command

    /// Runs one command and reports its error, if any, on stderr; the shell goes on.
    /// `location`: where a script's command starts (`line 3`), named in its error.
    @discardableResult
    func execute(_ text: String, reader: LineReader, location: String? = nil) -> ExitCode {
        if text.hasPrefix("#") || text.hasPrefix("--") { return .success }
        let commandIO = makeIO()
        let started = Platform.monotonicSeconds()
        pagerSeconds = 0
        _ = Platform.takeInterrupt()
        var code = ExitCode.success
        do throws(ShellError) {
            code = try dispatch(text, io: commandIO, reader: reader)
            // Ctrl-C stopped the output of a command that had read everything it needed.
            if (commandIO.stdout as? InterruptibleSink)?.interrupted == true {
                throw ShellError(FormatError.interrupted.message, code: .interrupted)
            }
        } catch {
            code = error.code
            if code == .interrupted { (commandIO.stdout as? InterruptibleSink)?.endCutLine() }
            report(error, io: commandIO, location: location)
        }
        // A Ctrl-C that came too late to stop anything (or during a write, which is never
        // interrupted) is dropped here rather than cancelling the next line.
        Platform.setInterruptsCancelReads(false)
        _ = Platform.takeInterrupt()
        if let r = redirect, r.once, !text.hasPrefix(".once") {
            r.sink.descriptor.closeQuietly()
            redirect = nil
        }
        if settings.timer {
            let elapsed = Platform.monotonicSeconds() - started - pagerSeconds
            commandIO.printError(commandIO.dim("Run time: \(Self.seconds(elapsed))"))
        }
        return code
    }

    static func seconds(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000) s"
    }

    func report(_ error: ShellError, io: ShellIO, location: String? = nil) {
        var message = error.message
        if message.hasSuffix(": interrupted") || message == "interrupted" { message = "interrupted (Ctrl-C)" }
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let first = "Error: " + (location.map { $0 + ": " } ?? "") + (lines.first.map(String.init) ?? "")
        io.printError(useColor ? "\u{1B}[31m\(first)\u{1B}[0m" : first)
        for line in lines.dropFirst() { io.printError(String(line)) }
        if let name = error.usageOf, let command = Commands.named(name) {
            io.printError("Usage: " + Self.shellUsage(command.spec))
        }
    }

    /// `realmsh query FILE CLASS PREDICATE …` as typed in the shell: `query CLASS PREDICATE …`.
    static func shellUsage(_ spec: CommandSpec) -> String {
        let usage = spec.usage
        for prefix in ["realmsh \(spec.name) FILE", "realmsh \(spec.name)"] where usage.hasPrefix(prefix) {
            return spec.name + usage.dropFirst(prefix.count)
        }
        return usage
    }

    /// The streams for one command: `.output`/`.once` redirection, the width tables fit,
    /// colour only on an interactive terminal.
    func makeIO() -> ShellIO {
        let toTerminal = redirect == nil && io.stdoutIsTerminal
        let width: Int
        if settings.maxWidth > 0 {
            width = settings.maxWidth
        } else if toTerminal {
            width = Platform.environment("COLUMNS").flatMap { Int($0) } ?? Platform.terminalColumns(1) ?? io.terminalWidth
        } else {
            width = io.terminalWidth
        }
        let sink: ByteSink = redirect?.sink ?? io.stdout
        let rows = toTerminal ? ShellIO.standardRows() ?? io.terminalRows : nil
        let out = ShellIO(stdout: interactive ? InterruptibleSink(sink) : sink, stderr: io.stderr, stdoutIsTerminal: toTerminal,
                          useColor: toTerminal && useColor, terminalWidth: width, stderrIsTerminal: io.stderrIsTerminal,
                          terminalRows: rows)
        out.quietKeyWarning = keyWarningShown
        return out
    }

    /// Table width for results: `.maxwidth`, else the terminal's; nil (no limit) for output
    /// that is not a terminal.
    func tableWidth(_ io: ShellIO) -> Int? {
        if settings.maxWidth > 0 { return settings.maxWidth }
        return io.stdoutIsTerminal ? io.terminalWidth : nil
    }

    func dispatch(_ text: String, io: ShellIO, reader: LineReader) throws(ShellError) -> ExitCode {
        if text.hasPrefix(".") { return try dotCommand(text, io: io, reader: reader) }
        let head = String(text.prefix { $0 != " " && $0 != "\t" && $0 != "\n" })
        if head == "help" || (head != "shell" && Commands.named(head) != nil) {
            let words = try CommandText.words(text)
            if head == "help" { return try help(Array(words.dropFirst()), io: io) }
            return try runSubcommand(Commands.named(head)!, Array(words.dropFirst()), io: io, reader: reader)
        }
        // The short form takes the predicate as typed (no shell quoting).
        if let query = try ShortQuery.parse(text, classes: currentClassNames()) {
            return try runQuery(query, io: io)
        }
        if let hint = SQLHint.hint(for: text, classes: currentClassNames()) { throw ShellError(hint, code: .usage) }
        throw unknownCommand(head)
    }

    func unknownCommand(_ word: String) -> ShellError {
        let candidates = Commands.names.filter { $0 != "shell" } + currentClassNames()
        let head = String(word.prefix { $0 != "." })
        return ShellError("'\(word)' is neither a command nor a class" + NameSuggestion.didYouMean(head, among: candidates)
                          + " (type .help)", code: .usage)
    }

    // MARK: the open file

    /// The open file, reopened when it changed on disk (a write, another process).
    func currentFile() throws(ShellError) -> RealmFile {
        guard let path else { throw ShellError("no file is open; open one with .open FILE", code: .usage) }
        let stamp = Platform.modificationStamp(path)
        if let cache, stamp != nil, cache.stamp == stamp { return cache.file }
        let open: OpenRealm
        do { open = try OpenRealm(path: path, key: resolveKey()) } catch {
            throw KeyOptions(keyFile: keyFile, keyHex: keyHex).explain(error)
        }
        cache = (stamp, open.file, DisplayText(file: open.file))
        return open.file
    }

    func currentClassNames() -> [String] {
        guard path != nil, let file = try? currentFile() else { return [] }
        return file.classes.map(\.name)
    }

    func valueText(_ file: RealmFile) -> DisplayText {
        let values = cache.map { $0.file === file ? $0.values : DisplayText(file: file) } ?? DisplayText(file: file)
        values.nullText = settings.nullValue
        return values
    }

    private func resolveKey() throws(ShellError) -> EncryptionKey? {
        let keyIO = makeIO()
        let key = try KeyOptions(keyFile: keyFile, keyHex: keyHex).resolve(keyIO)
        if keyHex != nil { keyWarningShown = true }
        return key
    }

    /// Opens `path` (checking it can be read) and makes it the shell's file.
    /// `typed`: the key was typed in the shell (not visible in the process list, so no warning).
    func open(_ newPath: String, keyFile: String?, keyHex: String?, typed: Bool = false, io: ShellIO) throws(ShellError) -> RealmFile {
        let previous = (path, self.keyFile, self.keyHex, cache)
        if typed { keyWarningShown = true }
        path = newPath
        self.keyFile = keyFile
        self.keyHex = keyHex
        cache = nil
        do {
            let file = try currentFile()
            if Platform.isLockHeld(lockPath: newPath + ".lock") == true {
                io.printError(io.warn("note: \(newPath) is open in another process; showing its last committed version"))
            }
            return file
        } catch {
            (path, self.keyFile, self.keyHex, cache) = previous
            throw error
        }
    }

    /// `open`, and for a person at a terminal opening an encrypted file without any key, the
    /// key asked for (`KeyPrompt`: no echo) — a key file's path or the key in hex — until one
    /// opens it (three tries).
    func openAsking(_ newPath: String, keyFile: String?, keyHex: String?, typed: Bool = false, io: ShellIO) throws(ShellError) -> RealmFile {
        do {
            return try open(newPath, keyFile: keyFile, keyHex: keyHex, typed: typed, io: io)
        } catch where interactive && error.keyProblem?.error == .encrypted && KeyOptions(keyFile: keyFile, keyHex: keyHex).given == nil {
            let name = newPath.split(separator: "/").last.map(String.init) ?? newPath
            var failure = error
            for _ in 0..<3 {
                guard let typedKey = KeyPrompt.read("Key for \(name) (128 hex characters, or a key file): ")?.trimmingWhitespace(),
                      !typedKey.isEmpty else { throw error }
                let isFile = Platform.fileExists(typedKey) && !typedKey.allSatisfy(\.isHexDigit)
                do {
                    return try open(newPath, keyFile: isFile ? typedKey : nil, keyHex: isFile ? nil : typedKey, typed: true, io: io)
                } catch where error.keyProblem != nil || error.code == .usage {
                    // A wrong or malformed key: say so (never echoing it) and ask again.
                    let message = error.message.firstRange(of: "invalid key").map { String(error.message[$0.lowerBound...]) } ?? error.message
                    io.printError(useColor ? "\u{1B}[31mError: \(message)\u{1B}[0m" : "Error: \(message)")
                    failure = error
                }
            }
            throw failure
        }
    }

    func invalidate() { cache = nil }

    // MARK: subcommands

    /// Subcommands whose FILE argument is the shell's open file.
    static func takesOpenFile(_ spec: CommandSpec) -> Bool { spec.file != nil && spec.name != "shell" }

    /// A subcommand typed in the shell, through the pipeline every command runs through (this
    /// session is its host: the open file, its key, the write permission).
    func runSubcommand(_ type: any Command.Type, _ words: [String], io: ShellIO, reader: LineReader) throws(ShellError) -> ExitCode {
        if Self.takesOpenFile(type.spec), path == nil, !(words.contains("-h") || words.contains("--help")) {
            throw ShellError("no file is open; open one with .open FILE", code: .usage)
        }
        confirmationReader = reader
        defer { confirmationReader = nil }
        return try CommandPipeline(host: self).run(type, words, io: io)
    }

    /// A subcommand's help with the FILE argument taken away.
    static func shellHelp(_ spec: CommandSpec) -> String {
        var text = spec.help
        if takesOpenFile(spec) {
            text = text.replacing("USAGE: " + spec.usage, with: "USAGE: " + shellUsage(spec) + "\n       (in the shell, FILE is the open file)")
        }
        return text
    }

    // MARK: queries

    /// The short form (`Person where age > 30`, `.follow`), shown in the current mode.
    func runQuery(_ query: ShortQuery, io: ShellIO) throws(ShellError) -> ExitCode {
        let file = try currentFile()
        Platform.setInterruptsCancelReads(interactive)
        let results = try query.results(in: file)
        do { try present(results, format: settings.mode, limit: nil, io: io) } catch {
            throw ShellError.from(error, path: file.path)
        }
        return .success
    }

    // MARK: output

    /// Prints text for people, through the pager when it is taller than the terminal (the
    /// time spent there is not the command's, for `.timer`).
    func emit(_ text: String, io: ShellIO) {
        if pages(io), let rows = io.terminalRows {
            let lines = text.utf8.reduce(1) { $1 == 10 ? $0 + 1 : $0 }
            if lines > rows - 1 {
                let started = Platform.monotonicSeconds()
                let shown = Pager.show(text + "\n", io: io)
                pagerSeconds += Platform.monotonicSeconds() - started
                if shown { return }
            }
        }
        io.print(text)
    }

    // MARK: scripts

    /// `.read FILE`: the commands of a file, as a script.
    func runFile(_ file: String) throws(ShellError) -> ExitCode {
        guard readDepth < 16 else { throw ShellError(".read nested too deeply (16 files)", code: .usage) }
        guard let bytes = try? Platform.readFile(file) else {
            throw ShellError("cannot read \(file)", code: .noInput)
        }
        readDepth += 1
        defer { readDepth -= 1 }
        return run(ScriptLineReader(text: String(decoding: bytes, as: UTF8.self), name: file))
    }

    /// Ends the session (from a `.read` file too), with `status` when given (`.exit N`).
    func quit(status: ExitCode? = nil) {
        quitRequested = true
        if let status { exitStatus = status }
    }

    // MARK: output redirection

    func redirectOutput(to file: String?, once: Bool) throws(ShellError) {
        if let r = redirect {
            r.sink.descriptor.closeQuietly()
            redirect = nil
        }
        guard let file, file != "stdout" else { return }
        // Truncating FILE would destroy the open database, whatever the write permission.
        if let open = path.flatMap(Platform.fileIdentity), Platform.fileIdentity(file) == open {
            throw ShellError("\(file) is the open file; write the output elsewhere", code: .cannotCreate)
        }
        do { redirect = (file, FileSink(try Platform.createFile(file)), once) } catch {
            throw ShellError("cannot write \(file): \(error.message)", code: .cannotCreate)
        }
    }

    var outputDescription: String { redirect.map { $0.path + ($0.once ? " (once)" : "") } ?? "stdout" }

    func close() {
        redirect?.sink.descriptor.closeQuietly()
        redirect = nil
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { s = s.dropLast() }
        return String(s)
    }
}

// MARK: - the pipeline's host

extension ShellSession: CommandHost {
    var openFile: String? { path }

    var openFileKey: KeyOptions? { KeyOptions(keyFile: keyFile, keyHex: keyHex) }

    var writesAllowed: Bool { writeEnabled }

    /// The session outlives its commands: each must close what it opened.
    var endsProcess: Bool { false }

    func readOnlyRefusal(_ command: String) -> ShellError {
        ShellError("the shell is read-only: type .write on to allow '\(command)' (or start with realmsh --write FILE)", code: .usage)
    }

    func helpText(_ spec: CommandSpec) -> String { Self.shellHelp(spec) }

    /// At a terminal, update and delete of more than one object ask first.
    func confirm(_ command: any Command, io: ShellIO) throws(ShellError) -> Bool {
        guard let change = command as? any ChangesSelectedObjects, let reader = confirmationReader, reader.isInteractive else { return true }
        let count = try change.selection.count(in: try currentFile(), className: change.className)
        guard count > 1 else { return true }
        let question = "\(type(of: change).verb) \(count) \(change.className) objects? [y/N] "
        if case let .line(answer) = reader.readLine(prompt: question), ["y", "yes"].contains(answer.trimmingWhitespace().lowercased()) {
            return true
        }
        io.printError("Nothing was changed.")
        return false
    }

    func willRun(changingFile: Bool) { Platform.setInterruptsCancelReads(interactive && !changingFile) }

    func didRun(changingFile: Bool) {
        if changingFile { invalidate() }
    }

    func defaultFormat(_ io: ShellIO) -> any ResultFormat { settings.mode }

    func options(for results: QueryResults, format: any ResultFormat, limit: Int?, io: ShellIO) -> ResultOptions {
        let maxRows = limit ?? settings.maxRows
            ?? ResultOptions.automaticRows(format, results.objectClass, headers: settings.headers, screenRows: io.terminalRows, otherwise: 0)
        return ResultOptions(headers: settings.headers, values: valueText(results.file), maxRows: maxRows, width: tableWidth(io),
                             style: TextStyle(color: io.useColor), types: settings.types, prettyJSON: io.stdoutIsTerminal)
    }

    func pages(_ io: ShellIO) -> Bool { interactive && settings.pager && io.stdoutIsTerminal }
}
