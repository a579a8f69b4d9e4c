/// Changes one table inside a write transaction, touching only what the changes reach
/// (realm-format.md §8, §12, §13.10): the cluster leaves of changed objects, and in them only
/// the changed columns; the search indexes of changed indexed columns, entry by entry. At
/// `finish()` changed leaves are encoded again; when the leaves are the committed ones under
/// the same key offsets (updates, deletes that neither empty nor merge a leaf) the committed
/// inner cluster nodes are kept with new child refs and object counts, as realm-core changes
/// its tree in place (§8.2), otherwise they are built anew over the leaves; every replaced
/// committed node is released. Untouched leaves and columns keep their refs: an update of one property
/// of a few objects writes a few column arrays, not the table.
///
/// Object-level rules (links, backlinks, embedded objects) belong to the caller; this type
/// keeps the table's own invariants: keys unique and ascending, ≤ 256 objects per leaf,
/// indexes equal to the column values, the key sequence (§8.5).
public final class TableEditor {
    public let table: Table
    /// Spec order: public columns, then backlink columns.
    public internal(set) var columns: [TableModel.ColumnModel]
    public internal(set) var objectCount: Int
    /// Whether anything was changed (the table is then written by `finish()`).
    public internal(set) var isModified = false

    public var key: TableKey { table.key }
    public var name: String { table.name }
    public var position: Int { table.position }
    /// Spec index of the primary-key column.
    public let primaryKeyColumn: Int?

    static let leafCapacity = 256
    /// How an editor writes. The defaults are the fast paths; tests turn one off to pin it
    /// against the general path it replaces.
    public struct Options: Sendable, Equatable {
        /// Whether `finish()` keeps an updated leaf's committed keys array by ref (the fast
        /// path); off, the general path encodes the keys again.
        public var keepsUnchangedKeys: Bool
        /// Whether a mass removal rebuilds an int column's index from the committed index's
        /// own entries, read in index order with the removed objects' dropped (the fast path);
        /// off, the general path reads every kept value and sorts the entries.
        public var rebuildsIndexesFromCommittedEntries: Bool
        /// Whether a bulk insert packs each new leaf it fills into its file form as it moves
        /// on (`pack`, the fast path); off, every leaf keeps its cells until `finish()`.
        public var packsFullLeaves: Bool
        public init(keepsUnchangedKeys: Bool = true, rebuildsIndexesFromCommittedEntries: Bool = true, packsFullLeaves: Bool = true) {
            self.keepsUnchangedKeys = keepsUnchangedKeys
            self.rebuildsIndexesFromCommittedEntries = rebuildsIndexesFromCommittedEntries
            self.packsFullLeaves = packsFullLeaves
        }
    }
    public let options: Options
    /// A removal of at least this many objects, and of a third of the table, rebuilds indexes.
    static let rebuildIndexesFrom = 1024
    /// Realm merges a leaf below 128 objects with its right sibling when both fit in 192 (§8.3).
    static let mergeBelow = 128, mergedAtMost = 192

