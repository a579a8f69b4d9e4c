import RealmFormat

/// `SORT(…)`, `DISTINCT(…)` and `LIMIT(n)` (query-language.md §6), applied left to right in
/// the order written, as realm-core's `DescriptorOrdering` does: consecutive SORTs merge (the
/// later one's keys first), DISTINCT keeps the first object of each value tuple in the current
/// order and drops objects whose path crosses a null link, LIMIT keeps a prefix.
enum OrderingStep {
    case sort([SortKey])
    case distinct([SortKey])
    case limit(Int)
}

/// One SORT or DISTINCT key: a property, reached through to-one links, or a dictionary value.
struct SortKey {
    /// The columns of the path with the table each belongs to and, for a link, the table it
    /// points to (resolved through the store when the key is compiled); all but the last
    /// should be to-one links.
    let path: [(column: Column, table: TableData, target: TableData?)]
    let dictionaryKey: [UInt8]?
    let ascending: Bool

    var hasLinks: Bool { path.count > 1 }

    /// realm-core checks keys only when it sorts a non-empty result (`Sorter`).
    func validate() throws(QueryError) {
        guard let last = path.last else {
            throw .illegalOperation(message: "Missing property", at: nil)
        }
        if last.column.collection != nil && dictionaryKey == nil {
            throw .illegalOperation(message: "Cannot sort on a collection property", at: nil)
        }
        for step in path.dropLast() where !(step.column.type == .link && step.column.collection == nil) {
            throw .illegalOperation(message: "All but last property must be a link", at: nil)
        }
    }

    /// The key's value for one object of the queried class; `nullLink` when a link on the way
    /// is null (such objects sort after all others ascending, before them descending).
    func value(row: Int) throws -> (nullLink: Bool, value: QValue) {
        var r = row
        for step in path.dropLast() {
            guard case let .link(k) = try step.table.value(step.column, row: r), k >= 0,
                  let target = step.target, let next = try target.row(of: k) else {
                return (true, .null)
            }
            r = next
        }
        guard let last = path.last else { return (false, .null) }
        let v = try last.table.value(last.column, row: r)
        if let key = dictionaryKey {
            guard case let .dictionary(entries) = v, let e = entries.first(where: { $0.key == .string(key) }) else { return (false, .null) }
            return (false, QValue(e.value))
        }
        return (false, QValue(v))
    }
}

extension TypeChecker {
    func orderings(_ nodes: [OrderingNode]) throws(QueryError) -> [OrderingStep] {
        var steps = [OrderingStep]()
        for node in nodes {
            switch node {
            case let .limit(n, _):
                steps.append(.limit(n))
            case let .sort(keys):
                let new = try keys.map { k throws(QueryError) in try sortKey(k.path, ascending: k.ascending, clause: "sort") }
                if case let .sort(previous)? = steps.last {
                    steps[steps.count - 1] = .sort(new + previous)
                } else {
                    steps.append(.sort(new))
                }
            case let .distinct(paths):
                steps.append(.distinct(try paths.map { p throws(QueryError) in try sortKey(p, ascending: true, clause: "distinct") }))
            }
        }
        return steps
    }

    func sortKey(_ path: PathNode, ascending: Bool, clause: String) throws(QueryError) -> SortKey {
        var table = base
        var columns = [(column: Column, table: TableData, target: TableData?)]()
        var dictionaryKey: [UInt8]?
        for (n, e) in path.elements.enumerated() {
            guard case let .key(raw, range) = e else {
                throw .invalidQuery(message: "Only property names and dictionary keys can be used in a '\(clause)' clause", at: path.range)
            }
            let name = translate(table, raw)
            if let last = columns.last, last.column.collection == .dictionary {
                dictionaryKey = name
                continue
            }
            let nameString = String(decoding: name, as: UTF8.self)
            guard let column = table.column(named: nameString) else {
                throw .invalidQuery(message: "No property '\(nameString)' found on object type '\(table.className)' specified in '\(clause)' clause", at: range)
            }
            let target = column.type == .link ? store.target(of: column) : nil
            columns.append((column, table, target))
            if n < path.elements.count - 1, let target { table = target }
        }
        if path.keyPathArgument != nil {
            throw .invalidQuery(message: "A key path argument cannot be used in a '\(clause)' clause", at: path.range)
        }
        return SortKey(path: columns, dictionaryKey: dictionaryKey, ascending: ascending)
    }
}

enum Ordering {
    /// Applies the steps to rows of the queried class in their current order.
    static func apply(_ steps: [OrderingStep], to rows: [Int]) throws -> [Int] {
        var rows = rows
        for (s, step) in steps.enumerated() {
            if rows.isEmpty { return rows }
            switch step {
            case let .limit(n):
                if rows.count > n { rows.removeLast(rows.count - n) }
            case let .sort(keys):
                for k in keys { try k.validate() }
                // A LIMIT right after the SORT only needs the smallest `n` in order.
                var prefix: Int? = nil
                if s + 1 < steps.count, case let .limit(n) = steps[s + 1] { prefix = n }
                // First step: the rows are the matches in table order, which a bounded
                // selection can read leaf by leaf (BoundedSort.swift).
                let table = keys.first?.path.first?.table
                if s == 0, let n = prefix, n < rows.count / 4, let table,
                   let bounded = BoundedSort.make(table: table, keys: keys, limit: n) {
                    rows = try bounded.rows(rows)
                } else if let table, let sort = try ColumnSort.make(table: table, keys: keys, rows: rows) {
                    // Plain string and int keys: read in place into flat arrays (ColumnSort.swift).
                    rows = sort.sorted(rows, prefix: prefix)
                } else {
                    rows = try SortTable(rows, keys).sortedRows(prefix: prefix)
                }
            case let .distinct(keys):
                for k in keys { try k.validate() }
                rows = try SortTable(rows, keys).distinctRows()
            }
        }
        return rows
    }
}
