import RealmFormat
import RealmObjects
import RealmQuery

/// The interactive shell and script runner behind `realmsh FILE` and `realmsh shell`: reads
/// commands from a `LineReader`, runs subcommands on the open file, the short query form
/// `Class where PREDICATE`, and dot-commands; prints results in the chosen output mode and
/// keeps going after errors (unless `--bail` in a script).
final class ShellSession {
    struct Settings {
        var mode: OutputMode = .box
        var headers = true
        var nullValue = "null"
        /// Objects shown by the human modes (0: all).
        var maxRows = 0
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
    /// Commands that change the file run only while this is on (`.write on`, `--write`).
    var writeEnabled: Bool
    private var cache: (stamp: [Int]?, file: RealmFile, values: ValueText)?
    /// `.output FILE` (kept) or `.once FILE` (for the next command).
    private var redirect: (path: String, sink: FileSink, once: Bool)?
    private var readDepth = 0
    private(set) var quitRequested = false
    private var keyWarningShown = false

    init(io: ShellIO, path: String?, keyFile: String?, keyHex: String?, write: Bool, bail: Bool, interactive: Bool) {
        self.io = io
        self.path = path
        self.keyFile = keyFile
        self.keyHex = keyHex
        writeEnabled = write
        self.bail = bail
        self.interactive = interactive
        settings.maxRows = interactive ? 40 : 0
    }

    // MARK: the loop

    /// Runs commands until the input ends or `.quit`. Interactive sessions return success;
    /// scripts return the status of the last failed command (with `bail`, the first).
    func run(_ reader: LineReader) -> ExitCode {
        var failure: ExitCode?
        while !quitRequested {
            let input = readCommand(reader)
            guard case let .line(text) = input else {
                if input == .end { break }
                continue
            }
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            if reader.isInteractive && !HistoryFile.holdsKey(trimmed) { reader.remember(trimmed) }
            let code = execute(trimmed, reader: reader)
            if code != .success {
                failure = code
                if bail && !reader.isInteractive { return code }
            }
        }
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
        }
        return text + "\nType .help for help, 'Class where predicate' to query, .quit or Ctrl-D to leave."
    }

    // MARK: running one command

    /// Runs one command and reports its error, if any, on stderr; the shell goes on.
    @discardableResult
    func execute(_ text: String, reader: LineReader) -> ExitCode {
        if text.hasPrefix("#") || text.hasPrefix("--") { return .success }
        let commandIO = makeIO()
        let started = Platform.monotonicSeconds()
        _ = Platform.takeInterrupt()
        var code = ExitCode.success
        do {
            code = try dispatch(text, io: commandIO, reader: reader)
        } catch {
            code = error.code
            report(error, io: commandIO)
        }
        // A Ctrl-C that came too late to stop anything (or during a write, which is never
        // interrupted) is dropped here rather than cancelling the next line.
        Platform.setInterruptsCancelReads(false)
        _ = Platform.takeInterrupt()
        if let r = redirect, r.once, !text.hasPrefix(".once") {
            _ = Platform.closeFile(r.sink.fd)
            redirect = nil
        }
        if settings.timer {
            let elapsed = Platform.monotonicSeconds() - started
            commandIO.printError(commandIO.dim("Run time: \(Self.seconds(elapsed))"))
        }
        return code
    }

