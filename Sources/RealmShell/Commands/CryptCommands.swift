import RealmFormat
import RealmObjects

/// `realmsh encrypt FILE -o OUT --key-file K`: Realm's page encryption of a plain file.
struct EncryptCommand: Command {
    static let output = CopyTarget.output("The encrypted copy (required).")
    static let spec = CommandSpec(
        name: "encrypt",
        abstract: "Write an encrypted copy of a plain file (AES-256 + HMAC-SHA224 pages, 64-byte key).",
        arguments: [.init("FILE", help: "The plain .realm file.")], file: .realmFile, fileKeyed: false,
        effect: CopyTarget.effect(output), options: CopyTarget.options(output),
        examples: ["realmsh keygen -o app.key && realmsh encrypt --key-file app.key -o app.realm plain.realm"])

    let path: String, key: KeyOptions

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let k = try CopyTarget.requiredKey(key, context.io, command: "encrypt")
        let bytes: [UInt8]
        do {
            let image = try ByteImage.mapping(path: path)
            _ = try Snapshot(image: image)          // must be a readable, plain Realm file
            bytes = try EncryptedFile.encrypt(EncryptedFile.layoutForEncryption(image.copy(0, image.count)), key: k)
        } catch .encrypted {
            // The key given is the copy's; the input needs none, and has one already.
            throw ShellError("\(path) is already encrypted: encrypt takes a plain file (rekey gives an encrypted one a new key; decrypt writes it plain)",
                             code: .dataError)
        } catch {
            throw ShellError.reading(path, error)
        }
        let output = try context.requiredOutput()
        try output.write(bytes)
        context.io.printError("\(output.path): encrypted, \(bytes.count) bytes")
        return .success
    }
}

/// `realmsh decrypt FILE -o OUT --key-file K`: the plain logical file, mode 0600.
struct DecryptCommand: Command {
    static let output = CopyTarget.output("The decrypted copy (required).")
    static let spec = CommandSpec(
        name: "decrypt",
        abstract: "Write a decrypted copy of an encrypted file (created with mode 0600).",
        arguments: [.init("FILE", help: "The encrypted .realm file.")], file: .realmFile,
        effect: CopyTarget.effect(output), options: CopyTarget.options(output),
        examples: ["realmsh decrypt --key-file app.key -o plain.realm app.realm"])

    let path: String, key: KeyOptions

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let k = try CopyTarget.requiredKey(key, context.io, command: "decrypt")
        let bytes: [UInt8]
        do {
            let snapshot = try Snapshot(path: path, key: k)
            bytes = try snapshot.diskImage.copy(0, snapshot.diskImage.count)     // an old file stays as it is
        } catch {
            throw ShellError.reading(path, error)
        }
        let output = try context.requiredOutput()
        try output.write(bytes, mode: 0o600)
        context.io.printError("\(output.path): decrypted, \(bytes.count) bytes")
        return .success
    }
}

/// `realmsh rekey FILE -o OUT --key-file OLD --new-key-file NEW`.
struct RekeyCommand: Command {
    static let output = CopyTarget.output("The re-encrypted copy (required).")
    static let newKeyFile = Option<String>("new-key-file", value: "path", help: "The new key (required).")
    static let spec = CommandSpec(
        name: "rekey",
        abstract: "Write a copy encrypted with a new key.",
        arguments: [.init("FILE", help: "The encrypted .realm file.")], file: .realmFile,
        effect: CopyTarget.effect(output), options: [newKeyFile] + CopyTarget.options(output),
        examples: ["realmsh rekey --key-file old.key --new-key-file new.key -o app2.realm app.realm"])

    let path: String, key: KeyOptions, newKeyFile: String

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
        guard let n = arguments[Self.newKeyFile] else { throw ShellError("missing --new-key-file", code: .usage, usageOf: "rekey") }
        newKeyFile = n
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let old = try CopyTarget.requiredKey(key, context.io, command: "rekey")
        let new = try readKey(newKeyFile)
        let bytes: [UInt8]
        do {
            let snapshot = try Snapshot(path: path, key: old)
            bytes = try EncryptedFile.encrypt(snapshot.diskImage.copy(0, snapshot.diskImage.count), key: new)
        } catch {
            throw ShellError.reading(path, error)
        }
        let output = try context.requiredOutput()
        try output.write(bytes)
        context.io.printError("\(output.path): encrypted with the new key, \(bytes.count) bytes")
        return .success
    }
}

/// `realmsh keygen -o K`: a random 64-byte key as 128 hex characters, mode 0600.
struct KeygenCommand: Command {
    static let output = Option<String>("output", short: "o", value: "path", help: "The key file to create (required).")
    static let force = Flag("force", help: "Replace the file if it exists.")
    static let spec = CommandSpec(
        name: "keygen",
        abstract: "Create a random 64-byte encryption key file (128 hex characters, mode 0600).",
        effect: .writes(.option(output, whenAbsent: .required, force: force, canReplaceFile: false)),
        options: [output, force],
        examples: ["realmsh keygen -o app.key"])

    init(_ arguments: ParsedArguments) throws(ShellError) {}

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let output = try context.requiredOutput()
        guard let key = EncryptedFile.generateKey() else { throw ShellError("no random bytes from libcrypto", code: .ioError) }
        let hex = key.bytes.map { b -> String in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
        try output.write(Array((hex + "\n").utf8), mode: 0o600)
        context.io.printError("\(output.path): new 64-byte key")
        return .success
    }
}

/// Reads a key file named by an option other than --key-file.
func readKey(_ path: String) throws(ShellError) -> EncryptionKey {
    do { return try EncryptionKey(file: path) } catch {
        if case .invalidKey = error { throw ShellError("\(path): \(error.message)", code: .usage) }
        throw ShellError.reading(path, error)
    }
}
