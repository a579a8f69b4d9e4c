import RealmFormat

/// A value for a `$n` placeholder (or `%@` in NSPredicate style): one value, or a list of
/// values (which acts like a `{…}` constant list: `age IN $0`, `name == ANY $0`).
public enum QueryArgument: Sendable, Equatable {
    case value(QValue)
    case list([QValue])

    public static let null = QueryArgument.value(.null)
    public static func int(_ i: Int64) -> QueryArgument { .value(.int(i)) }
    public static func double(_ d: Double) -> QueryArgument { .value(.double(d)) }
    public static func string(_ s: String) -> QueryArgument { .value(.string(Array(s.utf8))) }
    public static func bool(_ b: Bool) -> QueryArgument { .value(.bool(b)) }

    /// A value typed on a command line: a literal of the query language (`42`, `-1.5`,
    /// `'Fido'`, `2020-01-01@00:00:00`, `oid(…)`, `uuid(…)`, `true`, `null`, …) is that value;
    /// anything else is the text as a string.
    public static func literal(_ text: String) -> QueryArgument {
        let tokens = Lexer(text).tokenize()
        guard tokens.count == 2, tokens[1].kind == .end, let kind = Parser.constantKind(tokens[0].kind), kind != .argument,
              let value = try? TypeChecker.literal(ConstantNode(kind: kind, text: tokens[0].text, range: tokens[0].range)) else {
            return .string(text)
        }
        return .value(value)
    }

    /// A Decimal128 from its text (`-123.456`, `1E10`, `Inf`, `NaN`), rounded to 34 digits.
    public static func decimal(_ text: String) -> QValue? {
        if text.lowercased().hasSuffix("nan") { return .decimal(DecimalMath.nan) }
        return DecimalMath.parse(Array(text.utf8)).map(QValue.decimal)
    }
}

/// The arguments of one query with realm-core's checks and messages (query_parser.hpp).
struct ArgumentList {
    let arguments: [QueryArgument]

    func verify(_ n: Int, at range: SourceRange?) throws(QueryError) {
        guard n >= arguments.count else { return }
        let message: String
        if arguments.isEmpty {
            message = "Request for argument at index \(n) but no arguments are provided"
        } else {
            message = "Request for argument at index \(n) but only \(arguments.count) argument\(arguments.count == 1 ? " is" : "s are") provided"
        }
        throw .invalidArgument(message: message, at: range)
    }

    func isList(_ n: Int, at range: SourceRange?) throws(QueryError) -> Bool {
        try verify(n, at: range)
        if case .list = arguments[n] { return true }
        return false
    }

    func value(_ n: Int, at range: SourceRange?) throws(QueryError) -> QValue {
        try verify(n, at: range)
        switch arguments[n] {
        case let .value(v): return v
        case .list: throw .invalidArgument(message: "Request for scalar argument at index \(n) but a list was provided", at: range)
        }
    }

    func list(_ n: Int, at range: SourceRange?) throws(QueryError) -> [QValue] {
        try verify(n, at: range)
        if case let .list(l) = arguments[n] { return l }
        return []
    }
}

/// Text of values as realm-core prints them in messages (`util::serializer::print_value`).
enum ValueText {
    static func describe(_ v: QValue) -> String {
        switch v {
        case .null: return "NULL"
        case let .int(i): return String(i)
        case let .bool(b): return b ? "true" : "false"
        case let .float(f): return shortest(Double(f))
        case let .double(d): return shortest(d)
        case let .string(s): return "\"" + String(decoding: s, as: UTF8.self) + "\""
        case let .binary(b): return "B64\"" + Base64.encode(b) + "\""
        case let .timestamp(t): return "T\(t.seconds):\(t.nanoseconds)"
        case let .decimal(d): return d.text
        case let .objectId(o): return "oid(\(o.hexString))"
        case let .uuid(u): return "uuid(\(u.uuidString))"
        case let .link(k): return "O\(k)"
        case let .typedLink(t, k): return "L\(t.value):\(k)"
        case .list: return "[list]"
        case .dictionary: return "{dictionary}"
        case let .typeOfValue(t): return "\"" + TypeOfValue.name(t) + "\""
        }
    }

    static func shortest(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}
