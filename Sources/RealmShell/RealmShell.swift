import RealmFormat

/// The `realmsh` program: dispatches `realmsh <subcommand> [options] <args>` to a command,
/// prints errors as one line on stderr and returns the exit status.
public enum RealmShell {
    public static let version = "0.1.0"

    public static let overview = """
        realmsh — open, query and check Realm database files from a shell.

        USAGE: realmsh <subcommand> [options] <args>
               realmsh [--write] [-c COMMAND] FILE
                     (the interactive shell on a terminal, commands from stdin or -c;
                      otherwise the same as: realmsh info FILE — see 'realmsh help shell')
               realmsh
                     (on a terminal: the shell with no file open; .open FILE opens one)

        SUBCOMMANDS:
        """

    /// `endsProcess`: the caller exits with the status returned (`main`), so files that
    /// one-shot reads opened are left for the exit to close (`CommandContext.leaveOpenUntilExit`).
    public static func run(_ args: [String], io: ShellIO, endsProcess: Bool = false) -> Int32 {
        do {
            return try dispatch(args, io: io, endsProcess: endsProcess).rawValue
        } catch {
            io.printError("Error: \(error.message)")
            if let name = error.usageOf, let command = Commands.named(name) {
                io.printError("Usage: \(command.spec.usage)")
                io.printError("  See 'realmsh help \(name)'.")
            }
            return error.code.rawValue
        }
    }

    static func dispatch(_ args: [String], io: ShellIO, endsProcess: Bool = false) throws(ShellError) -> ExitCode {
        guard let first = args.first else {
            // As sqlite3: a person at a terminal gets the shell (with no file open yet);
            // anything else gets the usage on stderr, so a script that forgot its arguments
            // fails visibly.
            if io.stdoutIsTerminal, io.stdin.map(Platform.isTerminal) == true {
                return try execute(ShellCommand.self, [], io: io)
            }
            io.printError(generalHelp())
            return .usage
        }
        switch first {
        case "-h", "--help":
            io.print(generalHelp())
            return .success
        case "-V", "--version":
            io.print("realmsh \(version)")
            return .success
        default:
            break
        }
        if first == ShellCommand.spec.name {
            return try execute(ShellCommand.self, ShellCommand.normalize(Array(args.dropFirst())), io: io)
        }
        if let type = Commands.named(first) {
            return try execute(type, Array(args.dropFirst()), io: io, endsProcess: endsProcess)
        }
        // `realmsh FILE`: the shell on a terminal or a script; the info summary otherwise.
        if ShellCommand.startsImplicitly(args) {
            let parsed = try ArgumentParser.parse(ShellCommand.normalize(args), spec: ShellCommand.spec)
            if parsed.wantsHelp {
                io.print(ShellCommand.spec.help)
                return .success
            }
            var shell = try ShellCommand(parsed)
            shell.implicit = true
            return try shell.run(CommandContext(io: io, output: nil, results: CommandLineHost()))
        }
        throw ShellError("unknown subcommand '\(first)'" + NameSuggestion.didYouMean(first, among: Commands.names)
                         + " (see 'realmsh --help')", code: .usage)
    }

    /// `realmsh COMMAND ARGS…`, through the pipeline every command runs through.
    static func execute(_ type: any Command.Type, _ args: [String], io: ShellIO, endsProcess: Bool = false) throws(ShellError) -> ExitCode {
        try CommandPipeline(host: CommandLineHost(endsProcess: endsProcess)).run(type, args, io: io)
    }

    static func generalHelp() -> String {
        var lines = [overview]
        for c in Commands.all { lines.append(CommandSpec.row(c.spec.name, c.spec.abstract)) }
        lines += ["", "OPTIONS:", CommandSpec.row("-V, --version", "Show the version."),
                  CommandSpec.row("-h, --help", "Show help information."), "",
                  "See 'realmsh help <subcommand>' for detailed help."]
        return lines.joined(separator: "\n")
    }
}
