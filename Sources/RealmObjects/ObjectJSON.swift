import RealmFormat

/// Writes objects and values as the canonical dump encodes them (fixtures/README.md
/// "Values"): Extended JSON for typed scalars, identities for links, embedded objects inline.
public final class ObjectJSON {
    let file: RealmFile
    public let resolver: IdentityResolver
    /// Embedded objects can nest; a hostile file could make them loop.
    static let maxEmbeddingDepth = 100
    /// Embedded objects written so far. Each has exactly one parent (object-store.md), so a
    /// valid file writes each once; a hostile one whose links share embedded objects (or lists
    /// that hold an object twice) could make the nesting above write exponentially many.
    private var embeddedWrites = 0

    /// Quoted property names per class (by table position), escaped once.
    private var quotedNames: [Int: [[UInt8]]] = [:]
    static let quotedKey = JSONEmitter.quoted("_key")
    private static let quotedClass = JSONEmitter.quoted("_class")

    public init(file: RealmFile) {
        self.file = file
        resolver = IdentityResolver(file: file)
    }

    func names(of objectClass: ObjectClass) -> [[UInt8]] {
        if let names = quotedNames[objectClass.table.position] { return names }
        let names = objectClass.properties.map { JSONEmitter.quoted($0.name) }
        quotedNames[objectClass.table.position] = names
        return names
    }

    /// `<object>`: `_key` for top-level classes without a primary key, then every property.
    /// `classMember` puts `"_class": name` first (JSON Lines of several classes).
    public func writeObject<Row: RandomAccessCollection<Value>>(_ objectClass: ObjectClass, key: Int64?, values: Row,
                            to out: inout JSONEmitter, depth: Int = 0, classMember: Bool = false) throws {
        out.beginObject()
        if classMember {
            out.key(quoted: Self.quotedClass)
            out.string(objectClass.name)
        }
        if let key, objectClass.primaryKey == nil {
            out.key(quoted: Self.quotedKey)
            out.int(key)
        }
        let names = names(of: objectClass)
        var i = 0
        for value in values where i < names.count {
            out.key(quoted: names[i])
            try writeProperty(objectClass.properties[i], value, to: &out, depth: depth)
            i += 1
        }
        out.end()
    }

    /// One property value: a scalar, a list/set (array) or a dictionary (keys sorted byte-wise).
    public func writeProperty(_ property: Property, _ value: Value, to out: inout JSONEmitter, depth: Int = 0) throws {
        switch (property.collection, value) {
        case let (.dictionary?, .dictionary(entries)):
            out.beginObject()
            for entry in sortedEntries(entries) {
                out.key(bytes: keyBytes(entry.key))
                try writeElement(property, entry.value, to: &out, depth: depth)
            }
            out.end()
        case let (_?, .list(elements)):
            out.beginArray()
            for element in elements {
                // Unresolved links (tombstones) are hidden from SDK users (§10.1).
                if property.column.type == .link, case let .link(k) = element, k < 0 { continue }
                try writeElement(property, element, to: &out, depth: depth)
            }
            out.end()
        default:
            try writeElement(property, value, to: &out, depth: depth)
        }
    }

    func writeElement(_ property: Property, _ value: Value, to out: inout JSONEmitter, depth: Int) throws {
        switch property.column.type {
        case .link:
            switch value {
            case let .link(k): try writeLink(property.column.targetTable, key: k, to: &out, depth: depth)
            case let .typedLink(_, k): try writeLink(property.column.targetTable, key: k, to: &out, depth: depth)
            default: out.null()
            }
        case .mixed:
            try writeMixed(value, to: &out, depth: depth)
        default:
            Self.writeScalar(value, to: &out)
        }
    }

    func writeLink(_ target: TableKey?, key: Int64, to out: inout JSONEmitter, depth: Int) throws {
        guard key >= 0, let target, let targetClass = try resolver.objectClass(for: target) else {
            out.null()
            return
        }
        try writeIdentity(targetClass, key: key, to: &out, depth: depth)
    }

