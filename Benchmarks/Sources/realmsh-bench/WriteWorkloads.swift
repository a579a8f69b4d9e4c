import Glibc
import RealmFormat
import RealmObjects
import RealmQuery

/// The write workloads of ../shared/bench/workloads.md, each one durable transaction, realmsh's
/// object-store API (`RealmWriter`: create with the primary key and every property, set, delete)
/// against SQLite (one prepared statement reused, one transaction, `synchronous=FULL`, WAL):
///
/// - 1: bulk insert of all rows, timed from creating the (absent) file to the commit done;
/// - 1b: the workload-1 file copied for shipping: realmsh enumerates the string properties
///   with at most 10 % distinct values (realm-format.md §9.4.4, as realm-core's realm-enumerate
///   does) and compacts; SQLite `VACUUM INTO`;
/// - 9': upsert 100,000 objects by primary key (the §2.4 keys, setting `age = 7`; SQLite
///   `UPDATE … WHERE id = ?` prepared once), on a fresh copy of the workload-1 file;
/// - 10: `score = score + 1` for every object with `age < 10`, run again and again on one
///   working copy (§4);
/// - 11a: delete every object with `age < 50`, on a fresh copy; then 11b compacts that file
///   into a new one (realmsh's compactor / SQLite's `VACUUM INTO`).
///
/// Copies are made and synced before the clock starts. One warm-up run each, then `runs`
/// rounds with the engines alternating; results are checked (§5) every run.
struct WriteWorkloads {
    let rows: Int
    let runs: Int
    let work: String
    let only: Set<String>?

    struct Row {
        let id: String
        let title: String
        var realm = Samples()
        var sqlite = Samples()
        var sizes: (realm: Int, sqlite: Int)?
    }

