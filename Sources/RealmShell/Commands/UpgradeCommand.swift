import RealmFormat
import RealmObjects

/// `realmsh upgrade FILE -o OUT`: a format-24 copy of an older file.
struct UpgradeCommand: Command {
    static let spec = CommandSpec(
        name: "upgrade",
        abstract: "Write a format-24 copy of a file of an older format (20-23, and 10-11).",
        discussion: """
            Applies what Realm Core 14 does when it opens an older file (list-of-link column keys, \
            primary-key indexes, set order, dictionary layout, asymmetric objects of format 22, history \
            schema) and writes every table anew in format 24, keeping object keys, table keys and the \
            version. The original is never changed; the copy opens in Realm Core 14 without an upgrade. \
            Encryption is kept (--key-file).
            """,
        arguments: [.init("FILE", help: "The .realm file.")],
        options: [
            .value("output", short: "o", name: "out", help: "The upgraded copy (required)."),
            .flag("force", help: "Replace OUT if it exists."),
        ] + KeyOptions.options,
        examples: ["realmsh upgrade -o app-v24.realm app.realm"])

    let path: String, output: String, key: KeyOptions, force: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.positionals[0]
        key = KeyOptions(arguments)
        force = arguments.flag("force")
        guard let o = arguments.value("output") else { throw ShellError("missing -o OUT (the original is never changed)", code: .usage, usageOf: "upgrade") }
        output = o
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let k = try key.resolve(io)
        var bytes: [UInt8]
        let from: Int
        do {
            let snapshot = try Snapshot(path: path, key: k)
            from = snapshot.fileFormat
            bytes = try FormatUpgrade.upgradedFile(snapshot)
            if let k { bytes = try EncryptedFile.encrypt(bytes, key: k) }
        } catch {
            throw WriteSupport.failure(error, path: path)
        }
        try OutputFile.write(bytes, to: output, force: force)
        io.printError("\(output): format \(from) → 24, \(bytes.count) bytes")
        return .success
    }
}
