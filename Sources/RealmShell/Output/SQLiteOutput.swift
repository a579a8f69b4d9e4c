import RealmFormat
import RealmObjects
import RealmSQLite

/// `export --format sqlite -o OUT`: the `RealmSQLite` exporter writing into an `OutputFile`'s
/// temporary file, which appears under OUT (synced, renamed) only when the export succeeded.
enum SQLiteOutput {
    static func write(_ open: OpenRealm, classNames: [String], to output: String, encrypted: Bool, io: ShellIO) throws(ShellError) {
        let file = open.file
        let exporter: SQLiteExporter
        do { exporter = try SQLiteExporter(file: file, classNames: classNames) } catch { throw shellError(error, file.path, output) }
        // A decrypted copy of an encrypted realm is for its owner's eyes only.
        let target = try OutputFile(path: output, mode: encrypted ? 0o600 : 0o644)
        let bar = ProgressBar(io: io, label: "exporting", bytes: Platform.fileSize(file.path) ?? 0)
        let summary: SQLiteExportSummary
        do {
            summary = try exporter.write(toDatabaseAt: target.temporaryPath, progress: bar.map { b in { b.update($0) } })
        } catch {
            bar?.finish()
            target.discard()
            throw shellError(error, file.path, output)
        }
        bar?.finish()
        try target.commit()
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
