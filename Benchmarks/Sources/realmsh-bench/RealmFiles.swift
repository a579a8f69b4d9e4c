import Glibc
import RealmFormat
import RealmObjects

/// Builds the Realm files of the benchmark with realmsh's own writer (what `realmsh create` and
/// `realmsh import` do), in process: the schema of workloads.md §1, then all rows in one write
/// transaction. Not timed.
enum RealmFiles {
    /// The classes JSON of `realmsh schema --format json`; `age` indexed for workload 3b.
    static func schemaText(indexedAge: Bool) -> String {
        let properties: [(String, String, Bool)] = [("id", "int", false), ("name", "string", false), ("age", "int", false),
                                                    ("score", "double", false), ("active", "bool", false),
                                                    ("created", "date", false), ("email", "string", true)]
        let items = properties.map { name, type, optional in
            let indexed = name == "id" || (indexedAge && name == "age")
            return #"{"name": "\#(name)", "type": "\#(type)", "optional": \#(optional), "indexed": \#(indexed), "primaryKey": \#(name == "id"), "collection": null, "objectType": null, "linkOrigin": null}"#
        }
        return #"[{"name": "Person", "primaryKey": "id", "embedded": false, "properties": [\#(items.joined(separator: ", "))]}]"#
    }

    static func build(path: String, rows: [Person], indexedAge: Bool) throws {
        let schema = try JSONParser.parse(schemaText(indexedAge: indexedAge))
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: schema, schemaVersion: 0)
        var tables = [MutableNode]()
        for m in models { tables.append(try TableEncoder.encode(m)) }
        try writeFile(path, NewFile.bytes(tableNames: names, tables: tables))
        let writer = try RealmWriter(path: path)
        try writer.write(className: "Person", objects: rows.map(json), policy: .insert)
        try writer.commit()
    }

    static func json(_ p: Person) -> JSONValue {
        func s(_ text: String) -> JSONValue { .string(Array(text.utf8)) }
        return .object([
            ("id", .number(String(p.id))),
            ("name", s(p.name)),
            ("age", .number(String(p.age))),
            ("score", .number(p.score.description)),
            ("active", .bool(p.active)),
            ("created", .object([("$date", .object([("$numberLong", .string(Array(String(p.created * 1000).utf8)))]))])),
            ("email", p.email.map(s) ?? .null),
        ])
    }

    static func writeFile(_ path: String, _ bytes: [UInt8], sync: Bool = false) throws {
        guard let f = fopen(path, "wb") else { throw BenchError("cannot create \(path)") }
        defer { fclose(f) }
        guard fwrite(bytes, 1, bytes.count, f) == bytes.count else { throw BenchError("cannot write \(path)") }
        if sync { guard fflush(f) == 0, fsync(fileno(f)) == 0 else { throw BenchError("cannot sync \(path)") } }
    }
}

/// The SQLite database of the benchmark: §1's DDL, the same rows, WAL mode. Not timed.
enum SQLiteFile {
    static func build(path: String, rows: [Person]) throws {
        try insertAll(rows, into: path)
        try SQLiteDB(path: path).exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// A connection as the write workloads use it: WAL, `synchronous=FULL` (durable commits).
    static func open(_ path: String) throws -> SQLiteDB {
        let db = try SQLiteDB(path: path)
        try db.exec("PRAGMA journal_mode=WAL")
        try db.exec("PRAGMA synchronous=FULL")
        return db
    }

    /// Workload 1: a new database, the rows in one transaction with one prepared statement.
    static func insertAll(_ rows: [Person], into path: String) throws {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let db = try open(path)
        try db.exec("""
            CREATE TABLE Person(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL,
                                score REAL NOT NULL, active INTEGER NOT NULL, created INTEGER NOT NULL, email TEXT)
            """)
        try db.exec("BEGIN")
        let insert = try db.prepare("INSERT INTO Person(id,name,age,score,active,created,email) VALUES(?,?,?,?,?,?,?)")
        for p in rows {
            insert.reset()
            insert.bind(1, p.id)
            insert.bind(2, p.name)
            insert.bind(3, p.age)
            insert.bind(4, p.score)
            insert.bind(5, Int64(p.active ? 1 : 0))
            insert.bind(6, p.created)
            if let e = p.email { insert.bind(7, e) } else { insert.bindNull(7) }
            _ = try insert.step()
        }
        try db.exec("COMMIT")
    }
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// Makes a benchmark input once: kept in the work directory between runs. `build` writes the
/// path it is given (`path` + ".tmp"), which is then renamed into place, so an interrupted build
/// leaves nothing that passes for a finished file.
func buildOnce(_ path: String, _ build: (String) throws -> Void) throws {
    guard !fileExists(path) else { return }
    print("building \(path) …")
    let start = now()
    try build(path + ".tmp")
    guard rename(path + ".tmp", path) == 0 else { throw BenchError("rename \(path)") }
    print("  \(milliseconds(now() - start))")
}
