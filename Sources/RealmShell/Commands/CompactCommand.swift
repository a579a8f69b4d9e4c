import RealmFormat
import RealmObjects

/// `realmsh compact FILE`: a compacted copy of the last committed version, as Realm's
/// `writeCopy(toFile:)` / `compact()` write it (realm-format.md §13.8).
struct CompactCommand: Command {
    static let output = Option<String>("output", short: "o", value: "out", help: "Write the copy here instead of replacing FILE.")
    static let newKeyFile = Option<String>("new-key-file", value: "path", help: "Encrypt the copy with this key instead.")
    static let decrypt = Flag("decrypt", help: "Write the copy unencrypted (mode 0600).")
    static let force = Flag("force", help: "Replace OUT if it exists.")
    static let enumerateStrings = Option<Double>("enumerate-strings", value: "percent",
                                                 help: "Also enumerate string properties with at most PERCENT % distinct values (0–100).") { (text: String) throws(ShellError) -> Double in
        guard let p = Double(text), p >= 0, p <= 100 else {
            throw ShellError("--enumerate-strings wants a percentage from 0 to 100, not '\(text)'", code: .usage, usageOf: "compact")
        }
        return p
    }

    static let spec = CommandSpec(
        name: "compact",
        abstract: "Write a compacted copy (only live data, no free space), or compact a file in place.",
        discussion: """
            The output is a streaming-form file holding only the live nodes of the last committed \
            version, with its version number and history, exactly as realm-core's DB::compact lays it \
            out. Without -o (or with -o naming FILE, by any path, and --force) the file is compacted in \
            place: the copy is written beside it, synced and renamed over it, so a crash leaves either \
            the old or the new file; this needs the file's lock, so it refuses (exit 75) while an app \
            has the file open. Encryption is kept unless --new-key-file or --decrypt says otherwise.

            --enumerate-strings PERCENT does what realm-core's realm-enumerate tool does before a \
            file is shipped: every string property (not a primary key, not a collection) whose \
            distinct values are at most PERCENT % of its class's objects is stored as an enumerated \
            column: one list of its distinct values, and per object a small integer position in it. \
            Objects, schema and indexes stay the same, and Realm SDKs read and write such columns; \
            a property with a few thousand distinct values in a million objects takes a quarter of \
            the space or less. 100 enumerates every string property. Needs a format-24 file.
            """,
        arguments: [.realmFile], file: .realmFile,
        effect: .writes(.option(output, whenAbsent: .replacesFile, force: force, canReplaceFile: true)),
        options: [output, newKeyFile, decrypt, force, enumerateStrings] + KeyOptions.all,
        examples: ["realmsh compact default.realm", "realmsh compact -o bundle.realm default.realm",
                   "realmsh compact --enumerate-strings 10 -o bundle.realm default.realm",
                   "realmsh compact --key-file app.key --decrypt -o plain.realm app.realm"])

