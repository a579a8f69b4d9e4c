import Foundation
import RealmObjects
@testable import RealmShell
import RealmTestSupport
import XCTest

/// The shell's pieces on their own: completion, history, how lines join and split.
final class ShellPartsTests: XCTestCase {
    var classes: [ObjectClass] = []

    override func setUpWithError() throws {
        classes = try RealmFile(path: Fixtures.path("realm-core/basic.realm")).classes
    }

    func complete(_ line: String) -> Completion { Completer(classes: classes).complete(line) }
    func candidates(_ line: String) -> [String] { complete(line).candidates }

    func testCompletesCommandsClassesAndDotCommands() {
        XCTAssertEqual(candidates("Pe"), ["Person"])
        XCTAssertEqual(candidates("qu"), ["query"])
        XCTAssertEqual(candidates("e"), ["export", "encrypt"])
        XCTAssertEqual(candidates(".ma"), [".maxrows", ".maxwidth"])
        XCTAssertEqual(candidates(".mode m"), ["markdown"])
        XCTAssertEqual(candidates(".headers "), ["on", "off"])
        XCTAssertEqual(candidates(".schema D"), ["Dog"])
        XCTAssertEqual(candidates(".sch D"), ["Dog"], "prefixes work for arguments too")
        XCTAssertEqual(candidates("help ex"), ["export"])
    }

    func testCompletesOptionsAndTheirValues() {
        XCTAssertEqual(candidates("export --fo"), ["--format", "--force"])
        XCTAssertEqual(candidates("export --format j"), ["json", "jsonl"])
        XCTAssertEqual(candidates("export --format=js"), ["json", "jsonl"])
        XCTAssertEqual(candidates("export --class P"), ["Person"])
        XCTAssertEqual(candidates("query D"), ["Dog"])
        XCTAssertEqual(candidates("delete Dog --wh"), ["--where"])
        XCTAssertEqual(candidates("query --format c"), ["csv", "count"])
    }

    func testCompletesPropertiesKeyPathsAndKeywords() {
        XCTAssertEqual(candidates("Person where n"), ["name", "nicknames", "not", "none"])
        XCTAssertEqual(candidates("Person wh"), ["where"])
        XCTAssertEqual(candidates("Person where dogs.na"), ["dogs.name"])
        XCTAssertEqual(candidates("Person where dogs.owner.bestFriend.ag"), ["dogs.owner.bestFriend.age"])
        XCTAssertEqual(candidates("Person where dogs.@c"), ["dogs.@count"])
        XCTAssertEqual(candidates("Person where nicknames.@s"), ["nicknames.@size", "nicknames.@sum"])
        XCTAssertEqual(candidates("Person where age > 3 an"), ["and"])
        XCTAssertEqual(candidates("Person where age > 3 AN"), ["AND"])
        XCTAssertEqual(candidates("Person where name BEG"), ["BEGINSWITH"])
        XCTAssertEqual(candidates("Person where age > 3 SORT(n"), ["name", "nicknames"])
        XCTAssertEqual(candidates("Person where age > 3 SORT(name "), ["ASC", "DESC"])
        XCTAssertEqual(candidates("Person where ANY dogs.ag"), ["dogs.age"])
        XCTAssertTrue(candidates("Person where ").contains("ANY"))
        XCTAssertTrue(candidates("Person where ").contains("bestFriend"))
        // Inside a quoted predicate of `query` and `--where`.
        XCTAssertEqual(candidates("query Person \"bestFriend.em"), ["bestFriend.email"])
        XCTAssertEqual(candidates("delete Dog --where 'own"), ["owner"])
        XCTAssertEqual(candidates("update Dog --where=\"owner.na"), ["owner.name"])
        // The short form follows links: Class.link offers links only.
        XCTAssertEqual(candidates("Person.d"), ["Person.dogs"])
        XCTAssertEqual(candidates("Person.dogs.o"), ["Person.dogs.owner"])
        XCTAssertEqual(candidates(".follow Person.b"), ["Person.bestFriend"])
    }

    func testLinksAndCollectionsKeepTheCursorOnTheWord() {
        XCTAssertFalse(complete("Person where bestF").appendSpace)
        XCTAssertFalse(complete("Person where dog").appendSpace)
        XCTAssertTrue(complete("Person where ag").appendSpace)
        XCTAssertFalse(complete("Person S").appendSpace, "SORT( waits for its key")
    }

