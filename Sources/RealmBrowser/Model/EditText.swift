import RealmFormat
import RealmObjects

/// One property of one object, as an edit sees it.
struct EditTarget {
    let objectClass: ObjectClass
    let key: Int64
    let property: Property
    let value: Value
}

/// What a typed value means once parsed: a value, or a link named by its target's primary key
/// or ObjKey (resolved inside the write transaction).
enum EditValue: Equatable {
    case value(Value)
    case linkByPrimaryKey(Value)
    case linkByKey(Int64)
}

/// Typed text → a property's value, strictly (the product rule: "123abc" into an int is
/// refused, not truncated). Each type takes one text form, the one the table shows:
///
/// - `null` for an optional property, refused for a required one (a string property stores
///   the text `"null"` when it is typed in double quotes; double quotes around any string are
///   taken off);
/// - int: decimal digits with an optional sign; bool: `true` or `false`; float and double:
///   decimal or exponent notation, `inf`, `-inf`, `nan`; decimal128 likewise;
/// - date: ISO 8601 (`2024-05-01T12:00:00.5Z`, a date alone, an offset); objectId: 24 hex
///   digits; uuid: the 36-character form; data: base64;
/// - mixed: a literal of the query language — `'text'` or `"text"`, `42`, `1.5`, `true`,
///   `null`, `oid(…)`, `uuid(…)` or an ISO 8601 date;
/// - a link: the target's primary key (as its type takes it), `#N` for an ObjKey, or `null`.
enum EditText {
    struct Refusal: Error, Equatable {
        let message: String
    }

    /// The type an edit expects, as the prompt shows it: `int?`, `→ Person`.
    static func expected(_ p: Property, target: ObjectClass?) -> String { TypeLabel.of(p, target: target) }

    /// The text an edit starts from: the current value in the form `parse` takes back.
    static func initial(_ v: Value, property p: Property, cells: CellText) -> String {
        if v.isNull { return p.isOptional || p.type == "object" ? "null" : "" }
        switch v {
        case let .string(bytes):
            let s = String(decoding: bytes, as: UTF8.self)
            if p.type == "mixed" { return "'" + s + "'" }
            return s == "null" || s.first == "\"" && s.last == "\"" && s.count >= 2 ? "\"" + s + "\"" : s
        case let .link(k):
            guard let target = cells.target(of: p) else { return "#\(k)" }
            return primaryKeyText(target, k, cells: cells)
        case .objectId(let o) where p.type == "mixed": return "oid(\(o.hexString))"
        case .uuid(let u) where p.type == "mixed": return "uuid(\(u.uuidString))"
        default:
            return cells.scalar(v)
        }
    }

    private static func primaryKeyText(_ target: ObjectClass, _ k: Int64, cells: CellText) -> String {
        guard let index = target.properties.firstIndex(where: \.isPrimaryKey),
              let rows = try? cells.readers.rows(target), let position = rows.position(ofKey: k),
              let pk = try? rows.value(index, at: position) else { return "#\(k)" }
        if case let .string(bytes) = pk { return String(decoding: bytes, as: UTF8.self) }
        return pk.isNull ? "null" : cells.scalar(pk)
    }

