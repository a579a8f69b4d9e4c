import RealmFormat
import RealmObjects

/// `realmsh export FILE`: every object, in the canonical JSON dump, JSON Lines, CSV or an
/// SQLite database (any result format offered to export, `ResultFormats`).
struct ExportCommand: Command {
    static let classes = Repeated("class", value: "class", help: "Export only this class (repeatable).")
    static let format = ResultFormats.option(for: .export, help: "Output format (default json).")
    static let output = Option<String>("output", short: "o", value: "out", help: "Write to this file instead of stdout (it appears only when complete).")
    static let force = Flag("force", help: "Replace OUT if it exists.")

    static let spec = CommandSpec(
        name: "export",
        abstract: "Export objects as the canonical JSON dump, JSON Lines, CSV or an SQLite database.",
        discussion: """
            json is the canonical dump (format version, schema version, classes, objects), the same \
            bytes realm-core's own dumps have; with --class only those classes are listed. jsonl writes \
            one object per line, compact, with its class in "_class". csv writes one class (--class is \
            required): a header row, then one row per object. sqlite (-o is required) writes a relational \
            database: a table per class, links as foreign keys, collections and embedded objects as child \
            tables, the schema in _realm_schema (Docs/commands.md has the mapping). Output streams: memory \
            stays flat as the file grows. With -o the file appears only when the export is complete; an existing OUT is \
            replaced only with --force, and never when it is FILE itself.
            """,
        arguments: [.realmFile], file: .realmFile,
        effect: .writes(.option(output, whenAbsent: .standardOutput, force: force, canReplaceFile: false)),
        options: [classes, format, output, force] + KeyOptions.all,
        examples: ["realmsh export default.realm > dump.json",
                   "realmsh export --format jsonl --class Person default.realm | head",
                   "realmsh export --format csv --class Person -o people.csv default.realm",
                   "realmsh export --format sqlite -o default.db default.realm"])

    let path: String
    let key: KeyOptions
    let format: any ResultFormat
    let classNames: [String]

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
        format = try arguments.value(Self.format) ?? JSONFormat()
        classNames = arguments[Self.classes]
        if format.exportsOneClass && classNames.count != 1 {
            throw ShellError("--format \(format.name) exports exactly one class: add --class NAME", code: .usage, usageOf: "export")
        }
        if format.exportsToFileOnly && arguments[Self.output] == nil {
            throw ShellError("--format \(format.name) writes a file: add -o OUT", code: .usage, usageOf: "export")
        }
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let inputKey = try key.resolve(io)
        // The canonical dump reads an old file's classes from the conversion's cells.
        let open = try OpenRealm(path: path, key: inputKey, forCanonicalDump: format is JSONFormat)
        let file = open.file
        context.leaveOpenUntilExit(file)
        let classes = try selectClasses(file, classNames)
        // A decrypted copy of an encrypted realm is for its owner's eyes only.
        let mode: UInt32 = inputKey != nil ? 0o600 : 0o644
        let outputFile = try context.output.map { o throws(ShellError) in try o.create(mode: mode) }
        let sink: ByteSink = outputFile?.sink ?? io.stdout
        var output = ExportOutput(sink: sink, file: outputFile, io: io)
        // Progress on a terminal, by objects (embedded ones are written inside their parents),
        // unless the data itself goes to that terminal.
        let bar = outputFile != nil || !io.stdoutIsTerminal ? ProgressBar(io: io, label: "exporting") : nil
        if let bar {
            var total = 0
            for c in classes where !c.isEmbedded { total += (try? file.objectCount(of: c)) ?? 0 }
            var done = 0
            output.objectWritten = {
                try Platform.checkCancellation()
                done += 1
                bar.update(Double(done) / Double(max(1, total)))
            }
        }
        do {
            try format.export(file, classes: classes, selected: !classNames.isEmpty, to: output)
        } catch {
            bar?.finish()
            outputFile?.discard()
            throw ShellError.from(error, path: path)
        }
        bar?.finish()
        try outputFile?.commit()
        if let s = sink as? FileSink, s.failed, outputFile == nil {
            return .ioError
        }
        open.writerWarning(io)
        return .success
    }
}
