import RealmFormat
import RealmObjects

/// Values as the browser shows them. In the table, one line each: strings as they are (control
/// characters visible), dates ISO 8601 UTC, data as base64, links as `→ Dog(#0)` (the target's
/// primary key, or `#ObjKey` for classes without one), lists and sets of objects as `[3 Dog]`,
/// of values as `[a, b]`, dictionaries as `{k: v}`, embedded objects as `{street: Main St, …}`.
/// A link's identity is read from its target's one leaf, when it is drawn (never by scanning
/// the target class).
final class CellText {
    let readers: ObjectRowsCache
    /// Nested values deeper than this show as `…` (embedded in embedded, Mixed in Mixed).
    static let maxDepth = 4
    /// Elements shown inline before `…`.
    static let maxInline = 8

    init(readers: ObjectRowsCache) { self.readers = readers }

    var file: RealmFile { readers.file }

    func target(of p: Property) -> ObjectClass? {
        p.column.targetTable.flatMap { readers.objectClass(for: $0) }
    }

    /// A property's value in a table cell.
    func text(_ p: Property, _ v: Value) -> String {
        text(v, collection: p.collection, target: target(of: p), depth: 0)
    }

    func text(_ v: Value, collection: CollectionKind?, target: ObjectClass?, depth: Int) -> String {
        if case .null = v { return "null" }
        guard depth < Self.maxDepth else { return "…" }
        switch (collection, v) {
        case let (.dictionary?, .dictionary(entries)):
            if let target, !target.isEmbedded { return "{\(entries.count) \(target.name)}" }
            return "{" + inline(entries.map { e in element(e.key) + ": " + text(e.value, collection: nil, target: target, depth: depth + 1) }) + "}"
        case let (.list?, .list(elements)), let (.set?, .list(elements)):
            if let target { return "[\(elements.count) \(target.name)]" }
            return "[" + inline(elements.map { text($0, collection: nil, target: nil, depth: depth + 1) }) + "]"
        default:
            break
        }
        switch v {
        case let .link(key):
            guard let target else { return "→ #\(key)" }
            return link(target, key, depth: depth)
        case let .typedLink(table, key):
            guard let target = readers.objectClass(for: table) else { return "→ #\(key)" }
            return link(target, key, depth: depth)
        case let .list(elements):       // a List in a Mixed
            return "[" + inline(elements.map { text($0, collection: nil, target: nil, depth: depth + 1) }) + "]"
        case let .dictionary(entries):  // a Dictionary in a Mixed
            return "{" + inline(entries.map { e in element(e.key) + ": " + text(e.value, collection: nil, target: nil, depth: depth + 1) }) + "}"
        default:
            return depth == 0 ? scalar(v) : element(v)
        }
    }

    private func inline(_ parts: [String]) -> String {
        parts.count > Self.maxInline ? parts.prefix(Self.maxInline).joined(separator: ", ") + ", …" : parts.joined(separator: ", ")
    }

    /// A value inside a collection: strings that would be ambiguous there are quoted.
    func element(_ v: Value) -> String {
        let text = scalar(v)
        switch v {
        case .string, .binary:
            let needsQuotes = text.isEmpty || text.first == " " || text.last == " " || text == "null"
                || text.contains { ",[]{}:\"→".contains($0) }
            guard needsQuotes else { return text }
            return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        default:
            return text
        }
    }

