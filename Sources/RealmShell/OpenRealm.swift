import RealmFormat
import RealmObjects

/// Opening a file for a read-only command: maps it (never writes a byte, not even to the
/// `.lock` file) and turns every failure into one line with the right exit status.
struct OpenRealm {
    let file: RealmFile
    /// true: another process holds the Realm open (an app, a simulator); we read the last
    /// committed snapshot. nil: there is no `.lock` file.
    let lockHeld: Bool?

    /// `convertingLegacy: false`: a file of formats 2–9 is opened as it is, its classes not
    /// converted (`info` reads them from `snapshot.legacy`).
    /// `forCanonicalDump`: opened by `RealmFile(dumping:)` (an old file's classes without links
    /// read from the conversion's cells, legacy-formats.md §8.5) — for `export --format json`.
    init(path: String, key: EncryptionKey?, convertingLegacy: Bool = true, forCanonicalDump: Bool = false) throws(ShellError) {
        do {
            if forCanonicalDump {
                file = try RealmFile(dumping: path, key: key)
            } else {
                file = try RealmFile(path: path, snapshot: Snapshot(path: path, key: key, convertingLegacy: convertingLegacy))
            }
        } catch {
            throw ShellError.reading(path, error)
        }
        lockHeld = Platform.isLockHeld(lockPath: path + ".lock")
    }

    /// The warning readers print while a writer is active.
    func writerWarning(_ io: ShellIO) {
        if lockHeld == true {
            io.printError(io.warn("note: \(file.path) is open in another process; showing its last committed version"))
        }
    }
}

extension ShellError {
    /// Maps any error thrown while reading values (FormatError or other) to a ShellError.
    static func from(_ error: Error, path: String) -> ShellError {
        if let e = error as? ShellError { return e }
        if let e = error as? FormatError { return .reading(path, e) }
        return ShellError("\(path): \(error)", code: .dataError)
    }
}
