import RealmFormat
import RealmObjects
import RealmQuery

/// Which objects `update` and `delete` touch: `--where PRED` (Realm's query language) or `--all`.
struct Selection {
    static let options: [CommandSpec.Option] = [
        .value("where", name: "predicate", help: "The objects to change: a query as for 'realmsh query' (SORT/LIMIT apply)."),
        .flag("all", help: "Every object of the class."),
        .value("arg", name: "value", help: "Fills $0, $1, … in the predicate (a query-language literal).", repeatable: true),
    ]

    let predicate: String?
    let arguments: [String]

    init(_ parsed: ParsedArguments, command: String) throws(ShellError) {
        predicate = parsed.value("where")
        arguments = parsed.values("arg")
        if (predicate == nil) == !parsed.flag("all") {
            throw ShellError("say which objects: --where PREDICATE or --all", code: .usage, usageOf: command)
        }
    }

    /// The ObjKeys selected in the committed version the writer starts from.
    func keys(in writer: RealmWriter, className: String) throws(ShellError) -> [Int64] {
        guard writer.file.objectClass(named: className) != nil else { throw unknownClass(className, in: writer.file) }
        let store = ObjectStore(snapshot: writer.file.snapshot)
        do {
            let query = try Query(store: store, className: className, predicate ?? "TRUEPREDICATE",
                                  arguments: arguments.map(QueryArgument.literal))
            return try query.objectKeys()
        } catch let error as QueryError {
            throw ShellError("\(writer.path): \(error.rendered(query: predicate ?? ""))", code: .dataError)
        } catch {
            throw WriteSupport.failure(error, path: writer.path)
        }
    }
}

/// `realmsh update FILE CLASS --where PRED --set prop=VALUE… | --json PATCH`.
struct UpdateCommand: Command {
    static let spec = CommandSpec(
        name: "update",
        abstract: "Set properties of the objects a query selects, in one transaction.",
        discussion: """
            --set prop=VALUE takes a literal of the query language ('Lovelace', 3, true, null, \
            2020-01-01@00:00:00, oid(…), uuid(…)); --json takes the new values as one JSON object, as \
            for insert (links and nested objects included). Types are strict; primary keys do not \
            change. Nothing is written unless every object could be updated.
            """,
        arguments: [.init("FILE", help: "The .realm file."), .init("CLASS", help: "The class.")],
        options: Selection.options + [
            .value("set", name: "prop=value", help: "A property and its new value (repeatable).", repeatable: true),
            .value("json", name: "object", help: "The new values as a JSON object."),
        ],
        examples: ["realmsh update app.realm Person --where \"name == 'Ada'\" --set lastname='Lovelace' --set numOfLikes=3",
                   "realmsh update app.realm Person --all --json '{\"active\": false}'"])

    let path: String, className: String, selection: Selection, assignments: [String], patch: String?

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.positionals[0]
        className = arguments.positionals[1]
        selection = try Selection(arguments, command: "update")
        assignments = arguments.values("set")
        patch = arguments.value("json")
        if assignments.isEmpty == (patch == nil) {
            throw ShellError("give the new values with --set prop=VALUE or with --json, not both", code: .usage, usageOf: "update")
        }
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        var values: JSONValue
        if let patch {
            values = try WriteSupport.parseJSON(patch, what: "--json")
        } else {
            var members = [(key: String, value: JSONValue)]()
            for a in assignments { members.append(try WriteSupport.assignment(a)) }
            values = .object(members)
        }
        do {
            let writer = try RealmWriter(path: path)
            let keys = try selection.keys(in: writer, className: className)
            try writer.update(className: className, keys: keys, values: values)
            try writer.commit()
            io.printError(writer.summary.description)
        } catch let error as ShellError {
            throw error
        } catch {
            throw WriteSupport.failure(error, path: path)
        }
        return .success
    }
}

/// `realmsh delete FILE CLASS --where PRED | --all [--dry-run]`.
struct DeleteCommand: Command {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete the objects a query selects (links to them are nulled or removed).",
        discussion: "As Realm deletes: to-one links and dictionary values pointing at a deleted object become null, list and set entries are removed, embedded objects it owns are deleted too. --dry-run prints how many objects would go and writes nothing.",
        arguments: [.init("FILE", help: "The .realm file."), .init("CLASS", help: "The class.")],
        options: Selection.options + [.flag("dry-run", help: "Print the number of objects that would be deleted; change nothing.")],
        examples: ["realmsh delete app.realm Dog --where 'age > 10'", "realmsh delete --dry-run app.realm Log --all"])

    let path: String, className: String, selection: Selection, dryRun: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments.positionals[0]
        className = arguments.positionals[1]
        selection = try Selection(arguments, command: "delete")
        dryRun = arguments.flag("dry-run")
    }

    func run(_ io: ShellIO) throws(ShellError) -> ExitCode {
        do {
            let writer = try RealmWriter(path: path)
            let keys = try selection.keys(in: writer, className: className)
            if dryRun {
                writer.rollback()
                io.print(String(keys.count))
                return .success
            }
            try writer.delete(className: className, keys: keys)
            try writer.commit()
            io.printError(writer.summary.description)
        } catch let error as ShellError {
            throw error
        } catch {
            throw WriteSupport.failure(error, path: path)
        }
        return .success
    }
}
