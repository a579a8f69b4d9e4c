import Foundation
import XCTest
import RealmTestSupport

/// `realmsh browse` in a real terminal (tmux), driven as a person would: keys in, the screen
/// read back and compared with what the fixtures' dumps say; the terminal checked to be as it
/// was after q and after SIGTERM. Skipped when tmux is not installed (it is not part of the
/// README's packages); everything it drives is also covered by the view-model tests.
final class TmuxBrowseTests: XCTestCase {
    var directory = ""

    override func tearDown() {
        if !directory.isEmpty { try? FileManager.default.removeItem(atPath: directory) }
    }

    func testBrowsingInATerminalAsAPersonWould() throws {
        guard let tmuxPath = Tmux.find() else { throw XCTSkip("tmux is not installed: the tmux-driven browse test is skipped") }
        let realmsh = try Executable.require()
        directory = Fixtures.temporaryDirectory()
        let basic = Fixtures.path("realm-core/basic.realm")
        let large = Fixtures.path("realm-core/large.realm")
        // The shell saves the terminal's modes, runs two browsers (the second one is ended with
        // SIGTERM), and saves the modes after each.
        let script = """
            stty -g > \(directory)/before
            '\(realmsh)' browse '\(basic)'; echo "EXIT1=$?"
            stty -g > \(directory)/after1
            while [ ! -f \(directory)/go ]; do sleep 0.1; done
            '\(realmsh)' browse --class Item '\(large)'; echo "EXIT2=$?"
            stty -g > \(directory)/after2
            exec sleep 600
            """
        try script.write(toFile: directory + "/run.sh", atomically: true, encoding: .utf8)
        let tmux = try Tmux(executable: tmuxPath, directory: directory, columns: 120, rows: 30, command: "env LANG=C.UTF-8 TERM=xterm-256color NO_COLOR=1 sh \(directory)/run.sh")

        let people = try BrowserFixtures.objects("realm-core/basic.realm", "Person")
        let dogs = try BrowserFixtures.objects("realm-core/basic.realm", "Dog")
        func name(_ o: [String: Any]) -> String { o["name"] as! String }
        func rowsShowing(_ names: [String], in screen: [String]) -> Bool {
            let tableRows = screen.dropFirst(3).filter { $0.contains("│") }
            let shown = names.compactMap { n in tableRows.firstIndex { $0.contains(" \(n) ") } }
            return shown.count == names.count && shown == shown.sorted()
        }

        // The first class (Dog): its objects in the dump's order, typed headers.
        var screen = try tmux.wait(for: "8 Dog")
        XCTAssertTrue(screen[0].contains("realmsh browse · basic.realm") && screen[0].contains("READ-ONLY"), screen[0])
        XCTAssertTrue(screen[2].contains("age int?") && screen[2].contains("owner → Person"), screen[2])
        XCTAssertTrue(rowsShowing(dogs.map(name), in: screen), screen.joined(separator: "\n"))
        XCTAssertEqual(try tmux.pane("#{alternate_on}"), "1")
        // NO_COLOR: bold, dim and reverse, no colour.
        let sgr = try tmux.attributes()
        XCTAssertTrue(sgr.contains { $0.contains("7") }, "\(sgr)")
        XCTAssertFalse(sgr.contains { $0.contains { Self.isColor($0) } }, "\(sgr)")

        // Person: Tab to the classes, down, Tab back.
        try tmux.send("Tab", "j", "Tab")
        screen = try tmux.wait(for: "10 Person")
        XCTAssertTrue(rowsShowing(people.map(name), in: screen))

        // Filter age > 30: the count line and the rows of the dump's matches.
        let older = people.filter { ($0["age"] as! Int) > 30 }
        try tmux.send(":")
        try tmux.type("age > 30")
        try tmux.send("Enter")
        screen = try tmux.wait(for: "\(older.count) of 10 Person")
        XCTAssertTrue(rowsShowing(older.map(name), in: screen))
        XCTAssertFalse(screen.contains { $0.contains(" Alice ") })

        // Sort by name (the column right of _key).
        try tmux.send("l", "s")
        screen = try tmux.wait(for: "sorted by name ↑")
        let sorted = older.sorted { name($0) < name($1) }
        XCTAssertTrue(rowsShowing(sorted.map(name), in: screen), screen.joined(separator: "\n"))

        // Enter on the first row's list of dogs: the dump's dogs of that person, in list order.
        let first = sorted[0]
        for _ in 0..<6 { try tmux.send("l") }
        try tmux.send("Enter")
        let ownKeys = (first["dogs"] as! [Any]).compactMap(BrowserFixtures.key)
        screen = try tmux.wait(for: "Person(#\((first["_key"] as! NSNumber).intValue)).dogs")
        XCTAssertTrue(rowsShowing(ownKeys.map { name(dogs[Int($0)]) }, in: screen), screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains { $0.contains(" \(ownKeys.count) Dog ") || $0.hasPrefix(" \(ownKeys.count) Dog") })

        // Enter on the first dog's owner link: the owner the dump names.
        let firstDog = dogs[Int(ownKeys[0])]
        try tmux.send("l", "l", "l", "Enter")
        let owner = try XCTUnwrap(BrowserFixtures.key(firstDog["owner"]))
        screen = try tmux.wait(for: "Dog(#\(ownKeys[0])).owner")
        XCTAssertTrue(rowsShowing([name(people[Int(owner)])], in: screen))

        // Back: the list again, cursor where it was; the dog's backlinks.
        try tmux.send("BSpace")
        screen = try tmux.wait("the list again") { $0[1].hasSuffix(".dogs") || $0[1].contains(".dogs ") }
        try tmux.send("b")
        screen = try tmux.wait(for: "← backlinks")
        let holders = people.filter { ($0["dogs"] as! [Any]).compactMap(BrowserFixtures.key).contains(ownKeys[0]) }
        XCTAssertTrue(screen.contains { $0.contains("Person.dogs") && $0.contains(" \(holders.count) ") }, screen.joined(separator: "\n"))

        // The detail view of that dog.
        try tmux.send("BSpace", "d")
        screen = try tmux.wait(for: "linked from")
        XCTAssertTrue(screen.contains { $0.contains("name") && $0.contains("string") && $0.contains(name(firstDog)) })
        let age = (firstDog["age"] as? NSNumber).map { "\($0)" } ?? "null"
        XCTAssertTrue(screen.contains { $0.contains("age") && $0.contains("int?") && $0.contains(age) })

        // A smaller window: every line fits it.
        try tmux.resize(columns: 70, rows: 18)
        screen = try tmux.wait("the smaller screen") { s in s.count >= 18 && s[0].contains("READ-ONLY") && s.allSatisfy { $0.count <= 70 } }
        XCTAssertTrue(screen[16].contains("row "), screen.joined(separator: "\n"))
        try tmux.resize(columns: 120, rows: 30)

        // q: the terminal as it was.
        try tmux.send("q")
        screen = try tmux.wait(for: "EXIT1=0")
        try assertRestored(tmux, "after1")
        FileManager.default.createFile(atPath: directory + "/go", contents: nil)

        // large: page down, then to the end; the last row is the dump's last Item.
        screen = try tmux.wait(for: "150,000 Item")
        try tmux.send("PageDown", "PageDown")
        screen = try tmux.wait("two pages down") { $0.contains { $0.contains("row \(2 * 25 + 1) of 150,000") } }
        try tmux.send("G")
        screen = try tmux.wait(for: "row 150,000 of 150,000")
        let last = try lastItem(Fixtures.path("realm-core/large.json.gz"))
        XCTAssertTrue(screen[27].contains(String(last.id)) && screen[27].contains(last.name), screen.joined(separator: "\n"))

        // SIGTERM: the process ends by the signal, and the terminal is restored.
        let pid = try XCTUnwrap(try tmux.childProcess(named: "realmsh"))
        kill(pid, SIGTERM)
        screen = try tmux.wait(for: "EXIT2=143")
        try assertRestored(tmux, "after2")
    }

