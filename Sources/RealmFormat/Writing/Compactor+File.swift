/// `Compactor` writing straight into a file instead of returning the bytes (realm-format.md
/// §13.8). The compacted file is only ever appended to — each node after its children, the top
/// array last, its ref in the footer — so every stretch of about `Compactor.streamChunk` bytes
/// is final once gathered: it is written out with `pwrite` and its writeback to the disk is
/// started at once, while the copy goes on. By the time the last stretch is written, most of the
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

/// Where a streaming `Compactor` puts finished stretches: written at their offsets, their
/// writeback started (`FileDescriptor.startWriteback`) so the disk works while the copy goes on.
final class CompactedFileSink {
    let file: FileDescriptor

    init(_ file: FileDescriptor) { self.file = file }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(FormatError) {
        try file.write(bytes, at: offset)
        file.startWriteback(offset: offset, count: bytes.count)
    }
}
