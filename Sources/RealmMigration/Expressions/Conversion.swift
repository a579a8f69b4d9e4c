import RealmFormat
import RealmObjects

/// The kinds of values expressions compute with: the scalar property types, plus links and
/// whole collections (only passed along, e.g. to `count()` or into a property of the same kind).
enum ValueKind: Equatable, Sendable {
    case int, bool, string, binary, date, float, double, decimal, objectId, uuid
    /// Any value (a mixed property): checked when the expression runs.
    case mixed
    /// Only the literal `null`.
    case null
    /// A link to an object of the table at this position.
    case link(Int)
    /// A list, set or dictionary property's value.
    case collection(PropertySpec)

    init(_ type: ColumnType) {
        switch type {
        case .int: self = .int
        case .bool: self = .bool
        case .string: self = .string
        case .binary: self = .binary
        case .timestamp: self = .date
        case .float: self = .float
        case .double: self = .double
        case .decimal: self = .decimal
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        default: self = .mixed
        }
    }

    var isNumeric: Bool { self == .int || self == .double || self == .float || self == .decimal }

    var name: String {
        switch self {
        case .int: return "int"
        case .bool: return "bool"
        case .string: return "string"
        case .binary: return "data"
        case .date: return "date"
        case .float: return "float"
        case .double: return "double"
        case .decimal: return "decimal128"
        case .objectId: return "objectId"
        case .uuid: return "uuid"
        case .mixed: return "mixed"
        case .null: return "null"
        case .link: return "object"
        case let .collection(p): return p.typeText
        }
    }

    /// The kind of a stored value (for mixed values at run time).
    static func of(_ v: Value) -> ValueKind {
        switch v {
        case .null: return .null
        case .int: return .int
        case .bool: return .bool
        case .string: return .string
        case .binary: return .binary
        case .timestamp: return .date
        case .float: return .float
        case .double: return .double
        case .decimal: return .decimal
        case .objectId: return .objectId
        case .uuid: return .uuid
        case .link, .typedLink: return .link(-1)
        case .list, .dictionary: return .mixed
        }
    }
}

/// A static type: a kind, and whether null can come out.
struct StaticType: Equatable, Sendable {
    var kind: ValueKind
    var nullable: Bool

    static let null = StaticType(kind: .null, nullable: true)
    static func of(_ kind: ValueKind, nullable: Bool = false) -> StaticType { StaticType(kind: kind, nullable: nullable) }

    var text: String { kind.name + (nullable && kind != .null && kind != .mixed ? "?" : "") }
}

/// Why a value cannot be converted or stored.
struct Refusal: Error, ExpressibleByStringInterpolation {
    let message: String
    init(stringLiteral value: String) { message = value }
    init(stringInterpolation: DefaultStringInterpolation) { message = String(stringInterpolation: stringInterpolation) }
}

/// Why a value could not be computed or stored for one object.
struct EvalError: Error {
    let message: String
    let location: SourceLocation
}

/// Conversions between scalar kinds: the functions `int()`, `string()`, `date()`, … and the
/// default conversion of `change p: type`. Null converts to null.
enum Conversion {
    /// Kinds `from` can be converted to `to` (checked before anything runs).
    static func possible(from: ValueKind, to: ValueKind) -> Bool {
        if from == to || from == .null || from == .mixed { return true }
        switch to {
        case .int, .double, .float: return [.int, .bool, .double, .float, .decimal, .string, .date].contains(from)
        case .decimal: return [.int, .double, .float, .string, .bool].contains(from)
        case .string: return [.int, .bool, .double, .float, .decimal, .date, .objectId, .uuid, .binary].contains(from)
        case .bool: return [.int, .string].contains(from)
        case .date: return [.string, .int, .double].contains(from)
        case .objectId, .uuid: return from == .string
        case .binary: return from == .string
        default: return false
        }
    }

