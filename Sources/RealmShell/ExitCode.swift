/// Exit statuses (sysexits.h), as the product rules assign them, plus 130 for Ctrl-C (the
/// status a shell gives a command SIGINT ended) and any status a script asks for (`.exit N`).
public struct ExitCode: RawRepresentable, Equatable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let success = ExitCode(rawValue: 0)
    /// A comparison found differences (`schema --diff`), as diff(1) reports them.
    public static let different = ExitCode(rawValue: 1)
    /// A command line the command cannot run (a missing argument, an unknown option, a write
    /// in a read-only shell).
    public static let usage = ExitCode(rawValue: 64)
    /// Bad data or query: a file that is not sound (`verify` found problems), a value of the
    /// wrong type, an invalid query.
    public static let dataError = ExitCode(rawValue: 65)
    public static let noInput = ExitCode(rawValue: 66)
    public static let unavailable = ExitCode(rawValue: 69)
    /// realmsh itself went wrong (a written file failed its own check).
    public static let software = ExitCode(rawValue: 70)
    public static let cannotCreate = ExitCode(rawValue: 73)
    public static let ioError = ExitCode(rawValue: 74)
    public static let tempFail = ExitCode(rawValue: 75)
    public static let noPermission = ExitCode(rawValue: 77)
    /// Ctrl-C stopped the command (128 + SIGINT): nothing is wrong with the file.
    public static let interrupted = ExitCode(rawValue: 130)
}
