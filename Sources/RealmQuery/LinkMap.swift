import RealmFormat

/// One step of a key path through links (realm-core's `ExtendedColumnKey` in a `LinkMap`): a
/// link, list/set/dictionary of links, or backlink column, optionally with an index or key.
struct LinkStep {
    let column: Column
    let from: TableData
    let to: TableData
    /// `friends[0]`, `friends[LAST]` (`UInt64.max`), `links['k']`, or nil for all elements.
    var index: PathElement?

    var isBacklink: Bool { column.type == .backlink }
    var isCollection: Bool { column.collection != nil }
    var isUnary: Bool { !isBacklink && !isCollection }
}

/// A chain of link steps from a base table (query-language.md §3): maps an object of the base
/// table to the keys of the objects reached (duplicates kept, null and unresolved links
/// skipped).
struct LinkMap {
    /// Held for typed links in Mixed values, which name their table only when read.
    let store: ObjectStore
    let base: TableData
    var steps: [LinkStep] = []

    var target: TableData { steps.last?.to ?? base }
    var hasLinks: Bool { !steps.isEmpty }
    /// Only to-one links: the path yields at most one object (a missing one reads as null).
    var onlyUnaryLinks: Bool { steps.allSatisfy(\.isUnary) }
    var hasIndexes: Bool { steps.contains { $0.index != nil } }

    func dropLast() -> LinkMap { LinkMap(store: store, base: base, steps: Array(steps.dropLast())) }

    /// The keys of the target objects reached from `row` of the base table.
    func links(row: Int) throws -> [Int64] {
        guard let first = steps.first else { return [] }
        var out = [Int64]()
        for key in try keys(first, row: row) { try follow(1, key, &out) }
        return out
    }

    /// Number of objects reached (`count_links`).
    func count(row: Int) throws -> Int { try links(row: row).count }

    private func follow(_ step: Int, _ key: Int64, _ out: inout [Int64]) throws {
        if key < 0 { return }       // null or unresolved
        if step == steps.count {
            out.append(key)
            return
        }
        let s = steps[step]
        guard let row = try s.from.row(of: key) else { return }
        for k in try keys(s, row: row) { try follow(step + 1, k, &out) }
    }

    /// The keys one step yields for one object of its source table.
    private func keys(_ s: LinkStep, row: Int) throws -> [Int64] {
        if s.isBacklink {
            let cells = try s.from.backlinks(s.column)
            return row < cells.count ? cells[row] : []
        }
        let value = try s.from.value(s.column, row: row)
        switch value {
        case let .link(k):
            return [k]
        case let .list(elements):
            var keys = elements.compactMap { e -> Int64? in if case let .link(k) = e { return k } else { return nil } }
            if case let .index(i)? = s.index {
                guard !keys.isEmpty else { return [] }
                let n = i == UInt64.max ? keys.count - 1 : Int(clamping: i)
                keys = n < keys.count ? [keys[n]] : []
            }
            return keys
        case let .dictionary(entries):
            var chosen = entries
            if case let .key(k, _)? = s.index {
                chosen = entries.first { $0.key == .string(k) }.map { [$0] } ?? []
            }
            return chosen.compactMap { e -> Int64? in
                switch e.value {
                case let .typedLink(_, k): return k
                case let .link(k): return k
                default: return nil
                }
            }
        default:
            return []
        }
    }

    /// The path as realm-core describes it in messages (`dogs`, `friends.dogs`).
    var description: String {
        steps.map { s -> String in
            if s.isBacklink {
                let origin = s.to
                let name = s.column.oppositeColumn.flatMap { origin.table.column(key: $0) }?.name ?? "?"
                return "@links.\(origin.className).\(name)"
            }
            return s.column.name
        }.joined(separator: ".")
    }
}
