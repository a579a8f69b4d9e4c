import RealmFormat
import RealmObjects
import RealmQuery

/// Which objects `update` and `delete` touch: `--where PRED` (Realm's query language) or `--all`.
struct Selection {
    static let predicateOption = Option<String>("where", value: "predicate", help: "The objects to change: a query as for 'realmsh query' (SORT/LIMIT apply).")
    static let all = Flag("all", help: "Every object of the class.")
    static let arg = Repeated("arg", value: "value", help: "Fills $0, $1, … in the predicate (a query-language literal).")
    static let options: [any OptionDeclaration] = [predicateOption, all, arg]

    let predicate: String?
    let arguments: [String]

    init(_ parsed: ParsedArguments, command: String) throws(ShellError) {
        predicate = parsed[Self.predicateOption]
        arguments = parsed[Self.arg]
        if (predicate == nil) == !parsed[Self.all] {
            throw ShellError("say which objects: --where PREDICATE or --all", code: .usage, usageOf: command)
        }
    }

    private func query(_ file: RealmFile, className: String) throws(ShellError) -> Query {
        guard file.objectClass(named: className) != nil else { throw unknownClass(className, in: file) }
        do {
            return try Query(store: ObjectStore(snapshot: file.snapshot), className: className, predicate ?? "TRUEPREDICATE",
                             arguments: arguments.map(QueryArgument.literal))
        } catch let error as QueryError {
            throw ShellError("\(file.path): \(error.rendered(query: predicate ?? ""))", code: .dataError)
        } catch {
            throw ShellError.from(error, path: file.path)
        }
    }

    /// The ObjKeys selected in the committed version the writer starts from.
    func keys(in writer: RealmWriter, className: String) throws(ShellError) -> [Int64] {
        let query = try query(writer.file, className: className)
        do { return try query.objectKeys() } catch { throw WriteSupport.failure(error, path: writer.path) }
    }

    /// How many objects are selected in `file` (read only: no writer, no lock).
    func count(in file: RealmFile, className: String) throws(ShellError) -> Int {
        let query = try query(file, className: className)
        do { return try query.count() } catch { throw ShellError.from(error, path: file.path) }
    }
}

/// `update` and `delete`: what the interactive shell confirms before several objects change.
protocol ChangesSelectedObjects: Command {
    var path: String { get }
    var className: String { get }
    var selection: Selection { get }
    /// "Update", "Delete".
    static var verb: String { get }
}

/// `realmsh update FILE CLASS --where PRED --set prop=VALUE… | --json PATCH`.
struct UpdateCommand: ChangesSelectedObjects {
    static let classArgument = Positional("CLASS", help: "The class.")
    static let set = Repeated("set", value: "prop=value", help: "A property and its new value (repeatable).")
    static let json = Option<String>("json", value: "object", help: "The new values as a JSON object.")
    static let verb = "Update"

    static let spec = CommandSpec(
        name: "update",
        abstract: "Set properties of the objects a query selects, in one transaction.",
        discussion: """
            --set prop=VALUE takes a literal of the query language ('Lovelace', 3, true, null, \
            2020-01-01@00:00:00, oid(…), uuid(…)); --json takes the new values as one JSON object, as \
            for insert (links and nested objects included). Types are strict; primary keys do not \
            change. Nothing is written unless every object could be updated.
            """,
        arguments: [.realmFile, classArgument], file: .realmFile, effect: .changesFile,
        options: Selection.options + [set, json],
        examples: ["realmsh update app.realm Person --where \"name == 'Ada'\" --set lastname='Lovelace' --set numOfLikes=3",
                   "realmsh update app.realm Person --all --json '{\"active\": false}'"])

    let path: String, className: String, selection: Selection, assignments: [String], patch: String?

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        className = arguments[Self.classArgument]
        selection = try Selection(arguments, command: "update")
        assignments = arguments[Self.set]
        patch = arguments[Self.json]
        if assignments.isEmpty == (patch == nil) {
            throw ShellError("give the new values with --set prop=VALUE or with --json, not both", code: .usage, usageOf: "update")
        }
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
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
            try Self.checkProperties(values, of: className, in: writer.file)
            let keys = try selection.keys(in: writer, className: className)
            try writer.update(className: className, keys: keys, values: values)
            try writer.commit()
            context.io.printError(writer.summary.description)
        } catch let error as ShellError {
            throw error
        } catch {
            throw WriteSupport.failure(error, path: path)
        }
        return .success
    }
}

extension UpdateCommand {
    /// Every property named is one of the class's, and not its primary key — checked against
    /// the schema before any object is selected, so a typo fails even when nothing matches.
    static func checkProperties(_ values: JSONValue, of className: String, in file: RealmFile) throws {
        guard let c = file.objectClass(named: className) else { throw unknownClass(className, in: file) }
        guard case let .object(members) = values else { return }
        for (name, _) in members {
            guard let p = c.property(named: name) else {
                throw InputError(className: c.name, property: name, "no such property" + NameSuggestion.didYouMean(name, among: c.properties.map(\.name)))
            }
            if p.isPrimaryKey { throw InputError(className: c.name, property: name, "a primary key cannot be changed after creation") }
        }
    }
}

/// `realmsh delete FILE CLASS --where PRED | --all [--dry-run]`.
struct DeleteCommand: ChangesSelectedObjects {
    static let dryRun = Flag("dry-run", help: "Print the number of objects that would be deleted; change nothing.")
    static let verb = "Delete"

    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete the objects a query selects (links to them are nulled or removed).",
        discussion: "As Realm deletes: to-one links and dictionary values pointing at a deleted object become null, list and set entries are removed, embedded objects it owns are deleted too. --dry-run prints how many objects would go and writes nothing (not even the lock file).",
        arguments: [.realmFile, UpdateCommand.classArgument], file: .realmFile,
        effect: .when(dryRun, .reads, otherwise: .changesFile),
        options: Selection.options + [dryRun],
        examples: ["realmsh delete app.realm Dog --where 'age > 10'", "realmsh delete --dry-run app.realm Log --all"])

    let path: String, className: String, selection: Selection, dryRun: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        className = arguments[UpdateCommand.classArgument]
        selection = try Selection(arguments, command: "delete")
        dryRun = arguments[Self.dryRun]
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        if dryRun {
            let open = try OpenRealm(path: path, key: nil)
            context.io.print(String(try selection.count(in: open.file, className: className)))
            return .success
        }
        do {
            let writer = try RealmWriter(path: path)
            let keys = try selection.keys(in: writer, className: className)
            try writer.delete(className: className, keys: keys)
            try writer.commit()
            context.io.printError(writer.summary.description)
        } catch let error as ShellError {
            throw error
        } catch {
            throw WriteSupport.failure(error, path: path)
        }
        return .success
    }
}
