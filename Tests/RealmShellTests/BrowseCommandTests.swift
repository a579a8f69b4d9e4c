import Foundation
import RealmObjects
import RealmTestSupport
import XCTest
@testable import RealmShell

/// The shell's side of `realmsh browse` and `.browse`: options, the checks made before the
/// screen starts, the completion handed to the query bar, and the dot-command's round trip.
final class BrowseCommandTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")

    func testChecksTheFileAndClassBeforeAskingForATerminal() {
        let missing = realmsh("browse", "/nonexistent/x.realm")
        XCTAssertEqual(missing.code, 66, missing.stderr)
        let typo = realmsh("browse", "--class", "Dgo", basic)
        XCTAssertEqual(typo.code, 65)
        XCTAssertTrue(typo.stderr.contains("no class 'Dgo'; did you mean 'Dog'?"), typo.stderr)
        let noTerminal = realmsh("browse", basic)
        XCTAssertEqual(noTerminal.code, 64)
        XCTAssertTrue(noTerminal.stderr.contains("browse needs a terminal"), noTerminal.stderr)
        let encrypted = realmsh("browse", "--write", "--key-file", Fixtures.path("realm-core/encrypted.key"), Fixtures.path("realm-core/encrypted.realm"))
        XCTAssertEqual(encrypted.code, 69, encrypted.stderr)
        XCTAssertTrue(encrypted.stderr.contains("encrypted files are not written in place"), encrypted.stderr)
        let old = realmsh("browse", "--write", Fixtures.path("realm-core-tests/test_upgrade_database_20.realm"))
        XCTAssertEqual(old.code, 69, old.stderr)
    }

    func testTheQueryBarCompletesAsTheShellDoes() throws {
        let file = try RealmFile(path: basic)
        let property = BrowseCommand.complete(file.classes, "Person", "ag")
        XCTAssertEqual(property.candidates, ["age"])
        XCTAssertEqual(property.wordLength, 2)
        let keyPath = BrowseCommand.complete(file.classes, "Person", "age > 3 AND dogs.na")
        XCTAssertEqual(keyPath.candidates, ["dogs.name"])
        XCTAssertEqual(keyPath.wordLength, "dogs.na".count)
    }

    func testDotBrowseOpensTheBrowserAndComesBackToTheShell() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let shell = try TerminalSession(arguments: [basic], environment: ["TERM": "xterm", "HOME": dir, "REALMSH_HISTORY": dir + "/history"])
        XCTAssertTrue(shell.waitFor("basic.realm> "), shell.screen)
        shell.type(".browse Person\n")
        XCTAssertTrue(shell.waitFor("10 Person"), shell.screen)
        XCTAssertTrue(shell.screen.contains("READ-ONLY"))
        shell.type("q")
        XCTAssertTrue(shell.waitFor("basic.realm> "), shell.screen)
        // A read-only shell does not get a writable browser by asking for one.
        shell.type("browse --write\n")
        XCTAssertTrue(shell.waitFor("the shell is read-only"), shell.screen)
        shell.type(".quit\n")
        XCTAssertEqual(shell.waitForExit(), 0, shell.screen)
    }
}
