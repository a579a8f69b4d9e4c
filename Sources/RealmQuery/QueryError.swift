/// Everything that can be wrong with a query, each case with the span of the query text it
/// concerns, so a message can put a caret under the offending token. `message` is the text
/// Realm Core 14 gives for the same query (query-language.md §8); `category` is its exception
/// class.
public enum QueryError: Error, Sendable, Equatable {
    /// A grammar violation or an invalid character: realm-core's
    /// "Invalid predicate: '<query>': <detail>".
    case syntax(detail: String, query: String, at: SourceRange)
    /// A literal whose text the scanner accepted but whose value is malformed (timestamps with
    /// mixed signs, bad base64, subquery variables): a SyntaxError without the predicate prefix.
    case malformedLiteral(message: String, at: SourceRange)
    /// A property name that does not exist, with the nearest existing name when there is one.
    case unknownProperty(className: String, property: String, at: SourceRange, suggestion: String?)
    /// A semantic problem found while building the query (InvalidQueryError).
    case invalidQuery(message: String, at: SourceRange?)
    /// A problem with an argument (`$0`, `$K0`) or an `@type` string (InvalidQueryArgError).
    case invalidArgument(message: String, at: SourceRange?)
    /// A problem only found when the query runs: SORT/DISTINCT keys, full-text words
    /// (InvalidArgument / IllegalOperation).
    case illegalOperation(message: String, at: SourceRange?)

    public var message: String {
        switch self {
        case let .syntax(detail, query, _): return "Invalid predicate: '\(query)': \(detail)"
        case let .malformedLiteral(message, _): return message
        case let .unknownProperty(className, property, _, _): return "'\(className)' has no property '\(property)'"
        case let .invalidQuery(message, _), let .invalidArgument(message, _), let .illegalOperation(message, _):
            return message
        }
    }

    /// The name of the exception class realm-core throws.
    public var category: String {
        switch self {
        case .syntax, .malformedLiteral: return "SyntaxError"
        case .unknownProperty, .invalidQuery: return "InvalidQueryError"
        case .invalidArgument: return "InvalidQueryArgError"
        case .illegalOperation: return "InvalidArgument"
        }
    }

    public var range: SourceRange? {
        switch self {
        case let .syntax(_, _, r), let .malformedLiteral(_, r): return r
        case let .unknownProperty(_, _, r, _): return r
        case let .invalidQuery(_, r), let .invalidArgument(_, r), let .illegalOperation(_, r): return r
        }
    }

    public var suggestion: String? {
        if case let .unknownProperty(_, _, _, s) = self { return s }
        return nil
    }

    /// The message, then the query with a caret line under the offending span, then a
    /// suggestion. Columns count characters (not bytes), so the caret lines up on a terminal.
    public func rendered(query: String) -> String {
        var lines = [message]
        if let r = range, !query.contains("\n") {
            let bytes = Array(query.utf8)
            let start = max(0, min(r.start, bytes.count))
            let end = max(start, min(r.end, bytes.count))
            let before = String(decoding: bytes[0..<start], as: UTF8.self).count
            let width = max(1, String(decoding: bytes[start..<end], as: UTF8.self).count)
            lines.append("  " + query)
            lines.append("  " + String(repeating: " ", count: before) + String(repeating: "^", count: width))
        }
        if let s = suggestion { lines.append("Did you mean '\(s)'?") }
        return lines.joined(separator: "\n")
    }
}
