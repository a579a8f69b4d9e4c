/// Exit statuses (sysexits.h), as the product rules assign them.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A comparison found differences (`schema --diff`), as diff(1) reports them.
    case different = 1
    /// A command line the command cannot run (a missing argument, an unknown option, a write
    /// in a read-only shell).
    case usage = 64
    /// Bad data or query: a file that is not sound (`verify` found problems), a value of the
    /// wrong type, an invalid query.
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    /// realmsh itself went wrong (a written file failed its own check).
    case software = 70
    case cannotCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
}
