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
        guard let pid = Platform.spawn("/bin/sh", arguments: ["sh", "-c", command], stdin: pipe.read) else {
            _ = Platform.closeFile(pipe.read)
            _ = Platform.closeFile(pipe.write)
            return false
        }
        _ = Platform.closeFile(pipe.read)
        // A pager quit early makes the rest fail with EPIPE (SIGPIPE is ignored): fine.
        _ = Array(text.utf8).withUnsafeBytes { Platform.writeAll(pipe.write, $0) }
        _ = Platform.closeFile(pipe.write)
        _ = Platform.waitForExit(pid)
        _ = Platform.takeInterrupt()        // Ctrl-C went to the pager
        return true
    }
}
