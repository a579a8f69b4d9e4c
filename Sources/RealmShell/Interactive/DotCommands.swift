import RealmFormat
import RealmObjects

/// The shell's own commands, as in sqlite3 and DuckDB: `.mode box`, `.schema Person`, …
/// Any unambiguous prefix works (`.sch`, `.q`).
struct DotCommand {
    let name: String
    let arguments: String
    let help: String
    /// What Tab offers for the first argument.
    let completes: Completion

    enum Completion { case nothing, onOff, modes, classes, files, keyPath, topics }

    static let all: [DotCommand] = [
        .init(name: "browse", arguments: "[CLASS]", help: "The Realm Browser on the open file, full screen (writable after .write on).", completes: .classes),
        .init(name: "classes", arguments: "", help: "List the classes with their object counts (also .tables).", completes: .nothing),
        .init(name: "dump", arguments: "[CLASS]…", help: "Print the canonical JSON dump (export --format json), of the given classes only.", completes: .classes),
        .init(name: "exit", arguments: "[N]", help: "Leave the shell with exit status N (default: as .quit).", completes: .nothing),
        .init(name: "follow", arguments: "CLASS.LINK[.LINK…] [where PREDICATE]", help: "Show the objects the links of the matching objects point to (as typing CLASS.LINK where …).", completes: .keyPath),
        .init(name: "headers", arguments: "on|off", help: "Column headers in box, table, markdown and csv output.", completes: .onOff),
        .init(name: "help", arguments: "[PATTERN]", help: "Show this help, or only the lines matching PATTERN.", completes: .topics),
        .init(name: "indexes", arguments: "[CLASS]…", help: "List the primary keys and indexed properties.", completes: .classes),
        .init(name: "info", arguments: "", help: "Show the file's format, version, history, classes and free space.", completes: .nothing),
        .init(name: "maxrows", arguments: "N|auto", help: "Objects shown in every mode (0: all; auto: as many as fit the screen, the default on a terminal).", completes: .nothing),
        .init(name: "maxwidth", arguments: "N", help: "Width of tables in characters (0: the terminal's width).", completes: .nothing),
        .init(name: "mode", arguments: "MODE", help: "How results are shown: \(ResultFormats.names(for: .shell).joined(separator: ", ")).", completes: .modes),
        .init(name: "nullvalue", arguments: "TEXT", help: "Text shown for null in box, table, markdown and line output.", completes: .nothing),
        .init(name: "once", arguments: "FILE", help: "Write the output of the next command to FILE.", completes: .files),
        .init(name: "open", arguments: "FILE [--key-file K]", help: "Open another Realm file (read-only until .write on).", completes: .files),
        .init(name: "output", arguments: "[FILE]", help: "Write output to FILE; no FILE (or stdout): back to the screen.", completes: .files),
        .init(name: "pager", arguments: "on|off", help: "Page results taller than the screen with $PAGER (else less -FRSX).", completes: .onOff),
        .init(name: "quit", arguments: "", help: "Leave the shell (also Ctrl-D).", completes: .nothing),
        .init(name: "read", arguments: "FILE", help: "Run the commands in FILE.", completes: .files),
        .init(name: "schema", arguments: "[CLASS]…", help: "Show the schema, or the schema of the given classes.", completes: .classes),
        .init(name: "show", arguments: "", help: "Show the current settings.", completes: .nothing),
        .init(name: "tables", arguments: "", help: "The same as .classes (sqlite3's name).", completes: .nothing),
        .init(name: "timer", arguments: "on|off", help: "Show how long each command took (time in the pager excluded).", completes: .onOff),
        .init(name: "types", arguments: "on|off", help: "Show property types in table headers (age int?).", completes: .onOff),
        .init(name: "write", arguments: "on|off", help: "Allow commands that change the file: insert, upsert, import, update, delete, compact, migrate.", completes: .onOff),
    ]

    /// The command a typed name means: an exact name or an unambiguous prefix.
    static func resolve(_ typed: String) throws(ShellError) -> DotCommand {
        if let exact = all.first(where: { $0.name == typed }) { return exact }
        let matches = all.filter { $0.name.hasPrefix(typed) }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw ShellError("'.\(typed)' is ambiguous: " + matches.map { "." + $0.name }.joined(separator: ", "), code: .usage)
        }
        throw ShellError("unknown command '.\(typed)'" + NameSuggestion.didYouMean(typed, among: all.map(\.name), prefix: ".")
                         + " (type .help)", code: .usage)
    }
}

