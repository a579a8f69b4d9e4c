import RealmFormat
import RealmObjects
import RealmQuery

/// The shell's short query form: `Person where age > 30 SORT(name ASC)`, `Person` (every
/// object), `Person SORT(age DESC) LIMIT(3)`, and `Person.dogs where name == 'Alice'` (the
/// objects the links of the matches point to).
struct ShortQuery {
    var className: String
    var predicate: String
    /// Link properties to follow from the matching objects.
    var path: [String]
    /// Where the predicate's byte 0 is in `line` (for the caret under an error).
    var predicateOffset: Int?
    var line = ""
    var arguments: [String] = []
    var argumentsJSON: String?
    var limit: Int?

    /// nil when the first word is not a class of the file (nor `Class.link…`).
    static func parse(_ text: String, classes: [String]) throws(ShellError) -> ShortQuery? {
        let bytes = Array(text.utf8)
        func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
        var i = 0
        while i < bytes.count, !isSpace(bytes[i]) { i += 1 }
        let head = String(decoding: bytes[0..<i], as: UTF8.self)
        let parts = head.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let className = parts.first, classes.contains(className) else { return nil }
        let path = Array(parts.dropFirst())
        if path.contains(where: \.isEmpty) {
            throw ShellError("'\(head)' is not a key path: write Class.link[.link…]", code: .usage)
        }
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        let restStart = i
        let rest = String(decoding: bytes[restStart...], as: UTF8.self)
        var query = ShortQuery(className: className, predicate: "TRUEPREDICATE", path: path, predicateOffset: nil, line: text)
        if rest.isEmpty { return query }
        let lower = rest.lowercased()
        if lower.hasPrefix("where"), rest.utf8.count == 5 || isSpace(Array(rest.utf8)[5]) {
            var p = restStart + 5
            while p < bytes.count, isSpace(bytes[p]) { p += 1 }
            guard p < bytes.count else {
                throw ShellError("a predicate must follow 'where', e.g. \(className) where age > 30", code: .usage)
            }
            query.predicate = String(decoding: bytes[p...], as: UTF8.self)
            query.predicateOffset = p
            return query
        }
        for keyword in ["sort", "distinct", "limit"] where lower.hasPrefix(keyword) {
            let after = lower.dropFirst(keyword.count).drop { $0 == " " }
            if after.hasPrefix("(") {
                query.predicate = "TRUEPREDICATE " + rest
                query.predicateOffset = restStart - "TRUEPREDICATE ".utf8.count
                return query
            }
        }
        throw ShellError("expected 'where' after \(head): \(head) where PREDICATE", code: .usage)
    }

    /// A query error with the caret under the bad part of the line as typed.
    func render(_ error: QueryError) -> String {
        guard let offset = predicateOffset, let range = error.range, !line.contains("\n") else {
            return error.rendered(query: predicate)
        }
        let bytes = Array(line.utf8)
        let start = max(0, min(bytes.count, range.start + offset))
        let end = max(start, min(bytes.count, range.end + offset))
        let before = String(decoding: bytes[0..<start], as: UTF8.self).count
        let width = max(1, String(decoding: bytes[start..<end], as: UTF8.self).count)
        var lines = [error.message, "  " + line, "  " + String(repeating: " ", count: before) + String(repeating: "^", count: width)]
        if let s = error.suggestion { lines.append("Did you mean '\(s)'?") }
        return lines.joined(separator: "\n")
    }
}

extension ShortQuery {
    /// Runs the query on `file`: the matching objects (after following `path`, at most
    /// `limit`), as `query` and the shell present them.
    func results(in file: RealmFile) throws(ShellError) -> QueryResults {
        let (objectClass, query) = try prepared(in: file)
        var rows: [Int]
        do {
            rows = try query.rows()
        } catch {
            throw shellError(error, file: file)
        }
        var resultClass = objectClass
        if !path.isEmpty { (resultClass, rows) = try follow(path, from: objectClass, rows: rows, in: file) }
        if let limit, rows.count > limit { rows.removeLast(rows.count - limit) }
        return QueryResults(file: file, objectClass: resultClass, rows: rows)
    }