    let transaction: WriteTransaction
    var snapshot: Snapshot { transaction.snapshot }
    let top: MutableNode
    var leaves: [ClusterLeafEdit]
    /// Committed leaves that left the tree (emptied or merged away).
    var droppedLeaves: [ClusterLeafEdit] = []
    /// The answer of the last `leafIndex` search (a hint, checked before it is used).
    var lastLeafIndex = 0
    var sequenceNumber: UInt64
    /// Objects in the committed table: none means its indexes hold no entries either.
    var committedObjectCount = 0
    /// The committed cluster leaves and their key offsets, in order (`finish` keeps the inner
    /// nodes over them when they are still the leaves).
    var committedLeafRefs: [Int?] = []
    var committedLeafBases: [Int64] = []
    /// Spec index by column leaf index (§7.4: leaf indexes are unique within a table).
    var columnOfLeaf: [Int?]
    /// Spec indexes of columns with a general search index (the primary key's included), ascending.
    let indexedColumns: [Int]
    /// Indexed columns so many of whose values changed that their index is built again at
    /// `finish()` from the values then, as after a mass removal (`set`).
    var indexesBuiltAtFinish: Set<Int> = [] {
        didSet { maintainedIndexes = indexedColumns.filter { !indexesBuiltAtFinish.contains($0) } }
    }
    /// Values changed so far per indexed column.
    var indexedChanges: [Int: Int] = [:]
    /// The indexed columns kept entry by entry as objects change (stored: every insert reads
    /// it, and a filtered array per insert was a million allocations in a 1M-row import).
    private(set) var maintainedIndexes: [Int]
    /// Why a column's arrays cannot be written again, if they cannot (§9.4.4, §12.5).
    var unwritable: [FormatError?]
    /// How each column's cells are kept while edited.
    var cellKinds: [ColumnCells.Kind]
    /// Value lists of enumerated string columns, by spec index (§9.4.4).
    var enumValues: [Int: EnumValueWriter] = [:]
    /// Index roots being edited, by spec index.
    var indexRoots: [Int: MutableNode] = [:]
    /// Index entries of objects made in this transaction, not yet in the trees, by column.
    /// They go in sorted by index key when the column's tree is next changed or at `finish()`:
    /// Realm's int keys start with the value's low bytes (§12.3), so in creation order every
    /// insert would shift a 1000-key array, while sorted they append at the tree's right edge.
    /// Any insertion order gives a valid index (§13.10).
    var pendingIndex: [Int: PendingIndexEntries] = [:]
    /// Primary keys of those objects, for lookups and the uniqueness check.
    var pendingPrimaryKeys = PendingPrimaryKeys()
    /// A change failed halfway (after some of its parts were made): the table must not be
    /// written. (A duplicate primary key is found before anything changes.)
    var broken: FormatError?
    /// `finish()` ran (or started): the leaves' cells are gone.
    var finished = false

    public init(transaction: WriteTransaction, table: Table, options: Options = Options()) throws(FormatError) {
        self.options = options
        guard table.tombstonesRef == nil else {
            throw .cannotWrite(reason: "table '\(table.name)' holds unresolved-link tombstones (a synced Realm)")
        }
        self.transaction = transaction
        self.table = table
        columns = try transaction.snapshot.columnModels(table)
        var byLeaf = [Int?](repeating: nil, count: (table.columns.map(\.leafIndex).max() ?? -1) + 1)
        for (i, c) in table.columns.enumerated() where c.leafIndex >= 0 && byLeaf[c.leafIndex] == nil { byLeaf[c.leafIndex] = i }
        columnOfLeaf = byLeaf
        let pkColumn = table.primaryKey.flatMap { pk in table.columns.firstIndex { $0.key == pk } }
        primaryKeyColumn = pkColumn
        sequenceNumber = table.sequenceNumber
        indexedColumns = table.columns.indices.filter { table.columns[$0].hasSearchIndex || $0 == pkColumn }
        maintainedIndexes = indexedColumns
        var unwritable = [FormatError?](), enumValues = [Int: EnumValueWriter]()
        for (c, column) in table.columns.enumerated() {
            var problem: FormatError?
            if column.attributes.contains(.fullText) {
                problem = .cannotWrite(reason: "table '\(table.name)': column '\(column.name)' has a full-text index, which realmsh does not maintain")
            } else if let ref = table.enumValuesRef(for: column) {
                if column.type == .string, column.collection == nil {
                    enumValues[c] = try EnumValueWriter(committed: try transaction.snapshot.enumValueList(ref))
                } else {
                    problem = .corrupt(offset: ref, reason: "table '\(table.name)': column '\(column.name)' has a string value list but is not a string column")
                }
            }
            unwritable.append(problem)
        }
        self.unwritable = unwritable
        self.enumValues = enumValues
        cellKinds = columns.enumerated().map { c, model in ColumnCells.Kind(model, enumValues: enumValues[c]) }
        guard let tables = try transaction.child(transaction.top, 1),
              let top = try transaction.child(tables, table.position), top.hasRefs, top.count >= 12 else {
            throw .corrupt(offset: table.ref, reason: "table '\(table.name)': no table top array")
        }
        self.top = top
        leaves = []
        objectCount = 0
        if let root = table.clusterRef {
            try ClusterTree(snapshot: transaction.snapshot, rootRef: root).forEachLeaf { leaf throws(FormatError) in
                let base = Int64(bitPattern: leaf.baseKey)
                var keys: [Int64]?
                if leaf.keys == nil {
                    // Compact form (§8.2): keys base + 0 ..< count, ascending unless they overflow.
                    guard leaf.count == 0 || base <= Int64.max - Int64(leaf.count - 1) else {
                        throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': cluster keys are not ascending")
                    }
                } else {
                    var general = [Int64]()
                    general.reserveCapacity(leaf.count)
                    for r in 0..<leaf.count { general.append(leaf.objectKey(r)) }
                    for i in general.indices.dropFirst() where general[i] <= general[i - 1] {
                        throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': cluster keys are not ascending")
                    }
                    keys = general
                }
                let edit = ClusterLeafEdit(ref: leaf.node.ref, slots: leaf.node.ints(), base: base, keys: keys,
                                           compactCount: leaf.count, columnCount: table.columns.count)
                if let last = leaves.last?.lastKey, edit.count > 0, (keys?.first ?? base) <= last {
                    throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': cluster leaves overlap")
                }
                leaves.append(edit)
                objectCount += edit.count
            }
        }
        committedLeafRefs = leaves.map(\.originalRef)
        committedLeafBases = leaves.map(\.base)
        if leaves.isEmpty { leaves.append(ClusterLeafEdit(base: 0, kinds: cellKinds)) }
        committedObjectCount = objectCount
    }

