import CSQLite

/// A minimal SQLite connection: statements, steps, columns. Errors carry SQLite's message.
final class SQLiteDB {
    let handle: OpaquePointer

    init(path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else {
            throw BenchError("sqlite3_open \(path) failed")
        }
        handle = db
    }

    deinit { sqlite3_close(handle) }

    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw BenchError("sqlite: \(text) in \(sql)")
        }
    }

    func prepare(_ sql: String) throws -> Statement { try Statement(self, sql) }

    /// The first column of the first row of a one-row query, as an integer.
    func int(_ sql: String) throws -> Int64 {
        let s = try prepare(sql)
        guard try s.step() else { throw BenchError("no row from \(sql)") }
        return s.int(0)
    }

    final class Statement {
        let handle: OpaquePointer
        let db: SQLiteDB

        init(_ db: SQLiteDB, _ sql: String) throws {
            var s: OpaquePointer?
            guard sqlite3_prepare_v2(db.handle, sql, -1, &s, nil) == SQLITE_OK, let s else {
                throw BenchError("sqlite prepare: \(String(cString: sqlite3_errmsg(db.handle))) in \(sql)")
            }
            handle = s
            self.db = db
        }

        deinit { sqlite3_finalize(handle) }

        /// true: a row is ready; false: done.
        func step() throws -> Bool {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw BenchError("sqlite step: \(String(cString: sqlite3_errmsg(db.handle)))")
            }
        }

        func reset() { sqlite3_reset(handle) }
        func bind(_ i: Int32, _ v: Int64) { sqlite3_bind_int64(handle, i, v) }
        func bind(_ i: Int32, _ v: Double) { sqlite3_bind_double(handle, i, v) }
        func bindNull(_ i: Int32) { sqlite3_bind_null(handle, i) }
        func bind(_ i: Int32, _ v: String) {
            // SQLITE_TRANSIENT: SQLite copies the text.
            sqlite3_bind_text(handle, i, v, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        func int(_ c: Int32) -> Int64 { sqlite3_column_int64(handle, c) }
        func double(_ c: Int32) -> Double { sqlite3_column_double(handle, c) }
    }
}
