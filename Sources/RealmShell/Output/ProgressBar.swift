import RealmFormat
import RealmObjects

/// A one-line progress bar on stderr for long work (compaction, imports, exports), drawn only
/// when stderr is a terminal (scripts and pipes see nothing): from the start for work on a
/// file of 8 MB or more, otherwise once the work has taken more than a second, so quick
/// commands stay silent.
final class ProgressBar: @unchecked Sendable {
    // @unchecked: used from the one thread that runs the command.
    private let sink: ByteSink
    private let label: String
    private let started = Platform.monotonicSeconds()
    /// Seconds before the bar first shows.
    private var delay: Double
    /// The last percent seen: the bar changes (and the clock is read) once per percent.
    private var percentSeen = -1
    private var drawn = false

    /// nil when there is no terminal. The bar shows once the work has taken a second.
    init?(io: ShellIO, label: String) {
        guard io.stderrIsTerminal else { return nil }
        sink = io.stderr
        self.label = label
        delay = 1
    }

    /// For work on `bytes` of file: at once from 8 MB on, else after a second.
    convenience init?(io: ShellIO, label: String, bytes: Int) {
        self.init(io: io, label: label)
        if bytes >= 8 << 20 { delay = 0 }
    }

    func update(_ fraction: Double) {
        let percent = max(0, min(100, Int(fraction * 100)))
        guard percent != percentSeen else { return }
        percentSeen = percent
        if !drawn {
            guard Platform.monotonicSeconds() - started >= delay else { return }
            drawn = true
        }
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
        sink.write(Array("\r\(label) [\(bar)] \(percent)%".utf8))
    }

    /// Clears the bar (if it was drawn).
    func finish() {
        guard drawn else { return }
        sink.write(Array(("\r" + String(repeating: " ", count: label.count + 38) + "\r").utf8))
    }
}