    // MARK: reading

    public func contains(_ key: Int64) -> Bool { !isPastLastKey(key) && locate(key) != nil }

    /// The keys of `keys` that are in the table, each once, ascending. Sorted keys are matched
    /// leaf by leaf: the keys up to the next leaf's base (§8.4) merged with that leaf's keys in
    /// one forward walk of both (a mass removal names half the keys of every leaf).
    public func presentKeys(_ keys: [Int64]) -> [Int64] {
        let sorted = Self.ascending(keys)
        var out: [Int64] = []
        out.reserveCapacity(sorted.count)
        var i = 0
        while i < sorted.count {
            let l = leafIndex(for: sorted[i])
            let nextBase = l + 1 < leaves.count ? leaves[l + 1].base : nil
            leaves[l].keys.withUnsafeBufferPointer { leafKeys in
                sorted.withUnsafeBufferPointer { sorted in
                    var row = 0, previous = out.last
                    // At least one key each time round, so `i` always moves on.
                    repeat {
                        let key = sorted[i]
                        while row < leafKeys.count && leafKeys[row] < key { row += 1 }
                        if row < leafKeys.count && leafKeys[row] == key && previous != key {
                            out.append(key)
                            previous = key
                        }
                        i += 1
                    } while i < sorted.count && nextBase.map({ sorted[i] < $0 }) ?? true
                }
            }
        }
        return out
    }

