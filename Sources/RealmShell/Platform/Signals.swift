#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RealmFormat
import Synchronization

/// What signals do to realmsh. Every handler does only async-signal-safe work: atomic loads
/// and stores, `unlink`, `raise` — no allocation, no lock, no Swift object.
///
/// - SIGINT in the interactive shell (`installInterruptHandler`): one atomic store
///   (`Platform.noteInterrupt`); the shell decides what Ctrl-C cancels, and reads stop with
///   `FormatError.interrupted` where it allows (an export then discards its partial output).
/// - SIGINT, SIGTERM and SIGHUP otherwise (`removeTemporaryFilesOnTermination`, installed by
///   `main`): the temporary files of outputs being written (`OutputFile`'s
///   `OUT.realmsh-tmp-PID`) are unlinked, then the process dies of the signal as if it had not
///   been caught (exit status 128 + signal). Doing the cleanup in the handler, rather than
///   turning the signal into an error for the writing loop to notice, also covers work that
///   checks nothing (compaction, encryption, a migration) and a write blocked on a full pipe.
///
/// Outputs register their temporary path in one of a few fixed slots: a buffer allocated
/// once, before any handler can run (a Swift global's first use is not async-signal-safe),
/// and a bit per slot published with an atomic store once the path is in place, so the
/// handler never reads a half-written path. A signal arriving between registration and the
/// file's creation (or between its rename and unregistration) unlinks a path that does not
/// exist, which is harmless.
extension Platform {
    private static let temporarySlotCount = 8
    private static let temporarySlotSize = Int(PATH_MAX)
    // Unsafe by design: a slot is written only by whoever claimed it (atomically), and read
    // by the handler only while armed.
    nonisolated(unsafe) private static let temporarySlots = UnsafeMutablePointer<CChar>.allocate(capacity: temporarySlotCount * temporarySlotSize)
    /// Slots in use (taken by `registerTemporaryFile`, given back by `unregister…`).
    private static let claimedSlots = Atomic<UInt32>(0)
    /// Slots whose path is complete: the only ones the handler reads.
    private static let armedSlots = Atomic<UInt32>(0)

    /// Catches SIGINT (without SA_RESTART, so a blocked `poll` returns): the interactive
    /// shell decides what Ctrl-C cancels. The handler only sets an atomic flag.
    public static func installInterruptHandler() {
        prepareInterruptFlags()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Platform.noteInterrupt() }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Installs the cleanup handler for SIGINT, SIGTERM and SIGHUP (a SIGINT handler the
    /// interactive shell installs later replaces it for SIGINT).
    public static func removeTemporaryFilesOnTermination() {
        _ = temporarySlots
        _ = claimedSlots.load(ordering: .relaxed)
        _ = armedSlots.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            Platform.unlinkRegisteredTemporaryFiles()
            // SA_RESETHAND restored the default action: the signal, delivered again (now or
            // when the handler returns), ends the process as an uncaught one would.
            raise(signal)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaction(s, &action, nil) }
    }

    /// Registers a temporary file for removal on a fatal signal; the slot to unregister, or
    /// nil when the path is too long or every slot is taken (then only normal cleanup runs).
    public static func registerTemporaryFile(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < temporarySlotSize, !bytes.contains(0) else { return nil }
        while true {
            let claimed = claimedSlots.load(ordering: .acquiring)
            guard let slot = (0..<temporarySlotCount).first(where: { claimed & (1 << $0) == 0 }) else { return nil }
            guard claimedSlots.compareExchange(expected: claimed, desired: claimed | 1 << slot, ordering: .acquiringAndReleasing).exchanged else { continue }
            let buffer = temporarySlots + slot * temporarySlotSize
            for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
            buffer[bytes.count] = 0
            armedSlots.bitwiseOr(1 << slot, ordering: .releasing)
            return slot
        }
    }

    public static func unregisterTemporaryFile(_ slot: Int) {
        armedSlots.bitwiseAnd(~(1 << slot), ordering: .releasing)
        claimedSlots.bitwiseAnd(~(1 << slot), ordering: .releasing)
    }

    /// The handler's work: unlink every armed slot's path.
    private static func unlinkRegisteredTemporaryFiles() {
        let armed = armedSlots.load(ordering: .acquiring)
        for slot in 0..<temporarySlotCount where armed & (1 << slot) != 0 {
            unlink(temporarySlots + slot * temporarySlotSize)
        }
    }
}
