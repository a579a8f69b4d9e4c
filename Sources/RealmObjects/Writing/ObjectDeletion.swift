import RealmFormat

extension RealmWriter {
    /// Deletes objects as Realm does (object-store.md §6, realm-format.md §13.10): every link
    /// to them is repaired through their backlinks (to-one links and dictionary values nulled,
    /// list and set entries removed, Mixed values nulled or removed), the backlinks their own
    /// links made are removed, their index entries go, and embedded objects they own are
    /// deleted with them. Keys that do not exist are skipped.
    public func delete(className: String, keys: [Int64], countAsDeleted: Bool = true) throws {
        guard let c = file.objectClass(named: className) else { throw InputError(className: className, "no such class") }
        let editor = try self.editor(c.table.position)
        let doomed = editor.presentKeys(keys)
        guard !doomed.isEmpty else { return }

        // Embedded objects owned through strong links go too, after their owner.
        var cascades: [(String, [Int64])] = []
        for p in c.properties where p.type == "object" {
            guard let t = p.column.targetTable, let target = file.objectClass(for: t), target.isEmbedded,
                  let column = editor.columnIndex(key: p.column.key) else { continue }
            var owned: [Int64] = []
            for key in doomed { owned += linkedKeys(try editor.value(key, column: column)) }
            if !owned.isEmpty { cascades.append((target.name, owned)) }
        }

        let backlinkColumns = editor.columns.indices.filter { editor.columns[$0].isBacklink }
        let linkColumns = editor.columns.indices.filter {
            let column = editor.columns[$0]
            return !column.isBacklink && (column.type == .link || column.type == .mixed || column.type == .typedLink)
        }
        // Origins that link here, found through the doomed objects' backlinks; each origin
        // cell is repaired once for all the doomed objects it links to (deleting the items of
        // a long list rewrites the list once, not once per item).
        var doomedTargets: [OriginCell: Set<Int64>] = [:]
        var origins: [OriginCell] = []
        for key in doomed {
            for b in backlinkColumns {
                let column = editor.columns[b]
                guard let originTable = column.targetTable, let originColumn = column.oppositeColumn,
                      case let .list(entries) = try editor.value(key, column: b) else { continue }
                for case let .link(originKey) in entries {
                    let cell = OriginCell(table: originTable, column: originColumn, key: originKey)
                    if doomedTargets[cell] == nil { origins.append(cell) }
                    doomedTargets[cell, default: []].insert(key)
                }
            }
        }
        for cell in origins {
            let origin = try self.editor(for: cell.table)
            guard let oc = origin.columnIndex(key: cell.column), origin.contains(cell.key) else { continue }
            let before = try origin.value(cell.key, column: oc)
            let after = LinkRepair.removingLinks(to: editor.key, keys: doomedTargets[cell] ?? [], in: before,
                                                 columnType: origin.columns[oc].type)
            guard after != before else { continue }
            try origin.set(cell.key, column: oc, after)
            try linksChanged(in: origin, column: oc, key: cell.key, from: before, to: after)
        }
        // The backlinks the doomed objects' own links made, removed target by target (many
        // objects linking to one popular target rewrite its backlink list once).
        var removals: [BacklinkCell: [Int64: Int]] = [:]
        var targets: [BacklinkCell] = []
        for l in linkColumns {
            let column = editor.columns[l]
            let plainTarget = column.type == .link ? column.targetTable : nil
            for key in doomed {
                for (table, target) in Self.linkOccurrences(in: try editor.value(key, column: l), plainTarget: plainTarget) {
                    let cell = BacklinkCell(table: table, key: target, originColumn: column.key)
                    if removals[cell] == nil { targets.append(cell) }
                    removals[cell, default: [:]][key, default: 0] += 1
                }
            }
        }
        for cell in targets {
            let target = try self.editor(for: cell.table)
            guard let b = target.columns.firstIndex(where: { $0.isBacklink && $0.targetTable == editor.key && $0.oppositeColumn == cell.originColumn }) else {
                throw FormatError.cannotWrite(reason: "table '\(target.name)' has no backlink column for \(editor.name) links")
            }
            guard target.contains(cell.key), case let .list(entries) = try target.value(cell.key, column: b) else { continue }
            var remaining = removals[cell] ?? [:]
            let kept = entries.filter { entry in
                guard case let .link(origin) = entry, let n = remaining[origin], n > 0 else { return true }
                remaining[origin] = n - 1
                return false
            }
            try target.set(cell.key, column: b, .list(kept))
        }
        try editor.remove(doomed)
        if countAsDeleted { summary.deleted += doomed.count }
        for (name, owned) in cascades { try delete(className: name, keys: owned, countAsDeleted: false) }
    }
}

/// One link-bearing cell of an origin object: table, column, object.
struct OriginCell: Hashable {
    let table: TableKey
    let column: ColumnKey
    let key: Int64
}

/// The backlink cell of one target object for one origin link column.
struct BacklinkCell: Hashable {
    let table: TableKey
    let key: Int64
    let originColumn: ColumnKey
}
