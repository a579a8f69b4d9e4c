/// One inconsistency `Verifier` found, located by the byte offset of the node, free-list entry
/// or byte range it concerns (offsets are into the logical file, as refs are).
public struct VerificationProblem: Sendable, Equatable {
    public let offset: Int
    public let message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

extension VerificationProblem: CustomStringConvertible {
    public var description: String { "\(hex(offset)): \(message)" }
}

/// What `Verifier.verify(_:)` found: the problems (at most `Verifier.maxReportedProblems`,
/// plus one line counting the rest) and what the structural walk saw.
public struct VerificationReport: Sendable {
    public let problems: [VerificationProblem]
    /// Distinct nodes reached from the top array (0 when nothing is committed).
    public let nodeCount: Int
    /// Entries in the free-space lists (top slots 3–5).
    public let freeEntryCount: Int
    /// Top slot 2 (0 when nothing is committed).
    public let logicalSize: Int

    public var isOK: Bool { problems.isEmpty }
}
