import Synchronization

/// Ctrl-C as reads see it: the shell's SIGINT handler (RealmShell's `Platform/Signals.swift`)
/// only sets an atomic flag here; while the shell says reads may be cancelled, every node
/// read (`Snapshot.node`) then stops with `FormatError.interrupted`. Atomics only: no libc.
extension Platform {
    /// Set by the SIGINT handler the interactive shell installs.
    private static let interruptReceived = Atomic<Bool>(false)
    /// Whether a Ctrl-C should also stop reads in progress.
    private static let interruptsCancelReads = Atomic<Bool>(false)

    /// Initialises the flags outside a signal handler (a global's first use is not
    /// async-signal-safe).
    public static func prepareInterruptFlags() {
        _ = interruptReceived.load(ordering: .relaxed)
        _ = interruptsCancelReads.load(ordering: .relaxed)
    }

    /// Called from the SIGINT handler: one atomic store, async-signal-safe.
    public static func noteInterrupt() { interruptReceived.store(true, ordering: .relaxed) }

    /// Whether Ctrl-C was pressed since the last `takeInterrupt`; clears the flag.
    public static func takeInterrupt() -> Bool { interruptReceived.exchange(false, ordering: .relaxed) }

    /// While on, a Ctrl-C makes every node read throw `FormatError.interrupted`.
    public static func setInterruptsCancelReads(_ on: Bool) { interruptsCancelReads.store(on, ordering: .relaxed) }

    /// True when a read should stop: Ctrl-C was pressed during a cancellable operation.
    @inline(__always)
    public static var readsCancelled: Bool {
        interruptsCancelReads.load(ordering: .relaxed) && interruptReceived.load(ordering: .relaxed)
    }

    /// Throws `FormatError.interrupted` when `readsCancelled`: for loops that produce output
    /// from values already read (the shell's result formats), which read no node to stop them.
    @inline(__always)
    public static func checkCancellation() throws(FormatError) {
        if readsCancelled { throw .interrupted }
    }
}