extension ShellSession {
    func dotCommand(_ text: String, io: ShellIO, reader: LineReader) throws(ShellError) -> ExitCode {
        let nameEnd = text.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" } ?? text.endIndex
        let command = try DotCommand.resolve(String(text[text.index(after: text.startIndex)..<nameEnd]))
        let rest = String(text[nameEnd...]).trimmingWhitespace()
        let args = try CommandText.words(rest)
        func onOff(_ current: Bool) throws(ShellError) -> Bool? {
            guard let value = args.first else {
                io.print(current ? "on" : "off")
                return nil
            }
            switch value.lowercased() {
            case "on", "yes", "true", "1": return true
            case "off", "no", "false", "0": return false
            default: throw ShellError(".\(command.name) takes on or off, not '\(value)'", code: .usage)
            }
        }
        func number(_ current: Int) throws(ShellError) -> Int? {
            guard let value = args.first else {
                io.print(String(current))
                return nil
            }
            guard let n = Int(value), n >= 0 else { throw ShellError(".\(command.name) takes a number (0 or more), not '\(value)'", code: .usage) }
            return n
        }
        func needsFile() throws(ShellError) -> String {
            guard args.count == 1 else { throw ShellError("usage: .\(command.name) \(command.arguments)", code: .usage) }
            return args[0]
        }

        switch command.name {
        case "quit":
            quit()
        case "exit":
            guard let value = args.first else {
                quit()
                return .success
            }
            guard args.count == 1, let n = Int32(value), (0...255).contains(n) else {
                throw ShellError(".exit takes a status from 0 to 255, not '\(args.joined(separator: " "))'", code: .usage)
            }
            quit(status: ExitCode(rawValue: n))
        case "browse":
            guard args.count <= 1 else { throw ShellError("usage: .browse [CLASS]", code: .usage) }
            defer { invalidate() }      // the browser may have committed
            return try runSubcommand(BrowseCommand.self, args.flatMap { ["--class", $0] } + (writeEnabled ? ["--write"] : []), io: io, reader: reader)
        case "help":
            io.print(Self.helpText(pattern: args.first, style: .init(color: io.useColor)))
        case "classes", "tables":
            let file = try currentFile()
            var lines = [String]()
            let width = file.classes.map(\.name.count).max() ?? 0
            for c in file.classes {
                let count: Int
                do { count = try file.objectCount(of: c) } catch { throw ShellError.reading(file.path, error) }
                var line = c.name.padding(to: width + 2) + InfoCommand.objects(count)
                if c.isEmbedded { line += io.dim("  embedded") }
                lines.append(line)
            }
            emit(lines.isEmpty ? "(no classes)" : lines.joined(separator: "\n"), io: io)
        case "schema":
            let file = try currentFile()
            emit(SchemaText.render(try selectClasses(file, args), io: io).trimmingWhitespace(), io: io)
        case "info":
            return try runSubcommand(InfoCommand.self, args, io: io, reader: reader)
        case "dump":
            return try runSubcommand(ExportCommand.self, args.flatMap { ["--class", $0] }, io: io, reader: reader)
        case "indexes":
            let file = try currentFile()
            var rows = [(String, String)]()
            for c in try selectClasses(file, args) {
                for p in c.properties {
                    var kinds = [String]()
                    if p.isPrimaryKey { kinds.append("primary key") } else if p.isIndexed { kinds.append("indexed") }
                    if p.column.attributes.contains(.fullText) { kinds.append("full-text") }
                    if !kinds.isEmpty { rows.append(("\(c.name).\(p.name)", kinds.joined(separator: ", "))) }
                }
            }
            let width = rows.map { $0.0.count }.max() ?? 0
            emit(rows.isEmpty ? "(no indexes)" : rows.map { $0.0.padding(to: width + 2) + $0.1 }.joined(separator: "\n"), io: io)
        case "mode":
            guard let value = args.first else {
                io.print(settings.mode.name)
                return .success
            }
            guard let mode = ResultFormats.named(value.lowercased(), for: .shell) else {
                let modes = ResultFormats.names(for: .shell)
                throw ShellError("unknown mode '\(value)' (modes: \(modes.joined(separator: ", ")))" + NameSuggestion.didYouMean(value, among: modes),
                                 code: .usage)
            }
            settings.mode = mode
        case "headers":
            if let on = try onOff(settings.headers) { settings.headers = on }
        case "timer":
            if let on = try onOff(settings.timer) { settings.timer = on }
        case "types":
            if let on = try onOff(settings.types) { settings.types = on }
        case "pager":
            if let on = try onOff(settings.pager) { settings.pager = on }
        case "write":
            if let on = try onOff(writeEnabled) {
                if on && path == nil { throw ShellError("no file is open; open one with .open FILE", code: .usage) }
                writeEnabled = on
                if on { io.printError("Writes allowed: insert, upsert, import, update, delete, compact and migrate change \(path ?? "the file").") }
            }
        case "nullvalue":
            guard args.count <= 1 else { throw ShellError("usage: .nullvalue TEXT (quote text with spaces)", code: .usage) }
            if let value = args.first { settings.nullValue = value } else { io.print(settings.nullValue) }
        case "maxrows":
            if args.first?.lowercased() == "auto" {
                settings.maxRows = nil
            } else if args.isEmpty {
                io.print(settings.maxRows.map(String.init) ?? "auto")
            } else if let n = try number(0) {
                settings.maxRows = n
            }
        case "maxwidth":
            if let n = try number(settings.maxWidth) { settings.maxWidth = n }
        case "output":
            guard args.count <= 1 else { throw ShellError("usage: .output [FILE]", code: .usage) }
            try redirectOutput(to: args.first, once: false)
        case "once":
            try redirectOutput(to: try needsFile(), once: true)
        case "read":
            return try runFile(try needsFile())
        case "open":
            let spec = CommandSpec(name: ".open", abstract: "", arguments: [.realmFile], options: KeyOptions.all)
            let parsed: ParsedArguments
            do { parsed = try ArgumentParser.parse(args, spec: spec) } catch {
                throw ShellError(error.message, code: .usage)
            }
            let file = try openAsking(parsed[Positional.realmFile], keyFile: parsed[KeyOptions.keyFile], keyHex: parsed[KeyOptions.key], typed: true, io: io)
            writeEnabled = false
            io.printError("Opened \(file.path): \(file.classes.count) \(file.classes.count == 1 ? "class" : "classes"), format \(file.snapshot.fileFormat), read-only.")
        case "follow":
            guard !rest.isEmpty, let query = try ShortQuery.parse(rest, classes: currentClassNames()) else {
                throw ShellError("usage: .follow CLASS.LINK[.LINK…] [where PREDICATE]", code: .usage)
            }
            return try runQuery(query, io: io)
        case "show":
            let rows: [(String, String)] = [
                ("file", path ?? "(none)"), ("write", writeEnabled ? "on" : "off"), ("mode", settings.mode.name),
                ("headers", settings.headers ? "on" : "off"), ("nullvalue", settings.nullValue),
                ("maxrows", settings.maxRows.map { $0 == 0 ? "0 (all)" : String($0) } ?? "auto (as many as fit the screen)"),
                ("maxwidth", settings.maxWidth == 0 ? "0 (terminal width)" : String(settings.maxWidth)),
                ("timer", settings.timer ? "on" : "off"), ("types", settings.types ? "on" : "off"),
                ("pager", settings.pager ? "on" : "off"), ("output", outputDescription),
            ]
            for (k, v) in rows { io.print(k.padding(to: 11) + v) }
        default:
            break
        }
        return .success
    }