    static func seconds(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000) s"
    }

    func report(_ error: ShellError, io: ShellIO) {
        var message = error.message
        if message.hasSuffix(": interrupted") || message == "interrupted" { message = "interrupted (Ctrl-C)" }
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let first = "Error: " + (lines.first.map(String.init) ?? "")
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
        let out = ShellIO(stdout: redirect?.sink ?? io.stdout, stderr: io.stderr, stdoutIsTerminal: toTerminal,
                          useColor: toTerminal && useColor, terminalWidth: width)
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
        throw unknownCommand(head)
    }

    func unknownCommand(_ word: String) -> ShellError {
        var message = "'\(word)' is neither a command nor a class"
        let candidates = Commands.all.map { $0.spec.name }.filter { $0 != "shell" } + currentClassNames()
        let head = String(word.prefix { $0 != "." })
        if let near = Suggestions.nearest(to: head, among: candidates) { message += "; did you mean '\(near)'?" }
        return ShellError(message + " (type .help)", code: .usage)
    }

    // MARK: the open file

    /// The open file, reopened when it changed on disk (a write, another process).
    func currentFile() throws(ShellError) -> RealmFile {
        guard let path else { throw ShellError("no file is open; open one with .open FILE", code: .usage) }
        let stamp = Platform.modificationStamp(path)
        if let cache, stamp != nil, cache.stamp == stamp { return cache.file }
        let open = try OpenRealm(path: path, key: resolveKey())
        cache = (stamp, open.file, ValueText(file: open.file))
        return open.file
    }

    func currentClassNames() -> [String] {
        guard path != nil, let file = try? currentFile() else { return [] }
        return file.classes.map(\.name)
    }

    func valueText(_ file: RealmFile) -> ValueText {
        let values = cache.map { $0.file === file ? $0.values : ValueText(file: file) } ?? ValueText(file: file)
        values.nullText = settings.nullValue
        return values
    }

    private func keyArguments() -> ParsedArguments {
        var parsed = ParsedArguments()
        if let keyFile { parsed.values["key-file"] = [keyFile] }
        if let keyHex { parsed.values["key"] = [keyHex] }
        return parsed
    }

    private func resolveKey() throws(ShellError) -> EncryptionKey? {
        let keyIO = makeIO()
        let key = try KeyOptions(keyArguments()).resolve(keyIO)
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

    func invalidate() { cache = nil }

    // MARK: subcommands

    /// Subcommands whose FILE argument is the shell's open file.
    static func takesOpenFile(_ spec: CommandSpec) -> Bool {
        spec.arguments.first?.name == "FILE" && spec.name != "create" && spec.name != "shell"
    }

    /// Whether a command would change the open file.
    static func changesFile(_ name: String, _ parsed: ParsedArguments) -> Bool {
        switch name {
        case "insert", "upsert", "import", "update": return true
        case "delete": return !parsed.flag("dry-run")
        case "compact": return parsed.value("output") == nil
        case "browse": return parsed.flag("write")
        default: return false
        }
    }

    func runSubcommand(_ type: any Command.Type, _ words: [String], io: ShellIO, reader: LineReader) throws(ShellError) -> ExitCode {
        let spec = type.spec
        var args = words
        if Self.takesOpenFile(spec) && !(words.contains("-h") || words.contains("--help")) {
            guard let path else { throw ShellError("no file is open; open one with .open FILE", code: .usage) }
            args.insert(path.hasPrefix("-") ? "./" + path : path, at: 0)
            let given = Set(words.map { String($0.prefix { $0 != "=" }) })
            let options = Set(spec.options.map(\.long))
            if spec.name != "encrypt", !given.contains("--key-file"), !given.contains("--key") {
                if let keyFile, options.contains("key-file") { args += ["--key-file", keyFile] }
                if let keyHex, options.contains("key") { args += ["--key", keyHex] }
            }
        }
        let parsed = try ArgumentParser.parse(args, spec: spec)
        if parsed.wantsHelp {
            io.print(Self.shellHelp(spec))
            return .success
        }
        let changes = Self.changesFile(spec.name, parsed)
        if changes {
            guard writeEnabled else {
                throw ShellError("the shell is read-only: type .write on to allow '\(spec.name)' (or start with realmsh --write FILE)",
                                 code: .usage)
            }
            if spec.name == "update" || spec.name == "delete", reader.isInteractive {
                let count = try selectionCount(parsed, command: spec.name)
                if count > 1 {
                    let verb = spec.name == "delete" ? "Delete" : "Update"
                    let question = "\(verb) \(count) \(parsed.positionals[1]) objects? [y/N] "
                    guard case let .line(answer) = reader.readLine(prompt: question),
                          ["y", "yes"].contains(answer.trimmingWhitespace().lowercased()) else {
                        io.printError("Nothing was changed.")
                        return .success
                    }
                }
            }
        }
        if spec.name == "query", parsed.value("format") == nil {
            let command = try QueryCommand(parsed)
            var query = ShortQuery(className: command.className, predicate: command.predicate, path: [], predicateOffset: nil)
            query.arguments = command.arguments
            query.argumentsJSON = command.argumentsJSON
            query.limit = command.limit
            return try runQuery(query, io: io)
        }
        if spec.name == "delete", parsed.flag("dry-run"), !writeEnabled {
            // Counting needs no writer (which would take the file's lock).
            io.print(String(try selectionCount(parsed, command: "delete")))
            return .success
        }
        let command = try type.init(parsed)
        Platform.setInterruptsCancelReads(interactive && !changes)
        defer {
            if changes { invalidate() }
        }
        return try command.run(io)
    }

    /// How many objects `update`/`delete` would touch (`--where PRED` or `--all`).
    func selectionCount(_ parsed: ParsedArguments, command: String) throws(ShellError) -> Int {
        let selection = try Selection(parsed, command: command)
        let file = try currentFile()
        let className = parsed.positionals[1]
        guard file.objectClass(named: className) != nil else { throw unknownClass(className, in: file) }
        do {
            let query = try Query(store: ObjectStore(snapshot: file.snapshot), className: className,
                                  selection.predicate ?? "TRUEPREDICATE", arguments: selection.arguments.map(QueryArgument.literal))
            return try query.count()
        } catch let error as QueryError {
            throw ShellError(error.rendered(query: selection.predicate ?? ""), code: .dataError)
        } catch {
            throw ShellError.from(error, path: file.path)
        }
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

    func runQuery(_ query: ShortQuery, io: ShellIO) throws(ShellError) -> ExitCode {
        let file = try currentFile()
        guard let objectClass = file.objectClass(named: query.className) else { throw unknownClass(query.className, in: file) }
        let store = ObjectStore(snapshot: file.snapshot)
        guard let table = store.table(className: query.className) else { throw unknownClass(query.className, in: file) }
        Platform.setInterruptsCancelReads(interactive)
        let arguments: [QueryArgument]
        if let json = query.argumentsJSON {
            do throws(QueryArguments.Failure) { arguments = try QueryArguments.parseJSON(json, store: store) } catch {
                throw ShellError(error.message, code: .usage, usageOf: "query")
            }
        } else {
            arguments = query.arguments.map(QueryArgument.literal)
        }
        var rows: [Int]
        do {
            rows = try Query(store: store, table: table, query.predicate, arguments: arguments).rows()
        } catch let error as QueryError {
            throw ShellError(query.render(error), code: .dataError)
        } catch {
            throw ShellError.from(error, path: file.path)
        }
        var resultClass = objectClass
        if !query.path.isEmpty { (resultClass, rows) = try follow(query.path, from: objectClass, rows: rows, in: file) }
        if let limit = query.limit, rows.count > limit { rows.removeLast(rows.count - limit) }
        let renderer = ResultRenderer(file: file, objectClass: resultClass, mode: settings.mode, headers: settings.headers,
                                      width: tableWidth(io), values: valueText(file),
                                      style: .init(color: io.useColor))
        do {
            if settings.mode.isForPeople {
                let shown = settings.maxRows > 0 ? Array(rows.prefix(settings.maxRows)) : rows
                let text = try renderer.text(try fetch(file, resultClass, shown), total: rows.count)
                emit(text, io: io)
            } else {
                try renderer.write(try fetch(file, resultClass, rows), to: io.stdout)
            }
        } catch {
            throw ShellError.from(error, path: file.path)
        }
        return .success
    }

    /// The objects at `rows` (positions in table order), in the order given.
    func fetch(_ file: RealmFile, _ objectClass: ObjectClass, _ rows: [Int]) throws -> [(key: Int64, values: [Value])] {
        guard !rows.isEmpty else { return [] }
        var found = [Int: (key: Int64, values: [Value])]()
        try file.forEachObject(of: objectClass, atPositions: Array(Set(rows)).sorted()) { position, key, values in
            found[position] = (key, Array(values))
        }
        return rows.compactMap { found[$0] }
    }

    /// The objects the links `path` of the objects at `rows` point to, each once, in order.
    func follow(_ path: [String], from start: ObjectClass, rows: [Int], in file: RealmFile) throws(ShellError) -> (ObjectClass, [Int]) {
        var objectClass = start
        var current = rows
        for name in path {
            let links = objectClass.properties.filter { $0.type == "object" }
            guard let property = objectClass.property(named: name), property.type == "object",
                  let target = property.objectType.flatMap(file.objectClass(named:)) else {
                var message = "'\(name)' is not a link of \(objectClass.name)"
                if let near = Suggestions.nearest(to: name, among: links.map(\.name)) { message += "; did you mean '\(near)'?" }
                message += links.isEmpty ? " (it has no links)" : " (links: \(links.map(\.name).joined(separator: ", ")))"
                throw ShellError(message, code: .dataError)
            }
            do {
                var linked = [Int: [Int64]]()
                try file.forEachObject(of: objectClass, atPositions: Array(Set(current)).sorted(), properties: [property]) { position, _, values in
                    linked[position] = Self.linkKeys(values.first ?? .null)
                }
                let store = ObjectStore(snapshot: file.snapshot)     // TableData holds it unowned
                guard let table = store.table(className: target.name) else { return (target, []) }
                var rowOfKey = [Int64: Int]()
                for (i, k) in try withExtendedLifetime(store, { try table.keys() }).enumerated() { rowOfKey[k] = i }
                var seen = Set<Int>()
                var next = [Int]()
                for position in current {
                    for key in linked[position] ?? [] {
                        if let row = rowOfKey[key], seen.insert(row).inserted { next.append(row) }
                    }
                }
                current = next
            } catch {
                throw ShellError.from(error, path: file.path)
            }
            objectClass = target
        }
        return (objectClass, current)
    }

    static func linkKeys(_ value: Value) -> [Int64] {
        switch value {
        case let .link(k): return [k]
        case let .typedLink(_, k): return [k]
        case let .list(elements): return elements.flatMap(linkKeys)
        case let .dictionary(entries): return entries.flatMap { linkKeys($0.value) }
        default: return []
        }
    }

    // MARK: output

    /// Prints text for people, through the pager when it is taller than the terminal.
    func emit(_ text: String, io: ShellIO) {
        if interactive, settings.pager, io.stdoutIsTerminal, let rows = Platform.terminalRows(1) {
            let lines = text.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            if lines > rows - 1, Pager.show(text + "\n") { return }
        }
        io.print(text)
    }

    // MARK: scripts

    /// `.read FILE`: the commands of a file, as a script.
    func runFile(_ file: String) throws(ShellError) -> ExitCode {
        guard readDepth < 16 else { throw ShellError(".read nested too deeply (16 files)", code: .usage) }
        guard let bytes = Platform.readFile(file) else {
            throw ShellError("cannot read \(file)", code: .noInput)
        }
        readDepth += 1
        defer { readDepth -= 1 }
        let code = run(ScriptLineReader(text: String(decoding: bytes, as: UTF8.self)))
        quitRequested = false
        return code
    }

    /// Ends the session.
    func quit() { quitRequested = true }

    // MARK: output redirection

    func redirectOutput(to file: String?, once: Bool) throws(ShellError) {
        if let r = redirect {
            _ = Platform.closeFile(r.sink.fd)
            redirect = nil
        }
        guard let file, file != "stdout" else { return }
        switch Platform.createFile(file) {
        case let .success(fd): redirect = (file, FileSink(fd: fd), once)
        case let .failure(error): throw ShellError("cannot write \(file): \(error.message)", code: .cannotCreate)
        }
    }

    var outputDescription: String { redirect.map { $0.path + ($0.once ? " (once)" : "") } ?? "stdout" }

    func close() {
        if let r = redirect { _ = Platform.closeFile(r.sink.fd) }
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
