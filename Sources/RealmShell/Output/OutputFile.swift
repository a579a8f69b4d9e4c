import RealmFormat
import RealmObjects

/// An output file that appears whole or not at all: data goes to a temporary file beside
/// `path`, which is fsynced and renamed over `path` only when the command succeeds.
final class OutputFile {
    let path: String
    let temporaryPath: String
    let sink: FileSink
    private var finished = false

    init(path: String, mode: UInt32 = 0o644) throws(ShellError) {
        self.path = path
        temporaryPath = path + ".realmsh-tmp-\(Platform.processID())"
        switch Platform.createNew(temporaryPath, mode: mode) {
        case let .success(fd): sink = FileSink(fd: fd)
        case let .failure(error): throw ShellError("cannot create \(path): \(error.message)", code: .cannotCreate)
        }
    }

    /// Makes the output visible under its name.
    func commit() throws(ShellError) {
        finished = true
        let synced = Platform.sync(sink.fd)
        let closed = Platform.closeFile(sink.fd)
        guard !sink.failed, synced, closed else {
            Platform.remove(temporaryPath)
            throw ShellError("cannot write \(path): write failed (disk full?)", code: .ioError)
        }
        if let error = Platform.rename(temporaryPath, path) {
            Platform.remove(temporaryPath)
            throw ShellError(error.message, code: .cannotCreate)
        }
        Platform.syncDirectory(of: path)
    }

    /// Removes the partial output.
    func discard() {
        guard !finished else { return }
        finished = true
        _ = Platform.closeFile(sink.fd)
        Platform.remove(temporaryPath)
    }

    deinit { discard() }
}
