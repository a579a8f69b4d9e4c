/// One subcommand: its interface (`spec`, help text included) and what it does.
public protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// Validates the parsed arguments; a problem is a usage error (exit 64).
    init(_ arguments: ParsedArguments) throws(ShellError)
    func run(_ io: ShellIO) throws(ShellError) -> ExitCode
}

/// Every subcommand, in the order `realmsh help` lists them.
enum Commands {
    static let all: [any Command.Type] = [
        InfoCommand.self, SchemaCommand.self, ExportCommand.self, QueryCommand.self, VerifyCommand.self,
        CreateCommand.self, InsertCommand.self, UpsertCommand.self, ImportCommand.self, UpdateCommand.self,
        DeleteCommand.self, MigrateCommand.self, CompactCommand.self, UpgradeCommand.self, EncryptCommand.self,
        DecryptCommand.self, RekeyCommand.self, KeygenCommand.self, ShellCommand.self, BrowseCommand.self, HelpCommand.self,
    ]

    static func named(_ name: String) -> (any Command.Type)? { all.first { $0.spec.name == name } }
}
