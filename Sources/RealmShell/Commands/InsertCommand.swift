import RealmFormat
import RealmObjects

/// `realmsh insert` / `upsert` / `import`: objects from JSON, in one transaction.
struct InsertCommand: Command {
    static let classArgument = Positional("CLASS", help: "The class of the objects.")
    static let objects = Positional("JSON", help: "Objects (or arrays of objects).", variadic: true)
    static let file = Repeated("file", value: "path", help: "Read the objects from this JSON file (- for standard input).")
    static let spec = makeSpec(name: "insert", abstract: "Insert objects given as JSON; an existing primary key is an error.")

    static func makeSpec(name: String, abstract: String) -> CommandSpec {
        CommandSpec(
            name: name,
            abstract: abstract,
            discussion: """
                Each JSON argument is an object or an array of objects; --file reads them from a file \
                (- for standard input). Values are Extended JSON as 'realmsh export' writes them, or plain \
                JSON where the property type makes the meaning clear (an ISO 8601 string for a date, 24 hex \
                digits for an objectId). A link is the target's primary key, {"$key": N}, or a nested \
                object, which is created (upserted with upsert); embedded objects are nested objects. \
                Types are strict: a wrong type, a missing required property, an unknown property or a \
                duplicate primary key stops the command and nothing is written.
                """,
            arguments: [.realmFile, classArgument, objects], file: .realmFile, effect: .changesFile,
            options: [file],
            examples: ["realmsh \(name) app.realm Dog '{\"name\": \"Rex\", \"age\": 3}'",
                       "realmsh \(name) app.realm Person --file people.json"])
    }

    let path: String, className: String, sources: [String], inline: [String]

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        className = arguments[Self.classArgument]
        inline = arguments.arguments(Self.objects)
        sources = arguments[Self.file]
        if inline.isEmpty && sources.isEmpty {
            throw ShellError("give the objects as JSON arguments or with --file", code: .usage, usageOf: Self.spec.name)
        }
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        try Self.write(path: path, className: className, inline: inline, sources: sources, policy: .insert, io: context.io)
    }

    static func write(path: String, className: String, inline: [String], sources: [String], policy: RealmWriter.Policy, io: ShellIO) throws(ShellError) -> ExitCode {
        var objects = [JSONValue]()
        for (i, text) in inline.enumerated() { objects += flatten(try WriteSupport.parseJSON(text, what: "argument \(i + 1)")) }
        // Files are read whole but parsed object by object, straight into the transaction.
        var inputs: [(name: String, bytes: [UInt8])] = []
        for s in sources { inputs.append((s, try WriteSupport.readBytes(s))) }
        do {
            let writer = try RealmWriter(path: path)
            try writer.write(className: className, objects: objects, policy: policy)
            var index = objects.count
            for input in inputs {
                do {
                    try JSONParser.forEachElement(input.bytes) { object in
                        try writer.write(className: className, object: object, policy: policy, index: index)
                        index += 1
                    }
                } catch let error as JSONError {
                    throw ShellError("\(input.name): invalid JSON at byte \(error.offset): \(error.message)", code: .dataError)
                }
            }
            try writer.commit()
            io.printError(writer.summary.description)
        } catch let error as ShellError {
            throw error
        } catch {
            throw WriteSupport.failure(error, path: path)
        }
        return .success
    }

    static func flatten(_ json: JSONValue) -> [JSONValue] {
        if case let .array(elements) = json { return elements }
        return [json]
    }
}

struct UpsertCommand: Command {
    static let spec = InsertCommand.makeSpec(name: "upsert", abstract: "Insert objects, or update the ones whose primary key exists (Realm's add(_:update:)).")
    let insert: InsertCommand
    init(_ arguments: ParsedArguments) throws(ShellError) { insert = try InsertCommand(arguments) }
    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        try InsertCommand.write(path: insert.path, className: insert.className, inline: insert.inline, sources: insert.sources, policy: .upsert, io: context.io)
    }
}
