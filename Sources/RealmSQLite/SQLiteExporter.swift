import RealmFormat
import RealmObjects

/// What an export wrote.
public struct SQLiteExportSummary: Sendable, Equatable {
    /// Objects written per top-level class.
    public var objects: [String: Int] = [:]
    public var embeddedObjects = 0
    /// Rows of list, set and dictionary tables.
    public var collectionRows = 0
    /// Links to objects that do not exist (only damaged or oddly upgraded files have them),
    /// written as NULL or, in lists and sets, left out.
    public var danglingLinks = 0
    public var tables = 0
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

    /// The `CREATE` statements of the export, in order (for `--dry-run`-style listings and tests).
    public var schemaStatements: [String] {
        mapping.tables.map(\.createStatement) + [RealmSchemaTable.createStatement] + mapping.tables.flatMap(\.indexStatements)
    }

    /// Writes the database at `path` (a new or empty file). `progress` is called with the
    /// fraction of objects written so far, now and then. On an error the file is left as it
    /// is, half written: remove it.
    public func write(toDatabaseAt path: String, progress: ((Double) -> Void)? = nil) throws(SQLiteExportError) -> SQLiteExportSummary {
        let db: SQLiteConnection
        do { db = try SQLiteConnection(path: path) } catch { throw .database(error, context: "cannot create \(path)") }
        do {
            let existing = try db.rows("SELECT count(*) FROM sqlite_schema")
            guard existing.first?.first == .integer(0) else { throw SQLiteExportError.notEmpty(path: path) }
            try db.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; BEGIN
                """)
            for table in mapping.tables { try db.execute(table.createStatement) }
            try db.execute(RealmSchemaTable.createStatement)
        } catch let error as SQLiteError {
            throw .database(error, context: "creating the tables in \(path)")
        } catch let error as SQLiteExportError {
            throw error
        } catch {
            throw .database(SQLiteError(code: 1, message: "\(error)", sql: ""), context: path)
        }
        var summary = SQLiteExportSummary()
        do {
            let writer = try RowWriter(file: file, mapping: mapping, db: db)
            let total = try mapping.classTables.reduce(0) { n, t throws(FormatError) in try n + file.objectCount(of: t.objectClass!) }
            var done = 0
            progress?(0)
            for w in writer.classWriters {
                let c = w.table.objectClass!
                var count = 0
                let write = { (keys: [Int64], columns: [[Value]]) throws in
                    for (r, key) in keys.enumerated() {
                        try writer.writeObject(w, key: key, columns: columns, row: r, parent: nil, slot: .none)
                    }
                    count += keys.count
                    done += keys.count
                    if done & ~1023 != (done - keys.count) & ~1023, total > 0 { progress?(Double(done) / Double(total)) }
                }
                // A large class is read on a second thread while its rows are written, when
                // nothing its rows need has to be read from the file meanwhile.
                if try file.objectCount(of: c) >= Self.pipelineThreshold, writer.needsOnlyResolvedTargets(w) {
                    try writer.resolveTargets(of: w)
                    try LeafPipeline.forEachLeaf(of: c, in: file, write)
                } else {
                    try file.forEachLeaf(of: c, write)
                }
                summary.objects[c.name] = count
            }
            for table in mapping.tables {
                for sql in table.indexStatements { try run(db, sql, context: "indexing \(table.name)") }
            }
            try writeSchemaTable(db)
            summary.embeddedObjects = writer.embeddedRows
            summary.collectionRows = writer.collectionRows
            summary.danglingLinks = writer.danglingLinks
            summary.tables = mapping.tables.count + 1
            writer.finish()
            try run(db, "COMMIT", context: "committing \(path)")
            try db.close()
        } catch let error as SQLiteExportError {
            throw error
        } catch let error as FormatError {
            throw .reading(error)
        } catch let error as SQLiteError {
            throw .database(error, context: path)
        } catch {
            throw .database(SQLiteError(code: 1, message: "\(error)", sql: ""), context: path)
        }
        progress?(1)
        return summary
    }

    private func run(_ db: SQLiteConnection, _ sql: String, context: String) throws(SQLiteExportError) {
        do { try db.execute(sql) } catch { throw .database(error, context: context) }
    }

    private func writeSchemaTable(_ db: SQLiteConnection) throws {
        let statement: SQLiteStatement
        do { statement = try db.prepare(RealmSchemaTable.insertStatement) } catch {
            throw SQLiteExportError.database(error, context: "writing \(SchemaMapping.schemaTable)")
        }
        for row in try RealmSchemaTable.rows(file: file, mapping: mapping) {
            for (i, column) in RealmSchemaTable.columns.enumerated() { statement.bind(Int32(i + 1), row[column] ?? .null) }
            do { try statement.run() } catch { throw SQLiteExportError.database(error, context: "writing \(SchemaMapping.schemaTable)") }
        }
    }
}