    func run() throws {
        let people = People.rows(rows)
        try People.checkAgainstSpec(people)
        let realmPath = "\(work)/write-\(rows).realm", sqlitePath = "\(work)/write-\(rows).sqlite"
        let million = rows == 1_000_000
        var table = [Row]()
        func wanted(_ id: String) -> Bool { only.map { $0.contains(id) } ?? true }

        // 1: bulk insert. The last run's files are the base of the other workloads.
        var insert = Row(id: "1", title: "insert \(rows) objects, one transaction")
        try rounds(&insert, realm: (setup: { removeRealm(realmPath) }, run: {
            try insertAll(people, into: realmPath)
        }), sqlite: (setup: { removeSQLite(sqlitePath) }, run: {
            try SQLiteFile.insertAll(people, into: sqlitePath)
        }), check: {
            try expect(try count(realmPath, "TRUEPREDICATE") == rows, "workload 1: realmsh holds the rows")
        })
        insert.sizes = (fileSize(realmPath), fileSize(sqlitePath) + fileSize(sqlitePath + "-wal"))
        table.append(insert)
        try SQLiteDB(path: sqlitePath).exec("PRAGMA wal_checkpoint(TRUNCATE)")

        // 1b: the file as shipped in an app bundle: realm-enumerate's "enumerate the string
        // properties with at most 10 % distinct values, then compact" against SQLite's VACUUM.
        if wanted("1b") {
            var bundle = Row(id: "1b", title: "bundle copy of 1 (strings ≤ 10 % distinct enumerated)")
            let realmOut = "\(work)/write-bundle.realm", sqliteOut = "\(work)/write-bundle.sqlite"
            try rounds(&bundle, realm: (setup: { removeRealm(realmOut) }, run: {
                // As `realmsh compact --enumerate-strings 10 -o OUT` does it: the plan, then the
                // compaction streamed into a temporary file, fsynced, renamed (as 11b).
                let snapshot = try Snapshot(path: realmPath)
                let (plan, _) = try EnumeratedCopy.plan(for: snapshot, maxDistinctPercent: 10)
                try Compactor.compact(snapshot, toFile: realmOut, enumeration: plan)
            }), sqlite: (setup: { removeSQLite(sqliteOut) }, run: {
                try SQLiteFile.open(sqlitePath).exec("VACUUM INTO '\(sqliteOut)'")
            }), check: {
                try expect(try count(realmOut, "TRUEPREDICATE") == rows, "workload 1b: the bundle lost objects")
                try expect(try count(realmOut, "name BEGINSWITH 'B'") == (try count(realmPath, "name BEGINSWITH 'B'")),
                           "workload 1b: the enumerated names read differently")
            })
            bundle.sizes = (fileSize(realmOut), fileSize(sqliteOut))
            table.append(bundle)
        }

        let realmCopy = "\(work)/write-copy.realm", sqliteCopy = "\(work)/write-copy.sqlite"
        let keys = People.lookupKeys().map { $0 % Int64(rows) }

        if wanted("9") {
            var row = Row(id: "9'", title: "upsert \(keys.count) by primary key")
            try rounds(&row, realm: (setup: { try copyRealm(realmPath, realmCopy) }, run: {
                let w = try RealmWriter(path: realmCopy)
                let c = try personClass(w)
                let age = c.property(named: "age")!
                for k in keys {
                    guard let key = try w.objectKey(c, primaryKey: .int(k)) else { throw BenchError("no Person \(k)") }
                    try w.set(c, key: key, age, .int(7))
                }
                try w.commit()
            }), sqlite: (setup: { try copySQLite(sqlitePath, sqliteCopy) }, run: {
                let db = try SQLiteFile.open(sqliteCopy)
                try db.exec("BEGIN")
                let update = try db.prepare("UPDATE Person SET age = 7 WHERE id = ?")
                for k in keys {
                    update.reset()
                    update.bind(1, k)
                    _ = try update.step()
                }
                try db.exec("COMMIT")
            }), check: {
                try expect(try count(realmCopy, "age == 7") == (try SQLiteDB(path: sqliteCopy).int("SELECT count(*) FROM Person WHERE age = 7")),
                           "workload 9': the engines disagree")
            })
            table.append(row)
        }

        if wanted("10") {
            var row = Row(id: "10", title: "score + 1 where age < 10")
            try copyRealm(realmPath, realmCopy)
            try copySQLite(sqlitePath, sqliteCopy)
            var changed = (realm: 0, sqlite: 0)
            try rounds(&row, realm: (setup: {}, run: {
                let w = try RealmWriter(path: realmCopy)
                let c = try personClass(w)
                let score = c.property(named: "score")!
                let selected = try Query(store: ObjectStore(snapshot: w.file.snapshot), className: "Person", "age < 10").objectKeys()
                // The bulk path (`RealmWriter.update`): leaf by leaf, as SQLite's UPDATE runs.
                try w.update(c, keys: selected, score) { old in
                    guard case let .double(v) = old else { throw BenchError("score is not a double") }
                    return .double(v + 1)
                }
                try w.commit()
                changed.realm = selected.count
            }), sqlite: (setup: {}, run: {
                let db = try SQLiteFile.open(sqliteCopy)
                try db.exec("BEGIN")
                try db.exec("UPDATE Person SET score = score + 1 WHERE age < 10")
                changed.sqlite = Int(try db.int("SELECT changes()"))
                try db.exec("COMMIT")
            }), check: {
                if million { try expect(changed.realm == 99_769 && changed.sqlite == 99_769, "workload 10: \(changed) rows, expected 99,769") }
                try expect(changed.realm == changed.sqlite, "workload 10: the engines disagree: \(changed)")
            })
            table.append(row)
        }

        if wanted("11") {
            var row = Row(id: "11a", title: "delete where age < 50")
            var deleted = (realm: 0, sqlite: 0)
            try rounds(&row, realm: (setup: { try copyRealm(realmPath, realmCopy) }, run: {
                let w = try RealmWriter(path: realmCopy)
                let selected = try Query(store: ObjectStore(snapshot: w.file.snapshot), className: "Person", "age < 50").objectKeys()
                try w.delete(className: "Person", keys: selected)
                try w.commit()
                deleted.realm = w.summary.deleted
            }), sqlite: (setup: { try copySQLite(sqlitePath, sqliteCopy) }, run: {
                let db = try SQLiteFile.open(sqliteCopy)
                try db.exec("BEGIN")
                try db.exec("DELETE FROM Person WHERE age < 50")
                deleted.sqlite = Int(try db.int("SELECT changes()"))
                try db.exec("COMMIT")
            }), check: {
                if million { try expect(deleted.realm == 499_486 && deleted.sqlite == 499_486, "workload 11a: \(deleted), expected 499,486") }
                try expect(deleted.realm == deleted.sqlite, "workload 11a: the engines disagree: \(deleted)")
            })
            row.sizes = (fileSize(realmCopy), fileSize(sqliteCopy) + fileSize(sqliteCopy + "-wal"))
            table.append(row)

            var compact = Row(id: "11b", title: "compact into a new file after 11a")
            let realmOut = "\(work)/write-compacted.realm", sqliteOut = "\(work)/write-compacted.sqlite"
            try rounds(&compact, realm: (setup: { removeRealm(realmOut) }, run: {
                // Streamed into a temporary file while it is copied, fsynced, renamed (Compactor+File.swift).
                try Compactor.compact(try Snapshot(path: realmCopy), toFile: realmOut)
            }), sqlite: (setup: { removeSQLite(sqliteOut) }, run: {
                try SQLiteFile.open(sqliteCopy).exec("VACUUM INTO '\(sqliteOut)'")
            }), check: {
                try expect(try count(realmOut, "TRUEPREDICATE") == rows - deleted.realm, "workload 11b: the compacted file lost objects")
            })
            compact.sizes = (fileSize(realmOut), fileSize(sqliteOut))
            table.append(compact)
        }
        report(table)
    }