    let path: String
    let key: KeyOptions
    let newKeyFile: String?
    let decrypt: Bool
    let enumerateStrings: Double?

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
        newKeyFile = arguments[Self.newKeyFile]
        decrypt = arguments[Self.decrypt]
        enumerateStrings = try arguments.value(Self.enumerateStrings)
        if decrypt && newKeyFile != nil {
            throw ShellError("--decrypt and --new-key-file exclude each other", code: .usage, usageOf: "compact")
        }
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let output = try context.requiredOutput()
        let inputKey = try key.resolve(io)
        let outputKey = decrypt ? nil : try newKeyFile.map { p throws(ShellError) in try readKey(p) } ?? inputKey
        // In place, the pipeline holds the session lock from here until the rename (§15.3).
        let snapshot: Snapshot
        do { snapshot = try Snapshot(path: path, key: inputKey) } catch { throw ShellError.reading(path, error) }
        if enumerateStrings != nil, snapshot.fileFormat != 24 {
            throw ShellError("\(path): --enumerate-strings needs a format-24 file, this one has format \(snapshot.fileFormat) (write an upgraded copy with 'realmsh upgrade' first)", code: .unavailable)
        }
        let before = Platform.fileSize(path) ?? 0
        let mode: UInt32 = outputKey == nil && inputKey != nil ? 0o600 : 0o644
        let size: Int
        do {
            var options = Compactor.Options()
            options.padForEncryption = outputKey != nil
            let bar = ProgressBar(io: io, label: "compacting", bytes: before)
            options.progress = bar.map { b in { @Sendable fraction in b.update(fraction) } }
            var plan: StringEnumerationPlan?
            if let percent = enumerateStrings { plan = try enumerationPlan(snapshot, percent: percent, io) }
            if let outputKey {
                // Encryption needs the whole image (EncryptedFile.encrypt): built in memory.
                var bytes = try Compactor.compact(snapshot, options: options, enumeration: plan)
                bar?.finish()
                try checkCopy(try Snapshot(image: ByteImage(bytes: bytes)), of: snapshot)
                bytes = try EncryptedFile.encrypt(bytes, key: outputKey)
                try output.write(bytes, mode: mode)
                size = bytes.count
            } else {
                size = try streamCopy(snapshot, options: options, plan: plan, to: output, mode: mode)
                bar?.finish()
            }
        } catch let error as ShellError {
            throw error
        } catch {
            throw WriteSupport.failure(error, path: path)      // "cannot write" (an old format) is 69
        }
        let saved = before > 0 ? Int((Double(before - size) / Double(before) * 100).rounded()) : 0
        io.printError("\(output.path): \(before) → \(size) bytes (\(saved)% smaller)")
        return .success
    }
}

extension CompactCommand {
    /// Streams the copy into the output's temporary file while it is copied
    /// (Compactor+File.swift), checks it there, then commits it (fsync, rename); returns its size.
    private func streamCopy(_ snapshot: Snapshot, options: Compactor.Options, plan: StringEnumerationPlan?,
                            to output: OutputTarget, mode: UInt32) throws -> Int {
        let file = try output.create(mode: mode)
        defer { file.discard() }
        let size: Int
        do {
            size = try Compactor.compact(snapshot, into: file.sink.descriptor, options: options, enumeration: plan)
        } catch {
            // A failed write to the copy (disk full) is the output's error, not the input's.
            if case let .io(written, code, _) = error, written == file.temporaryPath {
                throw ShellError("cannot write \(output.path): \(Platform.describe(errno: code))", code: .ioError)
            }
            throw error
        }
        try checkCopy(try Snapshot(path: file.temporaryPath), of: snapshot)
        try file.commit()
        return size
    }

    /// The copy must open and hold the same tables before it replaces anything.
    private func checkCopy(_ copy: Snapshot, of snapshot: Snapshot) throws(ShellError) {
        guard copy.tables.map(\.name) == snapshot.tables.map(\.name) else {
            throw ShellError("\(path): the compacted copy does not hold the same tables; nothing written", code: .dataError)
        }
    }

    /// The string properties to enumerate while compacting (`EnumeratedCopy`); prints what
    /// is done to each.
    private func enumerationPlan(_ snapshot: Snapshot, percent: Double, _ io: ShellIO) throws -> StringEnumerationPlan {
        let (plan, report) = try EnumeratedCopy.plan(for: snapshot, maxDistinctPercent: percent)
        for p in report {
            let name = "\(p.className).\(p.property)"
            if p.alreadyEnumerated {
                io.printError("\(name): already enumerated (\(p.distinctValues) values listed)")
            } else if p.enumerated {
                let share = Double(p.distinctValues) / Double(max(p.objects, 1)) * 100
                io.printError("\(name): \(p.distinctValues) distinct values in \(p.objects) objects (\(Self.percentText(share)) %): enumerated")
            } else {
                io.printError("\(name): more than \(p.distinctValues - 1) distinct values in \(p.objects) objects (over \(Self.percentText(percent)) %): left as it is")
            }
        }
        return plan
    }

    /// A percentage with at most one decimal.
    static func percentText(_ p: Double) -> String {
        let tenths = Int((p * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }
}