    /// A scalar on one line: strings with control characters made visible, dates ISO 8601,
    /// data base64, ids in hex.
    func scalar(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case let .string(bytes): return TextWidth.printable(String(decoding: bytes, as: UTF8.self))
        case let .binary(bytes): return Base64.encode(bytes)
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .double(d): return NumberText.double(d) ?? NumberText.nonFinite(d)
        case let .float(f): return NumberText.float(f) ?? NumberText.nonFinite(Double(f))
        case let .timestamp(t): return DateText.iso8601(t)
        case let .decimal(d): return d.text
        case let .objectId(o): return o.hexString
        case let .uuid(u): return u.uuidString
        case let .link(k): return "→ #\(k)"
        case let .typedLink(_, k): return "→ #\(k)"
        case let .list(l): return "[\(l.count)]"
        case let .dictionary(d): return "{\(d.count)}"
        }
    }

    private func link(_ target: ObjectClass, _ key: Int64, depth: Int) -> String {
        if key < 0 { return "→ \(target.name)(deleted)" }
        if target.isEmbedded {
            guard let values = try? objectValues(target, key) else { return "{missing}" }
            let fields = zip(target.properties, values).map { p, v in
                p.name + ": " + text(v, collection: p.collection, target: self.target(of: p), depth: depth + 1)
            }
            return "{" + inline(fields) + "}"
        }
        return "→ \(target.name)(\(identity(target, key)))"
    }

    /// What names an object: its primary key, or `#ObjKey`.
    func identity(_ c: ObjectClass, _ key: Int64) -> String {
        guard let pkIndex = c.properties.firstIndex(where: \.isPrimaryKey) else { return "#\(key)" }
        guard let rows = try? readers.rows(c), let position = rows.position(ofKey: key) else { return "missing #\(key)" }
        guard let value = try? rows.value(pkIndex, at: position) else { return "#\(key)" }
        return element(value)
    }

    /// The values of one object by key (an embedded object, a link's target).
    func objectValues(_ c: ObjectClass, _ key: Int64) throws -> [Value]? {
        let rows = try readers.rows(c)
        guard let position = rows.position(ofKey: key) else { return nil }
        return try rows.values(at: position)
    }

    // MARK: the detail view

    /// A value in full: strings whole, dates with all nine digits of nanoseconds, Mixed values
    /// with their type.
    func full(_ v: Value, mixed: Bool) -> String {
        let text: String
        switch v {
        case let .timestamp(t): text = Self.fullDate(t)
        case .string, .binary, .int, .bool, .double, .float, .decimal, .objectId, .uuid, .null: text = scalar(v)
        default: text = self.text(v, collection: nil, target: nil, depth: 0)
        }
        guard mixed, !v.isNull else { return text }
        return Self.typeName(v) + " " + text
    }

    /// `YYYY-MM-DD HH:MM:SS.nnnnnnnnn UTC`.
    static func fullDate(_ t: Timestamp) -> String {
        // Floor division of the total nanoseconds, so the fraction is never negative (§9.7:
        // 1969-12-31T23:59:58.5Z is seconds −1, nanoseconds −500000000).
        let total = Int128(t.seconds) * 1_000_000_000 + Int128(t.nanoseconds)
        var fraction = total % 1_000_000_000
        if fraction < 0 { fraction += 1_000_000_000 }
        let whole = DateText.iso8601(Timestamp(seconds: Int64(clamping: (total - fraction) / 1_000_000_000), nanoseconds: 0))
        let digits = String(Int(fraction))
        return whole.dropLast().replacing("T", with: " ") + "." + String(repeating: "0", count: 9 - digits.count) + digits + " UTC"
    }

    /// The type of a Mixed value.
    static func typeName(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .int: return "int"
        case .bool: return "bool"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .binary: return "data"
        case .timestamp: return "date"
        case .decimal: return "decimal128"
        case .objectId: return "objectId"
        case .uuid: return "uuid"
        case .link, .typedLink: return "link"
        case .list: return "list"
        case .dictionary: return "dictionary"
        }
    }
}

/// Property types as headers show them: `age int?`, `dogs List<Dog>`, `owner → Person`.
enum TypeLabel {
    static func of(_ p: Property, target: ObjectClass?) -> String {
        let element: String
        if p.type == "object" {
            element = target?.name ?? "object"
        } else {
            element = p.type + (p.isOptional && p.type != "mixed" ? "?" : "")
        }
        switch p.collection {
        case .list?: return "List<\(element)>"
        case .set?: return "Set<\(element)>"
        case .dictionary?: return "Dictionary<\(element)>"
        case nil: return p.type == "object" ? "→ " + element : element
        }
    }
}
