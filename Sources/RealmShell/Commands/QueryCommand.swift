import RealmFormat
import RealmObjects
import RealmQuery

/// `realmsh query FILE CLASS PREDICATE`: the objects matching a predicate of Realm's query
/// language, evaluated as Realm Core 14 evaluates it.
struct QueryCommand: Command {
    static let classArgument = Positional("CLASS", help: "The class to query.")
    static let predicateArgument = Positional("PREDICATE", help: "The query, e.g. \"age > 30 SORT(name ASC)\".")
    static let arg = Repeated("arg", value: "value", help: "A value for $0, $1, … (or %@) in order: a query literal (42, 'Fido', 2020-01-01@00:00:00, oid(…), null), else a string.")
    static let argsJSON = Option<String>("args-json", value: "json", help: "All arguments as a JSON array in the dump's Extended JSON, e.g. '[42, \"F\", {\"$date\": \"2020-01-01T00:00:00Z\"}]'; a nested array is a list argument.")
    static let format = ResultFormats.option(for: .query, help: "Output format (default: table on a terminal, else json; in the shell, its .mode).")
    static let limit = Option<Int>.integer("limit", value: "n", help: "Output at most N objects.", range: 0...Int.max,
                                           what: "a number of objects (0 or more)")

    static let spec = CommandSpec(
        name: "query",
        abstract: "Find objects with Realm's query language, as Realm Core evaluates it.",
        discussion: """
            PREDICATE is a filter as an app passes it to Realm (Realm Query Language, or an \
            NSPredicate-style string): comparisons, BEGINSWITH/ENDSWITH/CONTAINS/LIKE with [c], IN, \
            BETWEEN, ANY/ALL/NONE, @count/@sum/@avg/@min/@max, SUBQUERY, @links, dictionaries, @type, \
            and SORT(…) DISTINCT(…) LIMIT(n) at the end. Arguments fill $0, $1, … (or %@, %K) in order. \
            json writes the objects as the canonical dump encodes them; jsonl one per line; csv like \
            export; count only the number; table, box, markdown and line the first 40 rows (or \
            --limit) as the shell shows them. An invalid query exits 65 with realm-core's message and \
            a caret under the offending part.
            """,
        arguments: [.realmFile, classArgument, predicateArgument], file: .realmFile, effect: .reads,
        options: [arg, argsJSON, format, limit] + KeyOptions.all,
        examples: ["realmsh query default.realm Person \"age > 30 SORT(name ASC)\"",
                   "realmsh query default.realm Dog \"owner.name BEGINSWITH[c] \\$0\" --arg a --format count",
                   "realmsh query default.realm Person \"birthday < \\$0\" --args-json '[{\"$date\": \"1990-01-01T00:00:00Z\"}]'",
                   "realmsh query --format csv default.realm Person \"ANY dogs.age > 5\" > people.csv"])

    let path: String
    let key: KeyOptions
    let className: String
    let predicate: String
    let arguments: [String]
    let argumentsJSON: String?
    /// nil: the presenter's default (`table` or `json`; the shell's mode).
    let format: (any ResultFormat)?
    let limit: Int?

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
        className = arguments[Self.classArgument]
        predicate = arguments[Self.predicateArgument]
        self.arguments = arguments[Self.arg]
        argumentsJSON = arguments[Self.argsJSON]
        format = try arguments.value(Self.format)
        if argumentsJSON != nil && !self.arguments.isEmpty {
            throw ShellError("give the arguments either with --arg or with --args-json, not both", code: .usage, usageOf: "query")
        }
        limit = try arguments.value(Self.limit)
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let open = try OpenRealm(path: path, key: key.resolve(io))
        context.leaveOpenUntilExit(open.file)
        var query = ShortQuery(className: className, predicate: predicate, path: [], predicateOffset: nil)
        query.arguments = arguments
        query.argumentsJSON = argumentsJSON
        query.limit = limit
        if format is CountFormat {
            // The number alone: counted without a row list (an index's entries, bits, leaves).
            io.stdout.write(CountFormat.line(try query.count(in: open.file)))
        } else {
            let results = try query.results(in: open.file)
            do {
                try context.results.present(results, format: format, limit: limit, io: io)
            } catch {
                throw ShellError.from(error, path: path)
            }
        }
        if let s = io.stdout as? FileSink, s.failed { return .ioError }
        open.writerWarning(io)
        return .success
    }
}
