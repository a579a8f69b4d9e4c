import Foundation
@testable import RealmShell
import RealmTestSupport
import XCTest

/// The read-only promise as a property of the pipeline (issue #13): every command of the
/// command list — walked from `Commands.all`, so a new command without sample arguments fails
/// here — is run with arguments that would write, including an output naming FILE through
/// another spelling, a symlink and a hard link. A read-only shell changes no byte of its file
/// and creates no `.lock`; the command line refuses an existing output without --force and
/// an output over FILE that is not FILE's content; a writable shell runs every writing form;
/// while an app holds the file, every in-place writer exits 75 and changes nothing.
final class CommandEffectTests: XCTestCase {
    var dir = ""
    var schemaJSON = "", dogsJSON = "", script = "", newKey = ""
    let encryptedKey = Fixtures.path("realm-core/encrypted.key")

    override func setUpWithError() throws {
        dir = Fixtures.temporaryDirectory()
        let basic = Fixtures.path("realm-core/basic.realm")
        schemaJSON = dir + "/schema.json"
        try Data(realmsh("schema", "--format", "json", basic).stdout).write(to: URL(fileURLWithPath: schemaJSON))
        dogsJSON = dir + "/dogs.json"
        try Data(#"[{"name": "Rexx", "age": 3}]"#.utf8).write(to: URL(fileURLWithPath: dogsJSON))
        script = dir + "/v2.migration"
        try Data("version 2 {\n}\n".utf8).write(to: URL(fileURLWithPath: script))
        newKey = dir + "/new.key"
        XCTAssertEqual(realmsh("keygen", "-o", newKey).code, 0)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Which fixture a command works on.
    enum Subject { case plain, primaryKeys, encrypted, older }

    /// A command's arguments that make it do its work, FILE left out (the walk adds it, and the
    /// output spellings the command's declared effect names). `@SAME` is replaced by each
    /// spelling of FILE.
    func samples(_ name: String) -> (Subject, [[String]])? {
        switch name {
        case "info", "schema", "verify", "compact": return (.plain, [[]])
        case "export": return (.plain, [["--format", "jsonl"]])
        case "query": return (.plain, [["Person", "age > 1"]])
        case "create": return (.plain, [["--schema", schemaJSON]])
        case "insert": return (.plain, [["Dog", #"{"name": "Rexx", "age": 3}"#]])
        case "upsert": return (.primaryKeys, [["LinkTarget", #"{"_id": "alpha", "value": 99}"#]])
        case "import": return (.plain, [["Dog", dogsJSON]])
        case "update": return (.plain, [["Person", "--all", "--set", "age=1"]])
        case "delete": return (.plain, [["Dog", "--all"], ["Dog", "--all", "--dry-run"]])
        case "migrate": return (.plain, [[script], [script, "--dry-run"], [schemaJSON, "--generate"]])
        case "upgrade": return (.older, [[]])
        case "encrypt": return (.plain, [["--key-file", newKey]])
        case "decrypt": return (.encrypted, [[]])
        case "rekey": return (.encrypted, [["--new-key-file", newKey]])
        case "keygen": return (.plain, [[]])
        case "help": return (.plain, [["compact"], ["--man"]])
        case "completion": return (.plain, [["bash"]])
        case "browse": return (.plain, [[], ["--write"]])
        case "shell": return (.plain, [["-c", "compact"], ["-c", "update Person --all --set age=1"],
                                       ["-c", "export -o @SAME --force"], ["-c", "compact -o @SAME --force"]])
        default: return nil
        }
    }

    /// A fresh copy of the subject's fixture with a symlink and a hard link to it.
    struct Copy {
        let path: String
        let key: String?
        /// FILE by other names: another spelling, a symlink, a hard link.
        let spellings: [String]
        let bytes: Data
        var locks: [String] { ([path] + spellings).map { $0 + ".lock" } }
    }

    func copy(_ subject: Subject, _ n: Int) throws -> Copy {
        let sub = dir + "/\(n)"
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
        let (fixture, key): (String, String?)
        switch subject {
        case .plain: (fixture, key) = ("realm-core/basic.realm", nil)
        case .primaryKeys: (fixture, key) = ("realm-core/alltypes.realm", nil)
        case .encrypted: (fixture, key) = ("realm-core/encrypted.realm", encryptedKey)
        case .older: (fixture, key) = ("public/core__foo.realm", nil)
        }
        let path = sub + "/db.realm"
        try FileManager.default.copyItem(atPath: Fixtures.path(fixture), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try FileManager.default.createSymbolicLink(atPath: sub + "/link.realm", withDestinationPath: "db.realm")
        try FileManager.default.linkItem(atPath: path, toPath: sub + "/hard.realm")
        return Copy(path: path, key: key, spellings: [sub + "/./db.realm", sub + "/link.realm", sub + "/hard.realm"],
                    bytes: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// One way to run a command: its words without FILE, what it writes, and how it reads.
    struct Variant {
        let words: [String]
        /// Names FILE as its output (by another path).
        let outputIsFile: Bool
        let force: Bool
        /// The declared output can stand in for FILE: with --force an in-place write.
        let canReplaceFile: Bool
        /// The declaration says this run changes FILE (transaction or replacement).
        let changesFile: Bool
    }

    /// Every variant of a command: each sample as it is, and with each declared output naming
    /// FILE, with and without --force.
    func variants(_ type: any Command.Type, _ sample: [String], _ copy: Copy, spelling: String) throws -> [Variant] {
        let spec = type.spec
        func effect(_ words: [String]) throws -> Effect {
            // create's FILE is its output: any name parses.
            let first = spec.file != nil ? [copy.path] : (type == CreateCommand.self ? ["new.realm"] : [])
            return spec.effect.resolved(try ArgumentParser.parse(first + words, spec: spec))
        }
        var out = [Variant]()
        let base = sample.map { $0.replacing("@SAME", with: spelling) }
        if type != CreateCommand.self {
            var changes = false
            if case .changesFile = try effect(base) { changes = true }
            if case let .writes(o) = try effect(base), o.whenAbsent == .replacesFile { changes = true }
            out.append(Variant(words: base, outputIsFile: false, force: false, canReplaceFile: false, changesFile: changes))
        }
        for force in [false, true] {
            let extra = force ? ["--force"] : []
            var declared: [Effect.Output] = []
            if case let .writes(o) = try effect(base) { declared = [o] }
            for o in declared {
                let words: [String]
                switch o.source {
                case let .option(option): words = base + ["--" + option.descriptor.long, spelling] + extra
                case .argument: words = [spelling] + base + extra
                }
                out.append(Variant(words: words, outputIsFile: true, force: force, canReplaceFile: o.canReplaceFile,
                                   changesFile: force && o.canReplaceFile))
            }
        }
        return out
    }

    func shellLine(_ name: String, _ words: [String]) -> String {
        ([name] + words).map { w in w.contains(where: { " \"{}'$".contains($0) }) || w.isEmpty ? "'" + w + "'" : w }.joined(separator: " ")
    }

    func assertUntouched(_ copy: Copy, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy.path)), copy.bytes, "\(what): the file changed", file: file, line: line)
        for lock in copy.locks {
            XCTAssertFalse(FileManager.default.fileExists(atPath: lock), "\(what): \(lock) appeared", file: file, line: line)
        }
    }

    /// Runs `body` for every command, every sample, every spelling of FILE and every variant,
    /// each on a fresh copy.
    func walk(_ body: (_ name: String, _ variant: Variant, _ copy: Copy) throws -> Void) throws {
        var n = 0
        var seen = Set<String>()
        for type in Commands.all {
            let name = type.spec.name
            guard let (subject, samples) = samples(name) else {
                XCTFail("\(name): no sample arguments in CommandEffectTests.samples; add the arguments that make it write")
                continue
            }
            seen.insert(name)
            for sample in samples {
                let probe = try copy(subject, n)
                n += 1
                for s in 0..<3 {
                    for variant in try variants(type, sample, probe, spelling: probe.spellings[s]) {
                        // The sample without output is the same for every spelling: once.
                        if !variant.outputIsFile && s > 0 && !sample.contains(where: { $0.contains("@SAME") }) { continue }
                        let fresh = try copy(subject, n)
                        n += 1
                        let spelled = variant.words.map { $0.replacing(probe.spellings[s], with: fresh.spellings[s]) }
                        try body(name, Variant(words: spelled, outputIsFile: variant.outputIsFile, force: variant.force,
                                               canReplaceFile: variant.canReplaceFile, changesFile: variant.changesFile), fresh)
                    }
                }
            }
        }
        XCTAssertEqual(seen.count, Commands.all.count)
    }

    func testAReadOnlyShellWritesNoByteAndNoLockWhateverTheCommand() throws {
        try walk { name, variant, copy in
            guard name != "shell" else { return }            // not a command inside the shell
            let line = shellLine(name, variant.words)
            let run = realmsh([copy.path] + (copy.key.map { ["--key-file", $0] } ?? []) + ["-c", line])
            try assertUntouched(copy, "read-only shell: \(line)")
            if variant.changesFile || variant.outputIsFile {
                XCTAssertNotEqual(run.code, 0, "read-only shell: \(line) was not refused: \(run.stderr)")
            }
        }
    }

    func testTheCommandLineRefusesOutputsOverFileWithoutForceAndOutputsThatAreNotItsContent() throws {
        try walk { name, variant, copy in
            let args = [name] + (CommandSpecs.takesFile(name) ? [copy.path] : []) + variant.words
                + (copy.key.map { ["--key-file", $0] } ?? [])
            if variant.changesFile { return }               // in place by design: the tests below
            // Without a FILE there is no input to protect: --force replaces what it names.
            if variant.force, !CommandSpecs.takesFile(name) { return }
            let run = realmsh(args)
            try assertUntouched(copy, args.joined(separator: " "))
            if variant.outputIsFile {
                XCTAssertEqual(run.code, 73, "\(args.joined(separator: " ")): \(run.stderr)")
                // Over FILE: only its own content in another form, with --force; without a FILE
                // (create, keygen) the named file is simply an existing one.
                let replaceable = variant.canReplaceFile || !CommandSpecs.takesFile(name)
                XCTAssertTrue(run.stderr.contains(replaceable ? "pass --force" : "writes a new file: choose another name"), run.stderr)
            }
        }
    }

    func testAWritableShellRunsEveryWritingForm() throws {
        var ran = Set<String>()
        try walk { name, variant, copy in
            // browse writes only from its screen (RealmBrowserTests edit through it).
            guard name != "shell", name != "browse", variant.changesFile else { return }
            let line = shellLine(name, variant.words)
            let run = realmsh(["--write", copy.path] + (copy.key.map { ["--key-file", $0] } ?? []) + ["-c", line])
            XCTAssertEqual(run.code, 0, "writable shell: \(line): \(run.stderr)")
            XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: copy.path)), copy.bytes, "writable shell: \(line) changed nothing")
            ran.insert(name)
        }
        XCTAssertEqual(ran, ["insert", "upsert", "import", "update", "delete", "migrate", "compact", "upgrade", "encrypt", "decrypt", "rekey"])
    }

    func testWhileAnAppHoldsTheFileEveryInPlaceWriterExits75AndChangesNothing() throws {
        var refused = Set<String>()
        try walk { name, variant, copy in
            guard name != "shell", name != "browse", variant.changesFile else { return }
            // An SDK session holds a shared flock on NAME.realm.lock while the file is open (§15.2).
            XCTAssertTrue(FileManager.default.createFile(atPath: copy.path + ".lock", contents: Data()))
            let fd = open(copy.path + ".lock", O_RDWR)
            XCTAssertEqual(flock(fd, LOCK_SH), 0)
            defer { close(fd) }
            let args = [name, copy.path] + variant.words + (copy.key.map { ["--key-file", $0] } ?? [])
            let run = realmsh(args)
            XCTAssertEqual(run.code, 75, "\(args.joined(separator: " ")): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("open in another process"), run.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy.path)), copy.bytes, "\(args.joined(separator: " ")) changed the file")
            refused.insert(name)
        }
        XCTAssertEqual(refused, ["insert", "upsert", "import", "update", "delete", "migrate", "compact", "upgrade", "encrypt", "decrypt", "rekey"])
    }

    /// Issue #17's cases: export over an existing file, over its own input, and
    /// `decrypt -o same --force` while the lock is held.
    func testExportNeverOverwritesWithoutForceNorItsInput() throws {
        let copy = try copy(.plain, 0)
        let precious = dir + "/precious.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: precious))
        let refused = realmsh("export", copy.path, "-o", precious)
        XCTAssertEqual(refused.code, 73)
        XCTAssertTrue(refused.stderr.contains("precious.txt exists; pass --force"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: precious, encoding: .utf8), "keep")
        XCTAssertEqual(realmsh("export", copy.path, "-o", precious, "--force").code, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: precious)), Fixtures.expectedDump(for: Fixtures.path("realm-core/basic.realm")))
        for spelling in [copy.path] + copy.spellings {
            XCTAssertEqual(realmsh("export", copy.path, "-o", spelling, "--force").code, 73, spelling)
        }
        try assertUntouched(copy, "export over its input")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir + "/0").filter { $0.contains("realmsh-tmp") }
        XCTAssertEqual(leftovers, [])
    }

    func testDecryptOverItselfWhileTheLockIsHeldExits75() throws {
        let copy = try copy(.encrypted, 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: copy.path + ".lock", contents: Data()))
        let fd = open(copy.path + ".lock", O_RDWR)
        XCTAssertEqual(flock(fd, LOCK_SH), 0)
        defer { close(fd) }
        let run = realmsh("decrypt", "--key-file", encryptedKey, "-o", copy.path, "--force", copy.path)
        XCTAssertEqual(run.code, 75, run.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy.path)), copy.bytes)
    }
}

/// Which commands take FILE on the command line (as their declaration says).
enum CommandSpecs {
    static func takesFile(_ name: String) -> Bool { Commands.named(name)?.spec.file != nil || name == "shell" }
}
