import RealmFormat
import RealmObjects

/// `realmsh import FILE [CLASS] DATA [--format json|jsonl|csv] [--upsert]`: what `export`
/// writes, read back in one transaction — the canonical dump (every class), JSON Lines
/// (`_class` on each line), CSV of one class with a header row, or a JSON array of objects.
struct ImportCommand: Command {
    static let classArgument = Positional("CLASS", help: "The class of the objects (for JSON arrays and CSV; a dump and JSON Lines name theirs).", optional: true)
    static let data = Positional("DATA", help: "The file to read (- for standard input).")
    static let format = Option<String>("format", value: "format", help: "What DATA holds (default: by its name, .jsonl or .csv, else JSON: a dump or an array of objects).",
                                       choices: ["json", "jsonl", "csv"])
    static let upsert = Flag("upsert", help: "Update objects whose primary key exists instead of failing.")

    static let spec = CommandSpec(
        name: "import",
        abstract: "Import what export writes: the canonical dump, JSON Lines, CSV, or a JSON array of objects.",
        discussion: """
            A canonical dump (export's json) brings every class; JSON Lines (export --format jsonl) names \
            each object's class in "_class". Both name objects by identity: classes without a primary key \
            keep their _key, and links — to objects anywhere in the input — are set once every object \
            exists, so an export imported into an empty copy of its schema gives back the same dump. \
            CSV (export --format csv) is one CLASS with a header row, typed by the schema: an empty field \
            is null, "" the empty string. A JSON array (or object) holds objects of CLASS, as for insert. \
            Types are strict and it is one transaction: any problem (named by line or object) and \
            nothing is written. - reads standard input. With --upsert, objects whose primary key exists \
            are updated (as Realm's create(_:value:update:)).
            """,
        arguments: [.realmFile, classArgument, data], file: .realmFile, effect: .changesFile,
        options: [format, upsert],
        examples: ["realmsh export app.realm > dump.json && realmsh create --schema schema.json copy.realm && realmsh import copy.realm dump.json",
                   "realmsh export --format jsonl app.realm | realmsh import copy.realm -",
                   "realmsh import bundle.realm Venue venues.csv",
                   "realmsh import bundle.realm Venue venues.json --upsert"])

    enum Format: String { case json, jsonl, csv }

