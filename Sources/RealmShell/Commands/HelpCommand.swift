import RealmFormat

/// `realmsh help [SUBCOMMAND]`.
struct HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for realmsh or one of its subcommands.",
        arguments: [topicArgument],
        examples: ["realmsh help export"])

    static let topicArgument = Positional("SUBCOMMAND", help: "The subcommand to explain.", optional: true)

    let topic: String?

    init(_ arguments: ParsedArguments) throws(ShellError) { topic = arguments.argument(Self.topicArgument) }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        guard let topic else {
            io.print(RealmShell.generalHelp())
            return .success
        }
        guard let command = Commands.named(topic) else {
            throw ShellError("no subcommand '\(topic)'" + NameSuggestion.didYouMean(topic, among: Commands.names), code: .usage)
        }
        io.print(command.spec.help)
        return .success
    }
}
