import RealmFormat

/// `realmsh completion bash|zsh|fish`: the completion script for a shell, made from the
/// commands' declarations (`CompletionScripts`).
struct CompletionCommand: Command {
    static let shellArgument = Positional("SHELL", help: "bash, zsh or fish.")

    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a completion script for bash, zsh or fish.",
        discussion: """
            Subcommands, their options, the values of options like --format, and file names, as the \
            help describes them. Install it once: bash: realmsh completion bash > \
            ~/.local/share/bash-completion/completions/realmsh; zsh: realmsh completion zsh > \
            "${fpath[1]}/_realmsh"; fish: realmsh completion fish > ~/.config/fish/completions/realmsh.fish.
            """,
        arguments: [shellArgument],
        examples: ["realmsh completion bash > ~/.local/share/bash-completion/completions/realmsh",
                   "source <(realmsh completion bash)"])

    let script: String

    init(_ arguments: ParsedArguments) throws(ShellError) {
        let shell = arguments[Self.shellArgument]
        guard let script = CompletionScripts.script(for: shell) else {
            throw ShellError("no completion for '\(shell)' (shells: \(CompletionScripts.shells.joined(separator: ", ")))"
                             + NameSuggestion.didYouMean(shell, among: CompletionScripts.shells), code: .usage, usageOf: "completion")
        }
        self.script = script
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        context.io.stdout.write(Array(script.utf8))
        return .success
    }
}
