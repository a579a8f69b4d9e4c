import RealmFormat

/// The tables of one snapshot as queries see them: class names, objects in key order, and
/// column values decoded on first use and kept for the life of the query. Queries work on
/// RealmFormat's tables directly: a class is the table `class_<Name>` (or, in a file without
/// any `class_` table or `metadata`, the table of that name, as realmsh's raw form shows it).
///
/// The store owns its `TableData`s; a `TableData` does not point back (it holds the snapshot
/// itself), so one taken from a store that is then released stays valid, and the two never
/// form a reference cycle. Whatever follows links from table to table (key paths, SORT through
/// links, typed links in Mixed) asks the store, which it holds.
public final class ObjectStore {
    public let snapshot: Snapshot
    /// The first table asked for (most queries use only their class), then any others by
    /// position: no dictionary is made for a one-class query.
    private var firstTable: TableData?
    private var tablesByPosition: [Int: TableData] = [:]

    public init(snapshot: Snapshot) {
        self.snapshot = snapshot
    }

    /// Whether the file has neither `class_` tables nor `metadata` (decided when first asked:
    /// most queries name a class that exists, and never need it).
    lazy var isRawForm: Bool = !snapshot.tables.contains { $0.name.hasPrefix("class_") || $0.name == "metadata" }

    /// The class names of the file, as `realmsh schema` lists them.
    public var classNames: [String] {
        snapshot.tables.filter { isRawForm || $0.name.hasPrefix("class_") }.map(className)
    }

    func className(_ table: Table) -> String { Self.className(table) }

    static func className(_ table: Table) -> String {
        table.name.hasPrefix("class_") ? String(table.name.dropFirst(6)) : table.name
    }

    /// The table of a class; the name may also be given with its `class_` prefix.
    public func table(className name: String) -> TableData? {
        if let t = snapshot.table(named: "class_" + name) { return data(t) }
        if isRawForm || name.hasPrefix("class_"), let t = snapshot.table(named: name) { return data(t) }
        return nil
    }

    /// `@links.<Class>.<property>` names the class without its prefix (realm-core adds it).
    func table(backlinkClass name: String) -> TableData? {
        snapshot.table(named: "class_" + name).map(data)
    }

    func table(key: TableKey) -> TableData? { snapshot.table(key: key).map(data) }

    /// The table a link or backlink column points to.
    func target(of column: Column) -> TableData? {
        column.targetTable.flatMap { table(key: $0) }
    }

    func data(_ table: Table) -> TableData {
        guard let first = firstTable else {
            let d = TableData(snapshot: snapshot, table: table)
            firstTable = d
            return d
        }
        if first.table.position == table.position { return first }
        if let d = tablesByPosition[table.position] { return d }
        let d = TableData(snapshot: snapshot, table: table)
        tablesByPosition[table.position] = d
        return d
    }
}

/// One table's objects: keys in table order (ascending ObjKey), the row of a key, and whole
/// columns decoded on demand (one value per object; collections as `.list`/`.dictionary`).
public final class TableData {
    let snapshot: Snapshot
    public let table: Table
    /// Made when first asked (error messages, key paths through links): not for every query.
    public private(set) lazy var className: String = ObjectStore.className(table)
    // The caches marked unchecked are only filled in, never accessed reentrantly: single-object
    // reads (primary keys, values by row) would pay a dynamic exclusivity check on each.
    @exclusivity(unchecked) private var leafCache: [(leaf: ClusterLeaf, start: Int)]?
    @exclusivity(unchecked) private var leafKeyIndexCache: LeafKeyIndex?
    /// The same, unretained, for single-object reads (`withKeptLeafKeyIndex`): the strong
    /// reference in `leafKeyIndexCache`, never replaced once set, keeps it alive as long as
    /// this table.
    @exclusivity(unchecked) private var leafKeyIndexUnretained: Unmanaged<LeafKeyIndex>?
    private var refsByLeafIndex: [[Int]?] = []
    /// The primary-key column, looked up once (`Table.primaryKeyColumn` searches the columns).
    lazy var primaryKeyColumn: Column? = table.primaryKeyColumn
    /// The fast int primary-key path, once decided (nil inside: not available).
    @exclusivity(unchecked) var intPrimaryKey: IntPrimaryKeyIndex?? {
        didSet { intPrimaryKeyUnretained = (intPrimaryKey ?? nil).map { Unmanaged.passUnretained($0) } }
    }
    /// The made index, unretained (`row(primaryKey:)`); `intPrimaryKey` holds it.
    @exclusivity(unchecked) private(set) var intPrimaryKeyUnretained: Unmanaged<IntPrimaryKeyIndex>?
    /// Int columns read whole, by leaf index, once asked for (nil inside: not available).
    @exclusivity(unchecked) private var integerColumnsByLeafIndex: [IntegerColumn??] = [] {
        didSet { integerColumnsUnretained = integerColumnsByLeafIndex.map { ($0 ?? nil).map { Unmanaged.passUnretained($0) } } }
    }
    /// The same, unretained, for single-object reads (`withKeptIntegerColumn`): the entries of
    /// `integerColumnsByLeafIndex`, each set once, keep them alive as long as this table.
    @exclusivity(unchecked) private var integerColumnsUnretained: [Unmanaged<IntegerColumn>?] = []
    private var keyCache: [Int64]?
    private var rowByKey: [Int64: Int]?
    private var columnCache: [Int64: [Value]] = [:]
    private var backlinkCache: [Int64: [[Int64]]] = [:]
    private var backlinkTotals: [Int]?

