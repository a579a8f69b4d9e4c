import Foundation
import RealmTestSupport
import XCTest

/// `realmsh completion bash|zsh|fish` and `realmsh help --man`, made from the commands'
/// declarations: every subcommand and option is in them, bash completes through them, and
/// zsh, fish and groff accept them (when installed).
final class CompletionAndManPageTests: XCTestCase {
    var dir: String!

    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Runs `program args` with `input` on stdin; nil when the program is not installed.
    func run(_ program: String, _ args: [String], input: String = "") throws -> (code: Int32, out: String, err: String)? {
        guard let path = ["/usr/bin/", "/bin/"].map({ $0 + program }).first(where: FileManager.default.isExecutableFile) else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdin
        try p.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// export's formats, as its help lists them.
    var exportFormats: [String] {
        let help = realmsh("help", "export").out
        guard let line = help.split(separator: "\n").first(where: { $0.contains("--format <format>") }),
              let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return [] }
        return line[line.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
    }

    let names = ["info", "schema", "export", "query", "verify", "create", "insert", "upsert", "import", "update", "delete",
                 "migrate", "compact", "upgrade", "encrypt", "decrypt", "rekey", "keygen", "shell", "browse", "completion", "help"]

    func testEveryShellGetsEveryCommandAndOption() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = realmsh("completion", shell)
            XCTAssertEqual(script.code, 0, script.stderr)
            for name in names { XCTAssertTrue(script.out.contains(name), "\(shell): \(name)") }
            for option in ["enumerate-strings", "args-json", "dry-run", "new-key-file", "schema-version"] {
                XCTAssertTrue(script.out.contains(option), "\(shell): --\(option)")
            }
        }
        let bad = realmsh("completion", "bsh")
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains("did you mean 'bash'?"), bad.stderr)
    }

    func testBashCompletesSubcommandsOptionsAndChoices() throws {
        let script = dir + "/realmsh.bash"
        try Data(realmsh("completion", "bash").stdout).write(to: URL(fileURLWithPath: script))
        func complete(_ words: [String]) throws -> [String] {
            let line = "source \(script); COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1); _realmsh; printf '%s\\n' \"${COMPREPLY[@]}\""
            guard let r = try run("bash", ["--norc", "-c", line]) else { throw XCTSkip("no bash") }
            XCTAssertEqual(r.code, 0, r.err)
            return r.out.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(try complete(["realmsh", "comp"]), ["compact", "completion"])
        XCTAssertEqual(try complete(["realmsh", "export", "--format", ""]), exportFormats)
        XCTAssertEqual(try complete(["realmsh", "query", "--li"]), ["--limit"])
        XCTAssertEqual(try complete(["realmsh", "completion", "f"]), ["fish"])
        XCTAssertEqual(try complete(["realmsh", "help", "up"]), ["update", "upgrade", "upsert"])
    }

    func testZshAndFishAcceptTheirScripts() throws {
        var checked = 0
        for (shell, args) in [("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let script = dir + "/completion.\(shell)"
            try Data(realmsh("completion", shell).stdout).write(to: URL(fileURLWithPath: script))
            guard let r = try run(shell, args + [script]) else { continue }
            XCTAssertEqual(r.code, 0, "\(shell): \(r.err)")
            checked += 1
        }
        if let fish = try run("fish", ["--no-config", "-c", "source \(dir!)/completion.fish; complete -C 'realmsh export --format '"]) {
            XCTAssertEqual(fish.out.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted(), exportFormats, fish.err)
        }
        if checked == 0 { throw XCTSkip("neither zsh nor fish is installed") }
    }

    func testTheManPageIsTheHelp() throws {
        let page = realmsh("help", "--man")
        XCTAssertEqual(page.code, 0, page.stderr)
        XCTAssertTrue(page.out.hasPrefix(".TH REALMSH 1"), page.out)
        for name in names { XCTAssertTrue(page.out.contains(".SS \(name)\n"), name) }
        XCTAssertTrue(page.out.contains("\\fB\\-\\-enumerate\\-strings\\fR \\fIpercent\\fR"), "options as the help declares them")
        XCTAssertTrue(page.out.contains(".SH EXIT STATUS"))
        // groff renders it without a warning.
        let path = dir + "/realmsh.1"
        try Data(page.stdout).write(to: URL(fileURLWithPath: path))
        guard let groff = try run("groff", ["-man", "-ww", "-z", path]) else { throw XCTSkip("no groff to render the page") }
        XCTAssertEqual(groff.code, 0, groff.err)
        XCTAssertEqual(groff.err, "", "no roff warnings")
    }
}
