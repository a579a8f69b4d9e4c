import RealmFormat
import RealmObjects

/// The shell's persistent history: one command per line in `$REALMSH_HISTORY`, else
/// `$XDG_STATE_HOME/realmsh/history`, else `~/.local/state/realmsh/history`. The directory
/// is created with mode 0700 and the file with 0600 (history can hold predicates over private
/// data); the file keeps the last `limit` commands. Commands holding a key are never saved.
struct HistoryFile {
    static let limit = 1000

    let path: String

    /// The history file for this environment; nil when no home directory is known or
    /// REALMSH_HISTORY is set to the empty string (history off).
    static func standard(environment: (String) -> String? = Platform.environment) -> HistoryFile? {
        if let explicit = environment("REALMSH_HISTORY") {
            return explicit.isEmpty ? nil : HistoryFile(path: explicit)
        }
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return HistoryFile(path: state + "/realmsh/history")
        }
        guard let home = Platform.homeDirectory() else { return nil }
        return HistoryFile(path: home + "/.local/state/realmsh/history")
    }

    /// Whether a command holds an encryption key: `--key HEX` / `--key=HEX` (not `--key-file`),
    /// or 64 or more hexadecimal digits in a row anywhere.
    static func holdsKey(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        if words.contains(where: { $0 == "--key" || $0.hasPrefix("--key=") }) {
            return true
        }
        var run = 0
        for c in line.utf8 {
            run = (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) ? run + 1 : 0
            if run >= 64 { return true }
        }
        return false
    }

    /// The saved commands, oldest first. A file grown past one and a half times the limit is
    /// rewritten with the newest `limit` commands.
    func load() -> [String] {
        guard let bytes = try? Platform.readFile(path) else { return [] }
        let entries = bytes.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
        if entries.count > Self.limit + Self.limit / 2 {
            let kept = Array(entries.suffix(Self.limit))
            rewrite(kept)
            return kept
        }
        return Array(entries.suffix(Self.limit))
    }

    /// Appends one command (newlines become spaces), creating the directory and file.
    func append(_ entry: String) {
        let line = String(entry.map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" ? " " : $0 })
        guard !line.isEmpty, !Self.holdsKey(line), prepareDirectory() else { return }
        guard let file = try? FileDescriptor.open(path, .writeOnly, options: [.append, .create], permissions: 0o600) else { return }
        file.setPermissions(0o600)      // an existing file too
        FileSink(file).write(Array((line + "\n").utf8))
        file.closeQuietly()
    }

    private func prepareDirectory() -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return true }
        let dir = String(path[..<slash])
        if dir.isEmpty || Platform.isDirectory(dir) { return true }
        return Platform.makeDirectories(dir, mode: 0o700)
    }

    private func rewrite(_ entries: [String]) {
        let temporary = path + ".tmp-\(Platform.processID())"
        guard let file = try? Platform.createNew(temporary, mode: 0o600) else { return }
        FileSink(file).write(Array(entries.map { $0 + "\n" }.joined().utf8))
        file.closeQuietly()
        if (try? Platform.rename(temporary, path)) == nil { Platform.remove(temporary) }
    }
}
