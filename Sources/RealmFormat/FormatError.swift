/// Everything that can go wrong reading or checking a Realm file, with the context a user needs
/// to act. Data from disk never traps: every problem with it becomes one of these.
public enum FormatError: Error, Equatable, Sendable {
    /// A read reached past the end of the logical file.
    case outOfBounds(offset: Int, length: Int, size: Int)
    /// The file cannot be a Realm file (bad mnemonic, too small, misaligned size).
    case notARealmFile(reason: String)
    /// The header does not say "T-DB" but the file looks like Realm's page encryption.
    case encrypted
    /// A key was given but the file is a plain (unencrypted) Realm file.
    case notEncrypted
    /// A page failed authentication with the given key (§14.5).
    case wrongKey(page: Int)
    /// The key itself is malformed.
    case invalidKey(reason: String)
    /// The file format byte names a version this reader does not handle.
    case unsupportedFormat(version: Int)
    /// A structure is inconsistent: `offset` is the node (or byte) where it was found.
    case corrupt(offset: Int, reason: String)
    /// The file's structure would take more work to read than its size allows: cycles or
    /// shared subtrees, which a valid Realm file never has.
    case workLimitExceeded
    /// Another process has the Realm open (its `.lock` is held): a write must wait (§15.3).
    case locked(path: String)
    /// The file can be read but not written by realmsh (old format, sync history, encryption).
    case cannotWrite(reason: String)
    /// A unique index (a primary key's) already holds an equal value, for object `existing`.
    case duplicateKey(existing: Int64)
    /// The user pressed Ctrl-C while the interactive shell was reading (`Platform.readsCancelled`).
    case interrupted
    /// An operating-system call failed.
    case io(path: String, errno: Int32, action: String)

    /// One line for a person.
    public var message: String {
        switch self {
        case let .outOfBounds(offset, length, size):
            return "corrupt file: a read of \(length) bytes at offset \(offset) runs past the end of the file (\(size) bytes)"
        case let .notARealmFile(reason):
            return "not a Realm file: \(reason)"
        case .encrypted:
            return "encrypted: a key is needed (pass --key-file)"
        case .notEncrypted:
            return "this file is not encrypted (drop --key-file)"
        case let .wrongKey(page):
            return "wrong key (authentication failed at page \(page))"
        case let .invalidKey(reason):
            return "invalid key: \(reason)"
        case let .unsupportedFormat(version):
            return "file format \(version) is not supported (realmsh reads formats 2-11 of Realm Core 0.8x-6 and 20-24 of Core 10-14)"
        case let .corrupt(offset, reason):
            return "corrupt file: \(reason) (at offset \(offset))"
        case .workLimitExceeded:
            return "corrupt file: its nodes form cycles or shared subtrees (read aborted)"
        case let .locked(path):
            return "\(path) is open in another process (an app, a simulator or another realmsh); close it and try again"
        case let .cannotWrite(reason):
            return "cannot write this file: \(reason)"
        case let .duplicateKey(existing):
            return "an object with this primary key exists already (ObjKey \(existing))"
        case .interrupted:
            return "interrupted"
        case let .io(path, code, action):
            return "cannot \(action) \(path): \(Platform.describe(errno: code))"
        }
    }
}
