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
        var seen = Set<Int64>()
        let doomed = keys.filter { editor.contains($0) && seen.insert($0).inserted }
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
        for key in doomed {
            // Origins that link here, found through this object's backlinks.
            for b in backlinkColumns {
                let column = editor.columns[b]
                guard let originTable = column.targetTable, let originColumn = column.oppositeColumn,
                      editor.contains(key), case let .list(entries) = try editor.value(key, column: b) else { continue }
                let origin = try self.editor(for: originTable)
                guard let oc = origin.columnIndex(key: originColumn) else { continue }
                var repaired = Set<Int64>()
                for case let .link(originKey) in entries where repaired.insert(originKey).inserted && origin.contains(originKey) {
                    let before = try origin.value(originKey, column: oc)
                    let after = LinkRepair.removingLinks(to: editor.key, keys: [key], in: before, columnType: origin.columns[oc].type)
                    guard after != before else { continue }
                    try origin.set(originKey, column: oc, after)
                    try linksChanged(in: origin, column: oc, key: originKey, from: before, to: after)
                }
            }
            // The backlinks this object's own links made.
            for l in linkColumns {
                let value = try editor.value(key, column: l)
                let empty = TableModel.defaultValue(for: editor.columns[l])
                if value != empty { try linksChanged(in: editor, column: l, key: key, from: value, to: empty) }
            }
        }
        try editor.remove(doomed)
        if countAsDeleted { summary.deleted += doomed.count }
        for (name, owned) in cascades { try delete(className: name, keys: owned, countAsDeleted: false) }
    }
}
