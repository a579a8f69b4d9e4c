import Glibc

/// realmsh-bench: in-process benchmarks of realmsh against SQLite (see ../../README.md).
///
///   realmsh-bench query [--rows N] [--runs K] [--work DIR] [--only 2,3a,…]
///
/// Subcommands are dispatched here; each lives in its own file (query: QueryWorkloads.swift,
/// write: WriteWorkloads.swift, sqlite-export: ExportWorkload.swift, browse: BrowseWorkloads.swift,
/// legacy: LegacyWorkloads.swift, process: ProcessWorkloads.swift, profile: Profile.swift).
let usage = """
    usage: realmsh-bench query [--rows N] [--runs K] [--work DIR] [--only 2,3a,3b,4,4b,4c,4d,5,5b,6,7,8,8b,9] [--strings plain|enumerated]
           realmsh-bench write [--rows N] [--runs K] [--work DIR] [--only 1b,9,10,11]
           realmsh-bench sqlite-export [--rows N] [--runs K] [--work DIR]
           realmsh-bench browse [--rows N] [--runs K] [--work DIR]
           realmsh-bench legacy [--rows N] [--runs K] [--work DIR]   (a format-9 file of N rows: open, export)
           realmsh-bench process --realmsh PATH [--rows N] [--runs K] [--work DIR]
                      (new processes: 2, 5, 12 plain and encrypted, CLI import, 3b, 4, 8, 10', 11a, 11b, CSV export; wall, CPU, peak RSS)
           realmsh-bench profile --file F (--query RQL | --mode lookups) [--mode count|run-count|rows|lookups|delete] [--runs K] [--key-file K]
                      (delete: F a write-benchmark file, e.g. write-1000000.realm; query default age < 50)
      --rows N    objects (default 1000000; §5's expected results are checked only then)
      --runs K    timed runs per contender after one warm-up (default 11 for query, 5 for write)
      --work DIR  where the generated .realm/.sqlite files are kept between runs
                  (default $TMPDIR or /tmp, realmsh-bench/)
      --only LIST run only these workloads
      --strings   query: `enumerated` runs on a copy with Person.name enumerated, as
                  `realmsh compact --enumerate-strings 10` writes it (default plain)
      profile     one realmsh operation on a Person file, K times (default 5), nothing else:
                  for `valgrind --tool=callgrind --toggle-collect='*profiledRuns*'`
    """

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    print(usage)
    exit(64)
}
arguments.removeFirst()
var options: [String: String] = [:]
while let flag = arguments.first, flag.hasPrefix("--"), arguments.count >= 2 {
    options[String(flag.dropFirst(2))] = arguments[1]
    arguments.removeFirst(2)
}
guard arguments.isEmpty else {
    print(usage)
    exit(64)
}
let tmp = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
let work = options["work"] ?? tmp + "/realmsh-bench"
mkdir(work, 0o755)

/// `--rows`, `--runs` (default `runs`) and `--only`; a bad number prints the usage, exit 64.
@MainActor func settings(defaultRuns runs: Int) -> (rows: Int, runs: Int, only: Set<String>?) {
    guard let rows = Int(options["rows"] ?? "1000000"), rows > 0, let runs = Int(options["runs"] ?? String(runs)), runs > 0 else {
        print(usage)
        exit(64)
    }
    return (rows, runs, options["only"].map { Set($0.split(separator: ",").map(String.init)) })
}

do {
    switch command {
    case "query":
        let s = settings(defaultRuns: 11)
        var workloads = QueryWorkloads(rows: s.rows, runs: s.runs, work: work, only: s.only)
        switch options["strings"] ?? "plain" {
        case "plain": break
        case "enumerated": workloads.enumeratedStrings = true
        default:
            print(usage)
            exit(64)
        }
        try workloads.run()
    case "write":
        let s = settings(defaultRuns: 5)
        try WriteWorkloads(rows: s.rows, runs: s.runs, work: work, only: s.only).run()
    case "sqlite-export":
        let s = settings(defaultRuns: 5)
        try ExportWorkload(rows: s.rows, runs: s.runs, work: work).run()
    case "browse":
        let s = settings(defaultRuns: 11)
        try BrowseWorkloads(rows: s.rows, runs: s.runs, work: work).run()
    case "process":
        let s = settings(defaultRuns: 11)
        guard let binary = options["realmsh"] else {
            print(usage)
            exit(64)
        }
        try ProcessWorkloads(rows: s.rows, runs: s.runs, work: work, realmsh: binary).run()
    case "legacy":
        let s = settings(defaultRuns: 11)
        try LegacyWorkloads(rows: s.rows, runs: s.runs, work: work).run()
    case "profile":
        guard let file = options["file"], let runs = Int(options["runs"] ?? "5"), runs > 0 else {
            print(usage)
            exit(64)
        }
        try Profile(file: file, query: options["query"] ?? "", mode: options["mode"] ?? "count", runs: runs,
                    keyFile: options["key-file"]).run()
    default:
        print(usage)
        exit(64)
    }
} catch {
    print("realmsh-bench: \(error)")
    exit(1)
}