    /// Parses `text` as a value of property `p` (a scalar, a Mixed, or a to-one link).
    static func parse(_ text: String, for p: Property, target: ObjectClass?) throws(Refusal) -> EditValue {
        let trimmed = text.trimmingWhitespace()
        func refuse(_ what: String) -> Refusal {
            Refusal(message: "\(p.name) expects \(what); '\(text)' is not one (nothing was written)")
        }
        if p.type == "object" {
            if trimmed == "null" { return .value(.null) }
            guard let target else { throw refuse("a link") }
            if trimmed.hasPrefix("#"), let k = Int64(trimmed.dropFirst()) { return .linkByKey(k) }
            guard let pk = target.properties.first(where: \.isPrimaryKey) else {
                throw Refusal(message: "\(p.name) links to \(target.name), which has no primary key: type #N (an ObjKey) or null")
            }
            let value = try parse(trimmed, for: pk, target: nil)
            guard case let .value(v) = value else { throw refuse("a primary key of \(target.name)") }
            return .linkByPrimaryKey(v)
        }
        if trimmed == "null" && (p.isOptional || p.type == "mixed") { return .value(.null) }
        if trimmed == "null" {
            let hint = p.type == "string" ? " (type \"null\" in double quotes for the text)" : ""
            throw Refusal(message: "\(p.name) is required (\(p.type)); null is not allowed\(hint) (nothing was written)")
        }
        switch p.column.type {
        case .string:
            if text.count >= 2, text.first == "\"", text.last == "\"" { return .value(.string(Array(text.dropFirst().dropLast().utf8))) }
            return .value(.string(Array(text.utf8)))
        case .int:
            guard let v = Int64(trimmed) else { throw refuse("an int") }
            return .value(.int(v))
        case .bool:
            switch trimmed.lowercased() {
            case "true": return .value(.bool(true))
            case "false": return .value(.bool(false))
            default: throw refuse("a bool (true or false)")
            }
        case .double:
            guard let v = number(trimmed) else { throw refuse("a double") }
            return .value(.double(v))
        case .float:
            guard let v = number(trimmed) else { throw refuse("a float") }
            let f = Float(v)
            guard f.isFinite || !v.isFinite else { throw Refusal(message: "\(p.name): \(trimmed) does not fit a float (nothing was written)") }
            return .value(.float(f))
        case .decimal:
            guard let d = ValueParsing.decimal(trimmed) else { throw refuse("a decimal128") }
            return .value(.decimal(d))
        case .timestamp:
            guard let t = ValueParsing.date(trimmed) else { throw refuse("a date (ISO 8601, e.g. 2024-05-01T12:00:00Z)") }
            return .value(.timestamp(t))
        case .objectId:
            guard let o = ValueParsing.objectId(trimmed) else { throw refuse("an objectId (24 hex digits)") }
            return .value(.objectId(o))
        case .uuid:
            guard let u = ValueParsing.uuid(trimmed) else { throw refuse("a uuid") }
            return .value(.uuid(u))
        case .binary:
            guard let bytes = Base64.decode(trimmed) else { throw refuse("data (base64)") }
            return .value(.binary(bytes))
        case .mixed:
            guard let v = mixed(trimmed) else {
                throw Refusal(message: "\(p.name) (mixed) takes a literal: 'text', 42, 1.5, true, null, oid(…), uuid(…) or an ISO 8601 date; '\(text)' is not one (nothing was written)")
            }
            return .value(v)
        default:
            throw Refusal(message: "\(p.name) (\(p.type)) cannot be edited here")
        }
    }

    /// Decimal or exponent notation, `inf`, `-inf`, `nan` (not Swift's hexadecimal floats).
    static func number(_ text: String) -> Double? {
        switch text.lowercased() {
        case "inf", "+inf", "infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        case "nan": return .nan
        default: break
        }
        guard !text.lowercased().contains("x"), !text.lowercased().contains("n"), let v = Double(text) else { return nil }
        return v
    }

    static func mixed(_ text: String) -> Value? {
        if text.count >= 2, let q = text.first, q == "'" || q == "\"", text.last == q {
            return .string(Array(text.dropFirst().dropLast().utf8))
        }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let i = Int64(text) { return .int(i) }
        if let d = number(text) { return .double(d) }
        if text.hasPrefix("oid("), text.hasSuffix(")"), let o = ValueParsing.objectId(String(text.dropFirst(4).dropLast())) { return .objectId(o) }
        if text.hasPrefix("uuid("), text.hasSuffix(")"), let u = ValueParsing.uuid(String(text.dropFirst(5).dropLast())) { return .uuid(u) }
        if let t = ValueParsing.date(text) { return .timestamp(t) }
        return nil
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
