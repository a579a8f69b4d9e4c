import RealmFormat
import RealmObjects

/// `realmsh encrypt FILE -o OUT --key-file K`: Realm's page encryption of a plain file.
struct EncryptCommand: Command {
    static let spec = CommandSpec(
        name: "encrypt",
        abstract: "Write an encrypted copy of a plain file (AES-256 + HMAC-SHA224 pages, 64-byte key).",
        arguments: [.init("FILE", help: "The plain .realm file.")],
        options: CopyTarget.options(output: "The encrypted copy (required)."),
        examples: ["realmsh keygen -o app.key && realmsh encrypt --key-file app.key -o app.realm plain.realm"])

    let target: CopyTarget

    init(_ arguments: ParsedArguments) throws(ShellError) { target = try CopyTarget(arguments, command: "encrypt") }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let k = try target.requiredKey(io, command: "encrypt")
        let path = target.path
        let bytes: [UInt8]
        do {
            let image = try ByteImage.mapping(path: path)
            _ = try Snapshot(image: image)          // must be a readable, plain Realm file
            bytes = try EncryptedFile.encrypt(EncryptedFile.layoutForEncryption(image.copy(0, image.count)), key: k)
        } catch {
            throw ShellError.reading(path, error)
        }
        try target.write(bytes)
        io.printError("\(target.output): encrypted, \(bytes.count) bytes")
        return .success
    }
}

/// `realmsh decrypt FILE -o OUT --key-file K`: the plain logical file, mode 0600.
struct DecryptCommand: Command {
    static let spec = CommandSpec(
        name: "decrypt",
        abstract: "Write a decrypted copy of an encrypted file (created with mode 0600).",
        arguments: [.init("FILE", help: "The encrypted .realm file.")],
        options: CopyTarget.options(output: "The decrypted copy (required)."),
        examples: ["realmsh decrypt --key-file app.key -o plain.realm app.realm"])

    let target: CopyTarget

    init(_ arguments: ParsedArguments) throws(ShellError) { target = try CopyTarget(arguments, command: "decrypt") }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let k = try target.requiredKey(io, command: "decrypt")
        let path = target.path
        let bytes: [UInt8]
        do {
            let snapshot = try Snapshot(path: path, key: k)
            bytes = try snapshot.diskImage.copy(0, snapshot.diskImage.count)     // an old file stays as it is
        } catch {
            throw ShellError.reading(path, error)
        }
        try target.write(bytes, mode: 0o600)
        io.printError("\(target.output): decrypted, \(bytes.count) bytes")
        return .success
    }
}

/// `realmsh rekey FILE -o OUT --key-file OLD --new-key-file NEW`.
struct RekeyCommand: Command {
    static let spec = CommandSpec(
        name: "rekey",
        abstract: "Write a copy encrypted with a new key.",
        arguments: [.init("FILE", help: "The encrypted .realm file.")],
        options: [.value("new-key-file", name: "path", help: "The new key (required).")]
            + CopyTarget.options(output: "The re-encrypted copy (required)."),
        examples: ["realmsh rekey --key-file old.key --new-key-file new.key -o app2.realm app.realm"])

    let target: CopyTarget
    let newKeyFile: String

    init(_ arguments: ParsedArguments) throws(ShellError) {
        target = try CopyTarget(arguments, command: "rekey")
        guard let n = arguments.value("new-key-file") else { throw ShellError("missing --new-key-file", code: .usage, usageOf: "rekey") }
        newKeyFile = n
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let old = try target.requiredKey(io, command: "rekey")
        let new = try readKey(newKeyFile)
        let bytes: [UInt8]
        do {
            let snapshot = try Snapshot(path: target.path, key: old)
            bytes = try EncryptedFile.encrypt(snapshot.diskImage.copy(0, snapshot.diskImage.count), key: new)
        } catch {
            throw ShellError.reading(target.path, error)
        }
        try target.write(bytes)
        io.printError("\(target.output): encrypted with the new key, \(bytes.count) bytes")
        return .success
    }
}

/// `realmsh keygen -o K`: a random 64-byte key as 128 hex characters, mode 0600.
struct KeygenCommand: Command {
    static let spec = CommandSpec(
        name: "keygen",
        abstract: "Create a random 64-byte encryption key file (128 hex characters, mode 0600).",
        options: [
            .value("output", short: "o", name: "path", help: "The key file to create (required)."),
            .flag("force", help: "Replace the file if it exists."),
        ],
        examples: ["realmsh keygen -o app.key"])

    let output: String, force: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        force = arguments.flag("force")
        guard let o = arguments.value("output") else { throw ShellError("missing -o PATH", code: .usage, usageOf: "keygen") }
        output = o
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        guard let key = EncryptedFile.generateKey() else { throw ShellError("no random bytes from libcrypto", code: .ioError) }
        let hex = key.bytes.map { b -> String in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
        try OutputFile.write(Array((hex + "\n").utf8), to: output, mode: 0o600, force: force)
        io.printError("\(output): new 64-byte key")
        return .success
    }
}
