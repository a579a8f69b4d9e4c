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

    /// Writes `bytes` to `path` whole or not at all. An existing file is replaced only with
    /// `force` (or when `replacing` says it is the input being rewritten in place).
    static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644, force: Bool, replacing: Bool = false) throws(ShellError) {
        if !force && !replacing && Platform.fileExists(path) {
            throw ShellError("\(path) exists; pass --force to replace it", code: .cannotCreate)
        }
        let file = try OutputFile(path: path, mode: mode)
        file.sink.write(bytes)
        try file.commit()
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
