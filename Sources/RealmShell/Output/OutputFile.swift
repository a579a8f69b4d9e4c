import RealmFormat
import RealmObjects

/// An output file that appears whole or not at all: data goes to a temporary file beside
/// its destination (`OUT.realmsh-tmp-PID`), which is fsynced and renamed over it only when the
/// command succeeds. A failure discards it; so does a fatal signal (the path is registered
/// with `Platform.registerTemporaryFile`, see Platform/Signals.swift). Whether the
/// destination may be replaced was decided before (`CommandPipeline`, `OutputTarget`).
final class OutputFile {
    /// The file replaced on commit.
    let path: String
    let temporaryPath: String
    let sink: FileSink
    private let signalSlot: Int?
    private var finished = false

    init(path: String, mode: UInt32 = 0o644) throws(ShellError) {
        self.path = path
        temporaryPath = path + ".realmsh-tmp-\(Platform.processID())"
        // Registered before it exists: a signal in between unlinks nothing.
        signalSlot = Platform.registerTemporaryFile(temporaryPath)
        do {
            sink = FileSink(try Platform.createNew(temporaryPath, mode: mode))
        } catch {
            signalSlot.map(Platform.unregisterTemporaryFile)
            throw ShellError("cannot create \(path): \(error.message)", code: .cannotCreate)
        }
    }

    /// Makes the output visible under its name.
    func commit() throws(ShellError) {
        guard !finished else { return }
        finished = true
        defer { signalSlot.map(Platform.unregisterTemporaryFile) }
        var ok = !sink.failed
        if ok { ok = (try? sink.descriptor.sync()) != nil }
        if (try? sink.descriptor.close()) == nil { ok = false }
        guard ok else {
            Platform.remove(temporaryPath)
            throw ShellError("cannot write \(path): write failed (disk full?)", code: .ioError)
        }
        do { try Platform.rename(temporaryPath, path) } catch {
            Platform.remove(temporaryPath)
            throw ShellError(error.message, code: .cannotCreate)
        }
        Platform.syncDirectory(of: path)
    }

    /// Removes the partial output.
    func discard() {
        guard !finished else { return }
        finished = true
        sink.descriptor.closeQuietly()
        Platform.remove(temporaryPath)
        signalSlot.map(Platform.unregisterTemporaryFile)
    }

    deinit { discard() }
}

/// Where a command's declared output goes, as `CommandPipeline` resolved it: existing files
/// replaced only with `--force`, FILE itself only as an in-place write under the session
/// lock.
struct OutputTarget {
    /// The output as the user named it (or FILE, for an in-place write without `-o`), for
    /// messages.
    let path: String
    /// The file replaced: `path`, or for an in-place write FILE itself (symlinks resolved, so
    /// a link stays a link).
    let destination: String
    /// The output replaces the Realm file the command read.
    let replacesFile: Bool

    /// A new output file, to stream into.
    func create(mode: UInt32 = 0o644) throws(ShellError) -> OutputFile { try OutputFile(path: destination, mode: mode) }

    /// Writes `bytes` whole or not at all.
    func write(_ bytes: [UInt8], mode: UInt32 = 0o644) throws(ShellError) {
        let file = try create(mode: mode)
        file.sink.write(bytes)
        try file.commit()
    }
}
