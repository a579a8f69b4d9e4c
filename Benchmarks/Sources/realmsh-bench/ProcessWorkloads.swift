import Glibc
import RealmFormat
import RealmObjects

/// `realmsh-bench process --realmsh PATH`: workloads as a user runs them, one new process each
/// (the file already in the page cache), the `realmsh` binary against the `sqlite3` shell on
/// the same rows, with each process's wall time and CPU time (`wait4`) and its peak RSS, from one
/// more run under `/usr/bin/time` ("Maximum resident set size"): a child spawned from this
/// process would report this process's own peak, which Linux carries across `exec`.
///
/// - 2, 5: `realmsh query FILE Person 'RQL' --format count` / `sqlite3 FILE 'SELECT count(*) …'`;
/// - 12: cold-ish open — `realmsh info FILE` (classes with their object counts) /
///   `sqlite3 FILE 'SELECT name, sql FROM sqlite_schema; SELECT count(*) FROM Person'`;
/// - each of them also on an encrypted copy of the Realm file (`--key-file`), the rows issue
///   #16 asks for (realm-format.md §14: pages decrypted as they are first read);
/// - import: `realmsh import NEW Person people.csv` into a file just made by `realmsh create`
///   (not timed) against `sqlite3`'s `.import --csv` of the same CSV (written by
///   `realmsh export --format csv`) into a new database holding the same table.
///
/// - the other workloads of §4 a command line can run: ProcessMoreWorkloads.swift.
///
/// One warm-up run each, then `runs` rounds with the contenders alternating; every output is
/// checked (counts against §5 at 1,000,000 rows, and between the engines).
struct ProcessWorkloads {
    let rows: Int
    let runs: Int
    let work: String
    let realmsh: String
    let sqlite3 = "/usr/bin/sqlite3"

    struct Measure {
        var wall = Samples(), cpu = Samples()
        var peakKB = 0
    }

    func run() throws {
        guard access(realmsh, X_OK) == 0 else { throw BenchError("\(realmsh) is not an executable (--realmsh PATH: a release build of realmsh)") }
        guard access(sqlite3, X_OK) == 0 else { throw BenchError("\(sqlite3) is missing (apt-get install -y sqlite3)") }
        let realmPath = "\(work)/people-\(rows).realm", sqlitePath = "\(work)/people-\(rows).sqlite"
        if ![realmPath, sqlitePath, indexed.realm].allSatisfy(fileExists) {
            // Only while building: the rows take ~1 GB, which nothing measured should sit beside.
            let people = People.rows(rows)
            try People.checkAgainstSpec(people)
            try buildOnce(realmPath) { try RealmFiles.build(path: $0, rows: people, indexedAge: false) }
            try buildOnce(sqlitePath) { try SQLiteFile.build(path: $0, rows: people) }
            try buildOnce(indexed.realm) { try RealmFiles.build(path: $0, rows: people, indexedAge: true) }
        }
        try buildOnce(indexed.sqlite) { temporary in
            try copyFile(sqlitePath, temporary)
            try SQLiteFile.open(temporary).exec("CREATE INDEX person_age ON Person(age)")
        }
        let encryptedPath = "\(work)/people-\(rows)-encrypted.realm", keyPath = "\(work)/people-\(rows).key"
        try buildOnce(encryptedPath) { temporary in
            guard let key = EncryptedFile.generateKey() else { throw BenchError("no random key") }
            let hex = key.bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            try RealmFiles.writeFile(keyPath, Array(hex.utf8))
            let image = try Snapshot(path: realmPath).image
            let bytes = try EncryptedFile.encrypt(EncryptedFile.layoutForEncryption(image.copy(0, image.count)), key: key)
            try RealmFiles.writeFile(temporary, bytes, sync: true)
        }
        let million = rows == 1_000_000
        print("process workloads: \(rows) Person objects, \(realmsh) against \(sqlite3), one process per run")
        print(pad("#", 5) + pad("workload", 26) + pad("engine", 22) + pad("wall median (min–max)", 28) + pad("CPU median", 12) + "peak RSS")

        let counts: [(id: String, rql: String, sql: String, want: Int?)] = [
            ("2", "age > 50", "SELECT count(*) FROM Person WHERE age > 50", million ? 490_543 : nil),
            ("5", "name CONTAINS[c] 'ar'", "SELECT count(*) FROM Person WHERE name LIKE '%ar%'", million ? 306_985 : nil),
        ]
        for c in counts {
            let query = { (path: String, key: [String]) in [realmsh, "query", path, "Person", c.rql, "--format", "count"] + key }
            var agreed: String?
            let check = { (out: String) throws in
                let n = out.trimmingWhitespace
                if let want = c.want { try expect(n == String(want), "workload \(c.id): \(n), expected \(want)") }
                if let a = agreed { try expect(a == n, "workload \(c.id): \(n) against \(a)") } else { agreed = n }
            }
            let m = try measure([
                Contender(name: "realmsh", argv: query(realmPath, [])),
                Contender(name: "realmsh encrypted", argv: query(encryptedPath, ["--key-file", keyPath])),
                Contender(name: "sqlite3", argv: [sqlite3, sqlitePath, c.sql]),
            ]) { _, out in try check(out) }
            report(c.id, c.rql, ["realmsh", "realmsh encrypted", "sqlite3"], m)
        }

        // 12: the schema and the object count, nothing scanned.
        let m12 = try measure([
            Contender(name: "realmsh", argv: [realmsh, "info", realmPath]),
            Contender(name: "realmsh encrypted", argv: [realmsh, "info", encryptedPath, "--key-file", keyPath]),
            Contender(name: "sqlite3", argv: [sqlite3, sqlitePath, "SELECT name, sql FROM sqlite_schema; SELECT count(*) FROM Person"]),
        ]) { name, out in
            if name == "sqlite3" {
                try expect(out.contains("Person") && out.hasSuffix(String(rows) + "\n"), "workload 12: sqlite3 printed \(out.suffix(40))")
            } else {
                try expect(out.contains("Person") && out.contains(String(rows)), "workload 12: info does not show Person's \(rows) objects")
            }
        }
        report("12", "open: schema + count", ["realmsh", "realmsh encrypted", "sqlite3"], m12)

        try importRow(realmPath)
        try moreWorkloads(realmPath: realmPath, sqlitePath: sqlitePath, indexed: indexed)
    }

