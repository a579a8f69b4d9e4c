import Foundation
import RealmFormat
import RealmObjects
import RealmShell
import RealmTestSupport
import XCTest

/// What a user of sqlite3 or DuckDB expects, and the results that used to mislead: NULL
/// apart from "null", wide characters in tables, CSV's "" and null, `.exit N`, `-V`, a bare
/// `realmsh`, `help` suggestions, `.tables`, `.indexes`, `.dump`, `.types`, SELECT at the
/// prompt, an update of a property that does not exist, LinkingObjects in Swift models, key
/// messages. In-process, except where a terminal is the point (InteractiveShellTests).
final class UserHabitsTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")
    let alltypes = Fixtures.path("realm-core/alltypes.realm")
    var dir: String!

    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A file with one class of notes: null, "null", "", CJK, emoji and combining marks.
    func notes() throws -> String {
        let schema = dir + "/notes.json"
        try Data("""
            [{"name": "Note", "primaryKey": null, "embedded": false, "properties": [
              {"name": "text", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
              {"name": "n", "type": "int", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}],
              "backlinks": []}]
            """.utf8).write(to: URL(fileURLWithPath: schema))
        let file = dir + "/notes.realm"
        XCTAssertEqual(realmsh("create", "--schema", schema, file).code, 0)
        let insert = realmsh("insert", file, "Note", """
            [{"text": null, "n": 1}, {"text": "null", "n": 2}, {"text": "", "n": 3}, {"text": "日本語のテキスト", "n": 4},
             {"text": "😀🐶 emoji", "n": 5}, {"text": "e\u{301}a\u{308}", "n": 6}]
            """)
        XCTAssertEqual(insert.code, 0, insert.stderr)
        return file
    }

    func testNullIsNULLDimmedAndApartFromTheStringNull() throws {
        let file = try notes()
        let box = realmsh([file, "-c", "Note SORT(n ASC) LIMIT(3)"])
        XCTAssertTrue(box.out.contains("│    0 │ NULL │ 1 │"), box.out)
        XCTAssertTrue(box.out.contains("│    1 │ null │ 2 │"), box.out)
        XCTAssertTrue(box.out.contains("│    2 │      │ 3 │"), box.out)
        // On a terminal with colour, NULL (only) is dimmed; .nullvalue still chooses the text.
        let out = MemorySink(), err = MemorySink()
        let io = ShellIO(stdout: out, stderr: err, stdoutIsTerminal: true, useColor: true, terminalWidth: 100)
        XCTAssertEqual(RealmShell.run(["query", "--format", "box", file, "Note", "n <= 2 SORT(n ASC)"], io: io), 0, err.text)
        XCTAssertTrue(out.text.contains("\u{1B}[2mNULL\u{1B}[0m"), out.text)
        XCTAssertFalse(out.text.contains("\u{1B}[2mnull"), out.text)
        let custom = realmsh([file, "-c", ".nullvalue ∅", "-c", "Note where n == 1"])
        XCTAssertTrue(custom.out.contains("│    0 │ ∅    │ 1 │"), custom.out)
    }

    /// Every row of a table takes the same number of terminal columns, whatever its
    /// characters (CJK and emoji take two each, combining marks none), also when cut.
    func testWideCharactersTakeTheirTerminalWidth() throws {
        let file = try notes()
        for maxwidth in ["0", "23", "24"] {
            for mode in ["box", "table", "markdown"] {
                let run = realmsh([file, "-c", ".maxwidth \(maxwidth)", "-c", ".mode \(mode)", "-c", "Note SORT(n ASC)"])
                let rows = run.out.split(separator: "\n").dropLast().map(String.init)     // not the footer
                let widths = Set(rows.filter { !$0.isEmpty }.map(Platform.displayWidth))
                XCTAssertEqual(widths.count, 1, "\(mode), maxwidth \(maxwidth):\n\(run.out)")
            }
        }
        XCTAssertEqual(Platform.displayWidth("日本語"), 6)
        XCTAssertEqual(Platform.displayWidth("😀🐶"), 4)
        XCTAssertEqual(Platform.displayWidth("e\u{301}a\u{308}"), 2)
        XCTAssertEqual(Platform.displayWidth("👨‍👩‍👧"), 2, "a ZWJ sequence is one emoji")
        // Cut to 9 columns: four wide characters and the ellipsis; to 8: three, the
        // ellipsis and a space (half a wide character does not fit).
        XCTAssertTrue(realmsh([file, "-c", ".maxwidth 24", "-c", "Note where n == 4"]).out.contains("│ 日本語の… │"))
        XCTAssertTrue(realmsh([file, "-c", ".maxwidth 23", "-c", "Note where n == 4"]).out.contains("│ 日本語…  │"))
    }

    func testCSVTellsTheEmptyStringFromNull() throws {
        let file = try notes()
        let csv = realmsh("export", "--format", "csv", "--class", "Note", file).out
        XCTAssertEqual(csv.split(separator: "\r\n").prefix(4).map(String.init), ["_key,text,n", "0,,1", "1,null,2", "2,\"\",3"])
    }

    func testTypesInHeaders() {
        let run = realmsh([basic, "-c", ".types on", "-c", "Dog LIMIT(1)", "-c", ".types off", "-c", "Dog LIMIT(1)"])
        XCTAssertTrue(run.out.contains("│ _key int │ name string │ age int? │ owner Person? │"), run.out)
        XCTAssertTrue(run.out.contains("│ _key │ name │ age │ owner        │"), run.out)
    }

    func testExitStatusFromTheScript() throws {
        XCTAssertEqual(realmsh([basic, "-c", "Dog LIMIT(1)", "-c", ".exit 3", "-c", "Dog"]).code, 3)
        XCTAssertEqual(realmsh([basic, "-c", ".exit"]).code, 0)
        let bad = realmsh([basic, "-c", ".exit 300"])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains(".exit takes a status from 0 to 255"), bad.stderr)
        // From a .read file too: the session ends.
        let script = dir + "/inner.txt"
        try Data(".exit 7\n".utf8).write(to: URL(fileURLWithPath: script))
        let nested = realmsh([basic, "-c", ".read \(script)", "-c", "Dog"])
        XCTAssertEqual(nested.code, 7)
        XCTAssertEqual(nested.out, "")
    }

    func testScriptErrorsNameTheirLine() throws {
        let script = dir + "/checks.txt"
        try Data("Dog LIMIT(1)\n\nDgo\n".utf8).write(to: URL(fileURLWithPath: script))
        let run = realmsh([basic, "-c", ".mode csv", "-c", ".read \(script)"])
        XCTAssertTrue(run.stderr.hasPrefix("Error: \(script) line 3: 'Dgo' is neither a command nor a class; did you mean 'Dog'?"), run.stderr)
    }

    func testVersionBareRealmshAndHelpSuggestions() {
        XCTAssertEqual(realmsh("-V").out, "realmsh \(RealmShell.version)\n")
        XCTAssertEqual(realmsh("--version").out, realmsh("-V").out)
        // No terminal: the usage on stderr, 64 (on a terminal: the shell, InteractiveShellTests).
        let bare = realmsh([])
        XCTAssertEqual(bare.code, 64)
        XCTAssertEqual(bare.out, "")
        XCTAssertTrue(bare.stderr.contains("USAGE: realmsh <subcommand>"), bare.stderr)
        XCTAssertEqual(realmsh("help", "exprot").stderr, "Error: no subcommand 'exprot'; did you mean 'export'?\n")
        let none = realmsh("help", "nosuch")
        XCTAssertEqual(none.code, 64)
        XCTAssertTrue(none.stderr.contains("no subcommand 'nosuch' (subcommands: info, schema, export"), none.stderr)
        XCTAssertTrue(realmsh([basic, "-c", "help qurey"]).stderr.contains("did you mean 'query'?"))
    }

    func testSQLiteDotCommandsAndSelect() {
        let run = realmsh([basic, "-c", ".tables", "-c", ".indexes", "-c", ".dump Dog"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.out.hasPrefix("Dog     8 objects\nPerson  10 objects\nPerson.name  indexed\n{\n  \"formatVersion\": 24,"), run.out)
        XCTAssertTrue(run.out.contains("\"Dog\": ["), run.out)
        XCTAssertFalse(run.out.contains("\"Person\": ["), ".dump Dog dumps only Dog")
        let hints: [(String, String)] = [
            ("SELECT * FROM person WHERE age >= 30 AND email IS NOT NULL ORDER BY name DESC LIMIT 5;",
             "write  Person where age >= 30 AND email != nil SORT(name DESC) LIMIT(5)"),
            ("select name from Dog where name like 'B%' and age = 3", "write  Dog where name LIKE 'B*' and age == 3"),
            ("SELECT count(*) FROM Dog", "write  query --format count Dog \"TRUEPREDICATE\""),
            ("SELECT 1", "type CLASS where PREDICATE"),
        ]
        for (sql, hint) in hints {
            let r = realmsh([basic, "-c", sql])
            XCTAssertEqual(r.code, 64)
            XCTAssertTrue(r.stderr.contains("realmsh speaks Realm's query language, not SQL: " + hint), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one line")
        }
    }

    /// A property that does not exist is an error before any object is selected, even when
    /// no object matches.
    func testUpdateChecksPropertiesFirst() throws {
        let copy = dir + "/basic.realm"
        try FileManager.default.copyItem(atPath: basic, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let run = realmsh("update", copy, "Dog", "--where", "name == 'nobody'", "--set", "nmae=1")
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(run.stderr.contains("Dog.nmae: no such property; did you mean 'name'?"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), before)
        XCTAssertEqual(realmsh("update", copy, "Dog", "--where", "name == 'nobody'", "--set", "name='x'").code, 0)
    }

    /// Realm Swift accepts a LinkingObjects whose origin is a link, a list or a set of links
    /// of the class, never a Mixed property (nor a dictionary); the names read as English.
    func testSwiftModelsDeclareOnlyValidLinkingObjects() {
        let models = realmsh("schema", "--format", "swift", alltypes).out
        for origin in ["mixedCol", "mixedList", "mixedSet", "mixedDict", "objectDict", "embeddedDict"] {
            XCTAssertFalse(models.contains("originProperty: \"\(origin)\""), origin)
        }
        XCTAssertTrue(models.contains("@Persisted(originProperty: \"objectList\") var allTypesViaObjectList: LinkingObjects<AllTypes>"), models)
        XCTAssertTrue(models.contains("@Persisted(originProperty: \"intPkCol\") var allTypes: LinkingObjects<AllTypes>"), models)
        XCTAssertFalse(models.contains("allTypess"), models)
        let basicModels = realmsh("schema", "--format", "swift", basic).out
        XCTAssertTrue(basicModels.contains("@Persisted(originProperty: \"dogs\") var people: LinkingObjects<Person>"), basicModels)
        XCTAssertTrue(basicModels.contains("@Persisted(originProperty: \"owner\") var dogsViaOwner: LinkingObjects<Dog>"), basicModels)
    }

    /// Each key message names what the user did.
    func testKeyMessagesNameWhatTheUserDid() throws {
        let encrypted = Fixtures.path("realm-core/encrypted.realm")
        let key = try String(contentsOfFile: Fixtures.path("realm-core/encrypted.key"), encoding: .utf8).filter { !$0.isWhitespace }
        func file(_ name: String, _ text: String) throws -> String {
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
            return dir + "/" + name
        }
        let half = try file("half.key", String(key.prefix(64)) + "\n")
        var run = realmsh("info", "--key-file", half, encrypted)
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("half.key: invalid key: 64 hexadecimal characters are 32 bytes of hex, too short"), run.stderr)
        // Exactly 64 bytes are a raw key (realm-core's own tests use ASCII keys): a wrong one
        // that is all hex digits gets the hint.
        let raw = try file("raw.key", String(key.prefix(64)))
        run = realmsh("info", "--key-file", raw, encrypted)
        XCTAssertEqual(run.code, 77)
        XCTAssertTrue(run.stderr.contains("--key-file \(raw) does not open this file; it is 64 hexadecimal characters"), run.stderr)
        let nonHex = try file("letters.key", String(repeating: "g", count: 128))
        run = realmsh("info", "--key-file", nonHex, encrypted)
        XCTAssertTrue(run.stderr.contains("128 characters, but not hexadecimal (character 1 is 'g')"), run.stderr)
        setenv("REALMSH_KEY", key, 1)
        defer { unsetenv("REALMSH_KEY") }
        run = realmsh("info", basic)
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(run.stderr.contains("a key was given (REALMSH_KEY): REALMSH_KEY is set in the environment; unset it for plain files"), run.stderr)
        XCTAssertFalse(run.stderr.contains("drop --key-file"), run.stderr)
        unsetenv("REALMSH_KEY")
        run = realmsh("info", "--key-file", Fixtures.path("realm-core/encrypted.key"), basic)
        XCTAssertTrue(run.stderr.contains("open it without --key-file"), run.stderr)
    }
}
