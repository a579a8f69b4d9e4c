import RealmFormat
import RealmMigration
import RealmObjects

/// `realmsh schema FILE`: the classes and properties stored in a file.
struct SchemaCommand: Command {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Print the schema: as text, as the canonical JSON, or as Realm Swift model classes.",
        discussion: "json is exactly the \"classes\" part of 'realmsh export --format json', so a schema can be copied from an app's file. swift prints classes a Realm Swift app can paste; linkingObjects names are not stored in files, so they are generated. --diff OTHER lists what differs from another schema (a .realm file or that JSON) and exits 1 when something does, 0 when nothing does; 'realmsh migrate --generate' writes a script for the difference.",
        arguments: [.realmFile], file: .realmFile, effect: .reads,
        options: [format, classes, diff] + KeyOptions.all,
        examples: ["realmsh schema default.realm", "realmsh schema --format swift default.realm > Models.swift",
                   "realmsh schema --format json --class Person default.realm", "realmsh schema app.realm --diff target.json"])

    static let format = Option<String>("format", value: "format", help: "Output format.", choices: ["text", "json", "swift"])
    static let classes = Repeated("class", value: "class", help: "Only this class (repeatable).")
    static let diff = Option<String>("diff", value: "other", help: "Compare with another schema: a .realm file or schema JSON.")

    let path: String
    let key: KeyOptions
    let format: String
    let classNames: [String]
    let other: String?

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
        format = arguments[Self.format] ?? "text"
        classNames = arguments[Self.classes]
        other = arguments[Self.diff]
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let open = try OpenRealm(path: path, key: key.resolve(io))
        context.leaveOpenUntilExit(open.file)
        let classes = try selectClasses(open.file, classNames)
        if let other {
            var target = try SchemaSource.classes(other, io: io)
            if !classNames.isEmpty { target = target.filter { classNames.contains($0.name) } }
            let lines = SchemaDiff.lines(from: ClassSpec.classes(of: open.file).filter { c in classes.contains { $0.name == c.name } }, to: target)
            io.print(lines.isEmpty ? "The schemas are the same." : lines.joined(separator: "\n"))
            open.writerWarning(io)
            return lines.isEmpty ? .success : .different
        }
        switch format {
        case "json":
            var out = JSONEmitter(sink: io.stdout)
            SchemaJSON.writeClasses(classes, to: &out)
            out.raw("\n")
            out.flush()
        case "swift":
            io.print(SwiftModels.render(classes))
        default:
            io.print(SchemaText.render(classes, io: io))
        }
        open.writerWarning(io)
        return .success
    }
}

extension Positional {
    /// The Realm file most commands work on.
    static let realmFile = Positional("FILE", help: "The .realm file.")
}

/// The classes named on the command line (all when none), or an error listing the classes.
func selectClasses(_ file: RealmFile, _ names: [String]) throws(ShellError) -> [ObjectClass] {
    if names.isEmpty { return file.classes }
    var out = [ObjectClass]()
    for name in names {
        guard let c = file.objectClass(named: name) else { throw unknownClass(name, in: file) }
        out.append(c)
    }
    return out
}

func unknownClass(_ name: String, in file: RealmFile) -> ShellError {
    let all = file.classes.map(\.name)
    var message = "\(file.path): no class '\(name)'" + NameSuggestion.didYouMean(name, among: all)
    message += all.isEmpty ? " (the file has no classes)" : " (classes: \(all.joined(separator: ", ")))"
    return ShellError(message, code: .dataError)
}
