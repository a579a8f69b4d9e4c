import RealmFormat

extension RealmWriter {
    /// Rebuilds the backlink columns (realm-format.md §10.6) that a changed table touches: one
    /// entry per link occurrence, for every (origin table, origin column) pair, in the target.
    func refreshBacklinks() throws(FormatError) {
        // Targets of changed origins must be loaded to be rebuilt.
        for position in modified {
            guard let m = boxes[position]?.model else { continue }
            for column in m.columns where column.type == .link && !column.isBacklink {
                if let t = column.targetTable { _ = try model(try self.position(of: t)) }
            }
        }
        for target in boxes.keys.sorted() {
            let u = boxes[target]!.model
            for (b, column) in u.columns.enumerated() where column.isBacklink {
                guard let originKey = column.targetTable, let originColumn = column.oppositeColumn else { continue }
                let originPosition = try position(of: originKey)
                guard modified.contains(target) || modified.contains(originPosition) else { continue }
                let origin = try model(originPosition)
                guard let c = origin.columnIndex(key: originColumn) else { continue }
                let rebuilt = LinkRepair.backlinks(of: u, from: origin, column: c)
                if rebuilt != boxes[target]!.model.values[b] {
                    boxes[target]!.model.values[b] = rebuilt
                    modified.insert(target)
                }
            }
        }
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
