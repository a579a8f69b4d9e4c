import RealmObjects
import RealmShell

/// Runs realmsh in-process with memory sinks for stdout and stderr.
struct ShellRun {
    let code: Int32
    let stdout: [UInt8]
    let stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
}

func realmsh(_ args: [String], terminal: Bool = false, stderrTerminal: Bool = false) -> ShellRun {
    let out = MemorySink(), err = MemorySink()
    let io = ShellIO(stdout: out, stderr: err, stdoutIsTerminal: terminal, useColor: false, terminalWidth: 100,
                     stderrIsTerminal: stderrTerminal)
    let code = RealmShell.run(args, io: io)
    return ShellRun(code: code, stdout: out.bytes, stderr: err.text)
}

func realmsh(_ args: String...) -> ShellRun { realmsh(args) }
