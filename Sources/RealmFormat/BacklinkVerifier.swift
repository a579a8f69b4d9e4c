/// Checks links against backlinks in both directions (realm-format.md §10.6, §18.1): for
/// every backlink column, each target object lists exactly the origin objects that link to
/// it, once per link occurrence (order is free: Realm appends and swap-removes); every link
/// points at an existing object of a table that has the matching backlink column.
public enum BacklinkVerifier {
    /// Problems listed per backlink column before the rest are summarized.
    static let maxProblemsPerColumn = 5

    public static func verify(_ snapshot: Snapshot) throws(FormatError) -> [VerificationProblem] {
        var problems = [VerificationProblem]()
        let tables = snapshot.tables
        var keysOf = [TableKey: Set<Int64>]()
        func keys(_ table: Table) throws(FormatError) -> Set<Int64> {
            if let k = keysOf[table.key] { return k }
            var out = Set<Int64>()
            if let root = table.clusterRef {
                try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
                    for r in 0..<leaf.count { out.insert(leaf.objectKey(r)) }
                }
            }
            keysOf[table.key] = out
            return out
        }
        // What the links say: per (target table, origin table, origin column), target → origins.
        struct Side: Hashable { let target: TableKey, origin: TableKey, column: ColumnKey }
        var expected = [Side: [Int64: [Int64]]]()
        for origin in tables {
            for column in origin.columns where !column.isBacklink && (column.type == .link || column.type == .mixed || column.type == .typedLink) {
                let plainTarget = column.type == .link ? column.targetTable : nil
                try forEachValue(snapshot, origin, column) { originKey, value throws(FormatError) in
                    for (table, key) in linkOccurrences(in: value, plainTarget: plainTarget) {
                        expected[Side(target: table, origin: origin.key, column: column.key), default: [:]][key, default: []].append(originKey)
                    }
                }
            }
        }
        var checked = Set<Side>()
        for target in tables {
            for column in target.columns where column.isBacklink {
                guard let originKey = column.targetTable, let originColumn = column.oppositeColumn else { continue }
                let side = Side(target: target.key, origin: originKey, column: originColumn)
                checked.insert(side)
                let originName = snapshot.table(key: originKey)?.name ?? "table \(originKey.value)"
                var want = expected[side] ?? [:]
                var reported = 0
                try forEachValue(snapshot, target, column) { key, value throws(FormatError) in
                    guard case let .list(entries) = value else { return }
                    let have = entries.compactMap { e -> Int64? in if case let .link(k) = e { return k } else { return nil } }.sorted()
                    let should = (want.removeValue(forKey: key) ?? []).sorted()
                    if have != should && reported < maxProblemsPerColumn {
                        reported += 1
                        problems.append(VerificationProblem(offset: target.ref, message:
                            "table '\(target.name)' object \(key): backlinks from \(originName) are \(have), but the links say \(should)"))
                    }
                }
                for (key, origins) in want.sorted(by: { $0.key < $1.key }).prefix(maxProblemsPerColumn) {
                    let exists = try keys(target).contains(key)
                    problems.append(VerificationProblem(offset: target.ref, message: exists
                        ? "table '\(target.name)' object \(key): \(originName) objects \(origins.sorted()) link to it without a backlink"
                        : "\(originName) objects \(origins.sorted()) link to \(target.name) object \(key), which does not exist"))
                }
            }
        }
        for side in expected.keys where !checked.contains(side) {
            let origin = snapshot.table(key: side.origin)?.name ?? "table \(side.origin.value)"
            let target = snapshot.table(key: side.target)?.name ?? "table \(side.target.value)"
            problems.append(VerificationProblem(offset: 0, message: "\(origin) links to \(target), which has no backlink column for them"))
        }
        return problems
    }

    private static func forEachValue(_ snapshot: Snapshot, _ table: Table, _ column: Column,
                                     _ body: (Int64, Value) throws(FormatError) -> Void) throws(FormatError) {
        guard let root = table.clusterRef else { return }
        try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
            guard let ref = leaf.columnRef(column.leafIndex) else {
                throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': cluster leaf has no data for a link column")
            }
            let values = try snapshot.decodeColumn(ref, column: column, of: table)
            guard values.count == leaf.count else {
                throw .corrupt(offset: ref, reason: "table '\(table.name)': column holds \(values.count) values for \(leaf.count) objects")
            }
            for r in 0..<leaf.count { try body(leaf.objectKey(r), values[r]) }
        }
    }

    /// Every (table, ObjKey) a value links to, once per occurrence; bare links go to
    /// `plainTarget`. Unresolved links (negative keys, §10.5) have no backlinks.
    public static func linkOccurrences(in value: Value, plainTarget: TableKey?) -> [(TableKey, Int64)] {
        switch value {
        case let .link(k): return plainTarget.map { k >= 0 ? [($0, k)] : [] } ?? []
        case let .typedLink(t, k): return k >= 0 ? [(t, k)] : []
        case let .list(elements): return elements.flatMap { linkOccurrences(in: $0, plainTarget: plainTarget) }
        case let .dictionary(entries): return entries.flatMap { linkOccurrences(in: $0.value, plainTarget: plainTarget) }
        default: return []
        }
    }
}
