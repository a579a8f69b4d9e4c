/// `realmsh help [SUBCOMMAND]`.
struct HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for realmsh or one of its subcommands.",
        arguments: [.init("SUBCOMMAND", help: "The subcommand to explain.", optional: true)],
        examples: ["realmsh help export"])

    let topic: String?

    init(_ arguments: ParsedArguments) throws(ShellError) { topic = arguments.positionals.first }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        guard let topic else {
            io.print(RealmShell.generalHelp())
            return .success
        }
        guard let command = Commands.named(topic) else {
            var message = "no subcommand '\(topic)'"
            if let near = Suggestions.nearest(to: topic, among: Commands.all.map { $0.spec.name }) {
                message += "; did you mean '\(near)'?"
            }
            throw ShellError(message, code: .usage)
        }
        io.print(command.spec.help)
        return .success
    }
}
