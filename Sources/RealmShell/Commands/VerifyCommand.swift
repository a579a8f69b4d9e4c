import RealmFormat
import RealmObjects

/// `realmsh verify FILE`: an integrity check of every node, free list and table.
struct VerifyCommand: Command {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check a file's integrity: refs, node headers, space accounting, clusters, columns.",
        discussion: "Prints OK, or each problem with its byte offset. Exit status 0 when the file is sound, 65 when it is not.",
        arguments: [.realmFile], file: .realmFile, effect: .reads,
        options: [quiet] + KeyOptions.all,
        examples: ["realmsh verify default.realm"])

    static let quiet = Flag("quiet", short: "q", help: "Print nothing; only the exit status tells.")

    let path: String
    let key: KeyOptions
    let quiet: Bool

    init(_ arguments: ParsedArguments) throws(ShellError) {
        path = arguments[Positional.realmFile]
        key = KeyOptions(arguments)
        quiet = arguments[Self.quiet]
    }

    func run(_ context: CommandContext) throws(ShellError) -> ExitCode {
        let io = context.io
        let snapshot: Snapshot
        let encryptionKey = try key.resolve(io)
        do { snapshot = try Snapshot(path: path, key: encryptionKey) } catch { throw ShellError.reading(path, error) }
        let report = Verifier.verify(snapshot)
        // Ctrl-C in the shell makes every later read fail: those failures are not the file's.
        if Platform.readsCancelled { throw ShellError(FormatError.interrupted.message, code: .interrupted) }
        if !quiet {
            for p in report.problems { io.print("\(hex(p.offset)): \(p.message)") }
            let summary = "\(report.nodeCount) nodes, \(report.freeEntryCount) free ranges, logical size \(report.logicalSize), file format \(snapshot.fileFormat)"
            io.print(report.isOK ? "OK: \(summary)" : "FAILED: \(report.problems.count) problems; \(summary)")
        }
        return report.isOK ? .success : .dataError
    }
}
