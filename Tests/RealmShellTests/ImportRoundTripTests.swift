import Foundation
import RealmObjects
import RealmTestSupport
import XCTest

/// `import` reads what `export` writes: every realm-core fixture's JSON Lines export and
/// canonical dump, imported into an empty copy of its schema (`create --schema` from `schema
/// --format json`), exports to the fixture's own dump. A mismatch names fixture, class,
/// object and property. Long imports and exports show progress on a terminal.
final class ImportRoundTripTests: XCTestCase {
    var dir: String!

    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The realm-core fixtures that have a dump (`NAME.json`, or `NAME.json.gz`).
    func fixtures() -> [String] {
        Fixtures.allRealmFiles().filter { path in
            let base = String(path.dropLast(".realm".count))
            return path.contains("/realm-core/")
                && (FileManager.default.fileExists(atPath: base + ".json") || FileManager.default.fileExists(atPath: base + ".json.gz"))
        }
    }

    func testEveryFixtureRoundTripsThroughJSONLinesAndTheDump() throws {
        let names = fixtures()
        XCTAssertGreaterThanOrEqual(names.count, 10, "the realm-core fixtures")
        for source in names {
            let name = (source as NSString).lastPathComponent
            let expected = try XCTUnwrap(Fixtures.expectedDump(for: source))
            let key = Fixtures.isEncrypted(source) ? ["--key-file", String(source.dropLast(".realm".count)) + ".key"] : []
            let schema = realmsh(["schema", "--format", "json", source] + key)
            XCTAssertEqual(schema.code, 0, "\(name): \(schema.stderr)")
            let schemaPath = dir + "/\(name).schema.json"
            try Data(schema.stdout).write(to: URL(fileURLWithPath: schemaPath))
            let version = try JSONParser.parse(Array(expected))["schemaVersion"].flatMap { v -> String? in
                if case let .number(n) = v { return n }
                return nil
            } ?? "0"
            for format in ["jsonl", "json"] {
                // The dump is the fixture's own (export writes it byte for byte: ExportConformanceTests).
                let data = dir + "/\(name).\(format)"
                if format == "json" {
                    try expected.write(to: URL(fileURLWithPath: data))
                } else {
                    let exported = realmsh(["export", "--format", format, source] + key, stderrTerminal: true)
                    XCTAssertEqual(exported.code, 0, "\(name) \(format): \(exported.stderr)")
                    // Progress on a terminal's stderr, for work over a second only.
                    if name == "large.realm" { XCTAssertTrue(exported.stderr.contains("\rexporting [#"), exported.stderr) }
                    if name == "basic.realm" { XCTAssertFalse(exported.stderr.contains("exporting ["), exported.stderr) }
                    try Data(exported.stdout).write(to: URL(fileURLWithPath: data))
                }
                let copy = dir + "/\(name).\(format).realm"
                let created = realmsh("create", "--schema", schemaPath, "--schema-version", version, copy)
                XCTAssertEqual(created.code, 0, "\(name): \(created.stderr)")
                let imported = realmsh(["import", copy, data], stderrTerminal: true)
                XCTAssertEqual(imported.code, 0, "\(name) \(format): \(imported.stderr)")
                if name == "large.realm" { XCTAssertTrue(imported.stderr.contains("\rimporting [#"), imported.stderr) }
                if name == "basic.realm" { XCTAssertEqual(imported.stderr, "inserted 18, updated 0, deleted 0\n") }
                let back = realmsh("export", copy)
                XCTAssertEqual(back.code, 0, "\(name) \(format): \(back.stderr)")
                if let problem = DumpDifference.describe(fixture: "\(name) (\(format))", expected: expected, actual: Data(back.stdout)) {
                    XCTFail(problem)
                }
            }
        }
    }

    /// CSV with a header row, typed by the schema: the classes of schema_v3 one after the
    /// other (Contact links to Category) give back the dump; "" and null stay apart; a
    /// value of the wrong type and an unknown column are named by line and nothing is written.
    func testCSVRoundTripsAndIsStrict() throws {
        let source = Fixtures.path("realm-core/schema_v3.realm")
        let schemaPath = dir + "/schema.json"
        try Data(realmsh("schema", "--format", "json", source).stdout).write(to: URL(fileURLWithPath: schemaPath))
        let copy = dir + "/copy.realm"
        XCTAssertEqual(realmsh("create", "--schema", schemaPath, "--schema-version", "3", copy).code, 0)
        for c in ["Category", "Contact"] {
            let csv = dir + "/\(c).csv"
            try Data(realmsh("export", "--format", "csv", "--class", c, source).stdout).write(to: URL(fileURLWithPath: csv))
            let run = realmsh("import", copy, c, csv)
            XCTAssertEqual(run.code, 0, run.stderr)
        }
        XCTAssertEqual(Data(realmsh("export", copy).stdout), Fixtures.expectedDump(for: source))

        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let cases: [(String, String)] = [
            ("_key,fullName,phone,age,createdAt,category\r\n9,Ann,forty,40,,\r\n", "line 2: Contact.phone: expects an int"),
            ("_key,fullName,phone,aeg\r\n9,Ann,1,2\r\n", "line 1: Contact has no property 'aeg' (a header names properties); did you mean 'age'?"),
            ("_key,fullName,phone,age,createdAt,category\r\n9,,5550199,40,,\r\n", "line 2: Contact.fullName: is required; null is not allowed"),
            ("_key,fullName,phone,age\r\n9,\"Ann,1,2\r\n", "line 2: a quoted field is not closed"),
        ]
        for (text, message) in cases {
            let csv = dir + "/bad.csv"
            try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
            let run = realmsh("import", copy, "Contact", csv)
            XCTAssertEqual(run.code, 65, text)
            XCTAssertTrue(run.stderr.contains(message), run.stderr)
            XCTAssertTrue(run.stderr.contains("nothing was written"), run.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), before, "a failed import changes nothing")
        // The empty string is "", null an empty field.
        let csv = dir + "/empty.csv"
        try Data("_key,fullName,phone,age,createdAt,category\r\n9,\"\",5550199,40,,\r\n".utf8).write(to: URL(fileURLWithPath: csv))
        XCTAssertEqual(realmsh("import", copy, "Contact", csv).code, 0)
        let row = realmsh("export", "--format", "csv", "--class", "Contact", copy).out.split(separator: "\r\n").last.map(String.init)
        XCTAssertEqual(row, "9,\"\",5550199,40,,")
    }

