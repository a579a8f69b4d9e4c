import RealmFormat
import RealmObjects

/// `realmsh export FILE`: every object, in the canonical JSON dump, JSON Lines, CSV or an
/// SQLite database (`RealmSQLite`, through `SQLiteOutput`).
struct ExportCommand: Command {
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
            stays flat as the file grows. With -o the file appears only when the export is complete.
            """,
        arguments: [.init("FILE", help: "The .realm file.")],
        options: [
            .value("class", name: "class", help: "Export only this class (repeatable).", repeatable: true),
            .value("format", name: "format", help: "Output format.", choices: ["json", "jsonl", "csv", "sqlite"]),
            .value("output", short: "o", name: "out", help: "Write to this file instead of stdout (replaced atomically)."),
        ] + KeyOptions.options,
        examples: ["realmsh export default.realm > dump.json",
                   "realmsh export --format jsonl --class Person default.realm | head",
                   "realmsh export --format csv --class Person -o people.csv default.realm",
                   "realmsh export --format sqlite -o default.db default.realm"])

    let path: String
    let key: KeyOptions
    let format: String
    let classNames: [String]
    let output: String?

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.positionals[0]
        key = KeyOptions(arguments)
        format = arguments.value("format") ?? "json"
        classNames = arguments.values("class")
        output = arguments.value("output")
        if format == "csv" && classNames.count != 1 {
            throw ShellError("--format csv exports exactly one class: add --class NAME", code: .usage, usageOf: "export")
        }
        if format == "sqlite" && output == nil {
            throw ShellError("--format sqlite writes a database file: add -o OUT.db", code: .usage, usageOf: "export")
        }
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let inputKey = try key.resolve(io)
        let open = try OpenRealm(path: path, key: inputKey)
        let file = open.file
        let classes = try selectClasses(file, classNames)
        if format == "sqlite", let output {
            try SQLiteOutput.write(open, classNames: classNames, to: output, encrypted: inputKey != nil, io: io)
            open.writerWarning(io)
            return .success
        }
        let outputFile = try output.map { o throws(ShellError) in try OutputFile(path: o) }
        let sink: ByteSink = outputFile?.sink ?? io.stdout
        do {
            switch format {
            case "csv":
                try CSVWriter(file: file, objectClass: classes[0]).write(to: sink)
            case "jsonl":
                try writeLines(file, classes, to: sink)
            default:
                try CanonicalDump.write(file, to: sink, classNames: classNames.isEmpty ? nil : Set(classNames))
            }
        } catch {
            outputFile?.discard()
            throw ShellError.from(error, path: path)
        }
        try outputFile?.commit()
        if let s = sink as? FileSink, s.failed, outputFile == nil {
            return .ioError
        }
        open.writerWarning(io)
        return .success
    }

    private func writeLines(_ file: RealmFile, _ classes: [ObjectClass], to sink: ByteSink) throws {
        let writer = ObjectJSON(file: file)
        var out = JSONEmitter(sink: sink, pretty: false)
        for c in classes where !c.isEmbedded {
            try file.forEachObject(of: c) { key, values in
                try writer.writeObject(c, key: key, values: values, to: &out, classMember: true)
                out.raw("\n")
            }
        }
        out.flush()
    }
}
