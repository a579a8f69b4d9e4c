import CSQLite

/// What SQLite said when it refused something: its result code, its message, and the statement.
public struct SQLiteError: Error, Sendable, Equatable {
    /// The extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY`, `SQLITE_IOERR_WRITE`, …).
    public let code: Int32
    public let message: String
    /// The SQL that failed (empty for `open`/`close`).
    public let sql: String

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { code & 0xFF }
    /// A constraint of the new database failed: the data broke a rule (duplicate primary key,
    /// NULL in a required column) — bad input, not a broken disk.
    public var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }
    /// The disk failed or filled up.
    public var isIO: Bool { primaryCode == SQLITE_IOERR || primaryCode == SQLITE_FULL }
    /// The database file could not be opened or created.
    public var isCannotOpen: Bool { primaryCode == SQLITE_CANTOPEN || primaryCode == SQLITE_READONLY || primaryCode == SQLITE_PERM }
}

/// One SQLite connection. All of libsqlite3's C calls live in this file (this type,
/// `SQLiteStatement`, `BindArena`), so the rest of the module never touches a pointer.
public final class SQLiteConnection {
    private var handle: OpaquePointer?

    /// SQLite's memory statistics off, before the first connection initializes the library:
    /// they cost a global mutex per allocation, and nothing here reads them.
    private static let configured: Void = { _ = realmsh_sqlite3_disable_memstatus() }()

    /// Opens (or creates) the database at `path` for reading and writing.
    public init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        Self.configured
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message, sql: "")
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
    }

    deinit { if let handle { sqlite3_close_v2(handle) } }

    /// Closes the connection (statements still alive close it when they go).
    public func close() throws(SQLiteError) {
        guard let db = handle else { return }
        handle = nil
        let rc = sqlite3_close_v2(db)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: "close failed", sql: "") }
    }

    var db: OpaquePointer {
        // A closed connection is a programming error of this module, never input.
        guard let handle else { preconditionFailure("SQLite connection used after close") }
        return handle
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(db), message: text, sql: sql)
        }
    }

    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Every row of a query, each as its column values (for checks and tests, not bulk work).
    public func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        for (i, a) in arguments.enumerated() { statement.bind(Int32(i + 1), a) }
        var out = [[SQLiteValue]]()
        while try statement.step() {
            out.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return out
    }

    func error(sql: String) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)), sql: sql)
    }
}

/// A value as SQLite stores it (its five storage classes).
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    public var text: String? {
        if case let .text(b) = self { return String(decoding: b, as: UTF8.self) }
        return nil
    }
}

/// A prepared statement, reused row after row. Text and blob parameters are copied into the
/// statement's `BindArena` and bound without a copy by SQLite (`SQLITE_STATIC`), so binding
/// allocates nothing once the arena has grown to the largest row.
public final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection
    public let sql: String
    private let arena = BindArena()

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw connection.error(sql: sql) }
        handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }
    public func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    public func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }

    /// Text as it is, also invalid UTF-8 or with NUL bytes (SQLite never checks).
    public func bindText(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bindText(index, $0) }
    }

    public func bindText(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        let p = arena.copy(bytes)
        sqlite3_bind_text64(handle, index, p.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
    }

    public func bindBlob(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { b in
            // A NULL pointer would bind NULL, not an empty blob; the arena never returns one.
            _ = sqlite3_bind_blob64(handle, index, arena.copy(b), UInt64(b.count), nil)
        }
    }

    public func bind(_ index: Int32, _ value: SQLiteValue) {
        switch value {
        case .null: bindNull(index)
        case let .integer(v): bind(index, v)
        case let .real(v): bind(index, v)
        case let .text(b): bindText(index, b)
        case let .blob(b): bindBlob(index, b)
        }
    }

    /// true: a row is ready; false: the statement is done (and reset for the next use).
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        let error = rc == SQLITE_DONE ? nil : connection.error(sql: sql)
        sqlite3_reset(handle)
        arena.reset()
        if let error { throw error }
        return false
    }

    /// Runs a statement that returns no rows (an INSERT with its parameters bound).
    public func run() throws(SQLiteError) {
        _ = try step()
    }

    public func columnName(at column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    public func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(columnBytes(column, text: true))
        case SQLITE_BLOB: return .blob(columnBytes(column, text: false))
        default: return .null
        }
    }

    private func columnBytes(_ column: Int32, text: Bool) -> [UInt8] {
        // The pointer first, then the size (SQLite's documented order).
        let p = text ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
        let n = Int(sqlite3_column_bytes(handle, column))
        guard let p, n > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}

/// Memory for the text and blob parameters of one row, stable until the statement has run.
/// Chunks are never moved while a row is being bound (a pointer SQLite holds stays valid);
/// after the row, a row that needed several chunks leaves one chunk big enough for all of it.
final class BindArena {
    private var chunks: [UnsafeMutableRawPointer] = []
    private var capacities: [Int] = []
    private var used = 0
    private var total = 0

    init() { addChunk(64 << 10) }

    deinit { for c in chunks { c.deallocate() } }

    private func addChunk(_ size: Int) {
        chunks.append(.allocate(byteCount: size, alignment: 16))
        capacities.append(size)
        used = 0
    }

    /// A copy of `bytes` that lives until `reset()`; never nil, also for no bytes.
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        if used + bytes.count > capacities[capacities.count - 1] {
            addChunk(max(bytes.count, capacities[capacities.count - 1] * 2))
        }
        let p = chunks[chunks.count - 1] + used
        if let base = bytes.baseAddress, bytes.count > 0 { p.copyMemory(from: base, byteCount: bytes.count) }
        used += bytes.count
        total += bytes.count
        return p
    }

    func reset() {
        if chunks.count > 1 {
            let size = capacities.reduce(0, +)
            for c in chunks { c.deallocate() }
            chunks = []
            capacities = []
            addChunk(max(size, total))
        }
        used = 0
        total = 0
    }
}
