import Foundation
import RealmObjects
import RealmShell
import RealmTestSupport
import XCTest

/// The shell without a terminal: commands from standard input (a file, a pipe) or -c, no
/// prompt, no echo, no colour; --bail stops at the first error. Runs the real executable for
/// standard input, and in-process for everything else.
final class ShellScriptTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")
    var temporary: URL!

    override func setUpWithError() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("realmsh-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: temporary)
    }

    /// Runs the executable with `stdin` from a file holding `script`.
    func runExecutable(_ arguments: [String], stdin script: String?) throws -> (code: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Executable.require())
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["REALMSH_HISTORY"] = temporary.appendingPathComponent("history").path
        process.environment = environment
        if let script {
            let input = temporary.appendingPathComponent("script-\(UUID().uuidString).txt")
            try script.write(to: input, atomically: true, encoding: .utf8)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    func testAScriptOnStandardInputRunsWithoutPromptOrColour() throws {
        let run = try runExecutable([basic], stdin: """
            # comments and blank lines are skipped

            .mode csv
            Dog where age > 6
            query Person "name BEGINSWITH 'A'"
            .mode jsonl
            Person.dogs where name == 'Alice'
            """)
        XCTAssertEqual(run.code, 0, run.err)
        XCTAssertEqual(run.err, "")
        XCTAssertEqual(run.out, """
            _key,name,age,owner\r
            6,Daisy,7,\r
            7,Buddy II,8,\r
            _key,name,age,email,height,isAdmin,birthday,dogs,bestFriend,nicknames\r
            0,Alice,18,,150.0,true,1960-01-04T00:00:00Z,"[{""$key"":0},{""$key"":4}]","{""$key"":3}",[]\r
            {"_key":0,"name":"Rex","age":1,"owner":{"$key":0}}
            {"_key":4,"name":"Luna","age":5,"owner":{"$key":0}}

            """)
        XCTAssertFalse(run.out.contains("basic.realm>"))
        XCTAssertFalse(run.out.contains("\u{1B}["))
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary.appendingPathComponent("history").path),
                       "scripts are not history")
    }

    func testErrorsGoOnUnlessBail() throws {
        let script = """
            .mode csv
            Dog where age > 7
            Dog where agee > 7
            Dog where age > 6
            """
        let goOn = try runExecutable([basic], stdin: script)
        XCTAssertEqual(goOn.code, 65)
        XCTAssertEqual(goOn.out.split(separator: "\r\n").count, 5, goOn.out)
        XCTAssertEqual(goOn.err, """
            Error: line 3: 'Dog' has no property 'agee'
              Dog where agee > 7
                        ^^^^
            Did you mean 'age'?

            """)
        for bail in ["-bail", "--bail"] {
            let stopped = try runExecutable([bail, basic], stdin: script)
            XCTAssertEqual(stopped.code, 65)
            XCTAssertEqual(stopped.out, "_key,name,age,owner\r\n7,Buddy II,8,\r\n")
        }
    }

    func testDashCRunsCommands() throws {
        let run = try runExecutable([basic, "-c", ".mode csv", "-c", "Dog LIMIT(1)"], stdin: nil)
        XCTAssertEqual(run.code, 0, run.err)
        XCTAssertEqual(run.out, "_key,name,age,owner\r\n0,Rex,1,\"{\"\"$key\"\":0}\"\r\n")
        let failing = try runExecutable(["shell", basic, "-c", "schema --class Cat"], stdin: nil)
        XCTAssertEqual(failing.code, 65)
        XCTAssertTrue(failing.err.hasPrefix("Error: "), failing.err)
    }

    func testNoInputMeansInfo() throws {
        let run = try runExecutable([basic], stdin: nil)
        XCTAssertEqual(run.code, 0, run.err)
        XCTAssertTrue(run.out.hasPrefix("File:           "), run.out)
        XCTAssertTrue(run.out.contains("Person    10 objects"), run.out)
        // In-process (no standard input at all): the same.
        XCTAssertEqual(realmsh(basic).out, realmsh("info", basic).out)
    }

    // MARK: in-process

    func shell(_ script: String, file: String? = nil, options: [String] = []) -> ShellRun {
        realmsh(options + [file ?? basic, "-c", script])
    }

    func testSubcommandsWithoutTheFile() {
        let run = shell("""
            schema --class Dog
            query --format count Person "age > 30"
            delete Dog --all --dry-run
            export --format jsonl --class Dog
            """)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.out.hasPrefix("class Dog\n  name:  string\n"), run.out)
        XCTAssertTrue(run.out.contains("\n7\n8\n{\"_class\":\"Dog\",\"_key\":0,"), run.out)
    }

    func testExportToAFileAndOutputRedirection() throws {
        let json = temporary.appendingPathComponent("dogs.json").path
        let once = temporary.appendingPathComponent("once.txt").path
        let all = temporary.appendingPathComponent("all.txt").path
        let run = shell("""
            export --format json --class Dog -o \(json)
            .mode csv
            .once \(once)
            Dog LIMIT(1)
            Dog LIMIT(1)
            .output \(all)
            Person LIMIT(1)
            .headers off
            Person LIMIT(1)
            .output
            Dog LIMIT(1)
            """)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(try String(contentsOfFile: json, encoding: .utf8).contains("\"Buddy II\""))
        let row = "0,Rex,1,\"{\"\"$key\"\":0}\"\r\n"
        XCTAssertEqual(try String(contentsOfFile: once, encoding: .utf8), "_key,name,age,owner\r\n" + row)
        let person = "0,Alice,18,,150.0,true,1960-01-04T00:00:00Z,\"[{\"\"$key\"\":0},{\"\"$key\"\":4}]\",\"{\"\"$key\"\":3}\",[]\r\n"
        XCTAssertEqual(try String(contentsOfFile: all, encoding: .utf8),
                       "_key,name,age,email,height,isAdmin,birthday,dogs,bestFriend,nicknames\r\n" + person + person)
        XCTAssertEqual(run.out, "_key,name,age,owner\r\n" + row + row)
    }

    func testReadRunsAFileOfCommands() throws {
        let script = temporary.appendingPathComponent("commands.txt")
        try ".mode jsonl\nDog where name == 'Rex'\n".write(to: script, atomically: true, encoding: .utf8)
        let run = shell(".read \(script.path)\n.mode\n")
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.out, "{\"_key\":0,\"name\":\"Rex\",\"age\":1,\"owner\":{\"$key\":0}}\njsonl\n")
        let missing = shell(".read /nonexistent/commands.txt")
        XCTAssertEqual(missing.code, 66)
    }

    func testMultiLineCommands() {
        let run = shell("""
            .mode csv
            Dog where name IN {
              'Rex',
              'Max'
            }
            Dog where name == 'Bella' \\
              OR name == 'Luna'
            query Dog "name == 'Buddy
            II'"
            """)
        XCTAssertEqual(run.code, 0, run.stderr)
        let lines = run.out.split(separator: "\r\n").filter { !$0.hasPrefix("_key") }.map { $0.split(separator: ",")[1] }
        XCTAssertEqual(lines, ["Rex", "Max", "Bella", "Luna"])
    }

    func testTheShortFormTakesThePredicateAsTyped() {
        // Quotes and backslashes are the query language's, not the shell's.
        let run = shell(".mode csv\nDog where name == 'Rex\\'s' OR name == \"Fido\" OR name ==[c] 'max'")
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.out.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[1] }, ["Fido", "Max"])
    }

    func testDotCommandsTakeUnambiguousPrefixes() {
        let run = shell(".mo line\n.mode\n.h\n.hea off\n.headers\n.sh")
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.out.hasPrefix("line\noff\n"), run.out)
        XCTAssertTrue(run.out.contains("headers    off"), run.out)
        XCTAssertEqual(run.stderr, "Error: line 3: '.h' is ambiguous: .headers, .help\n")
        let unknown = shell(".shcema")
        XCTAssertEqual(unknown.stderr, "Error: line 1: unknown command '.shcema'; did you mean '.schema'? (type .help)\n")
    }

    func testHelpListsCommandsAndFilters() {
        let all = shell(".help")
        XCTAssertTrue(all.out.contains("  .maxrows N"), all.out)
        XCTAssertTrue(all.out.contains("  query "), all.out)
        XCTAssertTrue(all.out.contains("CLASS where PREDICATE"), all.out)
        let some = shell(".help pager")
        XCTAssertEqual(some.out.split(separator: "\n").count, 3, some.out)    // .pager, and .timer's note
        XCTAssertTrue(some.out.contains("  .pager on|off"), some.out)
        let command = shell("help delete")
        XCTAssertTrue(command.out.contains("USAGE: delete CLASS [--where predicate]"), command.out)
    }

    func testTimerPrintsElapsedTimeOnStandardError() {
        let run = shell(".timer on\nDog LIMIT(1)\n.timer off\nDog LIMIT(1)")
        XCTAssertEqual(run.code, 0)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, run.stderr)     // .timer on itself, and the query
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("Run time: ") && $0.hasSuffix(" s") }, run.stderr)
        XCTAssertEqual(run.out.components(separatedBy: "1 object (1 shown)").count, 3)
    }

    func testReadOnlyUntilWriteOn() throws {
        let copy = temporary.appendingPathComponent("basic.realm").path
        try FileManager.default.copyItem(atPath: basic, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let refused = shell("insert Dog {\"name\": \"Nova\", \"age\": 2}\nupdate Dog --all --set age=1\ndelete Dog --all\ncompact", file: copy)
        XCTAssertEqual(refused.code, 64)
        XCTAssertEqual(refused.stderr.components(separatedBy: "the shell is read-only").count, 5, refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy + ".lock"))

        // Scripts do not ask before changing several objects.
        let written = shell("""
            .write on
            insert Dog {"name": "Nova", "age": 2}
            update Dog --where "name == 'Nova'" --set age=3
            .mode csv
            Dog where name == 'Nova'
            delete Dog --where "age < 3"
            query --format count Dog TRUEPREDICATE
            """, file: copy)
        XCTAssertEqual(written.code, 0, written.stderr)
        XCTAssertEqual(written.out, "_key,name,age,owner\r\n8,Nova,3,\r\n7\n")
        let started = shell("insert Dog {\"name\": \"Orbit\"}\nquery --format count Dog TRUEPREDICATE", file: copy, options: ["--write"])
        XCTAssertEqual(started.out, "8\n", started.stderr)
    }

    func testErrorsAndSuggestions() {
        let run = shell("Prson\nPerson were age > 3\nPerson.dgs\nqurey Person x\nquery Person\n.mode tabel")
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stderr, """
            Error: line 1: 'Prson' is neither a command nor a class; did you mean 'Person'? (type .help)
            Error: line 2: expected 'where' after Person: Person where PREDICATE
            Error: line 3: 'dgs' is not a link of Person; did you mean 'dogs'? (links: dogs, bestFriend)
            Error: line 4: 'qurey' is neither a command nor a class; did you mean 'query'? (type .help)
            Error: line 5: missing argument PREDICATE
            Usage: query CLASS PREDICATE [--arg value]... [--args-json json] [--format format] [--limit n] [--key-file path] [--key hex]
            Error: line 6: unknown mode 'tabel' (modes: box, table, markdown, csv, json, jsonl, line); did you mean 'table'?

            """)
    }

    func testEncryptedFilesTakeTheirKeyOnce() throws {
        let encrypted = Fixtures.path("realm-core/encrypted.realm")
        let key = Fixtures.path("realm-core/encrypted.key")
        let run = shell(".mode csv\nDog LIMIT(1)\nquery --format count Person TRUEPREDICATE\ninfo", file: encrypted, options: ["--key-file", key])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.out.hasPrefix("_key,name,age,owner\r\n0,Rex,1,"), run.out)
        XCTAssertTrue(run.out.contains("\n10\n"), run.out)
        XCTAssertTrue(run.out.contains("Encrypted:      yes"), run.out)
        let hex = try String(contentsOfFile: key, encoding: .utf8).filter { !$0.isWhitespace }
        let warned = shell("Dog LIMIT(1)\nDog LIMIT(1)", file: encrypted, options: ["--key", hex])
        XCTAssertEqual(warned.stderr.components(separatedBy: "visible to other users").count, 2, "warned once: \(warned.stderr)")
        let locked = shell("Dog", file: encrypted)
        XCTAssertEqual(locked.code, 77)
    }
}
