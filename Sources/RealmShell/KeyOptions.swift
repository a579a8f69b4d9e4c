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

    /// What the user gave, as they wrote it: `--key-file app.key`, `--key`, `REALMSH_KEY`;
    /// nil when no key was given.
    var given: String? {
        if let keyFile { return "--key-file \(keyFile)" }
        if keyHex != nil { return "--key" }
        if let env = Platform.environment("REALMSH_KEY"), !env.isEmpty { return "REALMSH_KEY" }
        return nil
    }

    /// A reader's key error told in terms of what the user did: a plain file opened with a
    /// key says which key to drop (`REALMSH_KEY` is unset, not dropped); a wrong key names it.
    func explain(_ error: ShellError) -> ShellError {
        guard let problem = error.keyProblem, let given else { return error }
        let prefix = problem.path + ": "
        switch problem.error {
        case .notEncrypted:
            let advice = given == "REALMSH_KEY" ? "REALMSH_KEY is set in the environment; unset it for plain files"
                : "open it without \(given.hasPrefix("--key-file") ? "--key-file" : "--key")"
            return ShellError(prefix + "this file is not encrypted, but a key was given (\(given)): \(advice)", code: error.code,
                              usageOf: nil, keyProblem: problem)
        case let .wrongKey(page):
            var message = prefix + problem.error.message + ": \(given) does not open this file"
            if isHalfKeyInHex {
                message += "; it is 64 hexadecimal characters, taken as 64 raw bytes: as hex they are 32 bytes, too short (a key in hex has 128 characters)"
            }
            return ShellError(message, code: error.code, usageOf: nil, keyProblem: problem)
        default:
            return error
        }
    }

    /// Whether the key given is 64 hex digits (see `EncryptionKey.isHalfKeyInHex`).
    private var isHalfKeyInHex: Bool {
        let text: [UInt8]?
        if let keyFile { text = try? Platform.readFile(keyFile) } else if let keyHex { text = Array(keyHex.utf8) } else {
            text = Platform.environment("REALMSH_KEY").map { Array($0.utf8) }
        }
        return text.map(EncryptionKey.isHalfKeyInHex) ?? false
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
