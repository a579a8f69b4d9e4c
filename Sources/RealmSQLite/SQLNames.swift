/// SQL identifiers: quoting, and names that SQLite accepts and that do not collide.
enum SQLName {
    /// `"name"`, with `"` doubled (SQL's identifier quoting).
    static func quoted(_ name: String) -> String {
        var out = "\""
        for c in name { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }

    /// A comma-separated list of quoted names.
    static func list(_ names: [String]) -> String { names.map(quoted).joined(separator: ", ") }
}

/// Hands out names unique within one SQLite namespace (the tables and indexes of a database, or
/// the columns of a table). SQLite compares identifiers without regard to ASCII case, so
/// Realm's `Person` and `person` would collide; the second becomes `person_2`. Names SQLite
/// reserves (`sqlite_…`) get a leading `_`, NUL characters (which SQL text cannot carry) become
/// `_`. `_realm_schema` records every name given out, so a renamed one can be found.
struct NameAllocator {
    private var taken: Set<String> = []

    init(reserved: [String] = []) {
        for name in reserved { taken.insert(Self.folded(name)) }
    }

    /// ASCII letters in lower case: the form SQLite compares identifiers in.
    static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// `wanted`, or the first of `wanted_2`, `wanted_3`, … that is free; the name is taken.
    mutating func allocate(_ wanted: String) -> String {
        var base = String(wanted.map { $0 == "\u{0}" ? "_" : $0 })
        if base.isEmpty { base = "_" }
        if Self.folded(base).hasPrefix("sqlite_") { base = "_" + base }
        var name = base
        var n = 2
        while taken.contains(Self.folded(name)) {
            name = base + "_\(n)"
            n += 1
        }
        taken.insert(Self.folded(name))
        return name
    }
}
