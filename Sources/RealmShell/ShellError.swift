import RealmFormat

/// A failure the shell reports as one line on stderr, with the exit status it implies.
public struct ShellError: Error, Sendable {
    public let message: String
    public let code: ExitCode
    /// Usage errors also print the command's usage line.
    public let usageOf: String?
    /// The reader's error behind this one, when a key may be what went wrong: for
    /// `KeyOptions.explain`, which names the key the user gave.
    let keyProblem: KeyProblem?

    /// A key error (`.encrypted`, `.notEncrypted`, `.wrongKey`) reading `path`.
    struct KeyProblem: Sendable {
        let path: String
        let error: FormatError
    }

    public init(_ message: String, code: ExitCode, usageOf: String? = nil) {
        self.init(message, code: code, usageOf: usageOf, keyProblem: nil)
    }

    init(_ message: String, code: ExitCode, usageOf: String?, keyProblem: KeyProblem?) {
        self.message = message
        self.code = code
        self.usageOf = usageOf
        self.keyProblem = keyProblem
    }

    /// Maps a reader error on `path` to a message naming the file and its exit status.
    public static func reading(_ path: String, _ error: FormatError) -> ShellError {
        let code: ExitCode
        switch error {
        case .encrypted, .wrongKey: code = .noPermission
        case .invalidKey: code = .usage
        case .unsupportedFormat: code = .unavailable
        case .interrupted: return ShellError(error.message, code: .interrupted)
        case let .io(_, errno, _):
            switch errno {
            case 2, 20, 21: code = .noInput             // ENOENT, ENOTDIR, EISDIR
            case 1, 13: code = .noPermission            // EPERM, EACCES
            default: code = .ioError
            }
            return ShellError(error.message, code: code)
        default: code = .dataError
        }
        switch error {
        case .encrypted, .notEncrypted, .wrongKey:
            return ShellError("\(path): \(error.message)", code: code, usageOf: nil, keyProblem: KeyProblem(path: path, error: error))
        default:
            return ShellError("\(path): \(error.message)", code: code)
        }
    }
}