    let path: String, className: String?, data: String, format: Format?, upsert: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        // `import FILE DATA`: the one argument after FILE is DATA.
        if let data = arguments.argument(Self.data) {
            self.data = data
            className = arguments.argument(Self.classArgument)
        } else {
            data = arguments[Self.classArgument]
            className = nil
        }
        format = arguments[Self.format].flatMap(Format.init(rawValue:))
        upsert = arguments[Self.upsert]
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let source = data == "-" ? "standard input" : data
        // CSV is read in chunks as its rows are written (`CSVReader.Records(chunks:)`), so an
        // import holds a window of it, not the file (issue #16); the other inputs are read whole.
        let input: FileDescriptor?
        if format == .csv || format == nil && Self.guessByName(data) == .csv {
            do { input = data == "-" ? FileDescriptor.standardInput : try FileDescriptor.open(data, .readOnly) } catch {
                throw ShellError.reading(source, error)
            }
        } else {
            input = nil
        }
        defer { if let input, data != "-" { input.closeQuietly() } }
        let bytes = input == nil ? try WriteSupport.readBytes(data) : []
        let size = input.map { (try? $0.size()) ?? 0 } ?? bytes.count
        let kind = input != nil ? .csv : format ?? Self.guess(data, bytes)
        let dump = kind == .json && DumpReader.isDump(bytes)
        if dump, let className {
            throw ShellError("\(source) is a dump, which names its classes: drop \(className)", code: .usage, usageOf: "import")
        }
        if (kind == .csv || kind == .json && !dump), className == nil {
            throw ShellError("\(source): say which class the objects are: import FILE CLASS DATA", code: .usage, usageOf: "import")
        }
        let writer: RealmWriter
        do { writer = try RealmWriter(path: path) } catch { throw WriteSupport.failure(error, path: path) }
        let bar = ProgressBar(io: context.io, label: "importing")
        // A pipe has no size: no fraction to show.
        func progress(_ offset: Int) { if size > 0 { bar?.update(Double(min(offset, size)) / Double(size)) } }
        // Where each object is in the input, for messages: its line (JSON Lines, CSV), its
        // class and position in the dump, its position in an array (from 0, as insert counts).
        var places = [String]()
        // The line of each object of JSON Lines and CSV (a number each, not a string per row).
        var lines = LineNumbers()
        let identities = kind != .json || dump
        let load = ObjectImport(writer: writer, policy: upsert ? .upsert : .insert, identities: identities) { i in
            i < places.count ? places[i] : lines[i].map { "line \($0)" } ?? "object \(i)"
        }
        let summary: RealmWriter.Summary
        do {
            switch kind {
            case .json where dump:
                var counts = [String: Int]()
                try read { try DumpReader.read(bytes, header: { _ in }) { c, object, offset in
                    places.append("\(c) object \(counts[c, default: 0])")
                    counts[c, default: 0] += 1
                    try load.add(object, className: c)
                    progress(offset)
                } }
            case .json:
                try read { try JSONParser.forEachElement(bytes, withOffsets: { object, offset in
                    try load.add(object, className: className!)
                    progress(offset)
                }) }
            case .jsonl:
                try Self.forEachLine(bytes) { text, line, offset throws(ShellError) in
                    lines.append(line)
                    let object: JSONValue
                    do throws(JSONError) { object = try JSONParser.parse(text) } catch {
                        throw ShellError("\(source) line \(line): invalid JSON at byte \(error.offset): \(error.message)", code: .dataError)
                    }
                    try load.add(object, className: try lineClass(object, line: line, source: source))
                    progress(offset)
                }
            case .csv:
                guard let c = writer.file.objectClass(named: className!) else { throw unknownClass(className!, in: writer.file) }
                do {
                    // Rows of plain scalars typed straight to table cells (`CSVTypedRow`); --upsert goes the general way.
                    var records = CSVReader.Records { () throws(ShellError) -> [UInt8] in
                        do throws(FormatError) { return try input!.read(upTo: 1 << 20) } catch { throw ShellError.reading(source, error) }
                    }
                    try load.addCSV(&records, of: c, typed: true) { line, offset in
                        lines.append(line)
                        progress(offset)
                    }
                } catch let failure as CSVReader.Failure {
                    throw ShellError("\(source) line \(failure.line): \(failure.message); nothing was written", code: .dataError)
                }
            }
            summary = try load.commit()
        } catch {
            bar?.finish()
            writer.rollback()
            throw ShellError.from(error, path: path)
        }
        bar?.finish()
        context.io.printError(summary.description)
        return .success
    }

    /// JSON syntax errors of a whole-input read, named by the input.
    private func read(_ body: () throws -> Void) throws {
        do { try body() } catch let error as JSONError {
            throw ShellError("\(data == "-" ? "standard input" : data): invalid JSON at byte \(error.offset): \(error.message); nothing was written", code: .dataError)
        }
    }

    /// The class of a JSON Lines object: its `_class`, else CLASS.
    private func lineClass(_ object: JSONValue, line: Int, source: String) throws(ShellError) -> String {
        if let named = object["_class"]?.stringValue {
            if let className, className != named {
                throw ShellError("\(source) line \(line): an object of class \(named), but CLASS is \(className)", code: .dataError)
            }
            return named
        }
        guard let className else {
            throw ShellError("\(source) line \(line): no \"_class\" member (export --format jsonl writes one), and no CLASS given", code: .dataError)
        }
        return className
    }

    /// The format a file's name or first bytes say: `.jsonl`/`.ndjson` and `.csv` by name;
    /// otherwise JSON, unless the text is objects one per line (JSON Lines on a pipe).
    static func guess(_ name: String, _ bytes: [UInt8]) -> Format {
        if let format = guessByName(name) { return format }
        guard let first = bytes.first(where: { ![9, 10, 13, 32].contains($0) }), first == UInt8(ascii: "{"),
              !DumpReader.isDump(bytes), let newline = bytes.firstIndex(of: 10) else { return .json }
        return (try? JSONParser.parse(Array(bytes[..<newline]))) != nil ? .jsonl : .json
    }

    /// The line of each object of JSON Lines or CSV, kept as the places where the lines stop
    /// going up by one (blank lines, quoted line breaks): a million rows cost no million
    /// numbers.
    struct LineNumbers {
        /// (first object, its line) of each run of objects on consecutive lines.
        private var runs: [(object: Int, line: Int)] = []
        private(set) var count = 0

        mutating func append(_ line: Int) {
            if let last = runs.last, last.line + (count - last.object) == line {
                count += 1
                return
            }
            runs.append((count, line))
            count += 1
        }

        /// Object `i`'s line, nil past the last one.
        subscript(i: Int) -> Int? {
            guard i >= 0, i < count else { return nil }
            var lo = 0, hi = runs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if runs[mid].object <= i { lo = mid + 1 } else { hi = mid }
            }
            let run = runs[lo - 1]
            return run.line + (i - run.object)
        }
    }

    /// The format a file's name says, if it says one.
    static func guessByName(_ name: String) -> Format? {
        let lower = name.lowercased()
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonl }
        if lower.hasSuffix(".csv") { return .csv }
        return nil
    }

    /// The non-blank lines of JSON Lines, with their numbers and the offset after each.
    static func forEachLine(_ bytes: [UInt8], _ body: ([UInt8], Int, Int) throws(ShellError) -> Void) throws(ShellError) {
        var start = 0, line = 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
            var text = Array(bytes[start..<end])
            if text.last == 13 { text.removeLast() }
            if text.contains(where: { ![9, 32].contains($0) }) { try body(text, line, end) }
            start = end + 1
            line += 1
        }
    }
}