    /// `keys` in ascending order (query results and key lists usually are already).
    static func ascending(_ keys: [Int64]) -> [Int64] {
        zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 } ? keys : keys.sorted()
    }

    /// Above every key in the table, and in the last leaf's range: where new objects of a
    /// bulk load go (ObjKeys come from a counter, §8.5), without a search.
    func isPastLastKey(_ key: Int64) -> Bool {
        let last = leaves[leaves.count - 1]
        return key >= last.base && key > (last.lastKey ?? Int64.min)
    }

    /// The current value of column `c` (spec index) of object `key`.
    public func value(_ key: Int64, column c: Int) throws(FormatError) -> Value {
        snapshot.resetWorkBudget()
        try readable()
        guard let (leaf, row) = locate(key) else { throw missing(key) }
        return try cells(leaf, c)[row]
    }

    public func columnIndex(key: ColumnKey) -> Int? {
        let leaf = key.leafIndex
        guard leaf >= 0, leaf < columnOfLeaf.count, let c = columnOfLeaf[leaf], columns[c].key == key else { return nil }
        return c
    }

    /// The cells of a new object: every column empty or null (§13.10 "Create").
    public internal(set) lazy var defaultRow: [Value] = columns.map(TableModel.defaultValue(for:))

    /// The object whose primary key is `value`, if any (§12: through the committed index,
    /// plus the objects made in this transaction).
    public func objectKey(primaryKey value: Value) throws(FormatError) -> Int64? {
        guard let pk = primaryKeyColumn else { return nil }
        snapshot.resetWorkBudget()
        if let lookup = PrimaryKeyValue(value), let key = pendingPrimaryKeys.objectKey(lookup, entries: pendingIndex[pk]) { return key }
        return try indexedObjectKey(value, column: pk)
    }

    /// The object with `value` in the unique index of column `pk`, pending entries aside.
    func indexedObjectKey(_ value: Value, column pk: Int) throws(FormatError) -> Int64? {
        // Once this transaction changed the index, the index knows every object as it is now.
        if let root = indexRoots[pk] { return try indexWriter(pk).find(value, in: root).first }
        if committedObjectCount == 0 { return nil }
        guard let rootRef = table.columns[pk].searchIndexRef else {
            throw .corrupt(offset: table.ref, reason: "table '\(table.name)': the primary key has no search index")
        }
        guard let data = IndexKey.bytes(of: value, columnType: columns[pk].type) else { return nil }
        for key in try SearchIndexReader(snapshot: snapshot, rootRef: rootRef).candidates(data) where contains(key) {
            if ValueOrder.compare(try self.value(key, column: pk), value) == 0 { return key }
        }
        return nil
    }

    // MARK: leaves

    /// The leaf whose key range holds `key`: the last one with base ≤ key (§8.4).
    func leafIndex(for key: Int64) -> Int {
        // The leaf of the previous lookup, when it is still the answer (an update reads and
        // sets one object, then usually the next in the same leaf); checked against the
        // leaves as they are now, so changes to the leaves cannot make it wrong.
        let last = lastLeafIndex
        if last < leaves.count, leaves[last].base <= key, last + 1 == leaves.count || leaves[last + 1].base > key { return last }
        let found = searchLeafIndex(for: key)
        lastLeafIndex = found
        return found
    }

    func searchLeafIndex(for key: Int64) -> Int {
        var lo = 0, hi = leaves.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if leaves[mid].base <= key { lo = mid + 1 } else { hi = mid }
        }
        return max(lo - 1, 0)
    }

    func locate(_ key: Int64) -> (ClusterLeafEdit, Int)? {
        let leaf = leaves[leafIndex(for: key)]
        return leaf.row(of: key).map { (leaf, $0) }
    }

    /// The cells of column `c` in `leaf`, decoded on first use (only the rows that stay when
    /// a removal is pending for the column).
    func cells(_ leaf: ClusterLeafEdit, _ c: Int) throws(FormatError) -> ColumnCells {
        if leaf.packed != nil { try unpack(leaf, only: c) }
        if let values = leaf.cells[c] { return values }
        let keep = leaf.removalPending[c] ? leaf.removalMask : nil
        let values = try ColumnCells.decode(snapshot, ref: try columnRef(leaf, c), kind: cellKinds[c], column: table.columns[c],
                                            of: table, expected: keep?.count ?? leaf.count, keeping: keep)
        leaf.cells[c] = values
        leaf.removalPending[c] = false
        return values
    }

    /// The committed array of column `c` in `leaf`.
    func columnRef(_ leaf: ClusterLeafEdit, _ c: Int) throws(FormatError) -> Int {
        guard let ref = leaf.originalColumnRef(table.columns[c].leafIndex) else {
            throw .corrupt(offset: leaf.originalRef ?? 0, reason: "table '\(table.name)': no data for column '\(table.columns[c].name)'")
        }
        return ref
    }

    func decodeAll(_ leaf: ClusterLeafEdit) throws(FormatError) {
        guard !leaf.allDecoded else { return }
        for c in columns.indices {
            _ = try cells(leaf, c)
            try checkWritable(leaf, c)
        }
        leaf.allDecoded = true
    }

    func checkWritable(_ leaf: ClusterLeafEdit, _ c: Int) throws(FormatError) {
        if let problem = unwritable[c] { throw problem }
    }

    /// Runs a change whose parts cannot all be undone: if one fails, the table is marked
    /// unusable, so the transaction cannot commit half of it.
    func guarded(_ change: () throws(FormatError) -> Void) throws(FormatError) {
        do { try change() } catch {
            broken = error
            throw error
        }
    }

    func usable() throws(FormatError) {
        if finished { throw .cannotWrite(reason: "table '\(table.name)': its changes were written (finish) already") }
        if let broken { throw .cannotWrite(reason: "table '\(table.name)': an earlier change failed halfway (\(broken.message)); roll back") }
    }

    /// Cells can be read until `finish()` has dropped them.
    func readable() throws(FormatError) {
        if finished { throw .cannotWrite(reason: "table '\(table.name)': its changes were written (finish) already") }
    }

    func missing(_ key: Int64) -> FormatError {
        .cannotWrite(reason: "table '\(table.name)' has no object with key \(key)")
    }
}