    /// Copies of both files with `age` indexed (workload 3b), kept in the work directory.
    var indexed: (realm: String, sqlite: String) {
        ("\(work)/people-\(rows)-age-indexed.realm", "\(work)/people-\(rows)-age-indexed.sqlite")
    }

    /// `realmsh import` of the rows as CSV into a new file against `sqlite3 .import` of the
    /// same CSV into a new database.
    func importRow(_ realmPath: String) throws {
        let csvPath = "\(work)/people-\(rows)-export.csv", schemaPath = "\(work)/people-schema.json"
        if !fileExists(csvPath) {
            let export = try capture([realmsh, "export", realmPath, "--class", "Person", "--format", "csv", "-o", csvPath, "--force"])
            try expect(export.status == 0, "realmsh export --format csv failed")
        }
        try RealmFiles.writeFile(schemaPath, Array(RealmFiles.schemaText(indexedAge: false).utf8))
        let imported = "\(work)/import-cli-\(rows).realm", database = "\(work)/import-cli-\(rows).db"
        let script = "\(work)/import-cli.sql"
        try RealmFiles.writeFile(script, Array("\(ExportWorkload.table)\n.import --csv --skip 1 \(csvPath) Person\n".utf8))
        var realm = Measure(), sqlite = Measure()
        for round in 0...runs {
            for path in [imported, imported + ".lock", imported + ".note"] { unlink(path) }
            try expect(try capture([realmsh, "create", "--schema", schemaPath, imported]).status == 0, "realmsh create failed")
            let r = try capture([realmsh, "import", imported, "Person", csvPath])
            try expect(r.status == 0, "realmsh import failed: \(r.output.prefix(200))")
            unlink(database)
            let s = try capture([sqlite3, database, ".read \(script)"])
            try expect(s.status == 0, "sqlite3 .import failed: \(s.output.prefix(200))")
            if round == 0 {
                let realmCount = try capture([realmsh, "query", imported, "Person", "TRUEPREDICATE", "--format", "count"]).output.trimmingWhitespace
                let sqliteCount = try capture([sqlite3, database, "SELECT count(*) FROM Person"]).output.trimmingWhitespace
                try expect(realmCount == String(rows) && sqliteCount == String(rows), "import: \(realmCount) / \(sqliteCount) rows, expected \(rows)")
                continue
            }
            realm.add(r)
            sqlite.add(s)
        }
        unlink(database)
        for path in [imported, imported + ".lock", imported + ".note"] { unlink(path) }
        try expect(try capture([realmsh, "create", "--schema", schemaPath, imported]).status == 0, "realmsh create failed")
        realm.peakKB = try peakRSS([realmsh, "import", imported, "Person", csvPath])
        sqlite.peakKB = try peakRSS([sqlite3, database, ".read \(script)"])
        report("imp", "import \(rows) rows of CSV", ["realmsh import", "sqlite3 .import"], [realm, sqlite])
        print("    (sqlite3 stores a null email as ''; the realm file holds null)")
    }

