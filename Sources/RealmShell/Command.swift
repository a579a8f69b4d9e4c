/// One subcommand: its interface (`spec`: arguments, options, help, the file it works on and
/// its effect) and what it does. `CommandPipeline` parses, checks the declared effect and runs
/// it, from the command line and from the shell alike.
public protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// Validates the parsed arguments; a problem is a usage error (exit 64).
    init(_ arguments: ParsedArguments) throws(ShellError)
    func run(_ context: CommandContext) throws(ShellError) -> ExitCode
}

/// What a running command gets from the pipeline.
public struct CommandContext {
    public let io: ShellIO
    /// Where the declared output goes; nil when there is none or it is standard output.
    let output: OutputTarget?
    /// How query results are shown here: the command line's defaults or the shell's settings.
    let results: any ResultPresenter
    /// The process exits when the command returns (see `leaveOpenUntilExit`).
    var endsProcess = false

    /// Keeps a file a read opened until the process exits, when it is about to, instead of
    /// closing it as the command returns. Closing is work the kernel does anyway at exit, and
    /// does there at once: unmapping the file's pages (for an encrypted file, its decrypted
    /// copies too) and the snapshot's caches, freed here object by object (a million-object
    /// column's leaf lists). That was 0.4–0.5 ms of an 8 ms count on the encrypted 1M file
    /// (Benchmarks/README.md, "Encrypted count as a process"). In the shell, and in tests that
    /// run commands in-process, this does nothing.
    func leaveOpenUntilExit(_ file: AnyObject) {
        // A retain that is never released: the exit that follows frees everything at once.
        if endsProcess { _ = Unmanaged.passRetained(file) }
    }

    /// The output of a command whose effect requires one (the pipeline resolved it).
    func requiredOutput() throws(ShellError) -> OutputTarget {
        guard let output else { throw ShellError("no output was resolved for a command that requires one", code: .software) }
        return output
    }
}

/// Every subcommand, in the order `realmsh help` lists them. Adding a subcommand: one file in
/// Commands/ with its type, and its name in this list.
enum Commands {
    static let all: [any Command.Type] = [
        InfoCommand.self, SchemaCommand.self, ExportCommand.self, QueryCommand.self, VerifyCommand.self,
        CreateCommand.self, InsertCommand.self, UpsertCommand.self, ImportCommand.self, UpdateCommand.self,
        DeleteCommand.self, MigrateCommand.self, CompactCommand.self, UpgradeCommand.self, EncryptCommand.self,
        DecryptCommand.self, RekeyCommand.self, KeygenCommand.self, ShellCommand.self, BrowseCommand.self, CompletionCommand.self, HelpCommand.self,
    ]

    static func named(_ name: String) -> (any Command.Type)? { all.first { $0.spec.name == name } }

    static var names: [String] { all.map { $0.spec.name } }
}
