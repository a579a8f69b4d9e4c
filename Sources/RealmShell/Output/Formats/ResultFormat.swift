import RealmFormat
import RealmObjects

/// One way of writing objects — in the manner of GRDB's `DumpFormat` — used by `query
/// --format`, `export --format` and the shell's `.mode` alike. Each format is one file in
/// this folder and one entry in `ResultFormats.all`; `uses` says where it is offered.
///
/// A format writes the results of a query (one class's objects in the query's order) and,
/// when it is offered to `export`, whole classes of a file. Formats for people (box, table,
/// markdown, line) build text with its footer, which the shell may page; the others stream to
/// the sink (and the shell pages them too, see `ResultPresenter.present`).
protocol ResultFormat: Sendable {
    /// The name `--format` and `.mode` take.
    var name: String { get }
    var uses: FormatUses { get }
    /// Objects of one class, as a query returned them. Formats for people show the first
    /// `output.options.maxRows`; the others are given only the rows to write.
    func write(_ results: QueryResults, to output: ResultOutput) throws
    /// Text for people, with its own footer (box, table, markdown, line).
    var isForPeople: Bool { get }
    /// Writes objects one by one, so a row cap applies (not `count`).
    var listsObjects: Bool { get }
    /// How many objects of `objectClass` fit on a screen of `rows` lines with this format's
    /// frame, header and footer, and the prompt after it: the shell's default cap.
    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int
    /// `export`: every object of `classes` (all of the file's when `selected` is false).
    func export(_ file: RealmFile, classes: [ObjectClass], selected: Bool, to output: ExportOutput) throws
    /// `export` of this format takes exactly one class (`--class`).
    var exportsOneClass: Bool { get }
    /// `export` of this format needs an output file (`-o`), not standard output; it writes the
    /// file at `ExportOutput.file`'s temporary path, which the command commits.
    var exportsToFileOnly: Bool { get }
}

extension ResultFormat {
    var exportsOneClass: Bool { false }
    var exportsToFileOnly: Bool { false }
    var isForPeople: Bool { false }
    var listsObjects: Bool { true }

    /// One line per object, a footer (on stderr when capped) and the prompt.
    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int { max(1, rows - 2) }

    func export(_ file: RealmFile, classes: [ObjectClass], selected: Bool, to output: ExportOutput) throws {
        throw ShellError("\(name) is not an export format", code: .usage, usageOf: "export")
    }
}

/// Where a format is offered.
struct FormatUses: OptionSet, Sendable {
    let rawValue: Int
    static let query = FormatUses(rawValue: 1)
    static let shell = FormatUses(rawValue: 2)
    static let export = FormatUses(rawValue: 4)
}

/// Every result format. Adding one: a file in Output/Formats/ with its type, and an instance
/// in this list (its position orders the names in help and messages).
enum ResultFormats {
    static let all: [any ResultFormat] = [
        BoxFormat(), TableFormat(), MarkdownFormat(), CSVFormat(), JSONFormat(), JSONLinesFormat(), LineFormat(), CountFormat(),
        SQLiteFormat(),
    ]

    static func names(for use: FormatUses) -> [String] { all.filter { $0.uses.contains(use) }.map(\.name) }

    static func named(_ name: String, for use: FormatUses? = nil) -> (any ResultFormat)? {
        all.first { $0.name == name && (use.map($0.uses.contains) ?? true) }
    }

    /// The `--format` option of a command offering the formats of `use`.
    static func option(for use: FormatUses, help: String) -> Option<any ResultFormat> {
        Option<any ResultFormat>("format", value: "format", help: help, choices: names(for: use)) { (name: String) throws(ShellError) -> any ResultFormat in
            guard let format = named(name, for: use) else { throw ShellError("unknown format '\(name)'", code: .usage) }
            return format
        }
    }
}

/// A query's results: objects of one class at `rows` (positions in table order), in order.
struct QueryResults {
    let file: RealmFile
    let objectClass: ObjectClass
    let rows: [Int]

    /// The keys and values of the objects at `rows` (each position read once), in order.
    func objects(_ rows: [Int]) throws -> [(key: Int64, values: [Value])] {
        guard !rows.isEmpty else { return [] }
        var found = [Int: (key: Int64, values: [Value])]()
        try file.forEachObject(of: objectClass, atPositions: Array(Set(rows)).sorted()) { position, key, values in
            try Platform.checkCancellation()
            found[position] = (key, Array(values))
        }
        return rows.compactMap { found[$0] }
    }