    func writeIdentity(_ target: ObjectClass, key: Int64, to out: inout JSONEmitter, depth: Int) throws {
        switch try resolver.identity(in: target, key: key) {
        case let .primaryKey(v): Self.writeScalar(v, to: &out)
        case let .key(k):
            out.beginObject()
            out.key("$key")
            out.int(k)
            out.end()
        case let .embedded(c, row):
            guard depth < Self.maxEmbeddingDepth else {
                throw FormatError.corrupt(offset: c.table.ref, reason: "embedded objects of class '\(c.name)' nest more than \(Self.maxEmbeddingDepth) levels")
            }
            // Twice the objects, plus a little: a few objects linked twice still dump.
            embeddedWrites += 1
            guard embeddedWrites <= 100 + 2 * resolver.embeddedRowCount else { throw FormatError.workLimitExceeded }
            try writeObject(c, key: nil, values: row, to: &out, depth: depth + 1)
        case let .missing(k):
            out.beginObject()
            out.key("$missing")
            out.int(k)
            out.end()
        }
    }

    /// A Mixed value: links as `{"$link": …}`, nested collections recursively.
    public func writeMixed(_ value: Value, to out: inout JSONEmitter, depth: Int) throws {
        switch value {
        case let .typedLink(table, key):
            let target = try resolver.objectClass(for: table)
            out.beginObject()
            out.key("$link")
            out.beginObject()
            out.key("class")
            if let target { out.string(target.name) } else { out.null() }
            out.key("id")
            if let target { try writeIdentity(target, key: key, to: &out, depth: depth) } else { out.null() }
            out.end()
            out.end()
        case let .link(key):
            out.beginObject()
            out.key("$link")
            out.beginObject()
            out.key("class")
            out.null()
            out.key("id")
            out.beginObject()
            out.key("$key")
            out.int(key)
            out.end()
            out.end()
            out.end()
        case let .list(elements):
            out.beginArray()
            for e in elements { try writeMixed(e, to: &out, depth: depth) }
            out.end()
        case let .dictionary(entries):
            out.beginObject()
            for entry in sortedEntries(entries) {
                out.key(bytes: keyBytes(entry.key))
                try writeMixed(entry.value, to: &out, depth: depth)
            }
            out.end()
        default:
            Self.writeScalar(value, to: &out)
        }
    }

    func sortedEntries(_ entries: [DictionaryEntry]) -> [DictionaryEntry] {
        entries.map { (keyBytes($0.key), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
            .map(\.1)
    }

    func keyBytes(_ key: Value) -> [UInt8] {
        switch key {
        case let .string(b): return b
        case let .int(i): return Array(String(i).utf8)
        default: return []
        }
    }

    /// A value that is not a link: JSON scalars and Extended JSON wrappers.
    public static func writeScalar(_ value: Value, to out: inout JSONEmitter) {
        func wrapped(_ name: String, _ text: String) {
            out.beginObject()
            out.key(name)
            out.string(text)
            out.end()
        }
        switch value {
        case .null: out.null()
        case let .bool(b): out.bool(b)
        case let .int(i): out.int(i)
        case let .string(bytes): out.string(bytes: bytes)
        case let .double(d):
            if !out.double(d) { wrapped("$numberDouble", NumberText.nonFinite(d)) }
        case let .float(f):
            if !out.float(f) { wrapped("$numberDouble", NumberText.nonFinite(Double(f))) }
        case let .binary(bytes):
            out.beginObject()
            out.key("$binary")
            out.beginObject()
            out.key("base64")
            out.string(Base64.encode(bytes))
            out.key("subType")
            out.string("00")
            out.end()
            out.end()
        case let .timestamp(t):
            out.beginObject()
            out.key("$date")
            out.date(t)
            out.end()
        case let .decimal(d): wrapped("$numberDecimal", d.text)
        case let .objectId(o): wrapped("$oid", o.hexString)
        case let .uuid(u): wrapped("$uuid", u.uuidString)
        case let .link(k):
            out.beginObject()
            out.key("$key")
            out.int(k)
            out.end()
        case let .typedLink(_, k):
            out.beginObject()
            out.key("$key")
            out.int(k)
            out.end()
        case let .list(elements):
            out.beginArray()
            for e in elements { writeScalar(e, to: &out) }
            out.end()
        case .dictionary:
            out.null()
        }
    }
}
