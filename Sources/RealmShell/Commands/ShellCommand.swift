import RealmFormat
import RealmObjects

/// `realmsh shell FILE` (and `realmsh FILE`): the interactive shell on a terminal; commands
/// from standard input or `-c` otherwise.
struct ShellCommand: Command {
    static let fileArgument = Positional("FILE", help: "The .realm file to open.", optional: true)
    static let command = Repeated("command", short: "c", value: "command", help: "Run this command (repeatable) and exit.")
    static let write = Flag("write", help: "Allow commands that change the file (as .write on).")
    static let bail = Flag("bail", help: "Stop at the first command that fails (scripts and -c).")

    static let spec = CommandSpec(
        name: "shell",
        abstract: "The interactive shell: queries, commands and dot-commands on one file.",
        discussion: """
            On a terminal: line editing, history, Tab completion, tables that fit the screen. Type \
            'Person where age > 30', any subcommand without the file ('schema', 'query Dog "age > 2"', \
            'export --format jsonl -o dogs.jsonl'), or dot-commands (.help, .mode, .schema, .quit). The \
            file is opened read-only; --write (or .write on) allows the commands that change it (insert, \
            upsert, import, update, delete, compact, migrate, and -o naming it). Without a terminal, commands are read from standard input (one per \
            line, no prompt, no colour) or given with -c; --bail (or -bail) stops at the first error. \
            'realmsh FILE' is the shell when both standard input and output are terminals, a script \
            runner when standard input has commands, and 'realmsh info FILE' otherwise.
            """,
        arguments: [fileArgument], effect: .reads,
        options: [command, write, bail] + KeyOptions.all,
        examples: ["realmsh default.realm", "realmsh default.realm -c 'Person where age > 30'",
                   "realmsh --bail default.realm < checks.txt", "realmsh --write app.realm"])

    let path: String?
    let keyFile: String?
    let keyHex: String?
    let commands: [String]
    let write: Bool
    let bail: Bool
    /// Started as `realmsh FILE` rather than `realmsh shell FILE`.
    var implicit = false

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.argument(Self.fileArgument)
        keyFile = arguments[KeyOptions.keyFile]
        keyHex = arguments[KeyOptions.key]
        commands = arguments[Self.command]
        write = arguments[Self.write]
        bail = arguments[Self.bail]
    }

    /// Whether `realmsh ARGS` (no subcommand) means the shell: ARGS start with a file or with
    /// one of the shell's options.
    static func startsImplicitly(_ args: [String]) -> Bool {
        guard let first = args.first else { return false }
        let options = ["--write", "--bail", "-bail", "-c", "--command", "--key-file", "--key"]
        if options.contains(where: { first == $0 || first.hasPrefix($0 + "=") }) || first.hasPrefix("-c") && first.count > 2 {
            return true
        }
        return !first.hasPrefix("-") && (first.contains(".") || first.contains("/") || Platform.fileExists(first))
    }

    /// sqlite's spelling `-bail` for `--bail`.
    static func normalize(_ args: [String]) -> [String] {
        var out = [String]()
        var ended = false
        for a in args {
            if a == "--" { ended = true }
            out.append(!ended && a == "-bail" ? "--bail" : a)
        }
        return out
    }

    enum Plan {
        case commands, interactive, script(ScriptLineReader), info, nothing
    }

    func plan(_ io: ShellIO) -> Plan {
        if !commands.isEmpty { return .commands }
        let stdinIsTerminal = io.stdin.map(Platform.isTerminal) ?? false
        if stdinIsTerminal { return io.stdoutIsTerminal || !implicit ? .interactive : .info }
        if let fd = io.stdin {
            let reader = ScriptLineReader(fd: fd)
            return implicit && reader.isEmpty ? .info : .script(reader)
        }
        return implicit ? .info : .nothing
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let plan = plan(io)
        if case .info = plan {
            guard let path else { throw ShellError("missing argument FILE", code: .usage, usageOf: "shell") }
            var args = [path]
            if let keyFile { args += ["--key-file", keyFile] }
            if let keyHex { args += ["--key", keyHex] }
            return try RealmShell.execute(InfoCommand.self, args, io: io)
        }
        var interactive = false
        if case .interactive = plan { interactive = true }
        let session = ShellSession(io: io, bail: bail, interactive: interactive)
        defer { session.close() }
        if let path {
            _ = try session.openAsking(path, keyFile: keyFile, keyHex: keyHex, io: io)
            session.writeEnabled = write
        } else if write {
            throw ShellError("--write needs a FILE", code: .usage, usageOf: "shell")
        }
        switch plan {
        case .commands:
            return session.run(ScriptLineReader(text: commands.joined(separator: "\n")))
        case let .script(reader):
            return session.run(reader)
        case .interactive:
            io.print(session.banner())
            let reader = ReadlineLineReader(history: HistoryFile.standard()) { prefix, start in
                Completer(classes: session.completionClasses()).complete(prefix: prefix, wordStart: start)
            }
            return session.run(reader)
        case .info, .nothing:
            return .success
        }
    }
}

extension ShellSession {
    /// The open file's classes for Tab (none when no file is open or it cannot be read).
    func completionClasses() -> [ObjectClass] {
        guard path != nil, let file = try? currentFile() else { return [] }
        return file.classes
    }
}
