/// Named points in the commit protocol where a test can make the process die as a crash would
/// (`REALMSH_FAILPOINT=<name>`), to prove that every interruption leaves the last committed
/// version or the new one (realm-format.md §13.5).
///
/// Compiled only into debug builds, which `swift test` builds and runs (Package.swift defines
/// `REALMSH_FAILPOINTS` for the debug configuration): a release binary has no failpoints and
/// never reads the variable, so nothing in its environment can make it kill itself.
enum Failpoint: String, CaseIterable {
    /// Space allocated, nothing written yet.
    case beforeWrite = "before-write"
    /// About half of the new nodes written (in runs of up to 1 MB), not synced.
    case midWrite = "mid-write"
    /// All nodes, free lists and the top array written and synced; header untouched.
    case afterNodes = "after-nodes"
    /// The new top ref is in the other header slot, synced; the select bit not yet flipped.
    case afterHeaderSlot = "after-header-slot"
    /// The select bit flipped and synced: the new version is committed.
    case afterFlip = "after-flip"

    #if REALMSH_FAILPOINTS
    static let armed: Failpoint? = Platform.environment("REALMSH_FAILPOINT").flatMap(Failpoint.init(rawValue:))

    func hit() {
        if Failpoint.armed == self { Platform.killSelf() }
    }
    #else
    @inline(__always)
    func hit() {}
    #endif
}
