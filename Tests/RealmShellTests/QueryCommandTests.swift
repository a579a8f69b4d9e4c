import Foundation
import RealmObjects
import RealmTestSupport
import XCTest

/// `realmsh query` as a user runs it: formats, arguments, errors and exit statuses.
final class QueryCommandTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")
    let alltypes = Fixtures.path("realm-core/alltypes.realm")

    /// `query --format csv` of every object is `export --format csv` of the class, byte for
    /// byte, for every class of the realm-core fixtures (the export's fast path is pinned to the
    /// general one by CSVExportFastPathTests; this pins the query's rows through the same writer).
    func testCSVOfAllObjectsIsTheClassesCSVExport() throws {
        var compared = 0
        for path in Fixtures.allRealmFiles() where path.contains("/realm-core/") && !Fixtures.isEncrypted(path) {
            let file = try RealmFile(path: path)
            for c in file.classes where !c.isEmbedded {
                let queried = realmsh("query", "--format", "csv", path, c.name, "TRUEPREDICATE")
                let exported = realmsh("export", "--format", "csv", "--class", c.name, path)
                guard exported.code == 0 else { continue }
                XCTAssertEqual(queried.code, 0, "\(path) \(c.name): \(queried.stderr)")
                XCTAssertEqual(queried.out, exported.out, "\(path) \(c.name)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 10)
    }

    /// `--format count` counts without listing rows (`Query.count`: bits, index entries, leaf
    /// by leaf); it prints what the listed results number, whatever the query's shape.
    func testCountFormatGivesTheNumberOfListedResults() throws {
        let cases: [(String, String, [String])] = [
            (basic, "Person", ["age > 30"]), (basic, "Person", ["age == 42"]), (basic, "Person", ["TRUEPREDICATE"]),
            (basic, "Person", ["age > 30 SORT(name ASC)"]), (basic, "Person", ["TRUEPREDICATE DISTINCT(age)"]),
            (basic, "Person", ["age > 20 LIMIT(3)"]), (basic, "Person", ["age > 20", "--limit", "2"]),
            (basic, "Dog", ["owner.name BEGINSWITH 'A'"]), (basic, "Dog", ["age != 5"]),
            (basic, "Person", ["email == nil"]), (basic, "Person", ["name CONTAINS[c] 'o'"]),
        ]
        for (file, className, rest) in cases {
            let listed = realmsh(["query", "--format", "jsonl", file, className] + rest)
            XCTAssertEqual(listed.code, 0, listed.stderr)
            let n = listed.stdout.filter { $0 == 10 }.count
            let counted = realmsh(["query", "--format", "count", file, className] + rest)
            XCTAssertEqual(counted.code, 0, counted.stderr)
            XCTAssertEqual(counted.out, "\(n)\n", "\(className) \(rest)")
        }
        let bad = realmsh("query", "--format", "count", basic, "Person", "age == ")
        XCTAssertEqual(bad.code, 65)
        XCTAssertTrue(bad.stderr.contains("^"), bad.stderr)
    }

    func testJSONIsTheDumpsEncodingOfEachObjectInResultOrder() throws {
        // Laid out on a terminal; compact, one object per line, when piped.
        let run = realmsh(["query", "--format", "json", basic, "Dog", "age > 4 SORT(age DESC)"], terminal: true)
        XCTAssertEqual(run.code, 0, run.stderr)
        let piped = realmsh("query", basic, "Dog", "age > 4 SORT(age DESC)")
        XCTAssertEqual(piped.out, """
            [{"_key":7,"name":"Buddy II","age":8,"owner":null},
            {"_key":6,"name":"Daisy","age":7,"owner":null},
            {"_key":5,"name":"Rocky","age":6,"owner":{"$key":1}},
            {"_key":4,"name":"Luna","age":5,"owner":{"$key":0}}]

            """)
        XCTAssertEqual(try JSONParser.parse(piped.out), try JSONParser.parse(run.out))
        let expected = """
            [
              {
                "_key": 7,
                "name": "Buddy II",
                "age": 8,
                "owner": null
              },
              {
                "_key": 6,
                "name": "Daisy",
                "age": 7,
                "owner": null
              },
              {
                "_key": 5,
                "name": "Rocky",
                "age": 6,
                "owner": {
                  "$key": 1
                }
              },
              {
                "_key": 4,
                "name": "Luna",
                "age": 5,
                "owner": {
                  "$key": 0
                }
              }
            ]

            """
        XCTAssertEqual(run.out, expected)
        XCTAssertEqual(realmsh("query", basic, "Dog", "FALSEPREDICATE").out, "[]\n")
    }

    func testJSONObjectsMatchTheCanonicalDump() throws {
        // Every AllTypes object, queried, is byte for byte the object in alltypes.json.
        let run = realmsh("query", "--format", "jsonl", alltypes, "AllTypes", "TRUEPREDICATE")
        let dump = try XCTUnwrap(Fixtures.expectedDump(for: alltypes))
        guard case let .array(objects)? = try JSONParser.parse(Array(dump))["objects"]?["AllTypes"] else {
            return XCTFail("no AllTypes objects in the dump")
        }
        let lines = run.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, objects.count)
        for (line, object) in zip(lines, objects) {
            XCTAssertEqual(try JSONParser.parse(line), object)
        }
    }

    func testCountCSVAndLimit() {
        XCTAssertEqual(realmsh("query", "--format", "count", basic, "Person", "age > 30").out, "7\n")
        XCTAssertEqual(realmsh("query", "--format", "count", "--limit", "2", basic, "Person", "age > 30").out, "2\n")
        let csv = realmsh("query", "--format", "csv", basic, "Dog", "owner.name == 'Alice'").out
        XCTAssertEqual(csv, "_key,name,age,owner\r\n0,Rex,1,\"{\"\"$key\"\":0}\"\r\n4,Luna,5,\"{\"\"$key\"\":0}\"\r\n")
        let jsonl = realmsh("query", "--format", "jsonl", "--limit", "1", basic, "Person", "TRUEPREDICATE SORT(age DESC)").out
        XCTAssertTrue(jsonl.hasPrefix("{\"_key\":9,\"name\":\"Judy\""), jsonl)
        XCTAssertEqual(jsonl.split(separator: "\n").count, 1)
    }

    /// On a terminal, the shell's `table` mode (one renderer for both): fitted to the width,
    /// numbers right-aligned, links as the shell shows them.
    func testTableOnATerminal() {
        let run = realmsh(["query", basic, "Person", "age > 50"], terminal: true)
        XCTAssertEqual(run.code, 0)
        let lines = run.out.split(separator: "\n")
        XCTAssertTrue(lines[1].hasPrefix("| _key | name  | age |"), String(lines[1]))
        XCTAssertTrue(lines[3].hasPrefix("|    5 | Frank |  53 |"), String(lines[3]))
        XCTAssertEqual(lines.last, "4 objects (4 shown)")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 100 }, "fits the terminal width")
        XCTAssertTrue(run.out.contains("…"), "long values are cut")
        let wide = realmsh(["query", "--format", "box", basic, "Person", "name == 'Grace'"])
        XCTAssertTrue(wide.out.contains("│ → Person(#9) │"), "piped: no width limit, links as in the shell\n" + wide.out)
        let shell = realmsh([basic, "-c", ".mode table", "-c", "Person where age > 50"])
        XCTAssertEqual(realmsh("query", "--format", "table", basic, "Person", "age > 50").out, shell.out, "the shell's table")
        let limited = realmsh(["query", "--limit", "1", basic, "Person", "age > 50"], terminal: true)
        XCTAssertEqual(limited.out.split(separator: "\n").last, "1 object (1 shown)")
        // Not a terminal: JSON unless asked.
        XCTAssertTrue(realmsh("query", basic, "Person", "age > 50").out.hasPrefix("[{\"_key\":5,"), "compact when piped")
        XCTAssertTrue(realmsh("query", "--format", "table", basic, "Person", "age > 50").out.hasSuffix("4 objects (4 shown)\n"))
    }

    func testArgumentsAsLiteralsAndExtendedJSON() {
        func count(_ args: [String]) -> String { realmsh(["query", "--format", "count"] + args).out }
        XCTAssertEqual(count([basic, "Person", "age > $0 AND name BEGINSWITH $1", "--arg", "20", "--arg", "F"]), "1\n")
        XCTAssertEqual(count([basic, "Person", "name == $0", "--arg", "'Bob'"]), "1\n")
        XCTAssertEqual(count([basic, "Person", "email == $0", "--arg", "null"]), "4\n")
        XCTAssertEqual(count([basic, "Person", "birthday > $0", "--arg", "1965-01-01@00:00:00"]), "4\n")
        XCTAssertEqual(count([basic, "Person", "age > %@", "--arg", "60"]), "2\n")
        XCTAssertEqual(count([basic, "Person", "birthday > $0", "--args-json", "[{\"$date\": \"1965-01-01T00:00:00Z\"}]"]), "4\n")
        XCTAssertEqual(count([basic, "Person", "age IN $0", "--args-json", "[[18, 99, 24.0]]"]), "3\n")
        XCTAssertEqual(count([basic, "Person", "name == ANY $0", "--args-json", "[[\"Alice\", \"Bob\"]]"]), "2\n")
        XCTAssertEqual(count([alltypes, "AllTypes", "decimalCol < $0", "--args-json", "[{\"$numberDecimal\": \"-100\"}]"]), "2\n")
        XCTAssertEqual(count([alltypes, "AllTypes", "objectIdCol == $0", "--args-json", "[{\"$oid\": \"5f1b3a9c8e4d2b0012345678\"}]"]), "2\n")
        XCTAssertEqual(count([alltypes, "AllTypes", "objectCol == $0", "--args-json", "[{\"$link\": {\"class\": \"LinkTarget\", \"id\": \"gamma\"}}]"]), "1\n")
        XCTAssertEqual(count([basic, "Dog", "owner == $0", "--args-json", "[{\"$key\": 0}]"]), "2\n")
        XCTAssertEqual(count([alltypes, "AllTypes", "doubleCol == $0", "--args-json", "[{\"$numberDouble\": \"-Infinity\"}]"]), "2\n")
    }

    func testErrorsAreOneMessageWithACaretAndSysexits() {
        let bad = realmsh("query", basic, "Person", "age > 1 # comment")
        XCTAssertEqual(bad.code, 65)
        XCTAssertEqual(bad.stderr, "Error: Invalid predicate: 'age > 1 # comment': invalid character: #\n  age > 1 # comment\n          ^\n")
        XCTAssertTrue(bad.stdout.isEmpty)
        let typo = realmsh("query", basic, "Person", "nmae == 'x'")
        XCTAssertEqual(typo.code, 65)
        XCTAssertEqual(typo.stderr, "Error: 'Person' has no property 'nmae'\n  nmae == 'x'\n  ^^^^\nDid you mean 'name'?\n")
        let unknown = realmsh("query", basic, "Dgo", "age > 1")
        XCTAssertEqual(unknown.code, 65)
        XCTAssertTrue(unknown.stderr.contains("no class 'Dgo'; did you mean 'Dog'? (classes: Dog, Person)"), unknown.stderr)
        XCTAssertEqual(realmsh("query", basic, "Person", "age > $0").code, 65, "missing argument")
        XCTAssertEqual(realmsh("query", basic, "Person", "age > $0", "--arg", "1", "--args-json", "[1]").code, 64)
        XCTAssertEqual(realmsh("query", basic, "Person", "age > $0", "--args-json", "[1,").code, 64)
        XCTAssertEqual(realmsh("query", basic, "Person", "age > $0", "--args-json", "{\"a\": 1}").code, 64)
        XCTAssertEqual(realmsh("query", "--limit", "-1", basic, "Person", "age > 1").code, 64)
        XCTAssertEqual(realmsh("query", "--format", "xml", basic, "Person", "age > 1").code, 64)
        XCTAssertEqual(realmsh("query", basic, "Person").code, 64)
        XCTAssertEqual(realmsh("query", "/nonexistent.realm", "Person", "age > 1").code, 66)
        let help = realmsh("help", "query")
        XCTAssertEqual(help.code, 0)
        XCTAssertTrue(help.out.contains("USAGE: realmsh query FILE CLASS PREDICATE"), help.out)
    }

    func testQueryingDoesNotWriteTheFile() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: basic))
        _ = realmsh("query", "--format", "count", basic, "Person", "TRUEPREDICATE SORT(name ASC)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: basic)), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: basic + ".lock"))
    }
}
