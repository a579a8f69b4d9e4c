import RealmFormat

extension RealmWriter {
    /// Keeps the targets' backlink columns (realm-format.md §10.6, §13.10) in step with a
    /// change of a link-bearing cell of `origin`: one backlink entry per link occurrence, in
    /// the target's backlink column for (origin table, origin column). Removing an entry moves
    /// the last one into its place, as Realm does.
    func linksChanged(in origin: TableEditor, column c: Int, key: Int64, from old: Value, to new: Value) throws(FormatError) {
        let column = origin.columns[c]
        guard !column.isBacklink, column.type == .link || column.type == .mixed || column.type == .typedLink else { return }
        let plainTarget = column.type == .link ? column.targetTable : nil
        // Occurrences on both sides stay as they are: a multiset difference, pairwise for a
        // few links, through counts for long lists (linear, not quadratic, in their length).
        var removed = Self.linkOccurrences(in: old, plainTarget: plainTarget)
        var added = Self.linkOccurrences(in: new, plainTarget: plainTarget)
        if removed.count + added.count <= 16 {
            var i = 0
            while i < removed.count {
                if let j = added.firstIndex(where: { $0 == removed[i] }) {
                    added.remove(at: j)
                    removed.remove(at: i)
                } else {
                    i += 1
                }
            }
        } else {
            var balance: [LinkTarget: Int] = [:]
            for (t, k) in removed { balance[LinkTarget(table: t, key: k), default: 0] -= 1 }
            for (t, k) in added { balance[LinkTarget(table: t, key: k), default: 0] += 1 }
            removed = []
            added = []
            for (target, n) in balance.sorted(by: { ($0.key.table.value, $0.key.key) < ($1.key.table.value, $1.key.key) }) where n != 0 {
                for _ in 0..<abs(n) { if n < 0 { removed.append((target.table, target.key)) } else { added.append((target.table, target.key)) } }
            }
        }
        for (table, target) in removed { try changeBacklink(of: target, in: table, origin: origin, column: column, originKey: key, add: false) }
        for (table, target) in added { try changeBacklink(of: target, in: table, origin: origin, column: column, originKey: key, add: true) }
    }

    private func changeBacklink(of target: Int64, in tableKey: TableKey, origin: TableEditor, column: TableModel.ColumnModel,
                                originKey: Int64, add: Bool) throws(FormatError) {
        let editor = try editor(for: tableKey)
        // The first link from a Mixed column into a table makes its backlink column (§10.6).
        guard let b = try backlinkColumn(in: editor, origin: origin, column: column, create: add) else {
            throw .cannotWrite(reason: "table '\(editor.name)' has no backlink column for \(origin.name).\(column.name)")
        }
        guard editor.contains(target) else {
            if add { throw .cannotWrite(reason: "\(origin.name).\(column.name) links to a missing \(editor.name) object \(target)") }
            return
        }
        guard case var .list(entries) = try editor.value(target, column: b) else {
            throw .corrupt(offset: 0, reason: "table '\(editor.name)': backlink cell of object \(target) is not a list")
        }
        if add {
            entries.append(.link(originKey))
        } else if let i = entries.firstIndex(of: .link(originKey)) {
            entries[i] = entries[entries.count - 1]
            entries.removeLast()
        }
        try editor.set(target, column: b, .list(entries))
    }

    static func linkOccurrences(in value: Value, plainTarget: TableKey?) -> [(TableKey, Int64)] {
        BacklinkVerifier.linkOccurrences(in: value, plainTarget: plainTarget)
    }

    /// The keys of objects of table `table` that `value` links to, once per occurrence.
    static func links(in value: Value, to table: TableKey, plainLinks: Bool) -> [Int64] {
        switch value {
        case let .link(k): return plainLinks && k >= 0 ? [k] : []
        case let .typedLink(t, k): return (plainLinks || t == table) && k >= 0 ? [k] : []
        case let .list(elements): return elements.flatMap { links(in: $0, to: table, plainLinks: plainLinks) }
        case let .dictionary(entries): return entries.flatMap { links(in: $0.value, to: table, plainLinks: plainLinks) }
        default: return []
        }
    }
}

/// One object a link points at.
struct LinkTarget: Hashable {
    let table: TableKey
    let key: Int64
}
