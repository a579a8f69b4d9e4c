import RealmFormat
import RealmMigration
import RealmObjects

/// `realmsh migrate FILE SCRIPT`: a scripted schema migration (Docs/migrations.md), written as
/// a fresh file that replaces FILE atomically; `--generate FILE TARGET` writes a starting script.
struct MigrateCommand: Command {
    static let script = Positional("SCRIPT", help: "The migration script (- for standard input); with --generate, the target schema.")
    static let output = Option<String>("output", short: "o", value: "out", help: "Write the migrated file (or the generated script) here instead.")
    static let dryRun = Flag("dry-run", help: "Print the plan and the problems; change nothing.")
    static let generate = Flag("generate", help: "Print a script that migrates FILE to the schema in SCRIPT (.json or .realm).")
    static let force = Flag("force", help: "Replace OUT if it exists.")

    static let spec = CommandSpec(
        name: "migrate",
        abstract: "Migrate a file's schema with a script of 'version N { … }' blocks, as an app's migration block would.",
        discussion: """
            Every version block above the file's schema version runs, in order, as one SDK \
            migration each: new and changed properties get their values from expressions over \
            the old object, and the file ends at the highest version. All or nothing: the result \
            is checked, then written as a fresh file that replaces FILE atomically (temporary \
            file, fsync, rename) while realmsh holds the file's lock, or goes to OUT. --dry-run \
            prints the plan and every problem found (a conversion failing for an object, a \
            duplicate primary key, a required property without a value) and writes nothing. \
            With --generate, SCRIPT is a target schema (JSON as 'realmsh schema --format json' \
            prints it, or a .realm file) and a starting script is printed. The language is \
            described in Docs/migrations.md.
            """,
        arguments: [.realmFile, script], file: .realmFile,
        effect: .when(dryRun, .reads, otherwise: .when(
            generate,
            .writes(.option(output, whenAbsent: .standardOutput, force: force, canReplaceFile: false)),
            otherwise: .writes(.option(output, whenAbsent: .replacesFile, force: force, canReplaceFile: true)))),
        options: [output, dryRun, generate, force] + KeyOptions.all,
        examples: ["realmsh migrate --dry-run app.realm v4.migration", "realmsh migrate app.realm v4.migration",
                   "realmsh migrate -o migrated.realm app.realm v4.migration",
                   "realmsh migrate --generate app.realm target-schema.json > v4.migration"])

    let path: String, scriptPath: String, dryRun: Bool, generate: Bool, key: KeyOptions

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        scriptPath = arguments[Self.script]
        dryRun = arguments[Self.dryRun]
        generate = arguments[Self.generate]
        key = KeyOptions(arguments)
        if generate && dryRun { throw ShellError("--generate and --dry-run exclude each other", code: .usage, usageOf: "migrate") }
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        if generate { return try generateScript(io, output: context.output) }
        let text = try Self.readText(scriptPath)
        let script: Script
        do { script = try ScriptParser.parse(text) } catch { throw ShellError("\(scriptPath):\(error)", code: .dataError) }
        let encryptionKey = try key.resolve(io)
        // In place (also `-o` naming FILE by any path), the pipeline holds the session lock
        // from here until the rename (§15.3).
        let snapshot: Snapshot
        do { snapshot = try Snapshot(path: path, key: encryptionKey) } catch { throw ShellError.reading(path, error) }
        let result: MigrationResult
        do {
            result = try Migrator.run(script, on: snapshot)
        } catch let error as ScriptError {
            throw ShellError("\(scriptPath):\(error)", code: .dataError)
        } catch let error as MigrationFailure {
            throw ShellError("\(path): cannot migrate: \(error.message); nothing was written", code: .unavailable)
        } catch {
            throw WriteSupport.failure(error, path: path)
        }
        if dryRun {
            io.stdout.write(Array(result.planText(file: path).utf8))
            return result.problemCount == 0 ? .success : .dataError
        }
        if result.problemCount > 0 {
            for p in result.problems { io.printError("\(path): \(p)") }
            if result.problemCount > result.problems.count { io.printError("… and \(result.problemCount - result.problems.count) more problems") }
            throw ShellError("\(path): \(result.problemCount) problem\(result.problemCount == 1 ? "" : "s"); nothing was written (see --dry-run)", code: .dataError)
        }
        guard var bytes = result.bytes else {
            io.printError("\(path): schema version \(result.fromVersion.map(String.init) ?? "none"); no version block above it, nothing to do")
            return .success
        }
        // The new file must open and verify before it replaces anything.
        do {
            let report = Verifier.verify(try Snapshot(image: ByteImage(bytes: bytes)))
            guard report.isOK else {
                let first = report.problems.first.map { "\(hex($0.offset)): \($0.message)" } ?? "?"
                throw ShellError("\(path): the migrated file does not verify (\(first)); nothing was written", code: .software)
            }
            if let encryptionKey { bytes = try EncryptedFile.encrypt(EncryptedFile.layoutForEncryption(bytes), key: encryptionKey) }
        } catch let error as ShellError {
            throw error
        } catch {
            throw ShellError.from(error, path: path)
        }
        let output = try context.requiredOutput()
        try output.write(bytes)
        let from = result.fromVersion.map(String.init) ?? "none"
        io.printError("\(output.path): schema version \(from) → \(result.toVersion.map(String.init) ?? from), \(bytes.count) bytes")
        return .success
    }

    /// A script or schema file as text (`-`: standard input).
    static func readText(_ source: String) throws(ShellError) -> String {
        if source == "-" {
            do { return String(decoding: try Platform.readStandardInput(), as: UTF8.self) } catch {
                throw ShellError.reading("standard input", error)
            }
        }
        do {
            let image = try ByteImage.mapping(path: source)
            return String(decoding: try image.copy(0, image.count), as: UTF8.self)
        } catch {
            throw ShellError.reading(source, error)
        }
    }

    private func generateScript(_ io: ShellIO, output: OutputTarget?) throws(ShellError) -> ExitCode {
        let open = try OpenRealm(path: path, key: key.resolve(io))
        let target = try SchemaSource.classes(scriptPath, io: io)
        let version: Int64
        do { version = max(0, (try open.file.schemaVersion() ?? -1) + 1) } catch { throw ShellError.reading(path, error) }
        let text = SchemaDiff.script(from: ClassSpec.classes(of: open.file), to: target, version: version, header: [
            "realmsh migrate --generate: from \(path) to \(scriptPath).",
            "A starting point: check every line (TODO marks values to write) before running it.",
        ])
        if let output {
            try output.write(Array(text.utf8))
        } else {
            io.stdout.write(Array(text.utf8))
        }
        return .success
    }
}

/// A schema to compare with or migrate to: a .realm file, or JSON as `schema --format json`
/// prints it (a whole canonical dump works too).
enum SchemaSource {
    static func classes(_ path: String, io: ShellIO) throws(ShellError) -> [ClassSpec] {
        if path.hasSuffix(".realm") {
            do { return ClassSpec.classes(of: try RealmFile(path: path)) } catch { throw ShellError.reading(path, error) }
        }
        let json = try WriteSupport.readJSON(path)
        do { return try ClassSpec.classes(fromJSON: json) } catch { throw ShellError("\(path): \(error.message)", code: .dataError) }
    }
}
