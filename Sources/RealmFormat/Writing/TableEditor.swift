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
    public private(set) var columns: [TableModel.ColumnModel]
    public private(set) var objectCount: Int
    /// Whether anything was changed (the table is then written by `finish()`).
    public private(set) var isModified = false

    public var key: TableKey { table.key }
    public var name: String { table.name }
    public var position: Int { table.position }
    /// Spec index of the primary-key column.
    public let primaryKeyColumn: Int?

    static let leafCapacity = 256
    /// Whether `finish()` keeps an updated leaf's committed keys array by ref (the fast path);
    /// tests turn it off to compare with the general path, which encodes the keys again.
    nonisolated(unsafe) static var keepsUnchangedKeys = true
    /// A removal of at least this many objects, and of a third of the table, rebuilds indexes.
    static let rebuildIndexesFrom = 1024
    /// Realm merges a leaf below 128 objects with its right sibling when both fit in 192 (§8.3).
    static let mergeBelow = 128, mergedAtMost = 192

    private let transaction: WriteTransaction
    private var snapshot: Snapshot { transaction.snapshot }
    private let top: MutableNode
    private var leaves: [ClusterLeafEdit]
    /// Committed leaves that left the tree (emptied or merged away).
    private var droppedLeaves: [ClusterLeafEdit] = []
    /// The answer of the last `leafIndex` search (a hint, checked before it is used).
    private var lastLeafIndex = 0
    private var sequenceNumber: UInt64
    /// Objects in the committed table: none means its indexes hold no entries either.
    private var committedObjectCount = 0
    /// The committed cluster leaves and their key offsets, in order (`finish` keeps the inner
    /// nodes over them when they are still the leaves).
    private var committedLeafRefs: [Int?] = []
    private var committedLeafBases: [Int64] = []
    /// Spec index by column leaf index (§7.4: leaf indexes are unique within a table).
    private var columnOfLeaf: [Int?]
    /// Spec indexes of columns with a general search index (the primary key's included), ascending.
    private let indexedColumns: [Int]
    /// Indexed columns so many of whose values changed that their index is built again at
    /// `finish()` from the values then, as after a mass removal (`set`).
    private var indexesBuiltAtFinish: Set<Int> = []
    /// Values changed so far per indexed column.
    private var indexedChanges: [Int: Int] = [:]
    /// The indexed columns kept entry by entry as objects change.
    private var maintainedIndexes: [Int] { indexedColumns.filter { !indexesBuiltAtFinish.contains($0) } }
    /// Why a column's arrays cannot be written again, if they cannot (§9.4.4, §12.5).
    private var unwritable: [FormatError?]
    /// How each column's cells are kept while edited.
    private var cellKinds: [ColumnCells.Kind]
    /// Value lists of enumerated string columns, by spec index (§9.4.4).
    private var enumValues: [Int: EnumValueWriter] = [:]
    /// Index roots being edited, by spec index.
    private var indexRoots: [Int: MutableNode] = [:]
    /// Index entries of objects made in this transaction, not yet in the trees, by column.
    /// They go in sorted by index key when the column's tree is next changed or at `finish()`:
    /// Realm's int keys start with the value's low bytes (§12.3), so in creation order every
    /// insert would shift a 1000-key array, while sorted they append at the tree's right edge.
    /// Any insertion order gives a valid index (§13.10).
    private var pendingIndex: [Int: PendingIndexEntries] = [:]
    /// Primary keys of those objects, for lookups and the uniqueness check.
    private var pendingPrimaryKeys = PendingPrimaryKeys()
    /// A change failed halfway (after some of its parts were made): the table must not be
    /// written. (A duplicate primary key is found before anything changes.)
    private var broken: FormatError?

    public init(transaction: WriteTransaction, table: Table) throws(FormatError) {
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
                var keys = [Int64]()
                if leaf.keys == nil {
                    // Compact form (§8.2): keys base + 0 ..< count, ascending by construction.
                    let base = Int64(bitPattern: leaf.baseKey)
                    keys = (0..<Int64(leaf.count)).map { base &+ $0 }
                } else {
                    keys.reserveCapacity(leaf.count)
                    for r in 0..<leaf.count { keys.append(leaf.objectKey(r)) }
                }
                for i in keys.indices.dropFirst() where keys[i] <= keys[i - 1] {
                    throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': cluster keys are not ascending")
                }
                if let last = leaves.last?.keys.last, let first = keys.first, first <= last {
                    throw .corrupt(offset: leaf.node.ref, reason: "table '\(table.name)': cluster leaves overlap")
                }
                leaves.append(ClusterLeafEdit(ref: leaf.node.ref, slots: leaf.node.ints(),
                                              base: Int64(bitPattern: leaf.baseKey), keys: keys, columnCount: table.columns.count))
                objectCount += keys.count
            }
        }
        committedLeafRefs = leaves.map(\.originalRef)
        committedLeafBases = leaves.map(\.base)
        if leaves.isEmpty { leaves.append(ClusterLeafEdit(base: 0, kinds: cellKinds)) }
        committedObjectCount = objectCount
    }

    // MARK: reading

    public func contains(_ key: Int64) -> Bool { !isPastLastKey(key) && locate(key) != nil }

    /// The keys of `keys` that are in the table, each once, ascending. Sorted keys are looked
    /// up leaf by leaf, each search starting where the previous one ended.
    public func presentKeys(_ keys: [Int64]) -> [Int64] {
        var out: [Int64] = []
        out.reserveCapacity(keys.count)
        var leaf = leaves[0], leafKeys = leaf.keys, row = 0
        for key in Self.ascending(keys) where out.last != key {
            if key > (leafKeys.last ?? Int64.min) || key < leaf.base {
                leaf = leaves[leafIndex(for: key)]
                leafKeys = leaf.keys
                row = 0
            }
            row = ClusterLeafEdit.nextLowerBound(key, in: leafKeys, from: row)
            if row < leafKeys.count && leafKeys[row] == key { out.append(key) }
        }
        return out
    }

    /// `keys` in ascending order (query results and key lists usually are already).
    static func ascending(_ keys: [Int64]) -> [Int64] {
        zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 } ? keys : keys.sorted()
    }

    /// Above every key in the table, and in the last leaf's range: where new objects of a
    /// bulk load go (ObjKeys come from a counter, §8.5), without a search.
    private func isPastLastKey(_ key: Int64) -> Bool {
        let last = leaves[leaves.count - 1]
        return key >= last.base && key > (last.keys.last ?? Int64.min)
    }

    /// The current value of column `c` (spec index) of object `key`.
    public func value(_ key: Int64, column c: Int) throws(FormatError) -> Value {
        snapshot.resetWorkBudget()
        guard let (leaf, row) = locate(key) else { throw missing(key) }
        return try cells(leaf, c)[row]
    }

    public func columnIndex(key: ColumnKey) -> Int? {
        let leaf = key.leafIndex
        guard leaf >= 0, leaf < columnOfLeaf.count, let c = columnOfLeaf[leaf], columns[c].key == key else { return nil }
        return c
    }

    /// The cells of a new object: every column empty or null (§13.10 "Create").
    public private(set) lazy var defaultRow: [Value] = columns.map(TableModel.defaultValue(for:))

    /// The object whose primary key is `value`, if any (§12: through the committed index,
    /// plus the objects made in this transaction).
    public func objectKey(primaryKey value: Value) throws(FormatError) -> Int64? {
        guard let pk = primaryKeyColumn else { return nil }
        snapshot.resetWorkBudget()
        if let lookup = PrimaryKeyValue(value), let key = pendingPrimaryKeys.objectKey(lookup) { return key }
        return try indexedObjectKey(value, column: pk)
    }

    /// The object with `value` in the unique index of column `pk`, pending entries aside.
    private func indexedObjectKey(_ value: Value, column pk: Int) throws(FormatError) -> Int64? {
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

    // MARK: changing

    /// The key the next new object gets (§8.5): the sequence number for primary-key tables,
    /// its squeezed form otherwise; keys in use are skipped and the counter never goes back.
    public func nextObjectKey() -> Int64 {
        while true {
            let s = sequenceNumber
            sequenceNumber += 1
            let key = primaryKeyColumn != nil ? Int64(s) : Int64((s & 0xFF) | ((s & 0xFFFF_FF00) << 8))
            if !contains(key) { return key }
        }
    }

    /// Adds object `key` (not present yet) with one value per column, and indexes it. A
    /// primary key that another object has throws `FormatError.duplicateKey` with nothing changed.
    public func insert(key: Int64, values: [Value]) throws(FormatError) {
        snapshot.resetWorkBudget()
        guard values.count == columns.count else {
            throw .cannotWrite(reason: "table '\(table.name)': \(values.count) values for \(columns.count) columns")
        }
        let appending = isPastLastKey(key)
        guard appending || !contains(key) else { throw .cannotWrite(reason: "table '\(table.name)': object \(key) exists already") }
        try usable()
        // The primary key first: its index refuses a duplicate before anything else changes.
        if let pk = primaryKeyColumn {
            guard let lookup = PrimaryKeyValue(values[pk]) else {
                throw .cannotWrite(reason: "table '\(table.name)': a primary key must be an int, string, ObjectId, UUID or null")
            }
            if let existing = pendingPrimaryKeys.objectKey(lookup) { throw .duplicateKey(existing: existing) }
            if let existing = try indexedObjectKey(values[pk], column: pk) { throw .duplicateKey(existing: existing) }
            pendingPrimaryKeys.insert(lookup, objectKey: key)
        }
        try guarded { () throws(FormatError) in
            for c in maintainedIndexes { pendingIndex[c, default: PendingIndexEntries()].append(values[c], key: key) }
            var l = appending ? leaves.count - 1 : leafIndex(for: key)
            var leaf = leaves[l]
            try decodeAll(leaf)
            var row = appending ? leaf.count : leaf.lowerBound(key)
            if leaf.count >= Self.leafCapacity {
                // A full leaf: an object past its end starts a new leaf (so appends fill leaves);
                // otherwise the objects after it move to a new leaf (§8.3).
                let sibling = ClusterLeafEdit(base: row == leaf.count ? key : leaf.keys[row], kinds: cellKinds)
                if row < leaf.count {
                    sibling.keys = Array(leaf.keys[row...])
                    leaf.keys.removeSubrange(row...)
                    for c in columns.indices {
                        sibling.cells[c] = leaf.cells[c]!.removeSuffix(from: row)
                        leaf.dirty[c] = true
                    }
                    leaf.keysChanged = true
                } else {
                    leaf = sibling
                    row = 0
                }
                leaves.insert(sibling, at: l + 1)
                if leaf === sibling { l += 1 }
            }
            leaf.insert(key: key, values: values, at: row)
            objectCount += 1
            isModified = true
        }
    }

    /// Sets column `c` of object `key`; indexes follow (only when the value changes, §13.10).
    public func set(_ key: Int64, column c: Int, _ value: Value) throws(FormatError) {
        snapshot.resetWorkBudget()
        try usable()
        guard let (leaf, row) = locate(key) else { throw missing(key) }
        let old = try cells(leaf, c)[row]
        try checkWritable(leaf, c)
        if indexedColumns.contains(c) && !indexesBuiltAtFinish.contains(c) {
            guard old != value else { return }
            indexedChanges[c, default: 0] += 1
            willChange(column: c, objects: indexedChanges[c, default: 0])
        }
        if indexedColumns.contains(c) && !indexesBuiltAtFinish.contains(c) {
            // Still kept entry by entry (`willChange` did not switch it to a build at finish).
            try guarded { () throws(FormatError) in
                try flushPendingIndex(c)
                try indexErase(old, key: key, column: c)
                indexRoots[c] = try indexWriter(c).insert(value, objKey: key, into: try indexRoot(c), unique: c == primaryKeyColumn)
            }
        }
        leaf.cells[c]!.set(row, value)
        leaf.dirty[c] = true
        isModified = true
    }

    /// Says that `objects` values of column `c` change in this transaction (a bulk update
    /// says so before it starts; `set` counts). When that is most of an indexed column (not
    /// the primary key, whose uniqueness is checked entry by entry), its index is built once
    /// at `finish()` from the values then, instead of an erase and an insert per object
    /// (150,000 of those took seconds), as after a mass removal. Entries already changed and
    /// pending ones are simply superseded.
    public func willChange(column c: Int, objects: Int) {
        guard indexedColumns.contains(c), c != primaryKeyColumn, !indexesBuiltAtFinish.contains(c),
              objects >= Self.rebuildIndexesFrom, objects * 3 >= objectCount else { return }
        indexesBuiltAtFinish.insert(c)
        pendingIndex[c] = nil
    }

    /// Removes objects (keys not present are skipped): each from its indexes, then their
    /// rows, in one pass over each leaf they are in.
    public func remove(_ keys: [Int64]) throws(FormatError) {
        snapshot.resetWorkBudget()
        try usable()
        try guarded { () throws(FormatError) in
            for c in maintainedIndexes { try flushPendingIndex(c) }
            // Removing a large part of the table: indexes are built again from the objects
            // that stay (in index-key order, appending) instead of erasing entry by entry.
            let rebuild = keys.count >= Self.rebuildIndexesFrom && keys.count * 3 >= objectCount
            try removeRows(keys, eraseFromIndexes: !rebuild)
            if rebuild { for c in maintainedIndexes { try rebuildIndex(c) } }
        }
    }

    private func removeRows(_ keys: [Int64], eraseFromIndexes: Bool) throws(FormatError) {
        let sorted = Self.ascending(keys)
        var i = 0
        while i < sorted.count {
            let l = leafIndex(for: sorted[i])
            let leaf = leaves[l]
            let leafKeys = leaf.keys
            // The keys up to the next leaf's base are this leaf's (§8.4), found by searches
            // that each start at the previous row.
            let nextBase = l + 1 < leaves.count ? leaves[l + 1].base : nil
            var rows: [Int] = []
            var row = 0
            while i < sorted.count, nextBase.map({ sorted[i] < $0 }) ?? true {
                row = ClusterLeafEdit.nextLowerBound(sorted[i], in: leafKeys, from: row)
                if row < leafKeys.count, leafKeys[row] == sorted[i], rows.last != row { rows.append(row) }
                i += 1
            }
            guard !rows.isEmpty else { continue }
            if eraseFromIndexes {
                for row in rows {
                    for c in maintainedIndexes { try indexErase(try cells(leaf, c)[row], key: leaf.keys[row], column: c) }
                }
            }
            var keep = [Bool](repeating: true, count: leaf.count)
            for row in rows { keep[row] = false }
            // A second removal from the leaf: the first one's pending columns are read first.
            if leaf.removalMask != nil {
                for c in columns.indices where leaf.removalPending[c] { _ = try cells(leaf, c) }
                leaf.removalMask = nil
            }
            // Columns still on disk are not read: their kept rows are copied byte by byte
            // when the leaf is written (`encode`), or decoded if something reads them first.
            for c in columns.indices {
                try checkWritable(leaf, c)
                if leaf.cells[c] != nil {
                    leaf.cells[c]!.filter(keep)
                } else {
                    _ = try columnRef(leaf, c)
                    leaf.removalPending[c] = true
                }
                leaf.dirty[c] = true
            }
            if leaf.removalPending.contains(true) { leaf.removalMask = keep }
            var keys = [Int64]()
            keys.reserveCapacity(leaf.count - rows.count)
            for (j, key) in leaf.keys.enumerated() where keep[j] { keys.append(key) }
            leaf.keys = keys
            leaf.keysChanged = true
            objectCount -= rows.count
            isModified = true
            if leaf.keys.isEmpty && leaves.count > 1, let l = leaves.firstIndex(where: { $0 === leaf }) {
                leaves.remove(at: l)
                if leaf.originalRef != nil { droppedLeaves.append(leaf) }
            }
        }
    }

    /// Runs a change whose parts cannot all be undone: if one fails, the table is marked
    /// unusable, so the transaction cannot commit half of it.
    private func guarded(_ change: () throws(FormatError) -> Void) throws(FormatError) {
        do { try change() } catch {
            broken = error
            throw error
        }
    }

    private func usable() throws(FormatError) {
        if let broken { throw .cannotWrite(reason: "table '\(table.name)': an earlier change failed halfway (\(broken.message)); roll back") }
    }

    /// Adds a backlink column, as realm-core's `find_or_add_backlink_column` does when the
    /// first link stored in a Mixed value of an origin column reaches this table (§10.6): a
    /// Spec entry after the other columns, and in every cluster leaf an empty backlink array.
    /// Returns its spec index.
    public func appendBacklinkColumn(_ column: TableModel.ColumnModel) throws(FormatError) -> Int {
        try usable()
        let leaf = column.key.leafIndex
        guard leaf >= columnOfLeaf.count || columnOfLeaf[leaf] == nil else {
            throw .cannotWrite(reason: "table '\(table.name)': leaf index \(leaf) is in use")
        }
        let kind = ColumnCells.Kind(column, enumValues: nil)
        try guarded { () throws(FormatError) in
            try TableTopColumns.appendBacklinkColumn(column, top: top, table: table.name, transaction: transaction)
            for leaf in leaves {
                leaf.cells.append(ColumnCells(kind: kind, values: [Value](repeating: .list([]), count: leaf.count)))
                leaf.dirty.append(true)
                leaf.removalPending.append(false)
            }
        }
        columns.append(column)
        cellKinds.append(kind)
        unwritable.append(nil)
        while columnOfLeaf.count <= leaf { columnOfLeaf.append(nil) }
        columnOfLeaf[leaf] = columns.count - 1
        defaultRow = columns.map(TableModel.defaultValue(for:))
        isModified = true
        return columns.count - 1
    }

    // MARK: finishing

    /// Writes the changes into the transaction's tree: changed leaves, new inner nodes, index
    /// roots, the key sequence and content version (§13.10); releases what they replace.
    public func finish() throws(FormatError) {
        snapshot.resetWorkBudget()
        try usable()
        guard isModified else { return }
        try guarded { () throws(FormatError) in
            for c in indexedColumns {
                if indexesBuiltAtFinish.contains(c) { try rebuildIndex(c) } else { try flushPendingIndex(c) }
            }
        }
        try mergeSmallLeaves()
        // The first leaf has offset 0 (§8.2): re-base it when an earlier leaf went away.
        if leaves[0].base != 0 {
            leaves[0].base = 0
            leaves[0].keysChanged = true
        }
        let keepsShape = droppedLeaves.isEmpty && leaves.map(\.originalRef) == committedLeafRefs
            && leaves.map(\.base) == committedLeafBases
        var level: [TableEncoder.ClusterLevelEntry] = []
        for leaf in leaves { level.append((leaf.base, try encode(leaf), leaf.count)) }
        for leaf in droppedLeaves { try releaseDropped(leaf) }
        if keepsShape, let root = table.clusterRef, try snapshot.node(root).isInner {
            // The same leaves under the same offsets: the committed inner nodes stay, with new
            // child refs and object counts, as realm-core changes its tree in place (§8.2).
            guard let rootNode = try transaction.child(top, 2) else {
                throw .corrupt(offset: root, reason: "table '\(table.name)': no cluster root")
            }
            var next = 0
            _ = try updateInnerNode(rootNode, level, &next, depth: 0)
            guard next == level.count else {
                throw .corrupt(offset: root, reason: "table '\(table.name)': the cluster tree holds \(next) leaves, not \(level.count)")
            }
        } else {
            if let root = table.clusterRef { try releaseInnerNodes(root) }
            TableEncoder.put(TableEncoder.clusterRoot(over: level), in: top, at: 2)
        }
        try writeEnumValueLists()
        if !indexRoots.isEmpty {
            guard let indexes = try transaction.child(top, 4) else {
                throw .corrupt(offset: table.ref, reason: "table '\(table.name)': no search index list")
            }
            for (c, root) in indexRoots { indexes.setChild(columns[c].key.leafIndex, root) }
        }
        top.setTagged(6, Int64(table.contentVersion + 1))
        top.setTagged(9, Int64(sequenceNumber))
    }

    private func encode(_ leaf: ClusterLeafEdit) throws(FormatError) -> TableEncoder.ClusterChild {
        if let ref = leaf.originalRef, !leaf.isChanged { return .ref(ref) }
        let width = (columns.map { $0.key.leafIndex }.max() ?? -1) + 2
        let node = MutableNode(integers: [Int64](repeating: 0, count: max(width, leaf.originalSlots.count)), hasRefs: true)
        if Self.keepsUnchangedKeys, leaf.originalRef != nil, !leaf.keysChanged, let committed = leaf.originalSlots.first {
            // The same objects under the same offset (an update): the committed keys array, or
            // the compact form's tagged count, stays as it is (§8.2) — no re-encoding, and the
            // old top ref still reaches the very same array (it is shared, not released).
            node[0] = committed
        } else {
            TableEncoder.setKeys(leaf.keys.map { $0 - leaf.base }, of: node)
            if let ref = leaf.originalKeysRef { try transaction.releaseNode(ref: ref) }
        }
        for (c, column) in columns.enumerated() {
            let slot = 1 + column.key.leafIndex
            let original = leaf.originalColumnRef(column.key.leafIndex)
            if leaf.cells[c] == nil, leaf.removalPending[c], let original, let keep = leaf.removalMask,
               let filtered = try LeafRowFilter.filtered(snapshot, ref: original, kind: cellKinds[c], keep: keep, kept: leaf.count) {
                node.setChild(slot, filtered)
                try transaction.releaseSubtree(ref: original)
            } else if leaf.dirty[c] || original == nil {
                let cells = try cells(leaf, c)
                node.setChild(slot, try cells.encode(column))
                if let original { try cells.releaseCommitted(original, in: transaction) }
            } else if let original {
                node[slot] = Int64(original)
            }
        }
        if let ref = leaf.originalRef { try transaction.releaseNode(ref: ref) }
        return .node(node)
    }

    /// Releases a committed leaf that left the tree: its arrays, and below them what no
    /// leaf still uses (objects merged into a neighbour keep their collection trees).
    private func releaseDropped(_ leaf: ClusterLeafEdit) throws(FormatError) {
        guard let ref = leaf.originalRef else { return }
        try transaction.releaseNode(ref: ref)
        if let keys = leaf.originalKeysRef { try transaction.releaseNode(ref: keys) }
        for slot in 1..<max(leaf.originalSlots.count, 1) {
            let v = leaf.originalSlots[slot]
            guard v != 0, v & 1 == 0 else { continue }
            let leafIndex = slot - 1
            if leafIndex < columnOfLeaf.count, let c = columnOfLeaf[leafIndex], c < leaf.cells.count, let cells = leaf.cells[c] {
                try cells.releaseCommitted(Int(v), in: transaction)
            } else {
                try transaction.releaseSubtree(ref: Int(v))
            }
        }
    }

    // MARK: enumerated string columns

    /// The number of values in column `c`'s value list, if it is enumerated.
    public func enumeratedValueCount(column c: Int) -> Int? { enumValues[c]?.count }

    /// Turns string column `c` into an enumerated one, as realm-core's
    /// `Table::enumerate_string_column` does (`realm-enumerate`, used to shrink bundled files):
    /// a value list of the distinct values, sorted as realm-core sorts it, in Spec slot 4, and
    /// in every cluster leaf the positions of its objects' values. Values, search index and
    /// schema do not change. Only plain string columns that are not the primary key qualify
    /// (realm-enumerate leaves primary keys alone).
    ///
    /// With `maxDistinct`, a column found to hold more distinct values (null counts as one) is
    /// left as it is, and counting stops (at the end of the leaf): then `maxDistinct + 1` is
    /// returned. Otherwise the number of distinct values.
    @discardableResult
    public func enumerateStrings(column c: Int, maxDistinct: Int = .max) throws(FormatError) -> (distinct: Int, enumerated: Bool) {
        try usable()
        let column = table.columns[c]
        guard column.type == .string, column.collection == nil, !column.isBacklink else {
            throw .cannotWrite(reason: "table '\(table.name)': column '\(column.name)' is not a string column")
        }
        guard c != primaryKeyColumn else {
            throw .cannotWrite(reason: "table '\(table.name)': column '\(column.name)' is the primary key")
        }
        if let list = enumValues[c] { return (list.count, true) }
        if let problem = unwritable[c] { throw problem }
        // One pass: each object's value gets a position in first-seen order; the list is then
        // sorted and the positions renumbered.
        var seen = ByteStringTable()
        var positions: [[Int64]] = []
        positions.reserveCapacity(leaves.count)
        for leaf in leaves {
            var leafPositions = [Int64]()
            leafPositions.reserveCapacity(leaf.count)
            try forEachString(leaf, c) { v in leafPositions.append(Int64(seen.insert(v).position)) }
            if seen.count > maxDistinct { return (maxDistinct + 1, false) }
            positions.append(leafPositions)
        }
        let (sorted, rank) = seen.sorted()
        let list = EnumValueWriter(new: sorted)
        let kind = ColumnCells.Kind(columns[c], enumValues: list)
        for (leaf, leafPositions) in zip(leaves, positions) {
            leaf.cells[c] = ColumnCells(kind: kind, positions: leafPositions.map { rank[Int($0)] })
            leaf.dirty[c] = true
            leaf.removalPending[c] = false
        }
        cellKinds[c] = kind
        enumValues[c] = list
        isModified = true
        return (list.count, true)
    }

    /// Calls `body` with the value of column `c` of each object of `leaf`, in order: read in
    /// place from a committed leaf the transaction has not touched, else from its cells.
    private func forEachString(_ leaf: ClusterLeafEdit, _ c: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws(FormatError) -> Void) throws(FormatError) {
        if leaf.cells[c] == nil, !leaf.removalPending[c], case .string = cellKinds[c] {
            let reader = try StringLeafReader(snapshot, ref: try columnRef(leaf, c))
            guard reader.count == leaf.count else {
                throw .corrupt(offset: try columnRef(leaf, c), reason: "table '\(table.name)': column '\(table.columns[c].name)' holds \(reader.count) values for \(leaf.count) objects")
            }
            try reader.forEachValue(body)
            return
        }
        try cells(leaf, c).forEachString(body)
    }

    /// Spec slot 4 (§7.5): the value list of each enumerated column whose list is new or grew,
    /// in the has-refs array of one entry per public column, made with the first enumeration.
    private func writeEnumValueLists() throws(FormatError) {
        let changed = enumValues.filter { $0.value.isChanged }.sorted { $0.key < $1.key }
        guard !changed.isEmpty else { return }
        guard let spec = try transaction.child(top, 0), spec.hasRefs, spec.count >= 6 else {
            throw .corrupt(offset: table.ref, reason: "table '\(table.name)': no Spec")
        }
        let publicColumns = table.publicColumns.count
        let lists: MutableNode
        if let existing = try transaction.child(spec, 4) {
            guard existing.hasRefs, existing.count >= publicColumns else {
                throw .corrupt(offset: table.ref, reason: "table '\(table.name)': the string value lists do not cover every column")
            }
            lists = existing
        } else {
            lists = MutableNode(integers: [Int64](repeating: 0, count: publicColumns), hasRefs: true)
            spec.setChild(4, lists)
        }
        for (c, list) in changed {
            if let old = list.committedRef { try transaction.releaseSubtree(ref: old) }
            lists.setChild(table.columns[c].specIndex, try list.encode())
        }
    }

    /// Realm's merge rule (§8.3), applied to leaves that lost objects.
    private func mergeSmallLeaves() throws(FormatError) {
        var l = 0
        while l + 1 < leaves.count {
            let leaf = leaves[l], next = leaves[l + 1]
            if leaf.keysChanged && leaf.count < Self.mergeBelow && leaf.count + next.count < Self.mergedAtMost {
                try decodeAll(leaf)
                try decodeAll(next)
                leaf.keys += next.keys
                for c in columns.indices {
                    leaf.cells[c]!.append(contentsOf: next.cells[c]!)
                    leaf.dirty[c] = true
                }
                leaves.remove(at: l + 1)
                if next.originalRef != nil { droppedLeaves.append(next) }
                continue
            }
            l += 1
        }
    }

    /// Puts the next leaves of `level` (in tree order) under the committed inner node `node`
    /// and its inner descendants, and its slot 2 to the objects below it; returns that count.
    private func updateInnerNode(_ node: MutableNode, _ level: [TableEncoder.ClusterLevelEntry], _ next: inout Int,
                                 depth: Int) throws(FormatError) -> Int {
        guard depth < 64, node.isInner, node.hasRefs, node.count >= 3 else {
            throw .corrupt(offset: node.originalRef ?? 0, reason: "table '\(table.name)': malformed cluster inner node")
        }
        var size = 0
        for j in 3..<node.count {
            guard let childRef = node.loadedChild(j)?.originalRef ?? (node[j] != 0 && node[j] & 1 == 0 ? Int(node[j]) : nil) else {
                throw .corrupt(offset: node.originalRef ?? 0, reason: "table '\(table.name)': cluster inner node without a child in slot \(j)")
            }
            if try snapshot.node(childRef).isInner {
                guard let child = try transaction.child(node, j) else {
                    throw .corrupt(offset: childRef, reason: "table '\(table.name)': missing cluster inner node")
                }
                size += try updateInnerNode(child, level, &next, depth: depth + 1)
                continue
            }
            guard next < level.count, leaves[next].originalRef == childRef else {
                throw .corrupt(offset: childRef, reason: "table '\(table.name)': cluster leaves are not where they were read")
            }
            if case .node = level[next].child { TableEncoder.put(level[next].child, in: node, at: j) }
            size += level[next].size
            next += 1
        }
        if node.tagged(2) != Int64(size) { node.setTagged(2, Int64(size)) }
        return size
    }

    /// Releases the committed inner cluster nodes and their offset arrays (leaves are
    /// released one by one, as they are replaced).
    private func releaseInnerNodes(_ ref: Int) throws(FormatError) {
        let node = try snapshot.node(ref)
        guard node.isInner else { return }
        try transaction.releaseNode(ref: ref)
        if let offsets = node.ref(0) { try transaction.releaseNode(ref: offsets) }
        for j in 3..<max(node.count, 3) {
            if let child = node.ref(j) { try releaseInnerNodes(child) }
        }
    }

    // MARK: leaves

    /// The leaf whose key range holds `key`: the last one with base ≤ key (§8.4).
    private func leafIndex(for key: Int64) -> Int {
        // The leaf of the previous lookup, when it is still the answer (an update reads and
        // sets one object, then usually the next in the same leaf); checked against the
        // leaves as they are now, so changes to the leaves cannot make it wrong.
        let last = lastLeafIndex
        if last < leaves.count, leaves[last].base <= key, last + 1 == leaves.count || leaves[last + 1].base > key { return last }
        let found = searchLeafIndex(for: key)
        lastLeafIndex = found
        return found
    }

    private func searchLeafIndex(for key: Int64) -> Int {
        var lo = 0, hi = leaves.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if leaves[mid].base <= key { lo = mid + 1 } else { hi = mid }
        }
        return max(lo - 1, 0)
    }

    private func locate(_ key: Int64) -> (ClusterLeafEdit, Int)? {
        let leaf = leaves[leafIndex(for: key)]
        return leaf.row(of: key).map { (leaf, $0) }
    }

    /// The cells of column `c` in `leaf`, decoded on first use (only the rows that stay when
    /// a removal is pending for the column).
    private func cells(_ leaf: ClusterLeafEdit, _ c: Int) throws(FormatError) -> ColumnCells {
        if let values = leaf.cells[c] { return values }
        let keep = leaf.removalPending[c] ? leaf.removalMask : nil
        let values = try ColumnCells.decode(snapshot, ref: try columnRef(leaf, c), kind: cellKinds[c], column: table.columns[c],
                                            of: table, expected: keep?.count ?? leaf.count, keeping: keep)
        leaf.cells[c] = values
        leaf.removalPending[c] = false
        return values
    }

    /// The committed array of column `c` in `leaf`.
    private func columnRef(_ leaf: ClusterLeafEdit, _ c: Int) throws(FormatError) -> Int {
        guard let ref = leaf.originalColumnRef(table.columns[c].leafIndex) else {
            throw .corrupt(offset: leaf.originalRef ?? 0, reason: "table '\(table.name)': no data for column '\(table.columns[c].name)'")
        }
        return ref
    }

    private func decodeAll(_ leaf: ClusterLeafEdit) throws(FormatError) {
        guard !leaf.allDecoded else { return }
        for c in columns.indices {
            _ = try cells(leaf, c)
            try checkWritable(leaf, c)
        }
        leaf.allDecoded = true
    }

    private func checkWritable(_ leaf: ClusterLeafEdit, _ c: Int) throws(FormatError) {
        if let problem = unwritable[c] { throw problem }
    }

    // MARK: indexes

    private func indexRoot(_ c: Int) throws(FormatError) -> MutableNode {
        if let root = indexRoots[c] { return root }
        guard let indexes = try transaction.child(top, 4),
              let root = try transaction.child(indexes, columns[c].key.leafIndex) else {
            throw .corrupt(offset: table.ref, reason: "table '\(table.name)': column '\(columns[c].name)' has no search index")
        }
        indexRoots[c] = root
        return root
    }

    private func indexWriter(_ c: Int) -> SearchIndexWriter {
        SearchIndexWriter(columnType: columns[c].type, nodes: transaction) { [unowned self] k throws(FormatError) in
            try self.value(k, column: c)
        }
    }

    /// Replaces the index of column `c` by one holding every object now in the table (§12.4:
    /// the same entries, whatever order built them); the old tree's space is released.
    private func rebuildIndex(_ c: Int) throws(FormatError) {
        var entries: PendingIndexEntries
        if let (values, keys) = try keptIntEntries(column: c) {
            // A required int column (a primary key): values and ObjKeys as plain arrays.
            entries = PendingIndexEntries(ints: values, keys: keys)
        } else {
            entries = PendingIndexEntries()
            for leaf in leaves {
                let values = try cells(leaf, c)
                for (row, key) in leaf.keys.enumerated() { entries.append(values[row], key: key) }
            }
        }
        try transaction.releaseSubtree(try indexRoot(c))
        indexRoots[c] = SearchIndexWriter.makeEmpty()
        // The rebuilt index holds every object, new ones included.
        if c == primaryKeyColumn { pendingPrimaryKeys = PendingPrimaryKeys() }
        pendingIndex[c] = entries
        try flushPendingIndex(c)
    }

    /// Every object's value and ObjKey of a required int column, in leaf order, read in place
    /// from the leaves still on disk (only the kept rows where a removal is pending, as
    /// `ColumnCells.decode` reads them) or taken from cells held as ints; nil when some leaf
    /// is in another state (the general path boxes the values).
    private func keptIntEntries(column c: Int) throws(FormatError) -> (values: [Int64], keys: [Int64])? {
        guard cellKinds[c] == .int else { return nil }
        var values = [Int64](), keys = [Int64]()
        values.reserveCapacity(objectCount)
        keys.reserveCapacity(objectCount)
        for leaf in leaves {
            if let cells = leaf.cells[c] {
                guard let ints = cells.intValues, ints.count == leaf.keys.count else { return nil }
                values += ints
            } else {
                let node = try snapshot.plainInts(try columnRef(leaf, c))
                let start = values.count
                if leaf.removalPending[c] {
                    guard let keep = leaf.removalMask, node.count == keep.count else { return nil }
                    for i in 0..<node.count where keep[i] { values.append(node.int(i)) }
                } else {
                    for i in 0..<node.count { values.append(node.int(i)) }
                }
                guard values.count - start == leaf.keys.count else { return nil }
            }
            keys += leaf.keys
        }
        return (values, keys)
    }

    /// Puts the pending entries of column `c` into its tree, in index-key order.
    private func flushPendingIndex(_ c: Int) throws(FormatError) {
        guard let pending = pendingIndex.removeValue(forKey: c), !pending.isEmpty else { return }
        if c == primaryKeyColumn { pendingPrimaryKeys = PendingPrimaryKeys() }
        let type = columns[c].type
        let intsOnly = pending.values == nil && type == .int
        // Ordered by the keys of the first two levels (§12.3), then ObjKey.
        var levelKeys: [(Int32, Int32)] = []
        levelKeys.reserveCapacity(pending.count)
        if intsOnly {
            for v in pending.ints { levelKeys.append((IndexKey.key(int: v, offset: 0), IndexKey.key(int: v, offset: 4))) }
        } else {
            for i in 0..<pending.count {
                let value = pending.value(i)
                if case let .int(v) = value, type == .int {
                    levelKeys.append((IndexKey.key(int: v, offset: 0), IndexKey.key(int: v, offset: 4)))
                    continue
                }
                let data = IndexKey.bytes(of: value, columnType: type) ?? .null
                levelKeys.append((IndexKey.key(data, offset: 0), IndexKey.key(data, offset: 4)))
            }
        }
        let order = IndexEntryOrder.permutation(levelKeys: levelKeys, objKeys: pending.keys)
        let writer = indexWriter(c)
        var root = try indexRoot(c)
        let unique = c == primaryKeyColumn
        if !root.isInner && root.count == 1 {
            // An empty index (a new table, a rebuild): built level by level, the same tree.
            snapshot.resetWorkBudget()
            let built = intsOnly ? try writer.build(ints: pending.ints, keys: pending.keys, order: order, unique: unique)
                : try writer.build(pending.pairs, order: order, unique: unique)
            try transaction.releaseSubtree(root)
            indexRoots[c] = built
            return
        }
        for i in order {
            snapshot.resetWorkBudget()
            root = try writer.insert(pending.value(i), objKey: pending.keys[i], into: root, unique: unique)
        }
        indexRoots[c] = root
    }

    private func indexErase(_ value: Value, key: Int64, column c: Int) throws(FormatError) {
        indexRoots[c] = try indexWriter(c).erase(value, objKey: key, from: try indexRoot(c))
    }

    private func missing(_ key: Int64) -> FormatError {
        .cannotWrite(reason: "table '\(table.name)' has no object with key \(key)")
    }
}