    init(snapshot: Snapshot, table: Table) {
        self.snapshot = snapshot
        self.table = table
    }

    /// Opening a format-22 file deletes the objects of asymmetric tables (§16.3).
    var isHidden: Bool { snapshot.fileFormat == 22 && table.kind == .asymmetric }

    /// The cluster leaves with the row number of their first object.
    func leaves() throws -> [(leaf: ClusterLeaf, start: Int)] {
        if let l = leafCache { return l }
        var out = [(leaf: ClusterLeaf, start: Int)]()
        if let root = table.clusterRef, !isHidden { out = try snapshot.clusterLeaves(rootRef: root) }
        leafCache = out
        return out
    }

    /// The leaves' first rows and last keys as flat arrays (LeafKeyIndex), made on first use.
    func leafKeyIndex() throws -> LeafKeyIndex {
        if let i = leafKeyIndexCache { return i }
        let i = LeafKeyIndex(try leaves())
        leafKeyIndexCache = i
        leafKeyIndexUnretained = Unmanaged.passUnretained(i)
        return i
    }

    /// `body` given the kept `LeafKeyIndex` borrowed rather than retained (made first if it was
    /// not yet): a single-object read then counts no reference.
    @inline(__always)
    func withKeptLeafKeyIndex<R>(_ body: (LeafKeyIndex) throws -> R) throws -> R {
        if let kept = leafKeyIndexUnretained { return try kept._withUnsafeGuaranteedRef(body) }
        return try body(try leafKeyIndex())
    }

    /// `keptIntegerColumn(column)` when it was already made and is available, borrowed rather
    /// than retained, else nil.
    @inline(__always)
    func withMadeIntegerColumn<R>(_ column: Column, _ body: (IntegerColumn) throws -> R) rethrows -> R? {
        let k = column.leafIndex
        guard k >= 0, k < integerColumnsUnretained.count, let kept = integerColumnsUnretained[k] else { return nil }
        return try kept._withUnsafeGuaranteedRef(body)
    }

    /// The ref of `column`'s leaf in each cluster leaf, parallel to `leaves()` (0 where a leaf
    /// has none); kept by the snapshot (`Snapshot.columnRefs`).
    func columnRefs(_ column: Column) throws -> [Int] {
        let k = column.leafIndex
        if k < refsByLeafIndex.count, let refs = refsByLeafIndex[k] { return refs }
        guard let root = table.clusterRef, !isHidden else { return [] }
        let refs = try snapshot.columnRefs(rootRef: root, leafIndex: k)
        // Kept here too, by position: single-object reads ask for them once per object.
        if k >= 0 && k < 1 << 12 {
            if k >= refsByLeafIndex.count { refsByLeafIndex += Array(repeating: nil, count: k + 1 - refsByLeafIndex.count) }
            refsByLeafIndex[k] = refs
        }
        return refs
    }

    /// An int or bool property's leaves checked whole for scanning (`Snapshot.integerColumn`,
    /// kept by the snapshot); nil for collections, hidden tables and columns that fail a check
    /// (whose scans go leaf by leaf and report the damage).
    func integerColumn(_ column: Column, nullable: Bool) -> IntegerColumn? {
        guard column.collection == nil, let root = table.clusterRef, !isHidden else { return nil }
        return snapshot.integerColumn(rootRef: root, leafIndex: column.leafIndex, nullable: nullable)
    }

    /// `integerColumn` for a plain int property, kept here by leaf index: single-object reads
    /// ask for it once per object.
    func keptIntegerColumn(_ column: Column) -> IntegerColumn? {
        let k = column.leafIndex
        guard k >= 0, k < 1 << 12 else { return integerColumn(column, nullable: column.isNullable) }
        if k < integerColumnsByLeafIndex.count, let known = integerColumnsByLeafIndex[k] { return known }
        let c = integerColumn(column, nullable: column.isNullable)
        if k >= integerColumnsByLeafIndex.count {
            integerColumnsByLeafIndex += Array(repeating: nil, count: k + 1 - integerColumnsByLeafIndex.count)
        }
        integerColumnsByLeafIndex[k] = .some(c)
        return c
    }

