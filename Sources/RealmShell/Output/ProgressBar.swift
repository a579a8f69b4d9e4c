import RealmObjects

/// A one-line progress bar on stderr, for long operations on files of several megabytes, drawn
/// only when stderr is a terminal (scripts and pipes see nothing).
final class ProgressBar: @unchecked Sendable {
    // @unchecked: used from the one thread that runs the command.
    private let sink: ByteSink
    private let label: String
    private var shown = -1

    /// nil when there is no terminal or the work is small.
    init?(io: ShellIO, label: String, bytes: Int) {
        guard io.stderrIsTerminal, bytes >= 8 << 20 else { return nil }
        sink = io.stderr
        self.label = label
    }

    func update(_ fraction: Double) {
        let percent = Int(fraction * 100)
        guard percent != shown else { return }
        shown = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
        sink.write(Array("\r\(label) [\(bar)] \(percent)%".utf8))
    }

    func finish() {
        sink.write(Array(("\r" + String(repeating: " ", count: label.count + 38) + "\r").utf8))
    }
}
