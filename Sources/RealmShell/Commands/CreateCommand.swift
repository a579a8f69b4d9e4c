import RealmFormat
import RealmObjects

/// `realmsh create FILE --schema SCHEMA.json`: a new, empty format-24 file laid out as an SDK
/// creates one.
struct CreateCommand: Command {
    static let spec = CommandSpec(
        name: "create",
        abstract: "Create a new, empty Realm file with the given classes.",
        discussion: """
            SCHEMA.json is the "classes" JSON that 'realmsh schema --format json' prints, so a schema \
            can be copied from an app's file. The file is laid out as an SDK creates it: the metadata \
            table with the schema version, the class tables in name order, primary keys first and \
            indexed, backlink columns for every link, in-realm history, so a Realm SDK opens it without \
            an upgrade. Fill it with 'realmsh import'.
            """,
        arguments: [newFile],
        effect: .writes(Effect.Output(.argument(newFile), whenAbsent: .required, force: force, canReplaceFile: false)),
        options: [schema, schemaVersion, force],
        examples: ["realmsh schema --format json app.realm > schema.json && realmsh create --schema schema.json bundle.realm"])

    static let newFile = Positional("FILE", help: "The file to create.")
    static let schema = Option<String>("schema", value: "path", help: "The classes JSON (required; - for standard input).")
    static let schemaVersion = Option<Int64>("schema-version", value: "n", help: "The schema version to record (default 0).") { (v: String) throws(ShellError) -> Int64 in
        guard let n = Int64(v) else { throw ShellError("--schema-version expects an integer, got '\(v)'", code: .usage, usageOf: "create") }
        return n
    }
    static let force = Flag("force", help: "Replace FILE if it exists.")

    let schemaPath: String, schemaVersion: Int64

    init(_ arguments: ParsedArguments) throws(ShellError) {
        guard let s = arguments[Self.schema] else { throw ShellError("missing --schema SCHEMA.json", code: .usage, usageOf: "create") }
        schemaPath = s
        schemaVersion = try arguments.value(Self.schemaVersion) ?? 0
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let json = try WriteSupport.readJSON(schemaPath)
        let bytes: [UInt8]
        do {
            let (names, models) = try SchemaBuilder.tables(fromClassesJSON: json, schemaVersion: schemaVersion)
            var tables = [MutableNode]()
            for m in models { tables.append(try TableEncoder.encode(m)) }
            bytes = NewFile.bytes(tableNames: names, tables: tables)
        } catch {
            throw WriteSupport.failure(error, path: schemaPath)
        }
        let output = try context.requiredOutput()
        try output.write(bytes)
        context.io.printError("\(output.path): created, \(bytes.count) bytes")
        return .success
    }
}
