import RealmFormat
import RealmObjects

/// What an export wrote.
public struct SQLiteExportSummary: Sendable, Equatable {
    /// Objects written per top-level class.
    public var objects: [String: Int] = [:]
    /// Links to objects that do not exist (only damaged or oddly upgraded files have them),
    /// written as NULL or, in lists and sets, left out.
    public var danglingLinks = 0
}

/// Writes a realm as a relational SQLite database (Docs/commands.md, "export --format
/// sqlite"): the tables of `SchemaMapping`, the values of `ValueMapping`, `_realm_schema`.
///
/// ```swift
/// let exporter = try SQLiteExporter(file: RealmFile(path: "default.realm"))
/// let summary = try exporter.write(toDatabaseAt: "/tmp/new.db")
/// ```
///
/// Everything is one SQLite transaction into a file that must be new or empty. SQLite's
/// journal and syncs are off while it is built: the file is not visible under its final name
/// until the caller renames it, so there is nothing a journal could protect, and a failure is
/// handled by removing the file. The caller syncs the finished file once before the rename
/// (realmsh's `OutputFile` does), which makes the database durable as a whole.
public final class SQLiteExporter {
    public let file: RealmFile
    let mapping: SchemaMapping
    /// Classes with fewer objects are not worth a second thread.
    static let pipelineThreshold = 10_000

    /// `classNames`: the top-level classes to export (empty: all); embedded classes come with
    /// the classes that own them.
    public init(file: RealmFile, classNames: [String] = []) throws(SQLiteExportError) {
        self.file = file
        var selected: [ObjectClass]?
        if !classNames.isEmpty {
            selected = []
            for name in classNames {
                guard let c = file.objectClass(named: name) else { throw .unknownClass(name) }
                guard !c.isEmbedded else { throw .embeddedClass(name) }
                if !selected!.contains(where: { $0 === c }) { selected!.append(c) }
            }
        }
        mapping = try SchemaMapping(file: file, selected: selected)
    }

    /// Writes the database at `path` (a new or empty file). `progress` is called with the
    /// fraction of objects written so far, now and then. On an error the file is left as it
    /// is, half written: remove it.
    public func write(toDatabaseAt path: String, progress: ((Double) -> Void)? = nil) throws(SQLiteExportError) -> SQLiteExportSummary {
        do {
            let db = try SQLiteConnection(path: path)
            guard try db.rows("SELECT count(*) FROM sqlite_schema") == [[.integer(0)]] else { throw SQLiteExportError.notEmpty(path: path) }
            try db.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; BEGIN
                """)
            for table in mapping.tables { try db.execute(table.createStatement) }
            try db.execute(RealmSchemaTable.createStatement)
            let summary = try writeObjects(db, progress: progress)
            for sql in mapping.tables.flatMap(\.indexStatements) { try db.execute(sql) }
            try writeSchemaTable(db)
            try db.execute("COMMIT")
            try db.close()
            progress?(1)
            return summary
        } catch let error as SQLiteExportError {
            throw error
        } catch let error as FormatError {
            throw .reading(error)
        } catch let error as SQLiteError {
            throw .database(error, context: "writing the database")
        } catch {
            // Nothing else throws here; kept as a message rather than a trap.
            throw .database(SQLiteError(code: 1, message: "\(error)", sql: ""), context: "writing the database")
        }
    }

    /// Every object of the exported classes, each followed by its collections and embedded
    /// objects (their errors name the class and object).
    private func writeObjects(_ db: SQLiteConnection, progress: ((Double) -> Void)?) throws -> SQLiteExportSummary {
        let writer = try RowWriter(file: file, mapping: mapping, db: db)
        defer { writer.finish() }
        let counts = try writer.classWriters.map { w throws(FormatError) in try file.objectCount(of: w.table.objectClass!) }
        let total = counts.reduce(0, +)
        var summary = SQLiteExportSummary()
        var done = 0
        progress?(0)
        for (w, count) in zip(writer.classWriters, counts) {
            let c = w.table.objectClass!
            var written = 0
            let write = { (keys: [Int64], columns: [[Value]]) throws in
                for (r, key) in keys.enumerated() {
                    try writer.writeObject(w, key: key, columns: columns, row: r, parent: nil, slot: .none)
                }
                written += keys.count
                done += keys.count
                if done >> 10 != (done - keys.count) >> 10 { progress?(Double(done) / Double(total)) }
            }
            // A large class is read on a second thread while its rows are written, when
            // nothing its rows need has to be read from the file meanwhile.
            if count >= Self.pipelineThreshold, writer.needsOnlyResolvedTargets(w) {
                try writer.resolveTargets(of: w)
                try LeafPipeline.forEachLeaf(of: c, in: file, write)
            } else {
                try file.forEachLeaf(of: c, write)
            }
            summary.objects[c.name] = written
        }
        summary.danglingLinks = writer.danglingLinks
        return summary
    }

    private func writeSchemaTable(_ db: SQLiteConnection) throws {
        let statement = try db.prepare(RealmSchemaTable.insertStatement)
        for row in try RealmSchemaTable.rows(file: file, mapping: mapping) {
            for (i, column) in RealmSchemaTable.columns.enumerated() { statement.bind(Int32(i + 1), row[column] ?? .null) }
            try statement.run()
        }
    }
}
