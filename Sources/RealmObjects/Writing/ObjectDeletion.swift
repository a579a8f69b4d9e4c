import RealmFormat

extension RealmWriter {
    /// Deletes objects as Realm does (object-store.md §6): every link to them is repaired
    /// (to-one links and dictionary values nulled, list and set entries removed, Mixed values
    /// nulled or removed), embedded objects they own are deleted with them, and their values
    /// leave every index (indexes are rebuilt with the table). Keys that do not exist are skipped.
    public func delete(className: String, keys: [Int64], countAsDeleted: Bool = true) throws {
        guard let c = file.objectClass(named: className) else { throw InputError(className: className, "no such class") }
        let position = c.table.position
        let m = try model(position)
        let doomed = Set(keys.filter { m.row(of: $0) != nil })
        guard !doomed.isEmpty else { return }

        // Embedded objects owned through strong links go too, after their owner.
        var cascades: [(String, [Int64])] = []
        for p in c.properties where p.type == "object" {
            guard let t = p.column.targetTable, let target = file.objectClass(for: t), target.isEmbedded,
                  let column = m.columnIndex(key: p.column.key) else { continue }
            let owned = m.objectKeys.indices.filter { doomed.contains(m.objectKeys[$0]) }.flatMap { linkedKeys(m.values[column][$0]) }
            if !owned.isEmpty { cascades.append((target.name, owned)) }
        }

        // Repair every origin that can link here: link columns naming this table, and the
        // Mixed / typed-link columns this table already has backlink columns for.
        var origins: [(Int, ColumnKey)] = []
        for t in file.snapshot.tables {
            for column in t.columns where column.type == .link && column.targetTable == c.table.key {
                origins.append((t.position, column.key))
            }
        }
        for b in c.table.backlinkColumns {
            guard let o = b.targetTable, let oc = b.oppositeColumn, let ot = file.snapshot.table(key: o),
                  let column = ot.column(key: oc), column.type != .link else { continue }
            origins.append((ot.position, oc))
        }
        for (originPosition, columnKey) in origins {
            var origin = try model(originPosition)
            guard let column = origin.columnIndex(key: columnKey) else { continue }
            var changed = false
            for row in 0..<origin.objectCount {
                let before = origin.values[column][row]
                let after = removingLinks(to: c.table.key, keys: doomed, in: before, columnType: origin.columns[column].type)
                if after != before {
                    origin.values[column][row] = after
                    changed = true
                }
            }
            if changed {
                boxes[originPosition]!.model = origin
                modified.insert(originPosition)
            }
        }

        var table = try model(position)
        let keep = table.objectKeys.indices.filter { !doomed.contains(table.objectKeys[$0]) }
        table.objectKeys = keep.map { table.objectKeys[$0] }
        for col in 0..<table.columns.count { table.values[col] = keep.map { table.values[col][$0] } }
        boxes[position]!.model = table
        modified.insert(position)
        primaryKeys[position] = nil
        if countAsDeleted { summary.deleted += doomed.count }
        for (name, owned) in cascades { try delete(className: name, keys: owned, countAsDeleted: false) }
    }

    /// `value` with links to `keys` of `table` repaired per object-store.md §6.
    func removingLinks(to table: TableKey, keys: Set<Int64>, in value: Value, columnType: ColumnType) -> Value {
        LinkRepair.removingLinks(to: table, keys: keys, in: value, columnType: columnType)
    }
}