    /// A plain string property's leaves checked whole for scanning (`Snapshot.stringColumn`,
    /// kept by the snapshot); nil as for `integerColumn`, and for enumerated columns.
    func stringColumn(_ column: Column) -> StringColumn? {
        guard column.collection == nil, column.type == .string, table.enumValuesRef(for: column) == nil,
              let root = table.clusterRef, !isHidden else { return nil }
        return snapshot.stringColumn(rootRef: root, leafIndex: column.leafIndex)
    }

    public func count() throws -> Int {
        let l = try leaves()
        guard let last = l.last else { return 0 }
        return last.start + last.leaf.count
    }

    /// ObjKeys in table order.
    public func keys() throws -> [Int64] {
        if let k = keyCache { return k }
        let leaves = try leaves()
        var out = [Int64]()
        out.reserveCapacity(leaves.last.map { $0.start + $0.leaf.count } ?? 0)
        for (leaf, _) in leaves { leaf.appendObjectKeys(to: &out) }
        keyCache = out
        return out
    }

    /// The row of an object, nil when no object has that key.
    func row(of key: Int64) throws -> Int? {
        if rowByKey == nil {
            var map = [Int64: Int]()
            for (i, k) in try keys().enumerated() { map[k] = i }
            rowByKey = map
        }
        return rowByKey?[key]
    }

    public func column(named name: String) -> Column? { table.column(named: name) }

    /// All values of a column, one per object.
    func values(_ column: Column) throws -> [Value] {
        if let v = columnCache[column.key.value] { return v }
        var out = [Value]()
        out.reserveCapacity(try count())
        for (leaf, _) in try leaves() {
            out += try decode(column, in: leaf)
        }
        columnCache[column.key.value] = out
        return out
    }

    func value(_ column: Column, row: Int) throws -> Value {
        let all = try values(column)
        return row < all.count ? all[row] : .null
    }

    /// The values of one column in one cluster leaf, checked to hold one value per object.
    func decode(_ column: Column, in leaf: ClusterLeaf) throws -> [Value] {
        guard let ref = leaf.columnRef(column.leafIndex) else {
            throw FormatError.corrupt(offset: leaf.node.ref, reason: "class '\(className)': no data for property '\(column.name)'")
        }
        let values: [Value]
        if column.collection != nil {
            let refs = try snapshot.node(ref)
            guard refs.hasRefs else {
                throw FormatError.corrupt(offset: ref, reason: "class '\(className)': collection column '\(column.name)' is not a ref array")
            }
            values = try (0..<refs.count).map { i throws(FormatError) in try snapshot.decodeCollection(refs.ref(i), column: column) }
        } else {
            values = try snapshot.decodeLeaf(ref, type: column.type, nullable: column.isNullable, context: .cluster,
                                             enumValues: table.enumValuesRef(for: column))
        }
        guard values.count == leaf.count else {
            throw FormatError.corrupt(offset: ref, reason: "class '\(className)': property '\(column.name)' holds \(values.count) values for \(leaf.count) objects")
        }
        return values
    }

    /// The origin ObjKeys of each object's backlinks through one backlink column.
    func backlinks(_ column: Column) throws -> [[Int64]] {
        if let b = backlinkCache[column.key.value] { return b }
        var out = [[Int64]]()
        for (leaf, _) in try leaves() {
            guard let ref = leaf.columnRef(column.leafIndex) else {
                out += Array(repeating: [], count: leaf.count)
                continue
            }
            let cells = try snapshot.decodeBacklinks(ref)
            guard cells.count == leaf.count else {
                throw FormatError.corrupt(offset: ref, reason: "class '\(className)': backlink column holds \(cells.count) cells for \(leaf.count) objects")
            }
            out += cells
        }
        backlinkCache[column.key.value] = out
        return out
    }

    /// The number of links to each object from all classes and properties (`@links.@count`).
    func totalBacklinks(row: Int) throws -> Int {
        if backlinkTotals == nil {
            var totals = [Int](repeating: 0, count: try count())
            for c in table.backlinkColumns {
                for (i, cell) in try backlinks(c).enumerated() where i < totals.count { totals[i] += cell.count }
            }
            backlinkTotals = totals
        }
        return row < backlinkTotals!.count ? backlinkTotals![row] : 0
    }

    /// The backlink column of this table that mirrors `originColumn` of `origin`.
    func backlinkColumn(from origin: TableData, column originColumn: Column) -> Column? {
        table.backlinkColumns.first { $0.targetTable == origin.table.key && $0.oppositeColumn == originColumn.key }
    }
}
