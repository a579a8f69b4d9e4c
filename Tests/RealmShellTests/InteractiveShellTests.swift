import Foundation
import RealmTestSupport
import XCTest

/// The interactive shell as a person uses it: the real executable on a pseudo-terminal,
/// keystrokes in, screen out. Each test bounds every wait (see TerminalSession).
final class InteractiveShellTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")
    var temporary: URL!

    override func setUpWithError() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("realmsh-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: temporary)
    }

    var historyPath: String { temporary.appendingPathComponent("state/realmsh/history").path }

    func start(_ arguments: [String], environment: [String: String] = [:], rows: Int = 40) throws -> TerminalSession {
        var env = ["REALMSH_HISTORY": historyPath, "HOME": temporary.path]
        env.merge(environment) { $1 }
        let session = try TerminalSession(arguments: arguments, environment: env, rows: rows)
        XCTAssertTrue(session.waitFor("basic.realm> ") || session.screen.contains("> "), "no prompt:\n\(session.screen)")
        return session
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testAQueryShowsATable() throws {
        let shell = try start([basic])
        XCTAssertTrue(shell.screen.contains("read-only"), shell.screen)
        shell.type("Person where age > 60 SORT(name ASC)\n")
        XCTAssertTrue(shell.waitFor("2 objects (2 shown)"), shell.screen)
        let table = shell.screen
        XCTAssertTrue(table.contains("┌──────┬───────┬─────┬"), table)
        XCTAssertTrue(table.contains("│    7 │ Heidi │  67 │"), table)
        XCTAssertTrue(table.contains("│    9 │ Judy  │  99 │"), table)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        // An error is one message with a caret, and the shell goes on.
        shell.type("Person where nmae == 'x'\n")
        XCTAssertTrue(shell.waitFor("Did you mean 'name'?"), shell.screen)
        XCTAssertTrue(shell.screen.contains("  Person where nmae == 'x'\n               ^^^^"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }

    func testTabCompletesClassesPropertiesAndKeyPaths() throws {
        let shell = try start([basic])
        shell.type("Per\t")
        XCTAssertTrue(shell.waitFor("Person "), shell.screen)
        shell.type("wh\t")
        XCTAssertTrue(shell.waitFor("where "), shell.screen)
        shell.type("bestF\t")
        XCTAssertTrue(shell.waitFor("bestFriend"), shell.screen)
        shell.type(".ag\t")                       // through the link: Person's properties again
        XCTAssertTrue(shell.waitFor(".age "), shell.screen)
        shell.type("> 40\n")
        // Best friends older than 40: Charlie's (Frank, 53), Eve's (Heidi, 67), Grace's (Judy, 99).
        XCTAssertTrue(shell.waitFor("3 objects (3 shown)"), shell.screen)
        XCTAssertTrue(shell.screen.contains("│ Eve "), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        // A list of candidates for a link list: Dog's properties and the aggregates.
        shell.type("Person where dogs.\t\t")
        XCTAssertTrue(shell.waitFor("dogs.owner"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> Person where dogs."), shell.screen)     // the line, after the list
        XCTAssertTrue(shell.screen.contains("dogs.@count"), shell.screen)
        shell.type("\u{03}")
        XCTAssertTrue(shell.waitFor("^C"), shell.screen)
        shell.type(".mo\t")
        XCTAssertTrue(shell.waitFor(".mode "), shell.screen)
        shell.type("mark\t\n")
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type("Dog LIMIT(1)\n")
        XCTAssertTrue(shell.waitFor("|-----:|"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type("\u{04}")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }

    func testHistorySurvivesARestartAndIsPrivate() throws {
        let state = temporary.appendingPathComponent("xdg").path
        // No REALMSH_HISTORY: the file goes under $XDG_STATE_HOME.
        var shell = try TerminalSession(arguments: [basic], environment: ["XDG_STATE_HOME": state, "HOME": temporary.path])
        XCTAssertTrue(shell.waitFor("basic.realm> "), shell.screen)
        shell.type("Dog where age > 7\n")
        XCTAssertTrue(shell.waitFor("1 object (1 shown)"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
        shell.close()
        let file = state + "/realmsh/history"
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "Dog where age > 7\n.quit\n")
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try mode(state + "/realmsh"), 0o700)

        shell = try TerminalSession(arguments: [basic], environment: ["XDG_STATE_HOME": state, "HOME": temporary.path])
        XCTAssertTrue(shell.waitFor("basic.realm> "), shell.screen)
        shell.type("\u{10}\u{10}")              // Ctrl-P twice: back past .quit to the query
        XCTAssertTrue(shell.waitFor("Dog where age > 7"), shell.screen)
        shell.type("\n")
        XCTAssertTrue(shell.waitFor("Buddy II"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type("\u{12}ge > ")                 // Ctrl-R: search back
        XCTAssertTrue(shell.waitFor("reverse-i-search"), shell.screen)
        XCTAssertTrue(shell.waitFor("Dog where age > 7"), shell.screen)
        shell.type("\r")                          // Return, as a terminal sends it (C-J only ends a search)
        XCTAssertTrue(shell.waitFor("Buddy II"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type("\u{04}")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }

    func testCtrlCCancelsTheLineAndCtrlDExits() throws {
        let shell = try start([basic])
        shell.type("Person where age >")
        XCTAssertTrue(shell.waitFor("Person where age >"), shell.screen)
        shell.type("\u{03}")
        XCTAssertTrue(shell.waitFor("^C"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "), shell.screen)
        shell.type(".classes\n")
        XCTAssertTrue(shell.waitFor("Person  10 objects"), shell.screen)
        XCTAssertFalse(shell.screen.contains("Error"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        // A continuation line is dropped too.
        shell.type("Person where name == 'Al\n")
        XCTAssertTrue(shell.waitFor("...> "), shell.screen)
        shell.type("\u{03}")
        XCTAssertTrue(shell.waitFor("basic.realm> "), shell.screen)
        shell.type("\u{04}")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
        XCTAssertFalse(shell.screen.contains("Error"), shell.screen)
    }

    func testCtrlCStopsALongExport() throws {
        let large = Fixtures.path("realm-core/large.realm")
        let out = temporary.appendingPathComponent("items.jsonl").path
        let shell = try TerminalSession(arguments: [large], environment: ["REALMSH_HISTORY": historyPath])
        XCTAssertTrue(shell.waitFor("large.realm> "), shell.screen)
        shell.type("export --format jsonl -o \(out)\n")
        XCTAssertTrue(shell.waitFor("items.jsonl\n"), shell.screen)     // the line was taken: the export runs
        shell.pump(milliseconds: 200)
        shell.type("\u{03}")
        XCTAssertTrue(shell.waitFor("interrupted", timeout: 30), shell.screen)
        XCTAssertTrue(shell.waitFor("large.realm> "), shell.screen)
        // Nothing is left behind: the output appears whole or not at all.
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("items") }
        XCTAssertEqual(left, [])
        shell.type(".classes\n")
        XCTAssertTrue(shell.waitFor("Item    150000 objects"), shell.screen)
        XCTAssertTrue(shell.waitFor("large.realm> "))
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }

    func testAKeyTypedInOpenIsNeverSaved() throws {
        let encrypted = Fixtures.path("realm-core/encrypted.realm")
        let hex = try String(contentsOfFile: Fixtures.path("realm-core/encrypted.key"), encoding: .utf8)
            .filter { !$0.isWhitespace }
        XCTAssertEqual(hex.count, 128)
        let shell = try start([basic])
        shell.type(".open \(encrypted) --key \(hex)\n")
        XCTAssertTrue(shell.waitFor("Opened"), shell.screen)
        XCTAssertTrue(shell.waitFor("encrypted.realm> "), shell.screen)
        XCTAssertFalse(shell.screen.contains("visible to other users"), "a typed key is not in the process list")
        shell.type(".classes\n")
        XCTAssertTrue(shell.waitFor("Person  10 objects"), shell.screen)
        XCTAssertTrue(shell.waitFor("encrypted.realm> "))
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
        let history = try String(contentsOfFile: historyPath, encoding: .utf8)
        XCTAssertEqual(history, ".classes\n.quit\n")
        XCTAssertFalse(history.contains(String(hex.prefix(16))))
    }

    func testWritesNeedWriteOnAndSeveralObjectsNeedConfirmation() throws {
        let copy = temporary.appendingPathComponent("basic.realm").path
        try FileManager.default.copyItem(atPath: basic, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        let shell = try start([copy])
        shell.type("delete Dog --where 'age > 5'\n")
        XCTAssertTrue(shell.waitFor("read-only: type .write on"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type(".write on\n")
        XCTAssertTrue(shell.waitFor("basic.realm [write]> "), shell.screen)
        shell.type("delete Dog --where 'age > 5'\n")
        XCTAssertTrue(shell.waitFor("Delete 3 Dog objects? [y/N] "), shell.screen)
        shell.type("n\n")
        XCTAssertTrue(shell.waitFor("Nothing was changed."), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm [write]> "))
        shell.type("delete Dog --where 'age > 5'\n")
        XCTAssertTrue(shell.waitFor("Delete 3 Dog objects? [y/N] "), shell.screen)
        shell.type("y\n")
        XCTAssertTrue(shell.waitFor("deleted 3"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm [write]> "))
        shell.type("Dog\n")
        XCTAssertTrue(shell.waitFor("5 objects (5 shown)"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm [write]> "))
        shell.type("\u{04}")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }

    func testTallResultsGoThroughThePager() throws {
        // The pager sleeps first: its time is not the command's (.timer).
        let shell = try start([basic], environment: ["PAGER": "sleep 1; sed 's/^/PAGED /'"], rows: 10)
        // The default cap fits the screen with the frame and the footer: no pager needed,
        // and the footer is in sight.
        shell.type("Person\n")
        XCTAssertTrue(shell.waitFor("10 objects (4 shown)"), shell.screen)
        XCTAssertFalse(shell.screen.contains("PAGED"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type(".maxrows 0\n.timer on\n")
        XCTAssertTrue(shell.waitFor("Run time: "), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type("Person\n")                       // taller than the screen: paged
        XCTAssertTrue(shell.waitFor("PAGED 10 objects (10 shown)"), shell.screen)
        XCTAssertTrue(shell.waitFor("Run time: 0."), "time in the pager is not counted\n" + shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type(".timer off\n.mode jsonl\n.maxrows auto\nPerson\n")     // data modes are capped too
        XCTAssertTrue(shell.waitFor("10 objects (8 shown; .maxrows 0 shows all)"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type(".mode json\n.maxrows 0\nPerson\n")          // …and paged
        XCTAssertTrue(shell.waitFor("PAGED   {"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type(".mode box\n.pager off\nPerson\n")
        XCTAssertTrue(shell.waitFor("10 objects (10 shown)"), shell.screen)
        XCTAssertEqual(shell.screen.components(separatedBy: "PAGED 10 objects").count, 2, shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type("\u{04}")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }

    func testAPagerThatIsNotInstalledPrintsTheResult() throws {
        let shell = try start([basic], environment: ["PAGER": "nosuchpager -R"], rows: 10)
        shell.type(".maxrows 0\nPerson\n")
        XCTAssertTrue(shell.waitFor("the pager 'nosuchpager' ($PAGER) is not installed; printing instead"), shell.screen)
        XCTAssertTrue(shell.waitFor("10 objects (10 shown)"), shell.screen)
        XCTAssertTrue(shell.waitFor("basic.realm> "))
        shell.type("\u{04}")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }

    /// As sqlite3: `realmsh` alone on a terminal is the shell, with no file open yet.
    func testBareRealmshOpensTheShell() throws {
        let shell = try TerminalSession(arguments: [], environment: ["REALMSH_HISTORY": historyPath])
        XCTAssertTrue(shell.waitFor("no file open: .open FILE opens one"), shell.screen)
        XCTAssertTrue(shell.waitFor("realmsh> "), shell.screen)
        shell.type(".open \(basic)\n")
        XCTAssertTrue(shell.waitFor("basic.realm> "), shell.screen)
        shell.type(".exit 4\n")
        XCTAssertEqual(shell.waitForExit(), 4, shell.screen)
    }

    /// An encrypted file opened without a key: the key is asked for, not echoed, asked again
    /// when it is wrong, and passed on to commands.
    func testTheKeyOfAnEncryptedFileIsAskedFor() throws {
        let encrypted = Fixtures.path("realm-core/encrypted.realm")
        let hex = try String(contentsOfFile: Fixtures.path("realm-core/encrypted.key"), encoding: .utf8).filter { !$0.isWhitespace }
        let shell = try TerminalSession(arguments: [encrypted], environment: ["REALMSH_HISTORY": historyPath])
        XCTAssertTrue(shell.waitFor("Key for encrypted.realm (128 hex characters, or a key file): "), shell.screen)
        shell.type(String(repeating: "ab", count: 64) + "\n")
        XCTAssertTrue(shell.waitFor("wrong key (authentication failed at page 0)"), shell.screen)
        XCTAssertTrue(shell.waitFor("Key for encrypted.realm"), shell.screen)
        shell.type(hex + "\n")
        XCTAssertTrue(shell.waitFor("encrypted.realm> "), shell.screen)
        XCTAssertFalse(shell.screen.contains(String(hex.prefix(16))), "the key is not echoed")
        XCTAssertFalse(shell.screen.contains("abababab"), "nor a wrong one")
        XCTAssertFalse(shell.screen.contains("visible to other users"), "a typed key is not in the process list")
        shell.type("query --format count Person TRUEPREDICATE\n")
        XCTAssertTrue(shell.waitFor("10\n"), shell.screen)
        XCTAssertTrue(shell.waitFor("encrypted.realm> "))
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }
}