    static func describe(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case let .string(s):
            let text = String(decoding: s, as: UTF8.self)
            return "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
        default: return text(v) ?? "\(v)"
        }
    }

    /// The string form `string()` gives; nil for values without one (links, collections).
    static func text(_ v: Value) -> String? {
        switch v {
        case let .int(i): return String(i)
        case let .bool(b): return b ? "true" : "false"
        case let .double(d): return d.isFinite ? (NumberText.double(d) ?? "\(d)") : NumberText.nonFinite(d)
        case let .float(f): return f.isFinite ? (NumberText.float(f) ?? "\(f)") : NumberText.nonFinite(Double(f))
        case let .string(s): return String(decoding: s, as: UTF8.self)
        case let .timestamp(t): return DateText.iso8601(t)
        case let .decimal(d): return d.text
        case let .objectId(o): return o.hexString
        case let .uuid(u): return u.uuidString
        case let .binary(b): return Base64.encode(b)
        default: return nil
        }
    }

    static func convert(_ v: Value, to kind: ValueKind) -> Result<Value, Refusal> {
        if case .null = v { return .success(.null) }
        func fail() -> Result<Value, Refusal> { .failure(Refusal(stringLiteral: "cannot convert \(describe(v)) to \(kind.name)")) }
        switch kind {
        case .int:
            switch v {
            case .int: return .success(v)
            case let .bool(b): return .success(.int(b ? 1 : 0))
            case let .double(d): return integral(d).map { .success(.int($0)) } ?? fail()
            case let .float(f): return integral(Double(f)).map { .success(.int($0)) } ?? fail()
            case let .decimal(d): return decimalInteger(d).map { .success(.int($0)) } ?? fail()
            case let .timestamp(t): return .success(.int(t.seconds))
            case let .string(s):
                let text = trimmed(String(decoding: s, as: UTF8.self))
                if let i = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .success(.int(i)) }
                return fail()
            default: return fail()
            }
        case .double, .float:
            var d: Double?
            switch v {
            case let .int(i): d = Double(i)
            case let .bool(b): d = b ? 1 : 0
            case let .double(x): d = x
            case let .float(x): d = Double(x)
            case let .decimal(x): d = x.doubleValue
            case let .timestamp(t): d = Double(t.seconds) + Double(t.nanoseconds) / 1e9
            case let .string(s): d = Double(trimmed(String(decoding: s, as: UTF8.self)))
            default: break
            }
            guard let d else { return fail() }
            return .success(kind == .double ? .double(d) : .float(Float(d)))
        case .decimal:
            switch v {
            case .decimal: return .success(v)
            case let .int(i): return ValueParsing.decimal(String(i)).map { .success(.decimal($0)) } ?? fail()
            case let .bool(b): return ValueParsing.decimal(b ? "1" : "0").map { .success(.decimal($0)) } ?? fail()
            case .double, .float, .string:
                guard let t = text(v) else { return fail() }
                return ValueParsing.decimal(trimmed(t)).map { .success(.decimal($0)) } ?? fail()
            default: return fail()
            }
        case .string:
            return text(v).map { .success(.string(Array($0.utf8))) } ?? fail()
        case .bool:
            switch v {
            case .bool: return .success(v)
            case let .int(i): return .success(.bool(i != 0))
            case let .string(s):
                switch trimmed(String(decoding: s, as: UTF8.self)).lowercased() {
                case "true", "yes", "1": return .success(.bool(true))
                case "false", "no", "0": return .success(.bool(false))
                default: return fail()
                }
            default: return fail()
            }
        case .date:
            switch v {
            case .timestamp: return .success(v)
            case let .int(i): return .success(.timestamp(Timestamp(seconds: i, nanoseconds: 0)))
            case let .double(d):
                guard d.isFinite, abs(d) < 9e18 else { return fail() }
                var seconds = Int64(d.rounded(.towardZero))
                var nanoseconds = Int64(((d - Double(seconds)) * 1e9).rounded())
                if abs(nanoseconds) >= 1_000_000_000 {           // 0.9999999999 rounds up to a whole second
                    seconds += nanoseconds.signum()
                    nanoseconds = 0
                }
                return .success(.timestamp(Timestamp(seconds: seconds, nanoseconds: Int32(nanoseconds))))
            case let .string(s):
                let t = trimmed(String(decoding: s, as: UTF8.self))
                if let date = ValueParsing.date(t) ?? ValueParsing.date(t + "T00:00:00Z") { return .success(.timestamp(date)) }
                return fail()
            default: return fail()
            }
        case .objectId:
            if case .objectId = v { return .success(v) }
            if case let .string(s) = v, let o = ValueParsing.objectId(trimmed(String(decoding: s, as: UTF8.self))) { return .success(.objectId(o)) }
            return fail()
        case .uuid:
            if case .uuid = v { return .success(v) }
            if case let .string(s) = v, let u = ValueParsing.uuid(trimmed(String(decoding: s, as: UTF8.self))) { return .success(.uuid(u)) }
            return fail()
        case .binary:
            if case .binary = v { return .success(v) }
            if case let .string(s) = v { return .success(.binary(s)) }
            return fail()
        default:
            return fail()
        }
    }

    /// A double with no fraction that fits an int.
    static func integral(_ d: Double) -> Int64? {
        guard d.isFinite, d.rounded(.towardZero) == d, d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else { return nil }
        return Int64(d)
    }

    static func decimalInteger(_ d: Decimal128) -> Int64? {
        if let i = Int64(d.text) { return i }
        let x = d.doubleValue
        return abs(x) < 9_007_199_254_740_992 ? integral(x) : nil
    }

    static func trimmed(_ s: String) -> String {
        var sub = Substring(s)
        while let c = sub.first, c.isWhitespace { sub = sub.dropFirst() }
        while let c = sub.last, c.isWhitespace { sub = sub.dropLast() }
        return String(sub)
    }
}