    func objects() throws -> [(key: Int64, values: [Value])] { try objects(rows) }

    /// The first `maxRows` of the results (all for 0).
    func capped(_ maxRows: Int) -> QueryResults {
        maxRows > 0 && rows.count > maxRows ? QueryResults(file: file, objectClass: objectClass, rows: Array(rows.prefix(maxRows))) : self
    }
}

/// How results are laid out where they are shown (`ResultPresenter.options`).
struct ResultOptions {
    /// Rows shown by the formats for people on the command line when neither `--limit` nor
    /// the screen says.
    static let defaultMaxRows = 40

    /// Column headers (box, table, markdown, csv): the shell's `.headers`.
    var headers = true
    /// Values as people read them (links as `→ Person(Ada)`, the shell's `.nullvalue`).
    var values: DisplayText
    /// Objects shown (0: all); the footer counts them all.
    var maxRows: Int
    /// Columns available; nil: no limit (output that is not a terminal).
    var width: Int?
    var style: TextStyle
    /// Property types in table headers (`age int?`): the shell's `.types`.
    var types = false
    /// JSON laid out for a person (a terminal) rather than compact (a pipe, a file).
    var prettyJSON = true

    /// The cap when nothing sets one: what fits the screen on a terminal of `rows` lines,
    /// else `otherwise`.
    static func automaticRows(_ format: any ResultFormat, _ objectClass: ObjectClass, headers: Bool,
                              screenRows rows: Int?, otherwise: Int) -> Int {
        guard format.listsObjects else { return 0 }
        guard let rows else { return otherwise }
        return format.objectsFitting(screenRows: rows, objectClass: objectClass, headers: headers)
    }
}

/// Where a format writes: data to the sink, text for people through `emit` (the shell pages
/// it).
struct ResultOutput {
    let sink: ByteSink
    let options: ResultOptions
    let emit: (String) -> Void
}

/// Where an export writes: the sink, and the output file when there is one (`-o`).
struct ExportOutput {
    let sink: ByteSink
    let file: OutputFile?
    /// Messages and progress (stderr).
    let io: ShellIO
    /// Called after each object a format writes: progress, and Ctrl-C in the shell.
    var objectWritten: () throws -> Void = { try Platform.checkCancellation() }
}

/// How results are shown where a command runs (`CommandHost`): the format when none is
/// chosen, the layout, and where text for people goes.
protocol ResultPresenter {
    func defaultFormat(_ io: ShellIO) -> any ResultFormat
    /// `limit`: `query --limit`, which bounds the rows shown too.
    func options(for results: QueryResults, format: any ResultFormat, limit: Int?, io: ShellIO) -> ResultOptions
    /// Shows text for people (through a pager, in the shell at a terminal).
    func emit(_ text: String, io: ShellIO)
    /// Whether output to `io` may go through a pager: then the data formats' output is
    /// collected and shown through `emit` as well.
    func pages(_ io: ShellIO) -> Bool
}

extension ResultPresenter {
    /// Writes `results` in `format` (this presenter's default when nil) to `io`: formats for
    /// people show the first `maxRows` with their footer; the data formats write only those
    /// rows, and a capped result says so on stderr, so that standard output stays data.
    func present(_ results: QueryResults, format: (any ResultFormat)?, limit: Int?, io: ShellIO) throws {
        let chosen = format ?? defaultFormat(io)
        let options = options(for: results, format: chosen, limit: limit, io: io)
        if chosen.isForPeople {
            try chosen.write(results, to: ResultOutput(sink: io.stdout, options: options) { text in self.emit(text, io: io) })
            return
        }
        let shown = chosen.listsObjects ? results.capped(options.maxRows) : results
        if pages(io) {
            let memory = MemorySink()
            try chosen.write(shown, to: ResultOutput(sink: memory, options: options) { _ in })
            var bytes = memory.bytes
            if bytes.last == 10 { bytes.removeLast() }
            emit(String(decoding: bytes, as: UTF8.self), io: io)
        } else {
            try chosen.write(shown, to: ResultOutput(sink: io.stdout, options: options) { text in self.emit(text, io: io) })
        }
        if shown.rows.count < results.rows.count {
            let footer = GridText.footer(total: results.rows.count, shown: shown.rows.count)
            io.printError(io.dim(footer.dropLast() + "; .maxrows 0 shows all)"))
        }
    }
}

/// Text styling for a terminal with colour (identity otherwise).
struct TextStyle {
    let color: Bool
    func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func dim(_ s: String) -> String { color ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
}