    func testCompletesFileNames() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmsh-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["a.realm", "b.realm", ".hidden"] { _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil) }
        let c = complete(".open \(dir.path)/")
        XCTAssertEqual(c.candidates, ["a.realm", "b.realm", "sub"].map { dir.path + "/" + $0 })
        XCTAssertTrue(c.filenames)
        XCTAssertEqual(candidates(".read \(dir.path)/a"), [dir.path + "/a.realm"])
        XCTAssertEqual(candidates(".output \(dir.path)/.h"), [dir.path + "/.hidden"])
        XCTAssertEqual(candidates("export -o \(dir.path)/s"), [dir.path + "/sub"])
        XCTAssertEqual(candidates(".open \(dir.path)/a.realm --key-file \(dir.path)/b"), [dir.path + "/b.realm"])
    }

    func testWordStartMatchesReadlinesBreakCharacters() {
        XCTAssertEqual(Completer.wordStart("Person where dogs.na"), 13)
        XCTAssertEqual(Completer.wordStart("query Person \"age>3 and na"), 24)
        XCTAssertEqual(Completer.wordStart("export --format=js"), 16)
        XCTAssertEqual(Completer.wordStart("x SORT(na"), 7)
    }

    func testHistoryNeverKeepsKeys() throws {
        XCTAssertTrue(HistoryFile.holdsKey(".open app.realm --key " + String(repeating: "ab", count: 64)))
        XCTAssertTrue(HistoryFile.holdsKey(".open app.realm --key=00"))
        XCTAssertTrue(HistoryFile.holdsKey("Person where token == '" + String(repeating: "f", count: 64) + "'"))
        XCTAssertFalse(HistoryFile.holdsKey(".open app.realm --key-file app.key"))
        XCTAssertFalse(HistoryFile.holdsKey("Item where id == oid(5f1b3a9c8e4d2b0012345678)"))

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmsh-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let history = HistoryFile(path: dir.appendingPathComponent("deep/realmsh/history").path)
        history.append("Person where age > 30")
        history.append(".open x.realm --key " + String(repeating: "0", count: 128))
        history.append("query Person \"name ==\n'Ann'\"")
        XCTAssertEqual(history.load(), ["Person where age > 30", "query Person \"name == 'Ann'\""])
        let attributes = try FileManager.default.attributesOfItem(atPath: history.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("deep/realmsh").path)
        XCTAssertEqual((directory[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testHistoryIsCapped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmsh-cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("history").path
        let lines = (0..<(HistoryFile.limit * 2)).map { "Dog where age > \($0)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = HistoryFile(path: path).load()
        XCTAssertEqual(loaded.count, HistoryFile.limit)
        XCTAssertEqual(loaded.last, lines.last)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count, HistoryFile.limit,
                       "the file was rewritten with the newest commands")
    }

    func testHistoryLocation() {
        func path(_ env: [String: String]) -> String? { HistoryFile.standard { env[$0] }?.path }
        XCTAssertEqual(path(["REALMSH_HISTORY": "/tmp/h", "XDG_STATE_HOME": "/s"]), "/tmp/h")
        XCTAssertNil(path(["REALMSH_HISTORY": ""]), "an empty REALMSH_HISTORY turns history off")
        XCTAssertEqual(path(["XDG_STATE_HOME": "/state"]), "/state/realmsh/history")
        XCTAssertTrue(path(["XDG_STATE_HOME": "relative"])?.hasSuffix("/.local/state/realmsh/history") == true)
    }

    func testLinesJoinWhileQuotesOrBracketsAreOpen() {
        XCTAssertTrue(CommandText.needsMoreLines("Person where name == 'Al"))
        XCTAssertTrue(CommandText.needsMoreLines("insert Dog {\"name\": \"Rex\","))
        XCTAssertTrue(CommandText.needsMoreLines("Person where age > 3 \\"))
        XCTAssertFalse(CommandText.needsMoreLines("Person where name == \"it's\""))
        XCTAssertFalse(CommandText.needsMoreLines(".nullvalue '"), "dot-commands are one line")
        XCTAssertFalse(CommandText.needsMoreLines("Person where name == 'a\\\\'"))
        XCTAssertEqual(CommandText.join("Person where age > 3 \\", "AND age < 9"), "Person where age > 3  AND age < 9")
        XCTAssertEqual(CommandText.join("Dog where name IN {", "'Rex'}"), "Dog where name IN {\n'Rex'}")
    }

    func testWordsSplitLikeAShellAndKeepJSONWhole() throws {
        XCTAssertEqual(try CommandText.words("query Person \"age > 30\" --limit=2"), ["query", "Person", "age > 30", "--limit=2"])
        XCTAssertEqual(try CommandText.words("insert Dog {\"name\": \"Rex\", \"tags\": [1, 2]} {\"name\": \"}\"}"),
                       ["insert", "Dog", "{\"name\": \"Rex\", \"tags\": [1, 2]}", "{\"name\": \"}\"}"])
        XCTAssertEqual(try CommandText.words("a 'b \"c\"' \"d \\\"e\\\"\" f\\ g --x='y z'"), ["a", "b \"c\"", "d \"e\"", "f g", "--x=y z"])
        XCTAssertThrowsError(try CommandText.words("query Person 'age"))
    }

    func testShortQueryForms() throws {
        let names = ["Person", "Dog"]
        let all = try XCTUnwrap(ShortQuery.parse("Person", classes: names))
        XCTAssertEqual(all.predicate, "TRUEPREDICATE")
        let sorted = try XCTUnwrap(ShortQuery.parse("Person SORT(age DESC) LIMIT(2)", classes: names))
        XCTAssertEqual(sorted.predicate, "TRUEPREDICATE SORT(age DESC) LIMIT(2)")
        let path = try XCTUnwrap(ShortQuery.parse("Person.dogs.owner WHERE age > 3", classes: names))
        XCTAssertEqual(path.path, ["dogs", "owner"])
        XCTAssertEqual(path.predicate, "age > 3")
        XCTAssertEqual(path.predicateOffset, 24)
        XCTAssertNil(try ShortQuery.parse("Cat where x", classes: names))
        XCTAssertThrowsError(try ShortQuery.parse("Person where", classes: names))
        XCTAssertThrowsError(try ShortQuery.parse("Person..dogs", classes: names))
    }
}