    /// A class whose one property is an optional primary key exports a null row as an empty
    /// line; in a one-column file that line is a record, so the null object comes back.
    func testOneColumnCSVKeepsItsNullRow() throws {
        let schemaPath = dir + "/tag.schema.json"
        try Data(#"[{"name":"Tag","primaryKey":"name","embedded":false,"properties":[{"name":"name","type":"string","optional":true,"indexed":true,"primaryKey":true,"collection":null,"objectType":null,"linkOrigin":null}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: schemaPath))
        let source = dir + "/tags.realm", copy = dir + "/copy.realm"
        for path in [source, copy] { XCTAssertEqual(realmsh("create", "--schema", schemaPath, path).code, 0) }
        XCTAssertEqual(realmsh("insert", source, "Tag", #"{"name": "a"}"#, #"{"name": null}"#, #"{"name": ""}"#).code, 0)
        let exported = realmsh("export", "--format", "csv", "--class", "Tag", source)
        XCTAssertTrue(exported.out.contains("\r\n\r\n"), "the null row is an empty line: \(exported.out.debugDescription)")
        let csv = dir + "/tags.csv"
        try Data(exported.stdout).write(to: URL(fileURLWithPath: csv))
        let run = realmsh("import", copy, "Tag", csv)
        XCTAssertEqual(run.stderr, "inserted 3, updated 0, deleted 0\n")
        XCTAssertEqual(realmsh("export", copy).out, realmsh("export", source).out)
    }

    /// The format follows the name (.jsonl, .csv) or the text (JSON Lines on a pipe); a dump
    /// takes no CLASS; JSON Lines errors name their line.
    func testFormatsAreRecognisedAndErrorsNamed() throws {
        let basic = Fixtures.path("realm-core/basic.realm")
        let schemaPath = dir + "/schema.json"
        try Data(realmsh("schema", "--format", "json", basic).stdout).write(to: URL(fileURLWithPath: schemaPath))
        let copy = dir + "/copy.realm"
        XCTAssertEqual(realmsh("create", "--schema", schemaPath, copy).code, 0)
        let dump = dir + "/dump.txt"
        try Data(realmsh("export", basic).stdout).write(to: URL(fileURLWithPath: dump))
        let refused = realmsh("import", copy, "Dog", dump)
        XCTAssertEqual(refused.code, 64)
        XCTAssertTrue(refused.stderr.contains("is a dump, which names its classes: drop Dog"), refused.stderr)
        let lines = dir + "/objects.txt"     // JSON Lines without the extension
        try Data("{\"_class\":\"Dog\",\"_key\":3,\"name\":\"Rex\",\"age\":1,\"owner\":null}\n{\"_class\":\"Dog\",\"_key\":4,\"name\":\"Max\",\"age\":\"two\"}\n".utf8)
            .write(to: URL(fileURLWithPath: lines))
        let bad = realmsh("import", copy, lines)
        XCTAssertEqual(bad.code, 65)
        XCTAssertTrue(bad.stderr.contains("line 2: Dog.age: expects an int"), bad.stderr)
        // A link set after every object exists is named by its line too.
        try Data("{\"_class\":\"Dog\",\"_key\":3,\"name\":\"Rex\",\"age\":1,\"owner\":null}\n{\"_class\":\"Dog\",\"_key\":4,\"name\":\"Max\",\"age\":2,\"owner\":{\"$key\":9}}\n".utf8)
            .write(to: URL(fileURLWithPath: lines))
        let dangling = realmsh("import", copy, lines)
        XCTAssertEqual(dangling.code, 65)
        XCTAssertTrue(dangling.stderr.contains("line 2: Dog.owner: no Person object has key 9"), dangling.stderr)
        XCTAssertEqual(realmsh("query", "--format", "count", copy, "Dog", "TRUEPREDICATE").out, "0\n", "nothing was written")
    }
}
