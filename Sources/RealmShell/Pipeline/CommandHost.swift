import RealmObjects

/// Where a command runs: what the caller adds to the pipeline. On the command line nothing
/// (`CommandLineHost`); in the shell the open file and its key, the write permission, a
/// confirmation before large changes and its own result settings (`ShellSession`).
protocol CommandHost: ResultPresenter {
    /// The file a command's FILE stands for when it is left out (the shell's open file).
    var openFile: String? { get }
    /// The open file's key options, filled in where a command reads FILE's key.
    var openFileKey: KeyOptions? { get }
    /// Whether the open file may be changed (`.write on`); always on the command line.
    var writesAllowed: Bool { get }
    /// The message when a command would change the open file and writes are not allowed.
    func readOnlyRefusal(_ command: String) -> ShellError
    /// `NAME --help`.
    func helpText(_ spec: CommandSpec) -> String
    /// Asked before a command that changes objects runs; false: nothing is done.
    func confirm(_ command: any Command, io: ShellIO) throws(ShellError) -> Bool
    /// Around the run: whether the command changes FILE (reads may be cancelled by Ctrl-C
    /// otherwise; the shell re-reads its file after a change).
    func willRun(changingFile: Bool)
    func didRun(changingFile: Bool)
    /// Whether the process exits when the command returns (`realmsh COMMAND` from `main`):
    /// then a read may leave its file for the kernel to reclaim (`CommandContext.leaveOpenUntilExit`).
    var endsProcess: Bool { get }
}

/// `realmsh COMMAND …`: writes allowed, no confirmation, results as `query` shows them on the
/// command line.
struct CommandLineHost: CommandHost {
    var endsProcess = false
    var openFile: String? { nil }
    var openFileKey: KeyOptions? { nil }
    var writesAllowed: Bool { true }
    func readOnlyRefusal(_ command: String) -> ShellError { ShellError("\(command) cannot write here", code: .usage) }
    func helpText(_ spec: CommandSpec) -> String { spec.help }
    func confirm(_ command: any Command, io: ShellIO) throws(ShellError) -> Bool { true }
    func willRun(changingFile: Bool) {}
    func didRun(changingFile: Bool) {}

    func defaultFormat(_ io: ShellIO) -> any ResultFormat {
        (io.stdoutIsTerminal ? ResultFormats.named("table") : ResultFormats.named("json")) ?? JSONFormat()
    }

    /// Tables for people as tall as the terminal leaves room for (40 rows when piped) and as
    /// wide; JSON laid out on a terminal, compact when piped.
    func options(for results: QueryResults, format: any ResultFormat, limit: Int?, io: ShellIO) -> ResultOptions {
        let automatic = format.isForPeople
            ? ResultOptions.automaticRows(format, results.objectClass, headers: true, screenRows: io.terminalRows, otherwise: ResultOptions.defaultMaxRows)
            : 0
        return ResultOptions(values: DisplayText(file: results.file), maxRows: limit ?? automatic,
                             width: io.stdoutIsTerminal ? io.terminalWidth : nil, style: TextStyle(color: io.useColor),
                             prettyJSON: io.stdoutIsTerminal)
    }

    func emit(_ text: String, io: ShellIO) { io.print(text) }

    func pages(_ io: ShellIO) -> Bool { false }
}
