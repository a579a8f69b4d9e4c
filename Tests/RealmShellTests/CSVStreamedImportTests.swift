import Foundation
import RealmFormat
import RealmObjects
@testable import RealmShell
import RealmTestSupport
import XCTest

/// `realmsh import` of CSV with bounded memory (issue #16): the input read in 1 MB chunks,
/// cluster leaves packed and their cells dropped as `finish()` encodes them, nodes written as
/// the commit lays them out. Against the plain path — the whole input in memory, through
/// `ObjectImport.addCSV` — a CSV of several chunks and well over a hundred leaves (strings
/// with quotes, commas, line breaks and UTF-8, nulls, a primary key) gives the same file byte
/// for byte, which verifies clean and dumps as the general (JSON object per row) path's; and
/// a bad row near the end leaves a file that already held objects exactly as it was.
final class CSVStreamedImportTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func newFile(_ name: String) throws -> String { try CSVFastPathTests.newFile(name, in: dir) }

    /// Rows `range` of Person as CSV (no header), varied enough to use every leaf form.
    static func rows(_ range: Range<Int>) -> String {
        var out = ""
        for i in range {
            let name: String
            switch i % 7 {
            case 0: name = "\"Quoted, \"\"name\"\" \(i)\""
            case 1: name = "\"two\nlines \(i)\""
            case 2: name = "Zoë \(i)"
            case 3: name = String(repeating: "long name ", count: 1 + i % 9) + String(i)
            default: name = "n\(i)"
            }
            let age = i % 5 == 0 ? "" : String(i % 100)
            let ratio = i % 3 == 0 ? "" : "\(Double(i % 1000) / 8)"
            let email = i % 10 == 0 ? "" : i % 10 == 1 ? "\"\"" : "p\(i)@example.com"
            let seconds = 1_500_000_000 + i * 37
            let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            out += "\(i * 3),\(name),\(age),\(Double(i) / 1000),\(ratio),\(i % 2 == 0),\(date),\(email)\r\n"
        }
        return out
    }

    static let header = "id,name,age,score,ratio,active,created,email\r\n"

    func testChunkedImportWritesTheFileTheWholeInputWrites() throws {
        let csv = Self.header + Self.rows(0..<30_000)
        XCTAssertGreaterThan(csv.utf8.count, 2 << 20, "the input spans several 1 MB chunks")
        let csvPath = dir + "/people.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: csvPath))

        let streamed = try newFile("streamed.realm")
        let run = realmsh("import", streamed, "Person", csvPath)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("inserted 30000"), run.stderr)

        // The plain path: every byte of the input in memory, the fast path as before.
        let whole = try newFile("whole.realm")
        let writer = try RealmWriter(path: whole)
        let load = ObjectImport(writer: writer, policy: .insert, identities: true) { "object \($0)" }
        try load.addCSV(Array(csv.utf8), of: try XCTUnwrap(writer.file.objectClass(named: "Person")), typed: true) { _, _ in }
        _ = try load.commit()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: streamed)), try Data(contentsOf: URL(fileURLWithPath: whole)),
                       "the chunked import writes the whole-input import's file")

        // The general path (a JSON object per row through the writer) gives the same objects.
        let general = try newFile("general.realm")
        let generalWriter = try RealmWriter(path: general)
        let generalLoad = ObjectImport(writer: generalWriter, policy: .insert, identities: true) { "object \($0)" }
        try generalLoad.addCSV(Array(csv.utf8), of: try XCTUnwrap(generalWriter.file.objectClass(named: "Person")), typed: false) { _, _ in }
        _ = try generalLoad.commit()
        XCTAssertEqual(realmsh("verify", streamed).code, 0)
        let dump = realmsh("export", streamed)
        XCTAssertEqual(dump.code, 0, dump.stderr)
        XCTAssertEqual(dump.out, realmsh("export", general).out, "the same dump as the general path's")
        XCTAssertTrue(dump.out.contains("two\\nlines 29996"), "quoted line breaks survive a chunk boundary")
        let count = realmsh("query", streamed, "Person", "TRUEPREDICATE", "--format", "count")
        XCTAssertEqual(count.out.trimmingCharacters(in: .whitespacesAndNewlines), "30000")
    }

    func testABadRowLateInTheInputLeavesTheFileAsItWas() throws {
        let path = try newFile("people.realm")
        let firstPath = dir + "/first.csv"
        try Data((Self.header + Self.rows(0..<1_000)).utf8).write(to: URL(fileURLWithPath: firstPath))
        XCTAssertEqual(realmsh("import", path, "Person", firstPath).code, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        // 25,000 good rows (several chunks, a hundred leaves), then a row whose age is text.
        let lines = Self.rows(1_000..<26_000)
        let bad = Self.header + lines + "99999999,bad,not a number,1.5,,true,2020-01-01T00:00:00Z,\r\n" + Self.rows(26_000..<26_010)
        let badPath = dir + "/bad.csv"
        try Data(bad.utf8).write(to: URL(fileURLWithPath: badPath))
        let badLine = 1 + lines.utf8.filter { $0 == 10 }.count + 1
        let run = realmsh("import", path, "Person", badPath)
        XCTAssertNotEqual(run.code, 0)
        XCTAssertTrue(run.stderr.contains("line \(badLine)") && run.stderr.contains("nothing was written"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "a failed import changes nothing")

        // A duplicate primary key at the end: refused too, the file unchanged.
        let duplicate = Self.header + lines + Self.rows(999..<1_000)
        try Data(duplicate.utf8).write(to: URL(fileURLWithPath: badPath))
        let again = realmsh("import", path, "Person", badPath)
        XCTAssertNotEqual(again.code, 0)
        XCTAssertTrue(again.stderr.contains("already exists"), again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "a failed import changes nothing")
        XCTAssertEqual(realmsh("verify", path).code, 0)
    }

    func testLineNumbersNameEachObjectsLine() {
        var lines = ImportCommand.LineNumbers()
        let given = [2, 3, 4, 6, 7, 10, 11, 12, 13, 20]
        for l in given { lines.append(l) }
        XCTAssertEqual((0..<given.count).map { lines[$0] }, given)
        XCTAssertNil(lines[given.count])
        XCTAssertNil(lines[-1])
    }
}
