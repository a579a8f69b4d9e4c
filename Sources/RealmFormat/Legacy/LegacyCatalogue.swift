/// What `info` shows of a file of formats 2–9 — the tables the conversion makes, their object
/// counts, the schema version — read from the old structures without converting them
/// (legacy-formats.md §8.4): the Specs and column roots the group reads anyway, and one cell
/// of `metadata`. So `info` on an old file reads as little as on a new one.
public struct LegacyCatalogue: Sendable {
    public struct Entry: Sendable {
        /// The table name after the upgrade (the same as on disk: only `pk` goes).
        public let name: String
        public let objects: Int
    }

    /// In group order, without `pk` (and `!UPDATE_PROGRESS`, §9).
    public let tables: [Entry]
    /// `metadata.version` of the first row (−1: not versioned), nil without that table.
    public let schemaVersion: Int64?
}

extension LegacyGroup {
    /// nil when the conversion would add classes of its own (a subtable column of other than
    /// one column becomes embedded objects, §8.3): only converting names and counts them.
    public func catalogue() throws(FormatError) -> LegacyCatalogue? {
        let nested = tables.contains { t in
            t.spec.columns.contains { c in
                guard c.type == .table, let sub = c.subspec else { return false }
                return sub.columns.count != 1 || LegacyConversion.listElementType(sub.columns[0].type) == nil
            }
        }
        if nested { return nil }
        let entries = tables.filter { ![LegacyConversion.pkTableName, LegacyConversion.progressTableName].contains($0.name) }.map {
            LegacyCatalogue.Entry(name: $0.name, objects: $0.rowCount)
        }
        return LegacyCatalogue(tables: entries, schemaVersion: try schemaVersion())
    }

    /// `metadata.version` (object-store.md §2), from the old column or from the cluster a
    /// half-done upgrade moved it to (§9).
    func schemaVersion() throws(FormatError) -> Int64? {
        guard let meta = table(named: "metadata"), meta.rowCount > 0,
              let column = meta.spec.columns.first(where: { $0.name == "version" && $0.type == .int }) else { return nil }
        if let root = meta.root(of: column) {
            return try LegacyColumnReader(source: source, table: meta.name).ints(root, nullable: column.isNullable).first ?? nil
        }
        guard let upgraded = meta.upgraded else { return nil }
        let leafIndex = ColumnKey(value: meta.columnKeys[column.index]).leafIndex
        let values = try LegacyClusterRows(source: source, table: upgraded)
            .values(specIndex: column.index, leafIndex: leafIndex, count: meta.rowCount, default: .null)
        if case let .int(v)? = values.first { return v }
        return nil
    }
}