    /// `help` and `help COMMAND` typed in the shell.
    func help(_ args: [String], io: ShellIO) throws(ShellError) -> ExitCode {
        guard let topic = args.first else {
            emit(Self.helpText(pattern: nil, style: .init(color: io.useColor)), io: io)
            return .success
        }
        if topic.hasPrefix(".") {
            emit(Self.helpText(pattern: topic, style: .init(color: io.useColor)), io: io)
            return .success
        }
        guard let command = Commands.named(topic) else {
            throw ShellError("no command '\(topic)'" + NameSuggestion.didYouMean(topic, among: Commands.names), code: .usage)
        }
        emit(Self.shellHelp(command.spec), io: io)
        return .success
    }

    /// The shell's help: dot-commands, commands and the query form; with a pattern, only the
    /// lines that contain it (ignoring case).
    static func helpText(pattern: String?, style: TextStyle) -> String {
        func row(_ left: String, _ right: String) -> String {
            "  " + (left.count < 30 ? left.padding(to: 30) : left + "\n" + String(repeating: " ", count: 32)) + right
        }
        var sections: [(String, [String])] = []
        sections.append(("Queries:", [
            row("CLASS where PREDICATE", "The matching objects, e.g. Person where age > 30 SORT(name ASC)"),
            row("CLASS", "Every object of CLASS (also CLASS SORT(…) LIMIT(n))"),
            row("CLASS.LINK where PREDICATE", "The objects the links of the matches point to"),
        ]))
        sections.append(("Commands (the open file is implied):", Commands.all.filter { $0.spec.name != "shell" && $0.spec.name != "help" }.map {
            row($0.spec.name, $0.spec.abstract)
        } + [row("help [COMMAND]", "Help on a command's options")]))
        sections.append(("Dot-commands (any unambiguous prefix works):", DotCommand.all.map {
            row("." + $0.name + ($0.arguments.isEmpty ? "" : " " + $0.arguments), $0.help)
        }))
        var lines = [String]()
        for (title, rows) in sections {
            let kept = pattern.map { p in rows.filter { $0.lowercased().contains(p.lowercased()) } } ?? rows
            if kept.isEmpty { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(style.bold(title))
            lines += kept
        }
        if lines.isEmpty { return "Nothing matches '\(pattern ?? "")'." }
        if pattern == nil {
            lines += ["", "Tab completes commands, classes, properties, key paths and file names. A command goes on over",
                      "several lines while a quote or bracket is open or a line ends with \\. Ctrl-C cancels, Ctrl-D leaves."]
        }
        return lines.joined(separator: "\n")
    }
}