    /// How many objects `results` would give, without listing them when no links are
    /// followed: `Query.count` counts bits, or entries of an index, or leaf by leaf.
    func count(in file: RealmFile) throws(ShellError) -> Int {
        guard path.isEmpty else { return try results(in: file).rows.count }
        let (_, query) = try prepared(in: file)
        do {
            let n = try query.count()
            return limit.map { min($0, n) } ?? n
        } catch {
            throw shellError(error, file: file)
        }
    }

    /// The class and the parsed query, arguments bound.
    private func prepared(in file: RealmFile) throws(ShellError) -> (ObjectClass, Query) {
        guard let objectClass = file.objectClass(named: className) else { throw unknownClass(className, in: file) }
        let store = ObjectStore(snapshot: file.snapshot)
        guard let table = store.table(className: className) else { throw unknownClass(className, in: file) }
        let values: [QueryArgument]
        if let argumentsJSON {
            do throws(QueryArguments.Failure) { values = try QueryArguments.parseJSON(argumentsJSON, store: store) } catch {
                throw ShellError(error.message, code: .usage, usageOf: "query")
            }
        } else {
            values = arguments.map(QueryArgument.literal)
        }
        do {
            return (objectClass, try Query(store: store, table: table, predicate, arguments: values))
        } catch {
            throw shellError(error, file: file)
        }
    }

    private func shellError(_ error: any Error, file: RealmFile) -> ShellError {
        if let error = error as? QueryError { return ShellError(render(error), code: .dataError) }
        return ShellError.from(error, path: file.path)
    }

    /// The objects the links `path` of the objects at `rows` point to, each once, in order.
    private func follow(_ path: [String], from start: ObjectClass, rows: [Int], in file: RealmFile) throws(ShellError) -> (ObjectClass, [Int]) {
        var objectClass = start
        var current = rows
        for name in path {
            let links = objectClass.properties.filter { $0.type == "object" }
            guard let property = objectClass.property(named: name), property.type == "object",
                  let target = property.objectType.flatMap(file.objectClass(named:)) else {
                var message = "'\(name)' is not a link of \(objectClass.name)" + NameSuggestion.didYouMean(name, among: links.map(\.name))
                message += links.isEmpty ? " (it has no links)" : " (links: \(links.map(\.name).joined(separator: ", ")))"
                throw ShellError(message, code: .dataError)
            }
            do {
                var linked = [Int: [Int64]]()
                try file.forEachObject(of: objectClass, atPositions: Array(Set(current)).sorted(), properties: [property]) { position, _, values in
                    linked[position] = Self.linkKeys(values.first ?? .null)
                }
                let store = ObjectStore(snapshot: file.snapshot)     // TableData holds it unowned
                guard let table = store.table(className: target.name) else { return (target, []) }
                var rowOfKey = [Int64: Int]()
                for (i, k) in try withExtendedLifetime(store, { try table.keys() }).enumerated() { rowOfKey[k] = i }
                var seen = Set<Int>()
                var next = [Int]()
                for position in current {
                    for key in linked[position] ?? [] {
                        if let row = rowOfKey[key], seen.insert(row).inserted { next.append(row) }
                    }
                }
                current = next
            } catch {
                throw ShellError.from(error, path: file.path)
            }
            objectClass = target
        }
        return (objectClass, current)
    }

    static func linkKeys(_ value: Value) -> [Int64] {
        switch value {
        case let .link(k): return [k]
        case let .typedLink(_, k): return [k]
        case let .list(elements): return elements.flatMap(linkKeys)
        case let .dictionary(entries): return entries.flatMap { linkKeys($0.value) }
        default: return []
        }
    }
}
