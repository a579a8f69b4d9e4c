/// Checks a general search index against the column it indexes (realm-format.md §12,
/// §18.1 item 5, §18.2 "Indexes"): the tree is well formed, every object is stored under the
/// key chain of its value exactly once, and nothing else is in it. realm-core's own
/// `Group::verify` never looks at indexes, and Realm trusts them blindly (§12.6), so this is
/// the only line of defence against a stale index.
public enum SearchIndexVerifier {
    /// The value of every object of `table` in `column` (a plain, non-collection column), in
    /// ObjKey order.
    public static func columnValues(snapshot: Snapshot, table: Table,
                                    column: Column) throws(FormatError) -> [(objKey: Int64, value: Value)] {
        var out = [(objKey: Int64, value: Value)]()
        guard let root = table.clusterRef else { return out }
        try ClusterTree(snapshot: snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
            guard let ref = leaf.columnRef(column.leafIndex) else {
                throw .corrupt(offset: leaf.node.ref, reason: "cluster leaf has no data for column '\(column.name)'")
            }
            let values = try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                                                 enumValues: table.enumValuesRef(for: column))
            guard values.count == leaf.count else {
                throw .corrupt(offset: ref, reason: "column '\(column.name)' holds \(values.count) values for \(leaf.count) objects")
            }
            for row in 0..<leaf.count { out.append((leaf.objectKey(row), values[row])) }
        }
        return out
    }

    /// Whether `Verifier` checks the index of `column`: a general index on a plain column whose
    /// type has index bytes (§12.3). List<String> and full-text indexes store whole words
    /// (§12.5) and are not checked here.
    public static func isCheckable(_ column: Column) -> Bool {
        column.hasSearchIndex && column.collection == nil && !column.isBacklink && IndexKey.isIndexable(column.type)
    }

    /// The problems of the index at `rootRef` for a column of `columnType` holding `values`.
    /// `requireValueOrder`: duplicate lists must be sorted by value (what a format-24 writer
    /// produces; files upgraded from format ≤ 23 may hold lists in the old string order, so
    /// by default only the ObjKey order among equal values is checked). `maxNodeSize`: 1000,
    /// or the smaller node size of a test build.
    public static func verify(snapshot: Snapshot, rootRef: Int, columnType: ColumnType,
                              values: [(objKey: Int64, value: Value)], what: String = "search index",
                              requireValueOrder: Bool = false, maxNodeSize: Int = 1000) -> [VerificationProblem] {
        var problems = [VerificationProblem]()
        func problem(_ offset: Int, _ message: String) {
            if problems.count < 100 { problems.append(VerificationProblem(offset: offset, message: "\(what): \(message)")) }
        }
        var entries = [SearchIndexEntry]()
        do throws(FormatError) {
            try SearchIndexReader(snapshot: snapshot, rootRef: rootRef)
                .walk(maxNodeSize: maxNodeSize, entry: { entries.append($0) }, irregularity: problem)
        } catch {
            switch error {
            case let .corrupt(offset, reason): problem(offset, reason)
            default: problem(rootRef, error.message)
            }
            return problems
        }

        var valueOf = [Int64: Value](minimumCapacity: values.count)
        for (key, value) in values { valueOf[key] = value }
        var seen = Set<Int64>(minimumCapacity: values.count)
        var lists = [Int: [(position: Int, objKey: Int64)]]()
        for entry in entries {
            guard let value = valueOf[entry.objKey] else {
                problem(rootRef, "holds ObjKey \(entry.objKey), which is not an object of the column")
                continue
            }
            if !seen.insert(entry.objKey).inserted {
                problem(rootRef, "holds ObjKey \(entry.objKey) more than once")
                continue
            }
            // Only a bare Link in a Mixed has no documented index bytes (§12.3, §19 item 8):
            // its place in the index cannot be checked.
            guard let data = IndexKey.bytes(of: value, columnType: columnType) else { continue }
            let expected = IndexKey.keyChain(data, levels: entry.keys.count)
            if expected != entry.keys {
                problem(rootRef, "ObjKey \(entry.objKey) is stored under keys \(hexKeys(entry.keys)), "
                        + "but its value \(describe(value)) has keys \(hexKeys(expected))")
            }
            if case let .list(ref, position) = entry.kind { lists[ref, default: []].append((position, entry.objKey)) }
        }
        for (key, value) in values where !seen.contains(key) {
            problem(rootRef, "object \(key) (value \(describe(value))) is missing")
        }
        for (ref, members) in lists.sorted(by: { $0.key < $1.key }) {
            let ordered = members.sorted { $0.position < $1.position }
            for p in ordered.indices.dropFirst() {
                let a = ordered[p - 1].objKey, b = ordered[p].objKey
                guard let va = valueOf[a], let vb = valueOf[b] else { continue }
                let c = ValueOrder.compare(va, vb)
                if c == 0 && a >= b {
                    problem(ref, "duplicate list holds ObjKey \(b) after \(a) for equal values (must ascend)")
                } else if c > 0 && requireValueOrder {
                    problem(ref, "duplicate list is not sorted by value at position \(p)")
                }
            }
        }
        return problems
    }

    /// The problems of every checkable index of `table` (see `isCheckable`).
    static func verifyIndexes(of table: Table, snapshot: Snapshot) -> [VerificationProblem] {
        var problems = [VerificationProblem]()
        for column in table.columns where isCheckable(column) {
            guard let root = column.searchIndexRef else { continue }
            let what = "table '\(table.name)' column '\(column.name)' search index"
            do throws(FormatError) {
                let values = try columnValues(snapshot: snapshot, table: table, column: column)
                problems += verify(snapshot: snapshot, rootRef: root, columnType: column.type, values: values, what: what)
            } catch {
                // The column itself is unreadable: the cluster checks report why.
                continue
            }
        }
        return problems
    }

    static func hexKeys(_ keys: [Int32]) -> String {
        "[" + keys.map { String(UInt32(bitPattern: $0), radix: 16) }.joined(separator: " ") + "]"
    }

    static func describe(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case let .int(i): return String(i)
        case let .bool(b): return String(b)
        case let .string(s):
            // Control characters as \u{…}, so that a message stays one readable line.
            let text = String(decoding: s.prefix(40), as: UTF8.self).unicodeScalars
                .map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
                .joined()
            return "\"\(text)\"" + (s.count > 40 ? "… (\(s.count) bytes)" : "")
        case let .timestamp(t): return "T(\(t.seconds), \(t.nanoseconds))"
        case let .objectId(o): return "ObjectId(\(o.hexString))"
        case let .uuid(u): return "UUID(\(u.uuidString))"
        default: return "\(value)"
        }
    }
}
