import RealmFormat

/// What the commands that write a new copy of FILE share (`encrypt`, `decrypt`, `rekey`,
/// `upgrade`): the input, the required `-o OUT`, `--force`, and the input's key options.
struct CopyTarget {
    static func options(output help: String) -> [CommandSpec.Option] {
        [.value("output", short: "o", name: "out", help: help), .flag("force", help: "Replace OUT if it exists.")]
            + KeyOptions.options
    }

    let path: String
    let output: String
    let key: KeyOptions
    let force: Bool

    init(_ arguments: ParsedArguments, command: String) throws(ShellError) {
        path = arguments.positionals[0]
        key = KeyOptions(arguments)
        force = arguments.flag("force")
        guard let o = arguments.value("output") else {
            throw ShellError("missing -o OUT (the original is never changed)", code: .usage, usageOf: command)
        }
        output = o
    }

    /// The input's key, required.
    func requiredKey(_ io: ShellIO, command: String) throws(ShellError) -> EncryptionKey {
        guard let k = try key.resolve(io) else {
            throw ShellError("\(command) needs a key: --key-file PATH", code: .usage, usageOf: command)
        }
        return k
    }

    func write(_ bytes: [UInt8], mode: UInt32 = 0o644) throws(ShellError) {
        try OutputFile.write(bytes, to: output, mode: mode, force: force)
    }
}
