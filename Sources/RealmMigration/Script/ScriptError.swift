import RealmFormat

/// A place in a migration script: 1-based line and column (columns count characters).
public struct SourceLocation: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool { (a.line, a.column) < (b.line, b.column) }
}

/// A mistake in a script, found before any object is touched: syntax, an unknown class or
/// property, a type that does not fit. Always carries the place it concerns.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public let location: SourceLocation
    public let message: String

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `12:7: message`
    public var description: String { "\(location): \(message)" }
}

/// "; did you mean 'x'?" or "".
func didYouMean(_ name: String, _ candidates: [String]) -> String {
    NameSuggestion.didYouMean(name, among: candidates)
}
