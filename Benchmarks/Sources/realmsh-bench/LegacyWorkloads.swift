import Glibc
import RealmFormat
import RealmObjects

/// How fast realmsh reads a file of format 9 (issue 18): the `Person` rows of §2 written by
/// `LegacyFileBuilder`, against the format-24 file `realmsh upgrade` makes of it.
///
/// - info: what `realmsh info` reads (the snapshot and the classes with their object counts;
///   for the old file its catalogue, read from the old structures without converting);
/// - open: a snapshot and its classes as every other command opens them (for the old file
///   that includes converting it to the format-24 image it is read through);
/// - export: open and write the canonical dump (to a sink that only counts the bytes), as
///   `realmsh export` does: `RealmFile(dumping:)`, which reads an old file's classes
///   without links from the conversion's cells instead of encoding them into the image;
/// - per byte: export time over the file's size.
struct LegacyWorkloads {
    let rows: Int
    let runs: Int
    let work: String

    func run() throws {
        let people = People.rows(rows)
        try People.checkAgainstSpec(people)
        let oldPath = "\(work)/legacy-\(rows).realm", newPath = "\(work)/legacy-\(rows)-v24.realm"
        try RealmFiles.writeFile(oldPath, LegacyFileBuilder.bytes(people), sync: false)
        try RealmFiles.writeFile(newPath, FormatUpgrade.upgradedFile(try Snapshot(path: oldPath)), sync: false)

        // Both show the same objects, and both verify.
        let oldDump = try dump(oldPath), newDump = try dump(newPath)
        try expect(newDump.count == oldDump.count + 1, "the format-9 file and its upgrade export alike (but for \"formatVersion\": 24)")
        for path in [oldPath, newPath] {
            let report = Verifier.verify(try Snapshot(path: path))
            try expect(report.isOK, "\(path) verifies: \(report.problems.prefix(3))")
        }
        let file = try RealmFile(path: oldPath)
        try expect(try file.objectCount(of: file.objectClass(named: "Person")!) == rows, "all rows are objects")

        let infos = try alternate(runs: runs, [("format 9", { _ = try info(oldPath) }), ("format 24", { _ = try open(newPath) })])
        let opens = try alternate(runs: runs, [("format 9", { _ = try open(oldPath) }), ("format 24", { _ = try open(newPath) })])
        let exports = try alternate(runs: runs, [("format 9", { _ = try dump(oldPath) }), ("format 24", { _ = try dump(newPath) }),
                                                 ("format 9, full image", { _ = try dumpOfFullImage(oldPath) })])
        let sizes = [fileSize(oldPath), fileSize(newPath)]
        print("legacy: \(rows) Person objects; format 9 file \(sizes[0]) bytes, its format-24 upgrade \(sizes[1]) bytes; dump \(oldDump.count) bytes")
        print(pad("", 12) + pad("info", 28) + pad("open", 28) + pad("export", 28) + "export per MB of file")
        for (k, name) in ["format 9", "format 24"].enumerated() {
            let perMB = exports[k].median / (Double(sizes[k]) / 1_000_000)
            print(pad(name, 12) + pad(cell(infos[k]), 28) + pad(cell(opens[k]), 28) + pad(cell(exports[k]), 28) + milliseconds(perMB))
        }
        // What the export of the old file cost before it read its classes from the cells.
        let fullPerMB = exports[2].median / (Double(sizes[0]) / 1_000_000)
        print(pad("format 9 through its full image", 68) + pad(cell(exports[2]), 28) + milliseconds(fullPerMB))
    }

    /// What `realmsh info` reads of an old file: its catalogue.
    func info(_ path: String) throws -> Int {
        let snapshot = try Snapshot(path: path, convertingLegacy: false)
        guard let catalogue = try snapshot.legacy?.catalogue() else { throw BenchError("\(path) has no catalogue") }
        _ = try snapshot.freeSpace()
        return catalogue.tables.reduce(0) { $0 + $1.objects }
    }

    /// A snapshot and its classes' object counts (what `info` reads of a format-24 file).
    func open(_ path: String) throws -> Int {
        let file = try RealmFile(path: path)
        var n = 0
        for c in file.classes { n += try file.objectCount(of: c) }
        return n
    }

    /// The dump of the old file's full converted image (what `dump` did before
    /// `LegacyExportRows`), to show what the direct path buys in the same run.
    func dumpOfFullImage(_ path: String) throws -> CountingSink {
        let sink = CountingSink()
        try CanonicalDump.write(try RealmFile(path: path), to: sink)
        return sink
    }

    func dump(_ path: String) throws -> CountingSink {
        let sink = CountingSink()
        try CanonicalDump.write(try RealmFile(dumping: path), to: sink)
        return sink
    }
}

/// Counts what a dump writes, keeping nothing.
final class CountingSink: ByteSink {
    private(set) var count = 0
    func write(_ bytes: [UInt8]) { count += bytes.count }
}
