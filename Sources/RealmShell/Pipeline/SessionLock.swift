import RealmFormat

/// Realm's session lock on `NAME.realm.lock` held exclusively (realm-format.md §15.3): what an
/// in-place write that replaces the file (compact, migrate, `-o` naming FILE) holds from
/// reading the file to renaming the new one over it, so no app opens it meanwhile and none
/// has it open. Write transactions take the same lock themselves.
final class SessionLock {
    private var lock: FileDescriptor?

    init(realmPath: String) throws(ShellError) {
        let taken: FileDescriptor?
        do { taken = try Platform.lockSession(lockPath: realmPath + ".lock") } catch {
            throw ShellError(error.message, code: .cannotCreate)
        }
        guard let taken else { throw ShellError(FormatError.locked(path: realmPath).message, code: .tempFail) }
        lock = taken
    }

    func release() {
        if let lock { Platform.unlockSession(lock) }
        lock = nil
    }

    deinit { release() }
}
