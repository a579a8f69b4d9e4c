import RealmFormat

/// Where a command gets the encryption key of the file it reads: `--key-file PATH` (64 raw
/// bytes or 128 hex characters), `--key HEX` (visible in `ps`, so warned against), or
/// `REALMSH_KEY`. The key is never printed or logged. In the shell, the open file's key
/// fills these in (`CommandPipeline`).
struct KeyOptions {
    static let keyFile = Option<String>("key-file", value: "path", help: "Encryption key file: 64 raw bytes or 128 hex characters.")
    static let key = Option<String>("key", value: "hex", help: "Encryption key as 128 hex characters (visible to other users in ps; prefer --key-file or REALMSH_KEY).")
    static let all: [any OptionDeclaration] = [keyFile, key]

    let keyFile: String?
    let keyHex: String?

    init(_ arguments: ParsedArguments) {
        keyFile = arguments[Self.keyFile]
        keyHex = arguments[Self.key]
    }

    init(keyFile: String?, keyHex: String?) {
        self.keyFile = keyFile
        self.keyHex = keyHex
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
