import RealmFormat
import RealmObjects

extension ModelGroup {
    /// Deletes objects as Realm does (object-store.md §6): links to them in every table are
    /// repaired (to-one links and dictionary values nulled, list and set entries removed, Mixed
    /// values nulled or removed), embedded objects they own are deleted with them. Returns the
    /// (table, column) pairs whose links changed, for the backlink rebuild.
    @discardableResult
    mutating func deleteObjects(_ position: Int, keys: Set<Int64>) -> Set<LinkColumn> {
        guard var table = tables[position] else { return [] }
        let doomed = keys.filter { table.row(of: $0) != nil }
        guard !doomed.isEmpty else { return [] }
        var touched = Set<LinkColumn>()
        // Embedded objects owned by the deleted ones go too, after them.
        var cascades = [(Int, Set<Int64>)]()
        let rows = table.objectKeys.indices.filter { doomed.contains(table.objectKeys[$0]) }
        for (c, column) in table.columns.enumerated() where column.type == .link && !column.isBacklink {
            guard let t = column.targetTable.flatMap({ self.position(of: $0) }), tables[t]?.kind == .embedded else { continue }
            let owned = Set(rows.flatMap { LinkRepair.linkedKeys(table.values[c][$0]) })
            if !owned.isEmpty { cascades.append((t, owned)) }
        }
        let keep = table.objectKeys.indices.filter { !doomed.contains(table.objectKeys[$0]) }
        table.objectKeys = keep.map { table.objectKeys[$0] }
        for c in table.columns.indices { table.values[c] = keep.map { table.values[c][$0] } }
        tables[position] = table
        modified.insert(position)
        changedObjects.insert(position)
        touched.formUnion(repairLinks(to: position, keys: Set(doomed)))
        for (t, owned) in cascades { touched.formUnion(deleteObjects(t, keys: owned)) }
        return touched
    }

    /// Repairs every link to the given objects of the table at `position` (which are gone).
    mutating func repairLinks(to position: Int, keys: Set<Int64>) -> Set<LinkColumn> {
        guard let targetKey = tables[position]?.key else { return [] }
        var touched = Set<LinkColumn>()
        for p in tables.indices {
            guard let origin = tables[p] else { continue }
            for (c, column) in origin.columns.enumerated() where !column.isBacklink {
                let mayLink = (column.type == .link && column.targetTable == targetKey) || column.type == .mixed || column.type == .typedLink
                guard mayLink else { continue }
                var values = origin.values[c]
                var changed = false
                for row in values.indices {
                    let before = values[row]
                    guard Self.holdsLink(before) else { continue }
                    let after = LinkRepair.removingLinks(to: targetKey, keys: keys, in: before, columnType: column.type)
                    if after != before {
                        values[row] = after
                        changed = true
                    }
                }
                if changed {
                    tables[p]!.values[c] = values
                    modified.insert(p)
                    touched.insert(LinkColumn(table: p, column: column.key))
                    changedColumns.insert(LinkColumn(table: p, column: column.key))
                }
            }
        }
        return touched
    }

    static func holdsLink(_ v: Value) -> Bool {
        switch v {
        case .link, .typedLink: return true
        case let .list(elements): return elements.contains(where: holdsLink)
        case let .dictionary(entries): return entries.contains { holdsLink($0.value) }
        default: return false
        }
    }

    /// Links in the column to objects that do not exist (deleted in this block while an
    /// expression still copied them) become null or leave their collection.
    mutating func dropDanglingLinks(_ link: LinkColumn) {
        guard let m = tables[link.table], let c = m.columnIndex(key: link.column), let tk = m.columns[c].targetTable,
              let t = position(of: tk), let target = tables[t] else { return }
        var missing = Set<Int64>()
        for v in m.values[c] { for k in LinkRepair.linkedKeys(v) where target.row(of: k) == nil { missing.insert(k) } }
        guard !missing.isEmpty else { return }
        tables[link.table]!.values[c] = m.values[c].map { LinkRepair.removingLinks(to: tk, keys: missing, in: $0, columnType: .link) }
        changedColumns.insert(link)
    }

    /// Rebuilds the backlink columns (§10.6) fed by the given origin columns, or standing in
    /// (or pointing at) tables whose objects changed: one entry per link occurrence, in origin
    /// key order.
    mutating func rebuildBacklinks(origins: Set<LinkColumn>, tablesWithChangedObjects: Set<Int>) {
        for t in tables.indices {
            guard let target = tables[t] else { continue }
            for (b, column) in target.columns.enumerated() where column.isBacklink {
                guard let ok = column.targetTable, let o = position(of: ok), let oc = column.oppositeColumn else { continue }
                guard origins.contains(LinkColumn(table: o, column: oc)) || tablesWithChangedObjects.contains(t)
                        || tablesWithChangedObjects.contains(o) else { continue }
                guard let origin = tables[o], let c = origin.columnIndex(key: oc) else { continue }
                let rebuilt = LinkRepair.backlinks(of: target, from: origin, column: c)
                if rebuilt != tables[t]!.values[b] {
                    tables[t]!.values[b] = rebuilt
                    modified.insert(t)
                }
            }
        }
    }

    /// Embedded objects that no link owns any more (their owner's link property was removed or
    /// overwritten): Realm deletes an embedded object that loses its owner (object-store.md §5).
    func orphans() -> [(Int, Set<Int64>)] {
        var out = [(Int, Set<Int64>)]()
        for t in tables.indices {
            guard let m = tables[t], m.kind == .embedded, m.objectCount > 0 else { continue }
            var owned = Set<Int64>()
            for p in tables.indices {
                guard let origin = tables[p] else { continue }
                for (c, column) in origin.columns.enumerated() where column.type == .link && !column.isBacklink && column.targetTable == m.key {
                    for v in origin.values[c] { owned.formUnion(LinkRepair.linkedKeys(v)) }
                }
            }
            let lost = Set(m.objectKeys.filter { !owned.contains($0) })
            if !lost.isEmpty { out.append((t, lost)) }
        }
        return out
    }
}

/// A column of links, by table position and column key.
struct LinkColumn: Hashable {
    let table: Int
    let column: ColumnKey
}
