import RealmFormat

/// Shows text through a pager: `$PAGER`, else `less -FRSX` when less is installed.
enum Pager {
    /// The pager's shell command, or nil when there is none.
    static func command() -> String? {
        if let pager = Platform.environment("PAGER"), !pager.trimmingWhitespace().isEmpty { return pager }
        return Platform.findExecutable("less") != nil ? "less -FRSX" : nil
    }

    /// Pipes `text` to the pager and waits for it; false when no pager could be started (the
    /// caller prints the text itself).
    static func show(_ text: String) -> Bool {
        guard let command = command(), let pipe = Platform.makePipe() else { return false }
        let (readEnd, writeEnd) = (FileDescriptor(rawValue: pipe.read, path: "pipe"), FileDescriptor(rawValue: pipe.write, path: "pipe"))
        guard let pid = Platform.spawn("/bin/sh", arguments: ["sh", "-c", command], stdin: pipe.read) else {
            readEnd.closeQuietly()
            writeEnd.closeQuietly()
            return false
        }
        readEnd.closeQuietly()
        // A pager quit early makes the rest fail with EPIPE (SIGPIPE is ignored): fine.
        Platform.write(text, to: pipe.write)
        writeEnd.closeQuietly()
        _ = Platform.waitForExit(pid)
        _ = Platform.takeInterrupt()        // Ctrl-C went to the pager
        return true
    }
}
