import RealmFormat
import RealmObjects

/// Runs a migration script on a file: every `version N` block above the file's schema version,
/// in order, as the SDK would run one migration per version (object-store.md §10), all in
/// memory. Nothing is written here: the result holds the new file's bytes (a fresh file in
/// normal form, its version one above the input's, history dropped as by any realmsh commit)
/// or the problems that stop the migration.
public enum Migrator {
    public static func run(_ script: Script, on snapshot: Snapshot, problemLimit: Int = 50) throws -> MigrationResult {
        guard let top = snapshot.top else {
            throw MigrationFailure("nothing has been committed to it yet, so it has no schema to migrate")
        }
        guard snapshot.fileFormat == 24 else {
            throw MigrationFailure("it has file format \(snapshot.fileFormat); only format 24 is migrated (open it once with a current Realm SDK, or upgrade a copy)")
        }
        guard top.historyType == 0 || top.historyType == 2 else {
            throw MigrationFailure("it is a synced Realm (history type \(top.historyType)); its schema changes must go through sync")
        }
        var group = try ModelGroup(snapshot: snapshot)
        let fromVersion = group.schemaVersion
        let blocks = script.versions.filter { $0.number > (fromVersion ?? -1) }
        let problems = ProblemSink(limit: problemLimit)
        var reports = [StepReport]()
        var input = snapshot
        var inputIsCurrent = true
        var modified = Set<Int>()
        for block in blocks {
            if !inputIsCurrent && block.usesPredicates {
                // Queries read a file: lay the tables out as one (version numbers do not matter here).
                modified.formUnion(group.modified)
                input = try Snapshot(image: ByteImage(bytes: group.encode(version: top.version)))
                group = try ModelGroup(snapshot: input)
                inputIsCurrent = true
            }
            var runner = StepRunner(block: block, input: input, group: group, problems: problems)
            reports.append(try runner.run())
            group = runner.group
            inputIsCurrent = false
            if problems.count > 0 { break }
            group.setSchemaVersion(block.number)
        }
        var bytes: [UInt8]?
        if problems.count == 0 && !blocks.isEmpty {
            modified.formUnion(group.modified)
            for p in modified where group.tables.indices.contains(p) && group.tables[p] != nil {
                group.tables[p]!.contentVersion += 1
            }
            bytes = try group.encode(version: top.version + 1)
        }
        return MigrationResult(fromVersion: fromVersion, toVersion: problems.count == 0 ? (blocks.last?.number ?? fromVersion) : fromVersion,
                               steps: reports, problems: problems.items, problemCount: problems.count, bytes: bytes)
    }
}

extension VersionBlock {
    /// Whether a `where` predicate needs the file as the block starts.
    var usesPredicates: Bool {
        steps.contains { step in
            guard case let .modify(_, operations) = step else { return false }
            return operations.contains { op in
                switch op {
                case .delete: return true
                case let .set(_, _, filter): return filter != nil
                default: return false
                }
            }
        }
    }
}

extension ModelGroup {
    /// The schema version in the `metadata` table (§17.2); nil when there is none or it is
    /// "not versioned" (−1).
    var schemaVersion: Int64? {
        guard let m = tables.compactMap({ $0 }).first(where: { $0.name == "metadata" }), let c = m.columnIndex(named: "version"),
              m.objectCount > 0, case let .int(v) = m.values[c][0], v >= 0 else { return nil }
        return v
    }

    /// Writes the schema version, creating the `metadata` table and its object as the object
    /// store does (`create_metadata_tables`) when the file has none.
    mutating func setSchemaVersion(_ version: Int64) {
        var position = tables.firstIndex { $0?.name == "metadata" }
        if position == nil {
            let p = tables.indices.first { tables[$0] == nil } ?? tables.count
            if p == tables.count { tables.append(nil) }
            let tag = removedTags.removeValue(forKey: p) ?? 0
            tables[p] = TableModel(name: "metadata", key: TableKey(value: tag << 16 | UInt32(p)), kind: .topLevel, columns: [], primaryKey: nil)
            position = p
        }
        let p = position!
        if tables[p]!.columnIndex(named: "version") == nil {
            let key = nextColumnKey(p, type: .int, attributes: [])
            tables[p]!.columns.append(TableModel.ColumnModel(name: "version", type: .int, attributes: [], key: key, specType: 0,
                                                             specAttributes: 0, targetTable: nil, oppositeColumn: nil, isIndexed: false))
            tables[p]!.values.append([Value](repeating: .int(-1), count: tables[p]!.objectCount))
        }
        if tables[p]!.objectCount == 0 {
            let key = tables[p]!.nextObjectKey()
            tables[p]!.insertObject(key: key, values: tables[p]!.columns.map { $0.name == "version" ? .int(-1) : TableModel.defaultValue(for: $0) })
        }
        let c = tables[p]!.columnIndex(named: "version")!
        if tables[p]!.values[c][0] != .int(version) {
            tables[p]!.values[c][0] = .int(version)
            modified.insert(p)
        }
    }
}
