/// Enumerated string columns made while a file is compacted (realm-format.md §9.4.4): for each
/// chosen column, its value list (the distinct values, sorted as realm-core's
/// `enumerate_string_column` sorts them) and, per cluster leaf, the positions that replace the
/// leaf's strings. `Compactor` writes these in place of the nodes they replace, so a shipped
/// copy is made in one pass, with no scratch file and no write transaction; the result is the
/// tree `TableEditor.enumerateStrings` followed by a compaction gives.
public struct StringEnumerationPlan {
    /// One string column considered.
    public struct PlannedColumn: Sendable, Equatable {
        public let table: String
        public let column: String
        /// The distinct values (null counts as one); for a column left as it is, counting
        /// stopped past the limit: then limit + 1.
        public let distinctValues: Int
        public let objects: Int
        public let enumerated: Bool
        public let alreadyEnumerated: Bool
    }

    public private(set) var columns: [PlannedColumn] = []
    /// New nodes by the ref of the committed node they replace (column leaves, Specs).
    private(set) var replacements: [Int: MutableNode] = [:]

    public init() {}

    /// Plans the plain string columns of `tables` (not primary keys, collections, backlinks or
    /// full-text indexed) whose distinct values are at most `maxDistinctPercent` % of their
    /// table's objects (100: all). Tables without objects are left alone.
    public mutating func add(_ tables: [Table], in snapshot: Snapshot, maxDistinctPercent: Double) throws(FormatError) {
        try add(tables, in: snapshot, maxDistinctPercent: maxDistinctPercent, twoThreadsFrom: Self.twoThreadsFrom)
    }

    /// Columns of at least this many objects are counted on two threads (`DistinctStringCount`).
    static let twoThreadsFrom = 50_000

    /// `add`, with columns of at least `twoThreadsFrom` objects counted on two threads (tests
    /// set it to 0 or `Int.max` to compare the two).
    mutating func add(_ tables: [Table], in snapshot: Snapshot, maxDistinctPercent: Double, twoThreadsFrom: Int) throws(FormatError) {
        for table in tables {
            guard let root = table.clusterRef else { continue }
            snapshot.resetWorkBudget()
            let leaves = try snapshot.clusterLeaves(rootRef: root)
            let objects = leaves.reduce(0) { $0 + $1.leaf.count }
            guard objects > 0 else { continue }
            let limit = maxDistinctPercent >= 100 ? Int.max : Int(Double(objects) * maxDistinctPercent / 100)
            var lists: [(specIndex: Int, list: MutableNode)] = []
            for column in table.columns where column.type == .string && column.collection == nil && !column.isBacklink
                && column.key != table.primaryKey && !column.attributes.contains(.fullText) {
                if let ref = table.enumValuesRef(for: column) {
                    let count = try snapshot.enumValueList(ref).count
                    columns.append(PlannedColumn(table: table.name, column: column.name, distinctValues: count, objects: objects,
                                          enumerated: true, alreadyEnumerated: true))
                    continue
                }
                let planned = try plan(column, of: table, leaves: leaves.map(\.leaf), snapshot: snapshot, limit: limit,
                                       twoThreads: objects >= twoThreadsFrom)
                columns.append(PlannedColumn(table: table.name, column: column.name, distinctValues: planned.distinct, objects: objects,
                                      enumerated: planned.list != nil, alreadyEnumerated: false))
                if let list = planned.list { lists.append((column.specIndex, list)) }
            }
            if !lists.isEmpty { try replaceSpec(of: table, lists: lists, snapshot: snapshot) }
        }
    }

    /// The positions of one column's leaves and its value list, or the count at which it
    /// stopped (no list). With `twoThreads`, counted on two threads when its values all lie in
    /// place (`DistinctStringCount`).
    private mutating func plan(_ column: Column, of table: Table, leaves: [ClusterLeaf], snapshot: Snapshot,
                               limit: Int, twoThreads: Bool) throws(FormatError) -> (distinct: Int, list: MutableNode?) {
        var refs = [Int]()
        refs.reserveCapacity(leaves.count)
        for leaf in leaves {
            guard let ref = leaf.columnRef(column.leafIndex) else {
                throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': no data for column '\(column.name)'")
            }
            refs.append(ref)
        }
        var census: DistinctStringCount?
        if twoThreads {
            let stringLeaves = zip(leaves, refs).map { DistinctStringCount.LeafRef(ref: $1, objects: $0.count) }
            switch DistinctStringCount.counting(stringLeaves, of: snapshot.image, limit: limit) {
            case let .counted(counted): census = counted
            case .tooMany: return (limit + 1, nil)
            case .notInPlace: break
            }
        }
        if census == nil { census = try onePass(column, of: table, leaves: leaves, refs: refs, snapshot: snapshot, limit: limit) }
        guard let census else { return (limit + 1, nil) }
        let (sorted, rank) = census.values.sorted()
        for (ref, leafPositions) in zip(refs, census.positions) {
            replacements[ref] = MutableNode(integers: leafPositions.map { rank[Int($0)] })
        }
        return (sorted.count, try EnumValueWriter(new: sorted).encode())
    }

    /// The census in one pass through each leaf's reader (any leaf form; a leaf that fails its
    /// checks is reported); nil past `limit`.
    private func onePass(_ column: Column, of table: Table, leaves: [ClusterLeaf], refs: [Int], snapshot: Snapshot,
                         limit: Int) throws(FormatError) -> DistinctStringCount? {
        var census = DistinctStringCount()
        var batch = ByteStringTable.Batch()
        for (leaf, ref) in zip(leaves, refs) {
            let reader = try StringLeafReader(snapshot, ref: ref)
            guard reader.count == leaf.count else {
                throw .corrupt(offset: ref, reason: "table '\(table.name)': column '\(column.name)' holds \(reader.count) values for \(leaf.count) objects")
            }
            var leafPositions = [Int64]()
            leafPositions.reserveCapacity(reader.count)
            try reader.forEachValue { v in census.values.insert(v, batch: &batch, positions: &leafPositions) }
            census.values.flush(&batch, positions: &leafPositions)
            if census.values.count > limit { return nil }
            census.positions.append(leafPositions)
        }
        return census
    }

    /// The table's Spec with the new value lists in slot 4 (§7.5: one entry per public column;
    /// lists already there stay).
    private mutating func replaceSpec(of table: Table, lists: [(specIndex: Int, list: MutableNode)], snapshot: Snapshot) throws(FormatError) {
        let top = try snapshot.refsNode(table.ref, minimum: 12, what: "table '\(table.name)'")
        guard let specRef = top.ref(0) else { throw .corrupt(offset: table.ref, reason: "table '\(table.name)' has no Spec") }
        let spec = MutableNode(loading: try snapshot.refsNode(specRef, minimum: 6, what: "Spec of table '\(table.name)'"))
        let publicColumns = table.publicColumns.count
        let slot4: MutableNode
        if spec[4] != 0 && spec[4] & 1 == 0 {
            slot4 = MutableNode(loading: try snapshot.refsNode(Int(spec[4]), minimum: publicColumns, what: "string value lists of table '\(table.name)'"))
        } else {
            slot4 = MutableNode(integers: [Int64](repeating: 0, count: publicColumns), hasRefs: true)
        }
        for (specIndex, list) in lists { slot4.setChild(specIndex, list) }
        spec.setChild(4, slot4)
        replacements[specRef] = spec
    }
}
