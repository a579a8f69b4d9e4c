import RealmFormat
import RealmObjects
import RealmSQLite

/// `sqlite`: a relational copy of the file (`RealmSQLite`), export only and into a file: the
/// exporter builds the database at the output's temporary path, which the command commits
/// (synced, renamed) only when the export succeeded.
struct SQLiteFormat: ResultFormat {
    var name: String { "sqlite" }
    var uses: FormatUses { [.export] }
    var exportsToFileOnly: Bool { true }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        throw ShellError("sqlite is an export format: realmsh export --format sqlite -o OUT.db FILE", code: .usage)
    }

    func export(_ file: RealmFile, classes: [ObjectClass], selected: Bool, to output: ExportOutput) throws {
        guard let target = output.file else { throw ShellError("--format sqlite writes a file: add -o OUT", code: .usage, usageOf: "export") }
        let io = output.io
        let exporter: SQLiteExporter
        do {
            exporter = try SQLiteExporter(file: file, classNames: selected ? classes.map(\.name) : [])
        } catch {
            throw Self.shellError(error, file.path, target.path)
        }
        let bar = ProgressBar(io: io, label: "exporting", bytes: Platform.fileSize(file.path) ?? 0)
        let summary: SQLiteExportSummary
        do {
            summary = try exporter.write(toDatabaseAt: target.temporaryPath, progress: bar.map { b in { b.update($0) } })
        } catch {
            bar?.finish()
            throw Self.shellError(error, file.path, target.path)
        }
        bar?.finish()
        if summary.danglingLinks > 0 {
            io.printError(io.warn("note: \(summary.danglingLinks) links to objects that do not exist were written as NULL (lists and sets leave them out)"))
        }
    }

    static func shellError(_ error: SQLiteExportError, _ path: String, _ output: String) -> ShellError {
        switch error {
        case let .reading(e): return .reading(path, e)
        case let .database(e, _):
            // A constraint the data broke (a duplicate primary key in a damaged file) is the
            // realm's fault; anything else is the output's.
            if e.isConstraint { return ShellError("\(path): \(error.message)", code: .dataError) }
            let code: ExitCode = e.isIO ? .ioError : e.isCannotOpen ? .cannotCreate : .software
            return ShellError("cannot write \(output): \(error.message)", code: code)
        case .embeddedClass: return ShellError("\(path): \(error.message)", code: .usage, usageOf: "export")
        case .notEmpty: return ShellError(error.message, code: .cannotCreate)
        case .unknownClass, .embeddingCycle, .tooManyTables:
            return ShellError("\(path): \(error.message)", code: .dataError)
        }
    }
}
