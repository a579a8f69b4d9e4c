import RealmFormat

/// Shows text through a pager: `$PAGER`, else `less -FRSX` when less is installed.
enum Pager {
    /// The pager's shell command, or nil when there is none.
    static func command() -> String? {
        if let pager = Platform.environment("PAGER"), !pager.trimmingWhitespace().isEmpty { return pager }
        return Platform.findExecutable("less") != nil ? "less -FRSX" : nil
    }

    /// The program a pager command starts, when it can be told without running it (a plain
    /// word, maybe after `VAR=value` settings); nil for anything with shell syntax.
    static func program(_ command: String) -> String? {
        let words = command.split(separator: " ").map(String.init)
        guard let word = words.first(where: { !$0.contains("=") }),
              !command.contains(where: { "|;&$`()<>'\"\\".contains($0) }) else { return nil }
        return word
    }

    /// Pipes `text` to the pager and waits for it; false when no pager ran (it is not
    /// installed, or the shell could not find it: status 126 or 127), and the caller prints
    /// the text itself, so nothing is lost. Ctrl-C stops the writing (the pager shows what it
    /// got).
    static func show(_ text: String, io: ShellIO) -> Bool {
        guard let command = command() else { return false }
        if let program = program(command), Platform.findExecutable(program) == nil {
            io.printError(io.warn("note: the pager '\(program)' ($PAGER) is not installed; printing instead"))
            return false
        }
        guard let pipe = Platform.makePipe() else { return false }
        let (readEnd, writeEnd) = (FileDescriptor(rawValue: pipe.read, path: "pipe"), FileDescriptor(rawValue: pipe.write, path: "pipe"))
        guard let pid = Platform.spawn("/bin/sh", arguments: ["sh", "-c", command], stdin: pipe.read) else {
            readEnd.closeQuietly()
            writeEnd.closeQuietly()
            return false
        }
        readEnd.closeQuietly()
        // A pager quit early makes the rest fail with EPIPE (SIGPIPE is ignored): fine.
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count, !Platform.readsCancelled {
            let end = min(bytes.count, start + 1 << 16)
            guard (try? writeEnd.write(Array(bytes[start..<end]))) != nil else { break }
            start = end
        }
        writeEnd.closeQuietly()
        let status = Platform.waitForExit(pid)
        _ = Platform.takeInterrupt()        // Ctrl-C went to the pager
        if status == 126 || status == 127 {
            io.printError(io.warn("note: the pager '\(command)' ($PAGER) could not run; printing instead"))
            return false
        }
        return true
    }
}
