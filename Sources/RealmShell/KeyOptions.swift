import RealmFormat

/// Where a command gets an encryption key: `--key-file PATH` (64 raw bytes or 128 hex
/// characters), `--key HEX` (visible in `ps`, so warned against), or `REALMSH_KEY`.
/// The key is never printed or logged.
struct KeyOptions {
    static let options: [CommandSpec.Option] = [
        .value("key-file", name: "path", help: "Encryption key file: 64 raw bytes or 128 hex characters."),
        .value("key", name: "hex", help: "Encryption key as 128 hex characters (visible to other users in ps; prefer --key-file or REALMSH_KEY)."),
    ]

    let keyFile: String?
    let keyHex: String?

    init(_ arguments: ParsedArguments) {
        keyFile = arguments.value("key-file")
        keyHex = arguments.value("key")
    }

    /// The key, or nil when none was given in any form.
    func resolve(_ io: ShellIO) throws(ShellError) -> EncryptionKey? {
        do {
            if let keyFile { return try EncryptionKey(file: keyFile) }
            if let keyHex {
                if !io.quietKeyWarning { io.printError(io.warn("warning: --key is visible to other users in the process list; prefer --key-file or REALMSH_KEY")) }
                return try EncryptionKey(hex: keyHex)
            }
            if let env = Platform.environment("REALMSH_KEY"), !env.isEmpty { return try EncryptionKey(hex: env) }
        } catch {
            if case .invalidKey = error {
                throw ShellError("\(keyFile ?? (keyHex != nil ? "--key" : "REALMSH_KEY")): \(error.message)", code: .usage)
            }
            throw ShellError.reading(keyFile ?? "key", error)
        }
        return nil
    }
}
