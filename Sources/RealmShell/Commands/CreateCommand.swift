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
        arguments: [.init("FILE", help: "The file to create.")],
        options: [
            .value("schema", name: "path", help: "The classes JSON (required; - for standard input)."),
            .value("schema-version", name: "n", help: "The schema version to record (default 0)."),
            .flag("force", help: "Replace FILE if it exists."),
        ],
        examples: ["realmsh schema --format json app.realm > schema.json && realmsh create --schema schema.json bundle.realm"])

    let path: String, schema: String, schemaVersion: Int64, force: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.positionals[0]
        force = arguments.flag("force")
        guard let s = arguments.value("schema") else { throw ShellError("missing --schema SCHEMA.json", code: .usage, usageOf: "create") }
        schema = s
        let v = arguments.value("schema-version") ?? "0"
        guard let n = Int64(v) else { throw ShellError("--schema-version expects an integer, got '\(v)'", code: .usage, usageOf: "create") }
        schemaVersion = n
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let json = try WriteSupport.readJSON(schema)
        let bytes: [UInt8]
        do {
            let (names, models) = try SchemaBuilder.tables(fromClassesJSON: json, schemaVersion: schemaVersion)
            var tables = [MutableNode]()
            for m in models { tables.append(try TableEncoder.encode(m)) }
            bytes = NewFile.bytes(tableNames: names, tables: tables)
        } catch {
            throw WriteSupport.failure(error, path: schema)
        }
        try OutputFile.write(bytes, to: path, force: force)
        io.printError("\(path): created, \(bytes.count) bytes")
        return .success
    }
}
