import Dispatch
import Synchronization

/// `Compactor` writing straight into a file instead of returning the bytes (realm-format.md
/// §13.8). The compacted file is only ever appended to — each node after its children, the top
/// array last, its ref in the footer — so every stretch of about `Compactor.streamChunk` bytes
/// is final once gathered: it is written out with `pwrite` and its writeback to the disk is
/// started at once, on a writer thread, while the copy goes on (`CompactedFileSink`). By the time the last stretch is written, most of the
/// file is already on its way to the disk, and the fsync waits for little more than the tail.
/// The bytes are exactly those `Compactor.compact` returns (pinned by CompactorStreamingTests).
extension Compactor {
    /// Streams the compacted copy of `snapshot` into `file` (new and empty, opened for
    /// writing), from offset 0; returns its size. Does not sync: the caller fsyncs and
    /// renames (`compact(_:toFile:)`, or the shell's `OutputFile`). An encrypted copy needs
    /// the whole image first (`EncryptedFile.encrypt`): use `compact` for that.
    public static func compact(_ snapshot: Snapshot, into file: FileDescriptor, options: Options = Options(),
                               enumeration: StringEnumerationPlan? = nil) throws(FormatError) -> Int {
        try compact(snapshot, options: options, enumeration: enumeration, streamingTo: CompactedFileSink(file))
    }

    /// Writes the compacted copy of `snapshot` as the file `path`, crash-safely: into a
    /// temporary file beside it (`PATH.realmsh-tmp-PID`), fsynced, then renamed over `path`
    /// and the directory fsynced, so `path` holds either what it held before or the whole
    /// copy. On any failure the temporary file is removed and `path` is left as it was.
    /// Returns the copy's size.
    @discardableResult
    public static func compact(_ snapshot: Snapshot, toFile path: String, mode: UInt32 = 0o644, options: Options = Options(),
                               enumeration: StringEnumerationPlan? = nil) throws(FormatError) -> Int {
        let temporary = path + ".realmsh-tmp-\(Platform.processID())"
        let file = try Platform.createNew(temporary, mode: mode)
        var open = true
        do {
            let size = try compact(snapshot, into: file, options: options, enumeration: enumeration)
            try file.sync()
            open = false
            try file.close()
            try Platform.rename(temporary, path)
            Platform.syncDirectory(of: path)
            return size
        } catch {
            // Closed at most once: after a close, the number may already name another file.
            if open { file.closeQuietly() }
            Platform.remove(temporary)
            throw error
        }
    }
}

/// Where a streaming `Compactor` puts finished stretches: each is written at its offset and
/// its writeback started (`FileDescriptor.startWriteback`) on a writer thread of its own, so
/// that the copy goes on meanwhile — the write into the page cache is about a third of the
/// time of a streamed compaction, and on a second core it costs the copy nothing. At most two
/// stretches are in flight; their buffers come back for reuse, so the copy keeps writing into
/// memory that is already mapped and cached.
///
/// A failed write is reported by the next `submit` or by `finish`. Whoever submits calls
/// `finish` (or `drain`, after an error of its own) before closing the file: no write may
/// reach a descriptor that was closed and perhaps reused.
final class CompactedFileSink: @unchecked Sendable {
    let file: FileDescriptor
    private let writer = DispatchQueue(label: "realmsh.compactor.writer")
    private let inFlight = DispatchSemaphore(value: 2)
    private struct State {
        var spares: [[UInt8]] = []
        var failure: FormatError?
    }
    private let state = Mutex(State())

    init(_ file: FileDescriptor) { self.file = file }

    /// An empty buffer of at least `capacity` for the next stretch (one a finished write gave
    /// back, when there is one).
    func buffer(capacity: Int) -> [UInt8] {
        if var spare = state.withLock({ $0.spares.popLast() }) {
            spare.reserveCapacity(capacity)
            return spare
        }
        var fresh = [UInt8]()
        fresh.reserveCapacity(capacity)
        return fresh
    }

    /// Queues `bytes` to be written at `offset`; waits while two stretches are in flight.
    func submit(_ bytes: [UInt8], at offset: Int) throws(FormatError) {
        if let failure = state.withLock({ $0.failure }) { throw failure }
        inFlight.wait()
        writer.async { [self] in
            var bytes = bytes
            let code = bytes.withUnsafeBytes { file.writeAll($0, at: offset) }
            if code == 0 { file.startWriteback(offset: offset, count: bytes.count) }
            bytes.removeAll(keepingCapacity: true)
            state.withLock { s in
                if code != 0, s.failure == nil { s.failure = .io(path: file.path, errno: code, action: "write") }
                s.spares.append(bytes)
            }
            inFlight.signal()
        }
    }

    /// Waits for every queued write; throws the first that failed.
    func finish() throws(FormatError) {
        drain()
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Waits for every queued write, whatever became of them.
    func drain() { writer.sync {} }
}
