/// What a `SELECT …` typed at the prompt (a sqlite3 or DuckDB habit) is in Realm's query
/// language, as one line: `SELECT * FROM Person WHERE age >= 30 AND name LIKE 'A%' ORDER BY
/// name DESC LIMIT 5` → `Person where age >= 30 AND name LIKE 'A*' SORT(name DESC) LIMIT(5)`.
/// A best effort for the common shape, to show the syntax, not a translator of SQL.
enum SQLHint {
    /// The hint for `text`, or nil when it does not start with SELECT.
    static func hint(for text: String, classes: [String]) -> String? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        guard words.first?.uppercased() == "SELECT" else { return nil }
        let intro = "realmsh speaks Realm's query language, not SQL"
        guard let from = words.firstIndex(where: { $0.uppercased() == "FROM" }), from + 1 < words.count else {
            return intro + ": type CLASS where PREDICATE, e.g. Person where age > 30 (.classes lists the classes)"
        }
        var typedClass = words[from + 1]
        while typedClass.hasSuffix(";") { typedClass.removeLast() }
        let className = classes.first { $0.lowercased() == typedClass.lowercased() } ?? typedClass
        let columns = words[1..<from].joined(separator: " ").uppercased()
        var rest = Array(words[(from + 2)...])
        if var last = rest.last {
            while last.hasSuffix(";") { last.removeLast() }
            rest[rest.count - 1] = last
            if last.isEmpty { rest.removeLast() }
        }
        func clause(_ keyword: String) -> Int? { rest.firstIndex { $0.uppercased() == keyword } }
        let order = rest.indices.first { $0 + 1 < rest.count && rest[$0].uppercased() == "ORDER" && rest[$0 + 1].uppercased() == "BY" }
        let limit = clause("LIMIT")
        let ends = [order, limit].compactMap { $0 }
        var predicate = "TRUEPREDICATE"
        if let w = clause("WHERE") {
            let end = ends.filter { $0 > w }.min() ?? rest.count
            predicate = condition(Array(rest[(w + 1)..<end]))
        }
        var tail = ""
        if let order {
            let end = ends.filter { $0 > order }.min() ?? rest.count
            let keys = rest[(order + 2)..<end].joined(separator: " ").split(separator: ",").map { key -> String in
                let parts = key.split(separator: " ").map(String.init)
                let direction = parts.count > 1 && parts[1].uppercased() == "DESC" ? "DESC" : "ASC"
                return (parts.first ?? "") + " " + direction
            }
            tail += " SORT(\(keys.joined(separator: ", ")))"
        }
        if let limit, limit + 1 < rest.count { tail += " LIMIT(\(rest[limit + 1]))" }
        let query = predicate == "TRUEPREDICATE" && !tail.isEmpty ? "\(className)\(tail)"
            : predicate == "TRUEPREDICATE" ? className : "\(className) where \(predicate)\(tail)"
        if columns.hasPrefix("COUNT(") {
            return intro + ": write  query --format count \(className) \"\(predicate)\(tail)\""
        }
        return intro + ": write  \(query)"
    }

    /// A WHERE clause's words with SQL's spellings replaced: `=` → `==`, `<>` → `!=`,
    /// `IS [NOT] NULL` → `==`/`!= nil`, LIKE's `%` and `_` → `*` and `?`.
    static func condition(_ words: [String]) -> String {
        var out = [String]()
        var i = 0
        while i < words.count {
            let w = words[i], upper = w.uppercased()
            if upper == "IS", i + 1 < words.count {
                if words[i + 1].uppercased() == "NOT", i + 2 < words.count, words[i + 2].uppercased() == "NULL" {
                    out.append("!= nil")
                    i += 3
                    continue
                }
                if words[i + 1].uppercased() == "NULL" {
                    out.append("== nil")
                    i += 2
                    continue
                }
            }
            if upper == "LIKE", i + 1 < words.count {
                out.append("LIKE")
                out.append(String(words[i + 1].map { $0 == "%" ? "*" : $0 == "_" ? "?" : $0 }))
                i += 2
                continue
            }
            switch w {
            case "=": out.append("==")
            case "<>": out.append("!=")
            default: out.append(w.replacing("<>", with: "!=").replacingSingleEquals())
            }
            i += 1
        }
        return out.joined(separator: " ")
    }
}

private extension String {
    /// `age=3` → `age==3`; `==`, `!=`, `<=`, `>=` stay.
    func replacingSingleEquals() -> String {
        let chars = Array(self)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c == "=", (i == 0 || !"=!<>".contains(chars[i - 1])), (i + 1 == chars.count || chars[i + 1] != "=") {
                out += "=="
            } else {
                out.append(c)
            }
        }
        return out
    }
}