    /// One command to measure: `setup` runs before each of its runs, untimed (a fresh copy of
    /// the file a write changes).
    struct Contender {
        let name: String
        let argv: [String]
        var setup: () throws -> Void = {}
    }

    /// One warm-up, then `runs` rounds, contenders alternating; each output checked (`check`
    /// gets the contender's name and what it printed); then one run each for the peak RSS.
    func measure(_ contenders: [Contender], check: (String, String) throws -> Void) throws -> [Measure] {
        var out = Array(repeating: Measure(), count: contenders.count)
        for round in 0...runs {
            for (k, c) in contenders.enumerated() {
                try c.setup()
                let r = try capture(c.argv)
                try expect(r.status == 0, "\(c.name) exited \(r.status): \(r.output.prefix(200))")
                try check(c.name, r.output)
                if round > 0 { out[k].add(r) }
            }
        }
        for (k, c) in contenders.enumerated() {
            try c.setup()
            out[k].peakKB = try peakRSS(c.argv)
        }
        return out
    }

    /// Peak RSS in KB of one run of `argv` under `/usr/bin/time -f %M` (its child starts afresh).
    func peakRSS(_ argv: [String]) throws -> Int {
        let report = "\(work)/peak-rss.txt"
        let r = try capture(["/usr/bin/time", "-f", "%M", "-o", report] + argv)
        try expect(r.status == 0, "\(argv[0]) under /usr/bin/time exited \(r.status)")
        let text = try Platform.readFile(report)
        return Int(String(decoding: text, as: UTF8.self).trimmingWhitespace) ?? 0
    }

    func report(_ id: String, _ title: String, _ names: [String], _ m: [Measure]) {
        for (k, name) in names.enumerated() {
            print(pad(k == 0 ? id : "", 5) + pad(k == 0 ? title : "", 26) + pad(name, 22) + pad(cell(m[k].wall), 28)
                  + pad(milliseconds(m[k].cpu.median), 12) + String(m[k].peakKB / 1024) + " MB")
        }
        let base = m[0].wall.median
        let ratios = names.indices.dropFirst().map { "\(names[$0]) / \(names[0]): \(String(format1: m[$0].wall.median / base, decimals: 2))" }
        print(pad("", 31) + ratios.joined(separator: ", "))
    }

    struct Run {
        let status: Int32
        let output: String
        let wall: Double
        let cpu: Double
        let peakKB: Int
    }

    /// Runs `argv` with stdout (and stderr) read through a pipe; wall clock around spawn to
    /// exit, CPU time and peak RSS of that child from `wait4`.
    func capture(_ argv: [String]) throws -> Run {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let start = now()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
        close(pipeFDs[1])
        guard spawned == 0 else { close(pipeFDs[0]); throw BenchError("cannot run \(argv[0])") }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(pipeFDs[0], &buffer, buffer.count)
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        close(pipeFDs[0])
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { throw BenchError("wait4 failed") }
        let wall = now() - start
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(status: exit, output: String(decoding: output, as: UTF8.self), wall: wall, cpu: cpu, peakKB: usage.ru_maxrss)
    }
}

extension ProcessWorkloads.Measure {
    mutating func add(_ r: ProcessWorkloads.Run) {
        wall.seconds.append(r.wall)
        cpu.seconds.append(r.cpu)
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
