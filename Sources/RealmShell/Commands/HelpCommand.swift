import RealmFormat

/// `realmsh help [SUBCOMMAND]`, and `realmsh help --man` (the manual page).
struct HelpCommand: Command {
    static let man = Flag("man", help: "Print the realmsh(1) manual page (roff) made from this help.")

    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for realmsh or one of its subcommands.",
        arguments: [topicArgument],
        options: [man],
        examples: ["realmsh help export",
                   "realmsh help --man > ~/.local/share/man/man1/realmsh.1 && man realmsh"])

    static let topicArgument = Positional("SUBCOMMAND", help: "The subcommand to explain.", optional: true)

    let topic: String?
    let manPage: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        topic = arguments.argument(Self.topicArgument)
        manPage = arguments[Self.man]
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        if manPage {
            io.stdout.write(Array(ManPage.render().utf8))
            return .success
        }
        guard let topic else {
            io.print(RealmShell.generalHelp())
            return .success
        }
        guard let command = Commands.named(topic) else {
            let suggestion = NameSuggestion.didYouMean(topic, among: Commands.names)
            throw ShellError("no subcommand '\(topic)'" + (suggestion.isEmpty ? " (subcommands: \(Commands.names.joined(separator: ", ")))" : suggestion),
                             code: .usage)
        }
        io.print(command.spec.help)
        return .success
    }
}
