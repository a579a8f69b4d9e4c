import Glibc
import RealmFormat
import RealmObjects
import RealmQuery

/// `realmsh-bench profile`: one realmsh operation run `runs` times on a file the query benchmark
/// built, and nothing else (no SQLite, no row generation), for instruction counts that do not
/// depend on the load of the machine:
///
///   valgrind --tool=callgrind --toggle-collect='*profiledRuns*' \
///     .build/release/realmsh-bench profile --file /tmp/realmsh-bench/people-1000000.realm --query "name BEGINSWITH 'B'"
///
/// Modes: `count` (parse+run, as the benchmark's workloads 2–6), `run-count` (parsed once, run
/// only), `rows` (parse+run, the matching rows in order with their ids read, as workload 8),
/// `lookups` (workload 9's 100,000 primary-key lookups summing `age`) and `delete` (write
/// workload 11a on a write-benchmark file: the objects matching the query, default
/// `age < 50`, deleted and committed, each run on a fresh synced copy made outside
/// `profiledRuns`), `bundle` (workload 1b: the enumeration plan, then the streamed
/// compaction, each phase timed; `bundle-memory`: the compaction into memory, then written)
/// and `compact` (workload 11b: the streamed compaction alone; "plan" is then the open).
struct Profile {
    let file: String
    let query: String
    let mode: String
    let runs: Int
    /// An encrypted file's key (`--key-file`): the first run's decrypted pages are printed.
    var keyFile: String? = nil
    let keys = People.lookupKeys()

    func run() throws {
        if mode == "delete" { return try runDeletes() }
        if mode == "bundle" || mode == "bundle-memory" || mode == "compact" { return try runBundles() }
        let snapshot = try Snapshot(path: file, key: try keyFile.map { try EncryptionKey(file: $0) })
        // One untimed run outside the measured function, so that lazily built per-snapshot
        // state (leaf lists, column refs) is counted as the benchmark's warm-up leaves it.
        let first = now()
        _ = try once(snapshot, parsed: nil)
        let pages = snapshot.image.decryptedPageCount.map { ", pages decrypted: \($0) of \((snapshot.image.count + 4095) / 4096)" }
        print("first run (untimed below) \(milliseconds(now() - first))" + (pages ?? ""))
        let parsed = mode == "run-count" ? try Query(store: ObjectStore(snapshot: snapshot), className: "Person", query) : nil
        let start = now()
        let result = try profiledRuns(snapshot, parsed: parsed)
        print("\(mode) \(query): \(result) (\(milliseconds((now() - start) / Double(runs))) per run)")
    }

    @inline(never)
    func profiledRuns(_ snapshot: Snapshot, parsed: Query?) throws -> Int64 {
        var result: Int64 = 0
        for _ in 0..<runs { result = try once(snapshot, parsed: parsed) }
        return result
    }

    func runDeletes() throws {
        let copy = file + ".profile-copy"
        var total = 0.0, deleted = 0
        for _ in 0..<runs {
            unlink(copy)
            unlink(copy + ".lock")
            try copyFile(file, copy)
            let start = now()
            deleted = try profiledRuns(deletingFrom: copy)
            total += now() - start
        }
        unlink(copy)
        unlink(copy + ".lock")
        print("delete \(query.isEmpty ? "age < 50" : query): \(deleted) (\(milliseconds(total / Double(runs))) per run)")
    }

    /// Workload 1b's bundle copy in its three phases, each timed: the enumeration plan (distinct
    /// values counted and sorted), the compaction writing the plan into new bytes, and the
    /// synced write of those bytes.
    func runBundles() throws {
        let out = file + ".profile-bundle"
        var plan = 0.0, compact = 0.0, write = 0.0
        for _ in 0..<runs {
            unlink(out)
            let t0 = now()
            _ = try profiledRuns(bundling: file, into: out, phases: &plan, &compact)
            write += now() - t0
        }
        write -= plan + compact
        unlink(out)
        let n = Double(runs)
        // Streamed, the compaction and its writes overlap: "compact" is then 0 and "write" holds both.
        print("\(mode): plan \(milliseconds(plan / n)), compact \(milliseconds(compact / n)), write+sync \(milliseconds(write / n)) per run")
    }

    @inline(never)
    func profiledRuns(bundling path: String, into out: String, phases plan: inout Double, _ compact: inout Double) throws -> Int {
        let t0 = now()
        let snapshot = try Snapshot(path: path)
        if mode == "compact" {
            // Workload 11b: the plain compaction, streamed, fsynced, renamed.
            plan += now() - t0
            return try Compactor.compact(snapshot, toFile: out)
        }
        let (p, _) = try EnumeratedCopy.plan(for: snapshot, maxDistinctPercent: 10)
        let t1 = now()
        if mode == "bundle-memory" {
            let bytes = try Compactor.compact(snapshot, enumeration: p)
            compact += now() - t1
            try RealmFiles.writeFile(out, bytes, sync: true)
            plan += t1 - t0
            return bytes.count
        }
        let size = try Compactor.compact(snapshot, toFile: out, enumeration: p)
        plan += t1 - t0
        return size
    }

    @inline(never)
    func profiledRuns(deletingFrom path: String) throws -> Int {
        let w = try RealmWriter(path: path)
        let selected = try Query(store: ObjectStore(snapshot: w.file.snapshot), className: "Person", query.isEmpty ? "age < 50" : query).objectKeys()
        try w.delete(className: "Person", keys: selected)
        try w.commit()
        return w.summary.deleted
    }

    func once(_ snapshot: Snapshot, parsed: Query?) throws -> Int64 {
        switch mode {
        case "count":
            return Int64(try Query(store: ObjectStore(snapshot: snapshot), className: "Person", query).count())
        case "run-count":
            return Int64(try (parsed ?? Query(store: ObjectStore(snapshot: snapshot), className: "Person", query)).count())
        case "rows":
            let q = try Query(store: ObjectStore(snapshot: snapshot), className: "Person", query)
            guard let id = q.table.column(named: "id") else { throw BenchError("no id column") }
            var sum: Int64 = 0
            for r in try q.rows() {
                guard case let .int(v) = try q.table.value(of: id, atRow: r) else { throw BenchError("id is not an int") }
                sum += v
            }
            return sum
        case "lookups":
            guard let t = ObjectStore(snapshot: snapshot).table(className: "Person"), let age = t.column(named: "age") else {
                throw BenchError("no Person.age")
            }
            let n = Int64(try t.count())
            var sum: Int64 = 0
            for k in keys {
                guard let row = try t.row(primaryKey: .int(k % n)), case let .int(a) = try t.value(of: age, atRow: row) else {
                    throw BenchError("no Person \(k)")
                }
                sum += a
            }
            return sum
        default:
            throw BenchError("unknown profile mode '\(mode)' (count, run-count, rows, lookups, delete, bundle, bundle-memory, compact)")
        }
    }
}
