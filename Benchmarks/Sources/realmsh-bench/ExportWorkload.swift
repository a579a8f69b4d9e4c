import Glibc
import RealmFormat
import RealmObjects
import RealmSQLite

/// `realmsh-bench sqlite-export`: the workload-1 rows (../shared/bench/workloads.md §2) as a
/// Realm file exported to a new SQLite database by RealmSQLite — timed from opening the realm
/// to the database synced and renamed into place, as `realmsh export --format sqlite -o`
/// does — against the `sqlite3` shell's own `.import` of the same rows from CSV into a new
/// database with the same table (`.import` runs in one transaction, with the shell's default
/// journal and `synchronous=FULL`), timed around the `sqlite3` process.
///
/// The CSV holds the values as the export writes them (dates as ISO text with nine fraction
/// digits, booleans 0/1), so both databases hold the same bytes but for `email`: `.import`
/// stores an empty field as '' where the export stores NULL. Both results are checked.
struct ExportWorkload {
    let rows: Int
    let runs: Int
    let work: String
    let sqlite3 = "/usr/bin/sqlite3"

    static let table = """
        CREATE TABLE "Person" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "age" INTEGER NOT NULL, \
        "score" REAL NOT NULL, "active" BOOLEAN NOT NULL, "created" TEXT NOT NULL, "email" TEXT);
        """

    func run() throws {
        let people = People.rows(rows)
        try People.checkAgainstSpec(people)
        let realmPath = "\(work)/people-\(rows).realm", csvPath = "\(work)/people-\(rows).csv"
        try buildOnce(realmPath) { try RealmFiles.build(path: $0, rows: people, indexedAge: false) }
        if !fileExists(csvPath) {
            print("writing \(csvPath) …")
            try RealmFiles.writeFile(csvPath, csv(people))
        }
        guard access(sqlite3, X_OK) == 0 else { throw BenchError("\(sqlite3) is missing (apt-get install -y sqlite3)") }
        let exported = "\(work)/export-\(rows).db", imported = "\(work)/import-\(rows).db"
        let importScript = "\(work)/import.sql"
        try RealmFiles.writeFile(importScript, Array("\(Self.table)\n.import --csv --skip 1 \(csvPath) Person\n".utf8))

        print("sqlite-export: \(rows) Person objects to a new SQLite database …")
        // Wall clock, and CPU time (user + system): on a shared machine the CPU time is the
        // steadier measure of the work each one does.
        var realm = Samples(), shell = Samples(), realmCPU = Samples(), shellCPU = Samples()
        for round in 0...runs {
            unlink(exported)
            var start = now(), cpu = cpuSeconds(RUSAGE_SELF)
            try export(realmPath, to: exported)
            if round > 0 {
                realm.seconds.append(now() - start)
                realmCPU.seconds.append(cpuSeconds(RUSAGE_SELF) - cpu)
            }

            unlink(imported)
            start = now()
            cpu = cpuSeconds(RUSAGE_CHILDREN)
            guard system("\(sqlite3) \(imported) < \(importScript)") == 0 else { throw BenchError("sqlite3 .import failed") }
            if round > 0 {
                shell.seconds.append(now() - start)
                shellCPU.seconds.append(cpuSeconds(RUSAGE_CHILDREN) - cpu)
            }
            try check(exported, imported)
        }
        print("")
        print(pad("", 44) + pad("wall: median (min–max)", 30) + "CPU: median (min–max)")
        print(pad("realmsh export --format sqlite (in process)", 44) + pad(cell(realm), 30) + cell(realmCPU))
        print(pad("sqlite3 .import of the CSV (a process)", 44) + pad(cell(shell), 30) + cell(shellCPU))
        print("ratio (sqlite3 .import / realmsh export): wall \(String(format1: shell.median / realm.median, decimals: 2)), "
              + "CPU \(String(format1: shellCPU.median / realmCPU.median, decimals: 2))")
        // What the export spends reading: every object's values, decoded leaf by leaf.
        var reading = Samples()
        for _ in 0..<runs {
            let start = now()
            let file = try RealmFile(path: realmPath)
            var n = 0
            try file.forEachObject(of: file.classes[0]) { _, values in n += values.count }
            reading.seconds.append(now() - start)
            try expect(n == rows * 7, "read \(n) values")
        }
        print(pad("of which reading the realm (forEachObject)", 44) + cell(reading))
        print("sizes: export \(fileSize(exported)) bytes, import \(fileSize(imported)) bytes, CSV \(fileSize(csvPath)) bytes")
    }

    func cpuSeconds(_ who: __rusage_who) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(who.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// What `SQLiteOutput` does, without the shell: write a temporary file, sync, rename.
    func export(_ realmPath: String, to path: String) throws {
        let temporary = path + ".tmp"
        unlink(temporary)
        let file = try RealmFile(path: realmPath)
        _ = try SQLiteExporter(file: file).write(toDatabaseAt: temporary)
        let fd = open(temporary, O_RDONLY)
        guard fd >= 0, fsync(fd) == 0, close(fd) == 0, rename(temporary, path) == 0 else { throw BenchError("cannot sync \(path)") }
    }

    func check(_ exported: String, _ imported: String) throws {
        let sql = "SELECT count(*), sum(age), sum(active), sum(length(name)), max(created), sum(length(email)) FROM Person"
        let a = try SQLiteConnection(path: exported, readOnly: true).rows(sql)
        let b = try SQLiteConnection(path: imported, readOnly: true).rows(sql)
        try expect(a == b, "export and import differ: \(a) vs \(b)")
        try expect(a.first?.first == .integer(Int64(rows)), "the export holds \(String(describing: a.first?.first)) rows, not \(rows)")
        let total = try SQLiteConnection(path: exported, readOnly: true).rows("SELECT total(score) FROM Person")
        if rows == 1_000_000, case let .real(sum)? = total.first?.first {
            try expect(abs(sum - 49_993_055.362) < 0.01, "sum(score) = \(sum)")
        }
    }

    /// The rows as CSV, each value as the export stores it.
    func csv(_ people: [Person]) -> [UInt8] {
        var out = Array("id,name,age,score,active,created,email\n".utf8)
        out.reserveCapacity(people.count * 96)
        for p in people {
            var date = [UInt8]()
            DateText.append(Timestamp(seconds: p.created, nanoseconds: 0), to: &date, fullFraction: true)
            let line = "\(p.id),\(p.name),\(p.age),\(p.score),\(p.active ? 1 : 0),\(String(decoding: date, as: UTF8.self)),\(p.email ?? "")\n"
            out += Array(line.utf8)
        }
        return out
    }
}
