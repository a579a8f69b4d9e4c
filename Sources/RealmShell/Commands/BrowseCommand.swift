import RealmFormat
import RealmObjects
import RealmBrowser

/// `realmsh browse FILE [--class C] [--key-file K] [--write]` and `.browse` in the shell: the
/// Realm Browser (the RealmBrowser module), full screen. This file only wires it in: the
/// options, the shell's read-only open (`OpenRealm`: no byte of the file or its `.lock` is
/// written), and the shell's completion of key paths for the browser's query bar.
struct BrowseCommand: Command {
    static let classOption = Option<String>("class", value: "class", help: "The class to show first.")
    static let write = Flag("write", help: "Allow edits (e), new objects (n) and deletes (D), one transaction each.")

    static let spec = CommandSpec(
        name: "browse",
        abstract: "The Realm Browser: classes, objects, links and queries, full screen in the terminal.",
        discussion: """
            The classes with their counts on the left, the objects of one as a table on the right \
            (read a screen at a time, so a million objects scroll at once). Enter follows links, \
            lists, sets, dictionaries and embedded objects, d shows one object in full, b what \
            links to it, Backspace goes back; : filters with a Realm query, s sorts, / searches. \
            Read-only unless --write: then e edits a value, n adds an object and D deletes one, \
            each in one transaction. ? lists every key; q quits. See Docs/browse.md.
            """,
        arguments: [.realmFile], file: .realmFile,
        // Each edit is a write transaction of its own (RealmWriter takes the session lock).
        effect: .when(write, .changesFile, otherwise: .reads),
        options: [classOption, write] + KeyOptions.all,
        examples: ["realmsh browse default.realm", "realmsh browse --class Person --write default.realm"])

    let path: String
    let className: String?
    let write: Bool
    let keys: KeyOptions

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        className = arguments[Self.classOption]
        write = arguments[Self.write]
        keys = KeyOptions(arguments)
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let key = try keys.resolve(io)
        let open = try OpenRealm(path: path, key: key)
        if let className, open.file.objectClass(named: className) == nil,
           !open.file.internalTables.contains(where: { $0.name == className }) {
            throw unknownClass(className, in: open.file)
        }
        if write {
            if key != nil { throw ShellError("\(path): encrypted files are not written in place (decrypt a copy, edit it, encrypt it)", code: .unavailable) }
            if open.file.snapshot.fileFormat != 24 {
                throw ShellError("\(path): file format \(open.file.snapshot.fileFormat) is not written in place (upgrade a copy first)", code: .unavailable)
            }
        }
        // The screen is the process's own standard input and output (also under `.browse`,
        // whose command streams carry no input): both must be the terminal.
        guard io.stdoutIsTerminal, Platform.isTerminal(0), Platform.isTerminal(1) else {
            throw ShellError("browse needs a terminal (standard input and output); for scripts use query or export", code: .usage)
        }
        let path = self.path
        let options = BrowserSession.Options(
            path: path, className: className, writable: write,
            reopen: {
                do throws(ShellError) { return try OpenRealm(path: path, key: key).file } catch { throw Browser.Failure(message: error.message) }
            },
            complete: Self.complete)
        do throws(Browser.Failure) { try Browser.run(file: open.file, options: options, color: io.useColor) } catch {
            throw ShellError(error.message, code: .usage)
        }
        return .success
    }

    /// The shell's Tab completion of properties, key paths and operators, as for
    /// `Class where …` typed in the shell.
    static func complete(_ classes: [ObjectClass], _ className: String, _ text: String) -> QueryCompletion {
        let line = "\(className) where \(text)"
        let completion = Completer(classes: classes).complete(line)
        let word = String(decoding: Array(line.utf8)[Completer.wordStart(line)...], as: UTF8.self)
        return QueryCompletion(wordLength: word.count, candidates: completion.candidates, appendSpace: completion.appendSpace)
    }
}
