import RealmFormat

/// Values as people read them on one line, in the shell's tables and the browser's cells:
/// scalars as text (control characters made visible, dates ISO 8601 UTC, data base64, ids in
/// hex), links as `→ Dog(Rex)` (the target's primary key, or `#ObjKey` for classes without
/// one), lists and sets of objects as `[3 Dog]`, of values as `[a, b]`, dictionaries as
/// `{k: v}`, embedded objects inline as `{street: Main St, …}`.
///
/// A link's identity is read from its target's one leaf when it is drawn (`ObjectRows`), never
/// by scanning the target class, so a screen of rows costs a screen of lookups.
public final class DisplayText {
    /// What differs between the front ends: how null reads, how much nesting and how many
    /// elements are spelled out, and how text is made printable (the browser knows the
    /// terminal's `wcwidth`, this module does not).
    public struct Style: Sendable {
        public var nullText: String
        /// Nested values deeper than this show as `…` (embedded in embedded, Mixed in Mixed).
        public var maxDepth: Int
        /// Elements spelled out before `…`; nil spells out all.
        public var maxInline: Int?
        public var printable: @Sendable (String) -> String

        public init(nullText: String, maxDepth: Int, maxInline: Int?,
                    printable: @escaping @Sendable (String) -> String = DisplayText.visible) {
            self.nullText = nullText
            self.maxDepth = maxDepth
            self.maxInline = maxInline
            self.printable = printable
        }

        /// The shell's result tables: `NULL`, every element.
        public static let table = Style(nullText: "NULL", maxDepth: 8, maxInline: nil)
    }

    public let readers: ObjectRowsCache
    public var style: Style
    public var nullText: String {
        get { style.nullText }
        set { style.nullText = newValue }
    }
    public var file: RealmFile { readers.file }

    public init(readers: ObjectRowsCache, style: Style) {
        self.readers = readers
        self.style = style
    }

    public convenience init(file: RealmFile, style: Style = .table) {
        self.init(readers: ObjectRowsCache(file: file), style: style)
    }

    /// The class a link property points to.
    public func target(of p: Property) -> ObjectClass? {
        p.column.targetTable.flatMap { readers.objectClass(for: $0) }
    }

    /// A property's value.
    public func text(_ p: Property, _ v: Value) throws(FormatError) -> String {
        try text(v, collection: p.collection, target: target(of: p), depth: 0)
    }

    public func text(_ v: Value, collection: CollectionKind?, target: ObjectClass?, depth: Int) throws(FormatError) -> String {
        if case .null = v { return style.nullText }
        guard depth < style.maxDepth else { return "…" }
        switch (collection, v) {
        case let (.dictionary?, .dictionary(entries)):
            if let target, !target.isEmbedded { return "{\(entries.count) \(target.name)}" }
            return "{" + inline(try entries.map { e throws(FormatError) in
                try element(e.key) + ": " + text(e.value, collection: nil, target: target, depth: depth + 1)
            }) + "}"
        case let (.list?, .list(elements)), let (.set?, .list(elements)):
            if let target, !target.isEmbedded { return "[\(elements.count) \(target.name)]" }
            return "[" + inline(try elements.map { e throws(FormatError) in
                try text(e, collection: nil, target: target, depth: depth + 1)
            }) + "]"
        default:
            break
        }
        switch v {
        case let .link(key):
            guard let target else { return "→ #\(key)" }
            return try link(target, key, depth: depth)
        case let .typedLink(table, key):
            guard let target = readers.objectClass(for: table) else { return "→ #\(key)" }
            return try link(target, key, depth: depth)
        case let .list(elements):       // a List in a Mixed
            return "[" + inline(try elements.map { e throws(FormatError) in
                try text(e, collection: nil, target: nil, depth: depth + 1)
            }) + "]"
        case let .dictionary(entries):  // a Dictionary in a Mixed
            return "{" + inline(try entries.map { e throws(FormatError) in
                try element(e.key) + ": " + text(e.value, collection: nil, target: nil, depth: depth + 1)
            }) + "}"
        default:
            return depth == 0 ? scalar(v) : element(v)
        }
    }

    private func inline(_ parts: [String]) -> String {
        guard let max = style.maxInline, parts.count > max else { return parts.joined(separator: ", ") }
        return parts.prefix(max).joined(separator: ", ") + ", …"
    }

    /// A value inside a collection or an identity: strings and data that would be ambiguous
    /// there (empty, edge spaces, separators, or reading as null) are quoted.
    public func element(_ v: Value) -> String {
        let text = scalar(v)
        switch v {
        case .string, .binary:
            let needsQuotes = text.isEmpty || text.first == " " || text.last == " " || text == style.nullText
                || text.contains { ",[]{}:\"→".contains($0) }
            guard needsQuotes else { return text }
            return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        default:
            return text
        }
    }

    /// A scalar on one line.
    public func scalar(_ v: Value) -> String {
        switch v {
        case .null: return style.nullText
        case let .string(bytes): return style.printable(String(decoding: bytes, as: UTF8.self))
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
    @Sendable public static func visible(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return s }
        return String(s.map { c -> Character in
            if c == "\n" || c == "\r\n" { return "↵" }
            if let a = c.asciiValue, a < 0x20 || a == 0x7F { return "·" }
            return c
        })
    }

    private func link(_ target: ObjectClass, _ key: Int64, depth: Int) throws(FormatError) -> String {
        // A negative key is an unresolved link: realm-core keeps it for a deleted target.
        if key < 0 { return "→ \(target.name)(deleted)" }
        if target.isEmbedded {
            guard let values = try objectValues(target, key) else { return "{missing}" }
            let fields = try zip(target.properties, values).map { p, v throws(FormatError) in
                try p.name + ": " + text(v, collection: p.collection, target: self.target(of: p), depth: depth + 1)
            }
            return "{" + inline(fields) + "}"
        }
        return "→ \(target.name)(\(try identity(target, key)))"
    }

    /// What names an object: its primary key, or `#ObjKey`; `missing #key` for a dangling link.
    public func identity(_ c: ObjectClass, _ key: Int64) throws(FormatError) -> String {
        let rows = try readers.rows(c)
        guard let position = rows.position(ofKey: key) else { return "missing #\(key)" }
        guard let pkIndex = c.properties.firstIndex(where: \.isPrimaryKey) else { return "#\(key)" }
        let value = try rows.value(pkIndex, at: position)
        return element(value)
    }

    /// The values of one object by key (an embedded object, a link's target).
    public func objectValues(_ c: ObjectClass, _ key: Int64) throws(FormatError) -> [Value]? {
        let rows = try readers.rows(c)
        guard let position = rows.position(ofKey: key) else { return nil }
        return try rows.values(at: position)
    }
}
