import RealmFormat

/// What the commands that write a new copy of FILE share (`encrypt`, `decrypt`, `rekey`,
/// `upgrade`): the required `-o OUT`, `--force`, the input's key options, and their effect.
/// OUT naming FILE (by any path) rewrites FILE in place, under Realm's session lock.
enum CopyTarget {
    static func output(_ help: String) -> Option<String> { Option<String>("output", short: "o", value: "out", help: help) }
    static let force = Flag("force", help: "Replace OUT if it exists.")

    static func effect(_ output: Option<String>) -> Effect {
        .writes(.option(output, whenAbsent: .required, force: force, canReplaceFile: true))
    }

    static func options(_ output: Option<String>) -> [any OptionDeclaration] { [output, force] + KeyOptions.all }

    /// The input's key, required.
    static func requiredKey(_ key: KeyOptions, _ io: ShellIO, command: String) throws(ShellError) -> EncryptionKey {
        guard let k = try key.resolve(io) else {
            throw ShellError("\(command) needs a key: --key-file PATH", code: .usage, usageOf: command)
        }
        return k
    }
}
