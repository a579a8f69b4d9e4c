import RealmFormat
import RealmObjects
import RealmQuery

/// `realmsh query FILE CLASS PREDICATE`: the objects matching a predicate of Realm's query
/// language, evaluated as Realm Core 14 evaluates it.
struct QueryCommand: Command {
    static let spec = CommandSpec(
        name: "query",
        abstract: "Find objects with Realm's query language, as Realm Core evaluates it.",
        discussion: """
            PREDICATE is a filter as an app passes it to Realm (Realm Query Language, or an \
            NSPredicate-style string): comparisons, BEGINSWITH/ENDSWITH/CONTAINS/LIKE with [c], IN, \
            BETWEEN, ANY/ALL/NONE, @count/@sum/@avg/@min/@max, SUBQUERY, @links, dictionaries, @type, \
            and SORT(…) DISTINCT(…) LIMIT(n) at the end. Arguments fill $0, $1, … (or %@, %K) in order. \
            json writes the objects as the canonical dump encodes them; jsonl one per line; csv like \
            export; count only the number; table (the default on a terminal) the first rows. An invalid \
            query exits 65 with realm-core's message and a caret under the offending part.
            """,
        arguments: [.init("FILE", help: "The .realm file."),
                    .init("CLASS", help: "The class to query."),
                    .init("PREDICATE", help: "The query, e.g. \"age > 30 SORT(name ASC)\".")],
        options: [
            .value("arg", name: "value", help: "A value for $0, $1, … (or %@) in order: a query literal (42, 'Fido', 2020-01-01@00:00:00, oid(…), null), else a string.", repeatable: true),
            .value("args-json", name: "json", help: "All arguments as a JSON array in the dump's Extended JSON, e.g. '[42, \"F\", {\"$date\": \"2020-01-01T00:00:00Z\"}]'; a nested array is a list argument."),
            .value("format", name: "format", help: "Output format (default: table on a terminal, else json).", choices: ["table", "json", "jsonl", "csv", "count"]),
            .value("limit", name: "n", help: "Output at most N objects."),
        ] + KeyOptions.options,
        examples: ["realmsh query default.realm Person \"age > 30 SORT(name ASC)\"",
                   "realmsh query default.realm Dog \"owner.name BEGINSWITH[c] \\$0\" --arg a --format count",
                   "realmsh query default.realm Person \"birthday < \\$0\" --args-json '[{\"$date\": \"1990-01-01T00:00:00Z\"}]'",
                   "realmsh query --format csv default.realm Person \"ANY dogs.age > 5\" > people.csv"])

    static let defaultTableRows = 50

    let path: String
    let key: KeyOptions
    let className: String
    let predicate: String
    let arguments: [String]
    let argumentsJSON: String?
    let format: String?
    let limit: Int?

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.positionals[0]
        key = KeyOptions(arguments)
        className = arguments.positionals[1]
        predicate = arguments.positionals[2]
        self.arguments = arguments.values("arg")
        argumentsJSON = arguments.value("args-json")
        format = arguments.value("format")
        if argumentsJSON != nil && !self.arguments.isEmpty {
            throw ShellError("give the arguments either with --arg or with --args-json, not both", code: .usage, usageOf: "query")
        }
        if let text = arguments.value("limit") {
            guard let n = Int(text), n >= 0 else {
                throw ShellError("--limit needs a number of objects (0 or more), not '\(text)'", code: .usage, usageOf: "query")
            }
            limit = n
        } else {
            limit = nil
        }
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        let open = try OpenRealm(path: path, key: key.resolve(io))
        let file = open.file
        guard let objectClass = file.objectClass(named: className) else { throw unknownClass(className, in: file) }
        let store = ObjectStore(snapshot: file.snapshot)
        guard let table = store.table(className: className) else { throw unknownClass(className, in: file) }

        let values: [QueryArgument]
        if let argumentsJSON {
            do throws(QueryArguments.Failure) { values = try QueryArguments.parseJSON(argumentsJSON, store: store) } catch {
                throw ShellError(error.message, code: .usage, usageOf: "query")
            }
        } else {
            values = arguments.map(QueryArgument.literal)
        }

        var rows: [Int]
        do {
            rows = try Query(store: store, table: table, predicate, arguments: values).rows()
        } catch let e as QueryError {
            throw ShellError(e.rendered(query: predicate), code: .dataError)
        } catch {
            throw ShellError.from(error, path: path)
        }
        if let limit, rows.count > limit { rows.removeLast(rows.count - limit) }

        let chosen = format ?? (io.stdoutIsTerminal ? "table" : "json")
        do {
            switch chosen {
            case "count":
                io.print(String(rows.count))
            case "table":
                let shown = Array(rows.prefix(limit ?? QueryCommand.defaultTableRows))
                let objects = try fetch(file, objectClass, shown)
                let renderer = ResultTable(objectClass: objectClass, csv: CSVWriter(file: file, objectClass: objectClass), width: io.terminalWidth)
                io.print(try renderer.render(objects, total: rows.count, io: io))
            case "csv":
                try CSVWriter(file: file, objectClass: objectClass).write(objects: try fetch(file, objectClass, rows), to: io.stdout)
            case "jsonl":
                let writer = ObjectJSON(file: file)
                var out = JSONEmitter(sink: io.stdout, pretty: false)
                for (key, values) in try fetch(file, objectClass, rows) {
                    try writer.writeObject(objectClass, key: key, values: values, to: &out)
                    out.raw("\n")
                }
                out.flush()
            default:
                let writer = ObjectJSON(file: file)
                var out = JSONEmitter(sink: io.stdout)
                out.beginArray()
                for (key, values) in try fetch(file, objectClass, rows) {
                    try writer.writeObject(objectClass, key: key, values: values, to: &out)
                }
                out.end()
                out.raw("\n")
                out.flush()
            }
        } catch {
            throw ShellError.from(error, path: path)
        }
        if let s = io.stdout as? FileSink, s.failed { return .ioError }
        open.writerWarning(io)
        return .success
    }

    /// The values of the objects at `rows` (positions in table order), in the order given.
    func fetch(_ file: RealmFile, _ objectClass: ObjectClass, _ rows: [Int]) throws -> [(key: Int64, values: [Value])] {
        guard !rows.isEmpty else { return [] }
        var found = [Int: (key: Int64, values: [Value])]()
        try file.forEachObject(of: objectClass, atPositions: Array(Set(rows)).sorted()) { position, key, values in
            found[position] = (key, Array(values))
        }
        return rows.compactMap { found[$0] }
    }
}
