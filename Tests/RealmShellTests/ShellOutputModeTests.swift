import Foundation
import RealmTestSupport
import XCTest

/// Every output mode of the shell against a golden file in Fixtures/golden. The golden files
/// were written by this code (REALMSH_UPDATE_GOLDEN=1 swift test --filter ShellOutputModeTests)
/// and checked by hand against the fixtures' dumps.
final class ShellOutputModeTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")
    let alltypes = Fixtures.path("realm-core/alltypes.realm")

    static let goldenDirectory = Fixtures.packageRoot.appendingPathComponent("Fixtures/golden")

    /// Runs `script` in script mode on `file` and compares stdout with the golden file.
    func check(_ name: String, file: String, script: String, line: UInt = #line) throws {
        let run = realmsh([file, "-c", script])
        XCTAssertEqual(run.code, 0, run.stderr, line: line)
        XCTAssertEqual(run.stderr, "", line: line)
        let url = Self.goldenDirectory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["REALMSH_UPDATE_GOLDEN"] == "1" {
            try Data(run.stdout).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if run.out != expected {
            let got = run.out.split(separator: "\n", omittingEmptySubsequences: false)
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = (0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count)
            XCTFail("\(name) differs at line \(first + 1):\n  got:  \(first < got.count ? String(got[first]) : "(end)")\n  want: \(first < want.count ? String(want[first]) : "(end)")", line: line)
        }
    }

    /// The same three results in each mode: a sorted query, the short form with links and
    /// lists, and following a link.
    func script(_ mode: String) -> String {
        """
        .mode \(mode)
        Person where age > 40 SORT(name ASC)
        Dog where owner != nil SORT(age DESC) LIMIT(3)
        Person.dogs where name BEGINSWITH 'C'
        """
    }

    func testBox() throws { try check("basic-box.txt", file: basic, script: script("box")) }
    func testTable() throws { try check("basic-table.txt", file: basic, script: script("table")) }
    func testMarkdown() throws { try check("basic-markdown.txt", file: basic, script: script("markdown")) }
    func testCSV() throws { try check("basic-csv.txt", file: basic, script: script("csv")) }
    func testJSON() throws { try check("basic-json.txt", file: basic, script: script("json")) }
    func testJSONLines() throws { try check("basic-jsonl.txt", file: basic, script: script("jsonl")) }
    func testLine() throws { try check("basic-line.txt", file: basic, script: script("line")) }

    /// Tables narrowed to .maxwidth, values cut with …, columns dropped; .maxrows; no headers;
    /// .nullvalue.
    func testFittingAndSettings() throws {
        try check("basic-fitted.txt", file: basic, script: """
            .maxwidth 60
            Person SORT(age ASC)
            .maxrows 2
            .headers off
            .nullvalue (none)
            .mode table
            Person where email == nil
            .mode csv
            Dog LIMIT(2)
            """)
    }

    /// Every property type as people see it (line mode shows each value whole): scalars,
    /// lists, sets, dictionaries, links by primary key, embedded objects, Mixed.
    func testValuesOfEveryType() throws {
        try check("alltypes-line.txt", file: alltypes, script: """
            .mode line
            AllTypes SORT(intCol DESC) LIMIT(2)
            NoPK
            LinkTarget LIMIT(3)
            """)
    }
}
