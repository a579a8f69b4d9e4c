import RealmFormat
import RealmObjects

/// The standard output of a command the interactive shell runs: once Ctrl-C is pressed while
/// the command may be stopped (`Platform.readsCancelled`), nothing more is written, so output
/// stops at once — also in the middle of one large write (a table of 150,000 rows is passed
/// on in small pieces, each after a check) — and `interrupted` tells the shell to say so.
/// The formats' own loops stop producing at the same moment (`Platform.checkCancellation`).
final class InterruptibleSink: ByteSink {
    let base: ByteSink
    private(set) var interrupted = false
    private var lastByte: UInt8?
    /// Small enough that a terminal draining slowly shows little after Ctrl-C.
    private static let piece = 4096

    init(_ base: ByteSink) { self.base = base }

    func write(_ bytes: [UInt8]) {
        var start = 0
        while start < bytes.count, !interrupted {
            if Platform.readsCancelled {
                interrupted = true
                return
            }
            let end = min(bytes.count, start + Self.piece)
            base.write(start == 0 && end == bytes.count ? bytes : Array(bytes[start..<end]))
            lastByte = bytes[end - 1]
            start = end
        }
    }

    /// Ends a line the interruption cut, so the shell's message starts on its own.
    func endCutLine() {
        if lastByte != nil, lastByte != 10 { base.write([10]) }
        lastByte = 10
    }
}
