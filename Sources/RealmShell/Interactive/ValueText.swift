import RealmFormat
import RealmObjects

/// Values as the shell's tables show them to people: scalars as text, links as
/// `→ Person(Alice)` (the target's primary key, or `#key` for classes without one), lists and
/// sets of links as `[3 Dog]`, lists of values as `[a, b, c]`, dictionaries as `{k: v}`,
/// embedded objects as `{street: Main St, …}`; control characters made visible.
/// Identities are read once per target class.
final class ValueText {
    let file: RealmFile
    var nullText: String
    private var identities: [Int: [Int64: String]] = [:]
    private var embedded: [Int: [Int64: [Value]]] = [:]
    /// Bounds nesting (embedded objects in embedded objects, Mixed in Mixed).
    private static let maxDepth = 8

    init(file: RealmFile, nullText: String = "NULL") {
        self.file = file
        self.nullText = nullText
    }

    func text(_ p: Property, _ v: Value) throws -> String {
        try text(v, collection: p.collection, target: p.objectType.flatMap(file.objectClass(named:)), depth: 0)
    }

    private func text(_ v: Value, collection: CollectionKind?, target: ObjectClass?, depth: Int) throws -> String {
        if case .null = v { return nullText }
        guard depth < Self.maxDepth else { return "…" }
        switch (collection, v) {
        case let (.dictionary?, .dictionary(entries)):
            if let target, !target.isEmbedded { return "{\(entries.count) \(target.name)}" }
            return try "{" + entries.map { e throws -> String in
                try element(e.key) + ": " + text(e.value, collection: nil, target: target, depth: depth + 1)
            }.joined(separator: ", ") + "}"
        case let (.list?, .list(elements)), let (.set?, .list(elements)):
            if let target, !target.isEmbedded { return "[\(elements.count) \(target.name)]" }
            return try "[" + elements.map { e throws -> String in
                try text(e, collection: nil, target: target, depth: depth + 1)
            }.joined(separator: ", ") + "]"
        default:
            break
        }
        switch v {
        case let .link(key):
            guard let target else { return "→ #\(key)" }
            return try link(target, key, depth: depth)
        case let .typedLink(table, key):
            guard let target = file.objectClass(for: table) else { return "→ #\(key)" }
            return try link(target, key, depth: depth)
        case let .list(elements):       // a List in a Mixed
            return try "[" + elements.map { e throws -> String in try text(e, collection: nil, target: nil, depth: depth + 1) }
                .joined(separator: ", ") + "]"
        case let .dictionary(entries):  // a Dictionary in a Mixed
            return try "{" + entries.map { e throws -> String in
                try element(e.key) + ": " + text(e.value, collection: nil, target: nil, depth: depth + 1)
            }.joined(separator: ", ") + "}"
        default:
            return depth == 0 ? try scalar(v) : try element(v)
        }
    }

    /// A value inside a collection or an identity: strings and binaries that would be
    /// ambiguous there (empty, or holding separators or edge spaces) are quoted.
    func element(_ v: Value) throws -> String {
        let text = try scalar(v)
        switch v {
        case .string, .binary:
            let needsQuotes = text.isEmpty || text.first == " " || text.last == " "
                || text.contains { ",[]{}:\"→".contains($0) } || text == nullText
            guard needsQuotes else { return text }
            return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        default:
            return text
        }
    }

    /// A scalar as text: strings as they are (control characters visible), dates ISO 8601,
    /// binary base64, ids in hex.
    func scalar(_ v: Value) throws -> String {
        switch v {
        case .null: return nullText
        case let .string(bytes): return Self.visible(String(decoding: bytes, as: UTF8.self))
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

    /// Newlines as ↵, other control characters as ·, so a value stays on one line.
    static func visible(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return s }
        return String(s.map { c -> Character in
            if c == "\n" || c == "\r\n" { return "↵" }
            if let a = c.asciiValue, a < 0x20 || a == 0x7F { return "·" }
            return c
        })
    }

    private func link(_ target: ObjectClass, _ key: Int64, depth: Int) throws -> String {
        if target.isEmbedded {
            let rows = try embeddedRows(target)
            guard let values = rows[key] else { return "{missing}" }
            let fields = try zip(target.properties, values).map { p, v throws -> String in
                try p.name + ": " + text(v, collection: p.collection, target: p.objectType.flatMap(file.objectClass(named:)), depth: depth + 1)
            }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        if key < 0 { return "→ \(target.name)(deleted)" }
        let ids = try identities(target)
        guard let id = ids[key] else { return "→ \(target.name)(missing #\(key))" }
        return "→ \(target.name)(\(id))"
    }

    private func identities(_ target: ObjectClass) throws -> [Int64: String] {
        if let known = identities[target.table.position] { return known }
        var out = [Int64: String]()
        if let pk = target.primaryKey.flatMap(target.property(named:)) {
            try file.forEachObject(of: target, properties: [pk]) { key, values in
                out[key] = try self.element(values.first ?? .null)
            }
        } else {
            try file.forEachObject(of: target, properties: []) { key, _ in out[key] = "#\(key)" }
        }
        identities[target.table.position] = out
        return out
    }

    private func embeddedRows(_ target: ObjectClass) throws -> [Int64: [Value]] {
        if let known = embedded[target.table.position] { return known }
        var out = [Int64: [Value]]()
        try file.forEachObject(of: target) { key, values in out[key] = Array(values) }
        embedded[target.table.position] = out
        return out
    }
}
