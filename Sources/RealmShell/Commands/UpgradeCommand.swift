import RealmFormat
import RealmObjects

/// `realmsh upgrade FILE -o OUT`: a format-24 copy of an older file.
struct UpgradeCommand: Command {
    static let output = CopyTarget.output("The upgraded copy (required).")
    static let spec = CommandSpec(
        name: "upgrade",
        abstract: "Write a format-24 copy of a file of an older format (2-11, 20-23).",
        discussion: """
            Applies what Realm Core 14 does when it opens an older file (list-of-link column keys, \
            primary-key indexes, set order, dictionary layout, asymmetric objects of format 22, history \
            schema) and writes every table anew in format 24, keeping object keys, table keys and the \
            version. Files of formats 2-9 (Realm Core 0.8x-5, SDKs of 2014-2019) get what Realm Core 13 \
            does to them first: rows become objects in their stored order, the pk table primary keys, \
            one-column subtables lists (see Docs/legacy-formats.md). The original is never changed; the \
            copy opens in Realm Core 14 without an upgrade. Encryption is kept (--key-file).
            """,
        arguments: [.realmFile], file: .realmFile, effect: CopyTarget.effect(output), options: CopyTarget.options(output),
        examples: ["realmsh upgrade -o app-v24.realm app.realm"])

    let path: String, key: KeyOptions

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let k = try key.resolve(context.io)
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
        let output = try context.requiredOutput()
        try output.write(bytes)
        context.io.printError("\(output.path): format \(from) → 24, \(bytes.count) bytes")
        return .success
    }
}