    /// An SGR parameter that sets a colour (30–38, 40–48, 90–107; not 39 and 49, the defaults).
    static func isColor(_ p: String) -> Bool {
        guard let n = Int(p) else { return false }
        return (30...38).contains(n) || (40...48).contains(n) || (90...107).contains(n)
    }

    /// `--write` in a terminal: a refused value stays to be fixed, a good one is committed, a
    /// delete asks first, another process's commit shows; colour when NO_COLOR is not set.
    func testWritingInATerminal() throws {
        guard let tmuxPath = Tmux.find() else { throw XCTSkip("tmux is not installed: the tmux-driven browse test is skipped") }
        let realmsh = try Executable.require()
        directory = Fixtures.temporaryDirectory()
        let path = try Fixtures.copy("realm-core/basic.realm", into: directory)
        let tmux = try Tmux(executable: tmuxPath, directory: directory, columns: 120, rows: 24,
                            command: "env -u NO_COLOR LANG=C.UTF-8 TERM=xterm-256color sh -c \"'\(realmsh)' browse --write --class Person '\(path)'; echo EXIT=\\$?; exec sleep 600\"")
        var screen = try tmux.wait(for: "10 Person")
        XCTAssertTrue(screen[0].hasSuffix("WRITABLE"), screen[0])
        let colours = try tmux.attributes()
        XCTAssertTrue(colours.contains { $0.contains { Self.isColor($0) } }, "colours without NO_COLOR: \(colours.prefix(20))")

        try tmux.send("l", "l", "e")                          // Alice's age
        screen = try tmux.wait(for: "age (int) = 18")
        try tmux.send("C-u")
        try tmux.type("123abc")
        try tmux.send("Enter")
        screen = try tmux.wait(for: "age expects an int; '123abc' is not one (nothing was written)")
        try tmux.send("C-u")
        try tmux.type("41")
        try tmux.send("Enter")
        screen = try tmux.wait(for: "Saved Person(#0).age = 41 — committed, version 5.")
        XCTAssertTrue(screen[3].contains(" Alice ") && screen[3].contains(" 41 "), screen[3])

        try tmux.send("D")
        screen = try tmux.wait(for: "Delete Person(#0)? This sets Dog.owner to null in 2 objects. [y/N]")
        try tmux.send("n")
        screen = try tmux.wait(for: "Nothing was deleted.")

        // Another process commits: the screen shows the new value and says so.
        let update = try Executable.start(["update", path, "Person", "--where", "name == 'Bob'", "--set", "age=52"])
        update.waitUntilExit()
        XCTAssertEqual(update.terminationStatus, 0)
        screen = try tmux.wait(for: "The file changed (another process committed): now version 6.")
        XCTAssertTrue(screen[4].contains(" Bob ") && screen[4].contains(" 52 "), screen[4])

        // Ctrl-C quits as q does: exit status 0, the terminal restored.
        try tmux.send("C-c")
        _ = try tmux.wait(for: "EXIT=0")
        XCTAssertEqual(try tmux.pane("#{alternate_on} #{cursor_flag} #{keypad_cursor_flag} #{mouse_any_flag}"), "0 1 0 0")
    }

    /// Normal screen, cursor visible, keypad and mouse reporting off, modes as before.
    func assertRestored(_ tmux: Tmux, _ after: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try tmux.pane("#{alternate_on} #{cursor_flag} #{keypad_cursor_flag} #{mouse_any_flag}"), "0 1 0 0", file: file, line: line)
        _ = try tmux.wait("stty output") { _ in FileManager.default.fileExists(atPath: self.directory + "/" + after) }
        let before = try String(contentsOfFile: directory + "/before", encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: directory + "/" + after, encoding: .utf8), before, "terminal modes", file: file, line: line)
    }

    /// The last Item of the large dump: `"id": N` and `"name": "…"` of the last object.
    func lastItem(_ gz: String) throws -> (id: Int, name: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "gzip -dc \"$0\" | tail -c 2000", gz]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let idLine = try XCTUnwrap(lines.last { $0.hasPrefix("\"id\": ") })
        let nameLine = try XCTUnwrap(lines.last { $0.hasPrefix("\"name\": ") })
        let id = try XCTUnwrap(Int(idLine.dropFirst(6).dropLast()))
        return (id, String(nameLine.dropFirst(9).dropLast(2)))
    }
}
