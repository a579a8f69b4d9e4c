import Glibc
import RealmFormat
import RealmObjects
import RealmBrowser

/// `realmsh-bench browse`: the Realm Browser's view model on the benchmark's Person file
/// (issue #15: the first screen in ≤ 50 ms, a page down in ≤ 5 ms). Each "first screen" run
/// opens the file anew (map, header, tables), starts a session on Person and lays out one
/// screen, as `realmsh browse FILE` does before it draws; the page-down runs are keystrokes in
/// one session, each one key handled and the next screen laid out. Process start-up and the
/// terminal's drawing are not included (ncurses writes only the cells that changed).
struct BrowseWorkloads {
    let rows: Int
    let runs: Int
    let work: String

    func run() throws {
        let path = "\(work)/people-\(rows).realm"
        try buildOnce(path) { try RealmFiles.build(path: $0, rows: People.rows(rows), indexedAge: false) }
        print("\(rows) Person rows in \(path); medians (min–max)")
        for (screenRows, columns) in [(24, 80), (50, 200)] {
            var first = Samples(), opening = Samples(), starting = Samples(), layout = Samples()
            for i in 0...runs {
                let start = now()
                let file = try RealmFile(path: path)
                let opened = now()
                let session = BrowserSession(file: file, options: .init(path: path, className: "Person", reopen: { try RealmFile(path: path) }))
                session.size = (screenRows, columns)
                let started = now()
                let frame = session.render()
                let end = now()
                if i > 0 {                                  // the first run warms the page cache
                    first.seconds.append(end - start)
                    opening.seconds.append(opened - start)
                    starting.seconds.append(started - opened)
                    layout.seconds.append(end - started)
                }
                guard frame.text.contains("\(grouped(rows)) Person") else { throw BenchError("first screen lacks the count:\n\(frame.text)") }
            }
            print(pad("first screen \(columns)×\(screenRows)", 34) + cell(first))
            print(pad("  open the file", 34) + cell(opening))
            print(pad("  session (classes, leaf list)", 34) + cell(starting))
            print(pad("  lay out the screen", 34) + cell(layout))
        }
        let session = try open(path, rows: 50, columns: 200)
        _ = session.render()
        let keys = max(runs * 50, 200)
        var pageDown = Samples(), lineDown = Samples()
        for _ in 0..<keys { pageDown.seconds.append(try keystroke(session, .pageDown)) }
        for _ in 0..<keys { lineDown.seconds.append(try keystroke(session, .down)) }
        print(pad("page down (\(keys) keys)", 34) + cell(pageDown) + percentiles(pageDown))
        print(pad("line down (\(keys) keys)", 34) + cell(lineDown) + percentiles(lineDown))
        var end = Samples(), home = Samples()
        for _ in 0..<runs {
            end.seconds.append(try keystroke(session, .character("G")))
            home.seconds.append(try keystroke(session, .character("g")))
        }
        print(pad("G (to row \(grouped(rows)))", 34) + cell(end))
        print(pad("g (to row 1)", 34) + cell(home))
        var filter = Samples()
        var countLine = ""
        for _ in 0..<runs {
            let s = try open(path, rows: 50, columns: 200)
            let start = now()
            s.handle(.character(":"))
            for c in "age > 30" { s.handle(.character(c)) }
            s.handle(.enter)
            s.runPendingWork()
            let frame = s.render()
            filter.seconds.append(now() - start)
            countLine = frame.lines[48].text.trimmingSpaces()
        }
        print(pad("filter age > 30 (\(countLine.prefix { $0 != " " }) …)", 34) + cell(filter))
        var sort = Samples()
        for _ in 0..<max(1, runs / 4) {
            let s = try open(path, rows: 50, columns: 200)
            s.handle(.right)                               // name
            let start = now()
            s.handle(.character("s"))
            s.runPendingWork()
            _ = s.render()
            sort.seconds.append(now() - start)
        }
        print(pad("sort by name", 34) + cell(sort))
    }

    /// Keystrokes are many: their 95th and 99th percentiles say more than the maximum, which on a
    /// shared machine is another process's time slice.
    private func percentiles(_ s: Samples) -> String {
        let sorted = s.seconds.sorted()
        func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return "  p95 \(milliseconds(at(0.95))), p99 \(milliseconds(at(0.99)))"
    }

    private func open(_ path: String, rows: Int, columns: Int) throws -> BrowserSession {
        let file = try RealmFile(path: path)
        let session = BrowserSession(file: file, options: .init(path: path, className: "Person", reopen: { try RealmFile(path: path) }))
        session.size = (rows, columns)
        return session
    }

    private func keystroke(_ session: BrowserSession, _ key: Key) throws -> Double {
        let start = now()
        session.handle(key)
        _ = session.render()
        return now() - start
    }
}

private func grouped(_ n: Int) -> String {
    let digits = String(n)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return out
}

private extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