    // MARK: running

    typealias Contender = (setup: () throws -> Void, run: () throws -> Void)

    /// One warm-up, then `runs` rounds, realmsh and SQLite alternating; setups are not timed.
    func rounds(_ row: inout Row, realm: Contender, sqlite: Contender, check: () throws -> Void) throws {
        print("workload \(row.id): \(row.title) …")
        for round in 0...runs {
            for (k, contender) in [realm, sqlite].enumerated() {
                try contender.setup()
                let start = now()
                try contender.run()
                let elapsed = now() - start
                if round > 0 {
                    if k == 0 { row.realm.seconds.append(elapsed) } else { row.sqlite.seconds.append(elapsed) }
                }
            }
            try check()
        }
    }

    func insertAll(_ people: [Person], into path: String) throws {
        let schema = try JSONParser.parse(RealmFiles.schemaText(indexedAge: false))
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: schema, schemaVersion: 0)
        try RealmFiles.writeFile(path, NewFile.bytes(tableNames: names, tables: try models.map { try TableEncoder.encode($0) }), sync: true)
        let w = try RealmWriter(path: path)
        let c = try personClass(w)
        // Values in the class's property order, whatever it is.
        let order = ["id", "name", "age", "score", "active", "created", "email"].map { name in c.properties.firstIndex { $0.name == name }! }
        var values = [Value](repeating: .null, count: c.properties.count)
        for p in people {
            values[order[0]] = .int(p.id)
            values[order[1]] = .string(Array(p.name.utf8))
            values[order[2]] = .int(p.age)
            values[order[3]] = .double(p.score)
            values[order[4]] = .bool(p.active)
            values[order[5]] = .timestamp(Timestamp(seconds: p.created, nanoseconds: 0))
            values[order[6]] = p.email.map { .string(Array($0.utf8)) } ?? .null
            try w.create(c, values: values)
        }
        try w.commit()
    }

    func personClass(_ w: RealmWriter) throws -> ObjectClass {
        guard let c = w.file.objectClass(named: "Person") else { throw BenchError("no Person class") }
        return c
    }

    func count(_ path: String, _ rql: String) throws -> Int {
        try Query(store: ObjectStore(snapshot: Snapshot(path: path)), className: "Person", rql).count()
    }

    func removeRealm(_ path: String) {
        unlink(path)
        unlink(path + ".lock")
    }

    func removeSQLite(_ path: String) { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }

    func copyRealm(_ from: String, _ to: String) throws {
        removeRealm(to)
        try copyFile(from, to)
    }

    func copySQLite(_ from: String, _ to: String) throws {
        removeSQLite(to)
        try copyFile(from, to)
    }

    // MARK: report

    func report(_ table: [Row]) {
        print("\n\(rows) rows, \(runs) timed runs after one warm-up, engines alternating; medians (min–max)")
        print("ratio = SQLite median / realmsh median (> 1: realmsh faster); sizes after the workload\n")
        func mb(_ bytes: Int) -> String { String(format1: Double(bytes) / 1_000_000, decimals: 1) + " MB" }
        print(pad("#", 5) + pad("workload", 38) + pad("realmsh", 30) + pad("SQLite", 30) + pad("ratio", 9) + "file sizes (realmsh / SQLite)")
        for r in table {
            let ratio = r.sqlite.median / r.realm.median
            print(pad(r.id, 5) + pad(r.title, 38) + pad(cell(r.realm), 30) + pad(cell(r.sqlite), 30)
                  + pad(String(format1: ratio, decimals: 2) + "×", 9) + (r.sizes.map { "\(mb($0.realm)) / \(mb($0.sqlite))" } ?? ""))
        }
    }
}

func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}

/// Copies a file and syncs the copy, so that flushing it is not charged to the next commit.
func copyFile(_ from: String, _ to: String) throws {
    let input = open(from, O_RDONLY)
    guard input >= 0 else { throw BenchError("cannot open \(from)") }
    defer { close(input) }
    let output = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard output >= 0 else { throw BenchError("cannot create \(to)") }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if n == 0 { break }
        guard n > 0, buffer.withUnsafeBytes({ write(output, $0.baseAddress, n) }) == n else { throw BenchError("cannot copy \(from)") }
    }
    guard fsync(output) == 0 else { throw BenchError("cannot sync \(to)") }
}
