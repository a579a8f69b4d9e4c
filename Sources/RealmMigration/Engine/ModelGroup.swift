import RealmFormat
import RealmObjects

/// Every table of a file in memory, by position in the group, with Realm Core's schema
/// operations on them (realm-format.md §7, object-store.md §9–§10): columns get keys as
/// `Table::generate_col_key` makes them (the lowest free leaf index, the tag from the table's
/// column-key sequence, which every removal bumps), link columns get their backlink columns,
/// removed tables leave a tagged slot. `modified` collects the positions of changed tables.
struct ModelGroup {
    /// nil: a removed table's slot.
    var tables: [TableModel?]
    /// Generation tags of removed slots (§7.2), for the next table created there.
    var removedTags: [Int: UInt32]
    var modified: Set<Int> = []
    /// The file the tables were read from, and what changed since: columns whose values were
    /// set, tables whose objects were deleted. Other indexes are copied from it, not rebuilt.
    let source: Snapshot
    var changedColumns = Set<LinkColumn>()
    var changedObjects = Set<Int>()

    init(snapshot: Snapshot) throws(FormatError) {
        source = snapshot
        guard let top = snapshot.top else { throw .cannotWrite(reason: "nothing has been committed to it yet") }
        let list = try snapshot.node(top.tablesRef)
        var tables = [TableModel?](repeating: nil, count: list.count)
        var removed = [Int: UInt32]()
        for i in 0..<list.count {
            if let tag = list.tagged(i) { removed[i] = UInt32(truncatingIfNeeded: tag) }
        }
        for table in snapshot.tables {
            if table.columns.contains(where: { $0.attributes.contains(.fullText) }) {
                throw .cannotWrite(reason: "table '\(table.name)' has a full-text index, which realmsh does not write yet")
            }
            tables[table.position] = try snapshot.tableModel(table)
        }
        self.tables = tables
        removedTags = removed
    }

    // MARK: lookup

    static func tableName(_ className: String) -> String { RealmFile.classPrefix + className }

    func position(ofClass name: String) -> Int? {
        let tableName = Self.tableName(name)
        return tables.firstIndex { $0?.name == tableName }
    }

    func position(of key: TableKey) -> Int? {
        let p = Int(key.value & 0xFFFF)
        return p < tables.count && tables[p]?.key == key ? p : nil
    }

    func className(at position: Int) -> String? {
        guard let name = tables[position]?.name, name.hasPrefix(RealmFile.classPrefix) else { return nil }
        return String(name.dropFirst(RealmFile.classPrefix.count))
    }

    /// Class name → position, for every `class_` table.
    var classPositions: [String: Int] {
        var out = [String: Int]()
        for p in tables.indices { if let n = className(at: p) { out[n] = p } }
        return out
    }

    /// The schema as `ObjectStore::schema_from_group` reads it: `indexed` is "has an index".
    func classSpecs() -> [ClassSpec] {
        var out = [ClassSpec]()
        for p in tables.indices {
            guard let m = tables[p], let name = className(at: p), m.kind != .asymmetric else { continue }
            let properties = m.columns.filter { !$0.isBacklink }.map { c in
                PropertySpec(name: c.name, type: c.type, collection: c.collection, nullable: c.isNullable,
                             objectType: c.type == .link ? c.targetTable.flatMap { position(of: $0) }.flatMap { className(at: $0) } : nil,
                             indexed: c.isIndexed || c.key == m.primaryKey, isPrimary: c.key == m.primaryKey)
            }
            let pk = m.primaryKey.flatMap { k in m.columns.first { $0.key == k }?.name }
            out.append(ClassSpec(name: name, embedded: m.kind == .embedded, primaryKey: pk, properties: properties))
        }
        return ClassSpec.sortedByName(out)
    }

    /// Whether the column's index was asked for (the Spec's Indexed bit, §7.7), rather than
    /// being only the primary key's.
    static func explicitlyIndexed(_ c: TableModel.ColumnModel, in m: TableModel) -> Bool {
        c.specAttributes & Int64(ColumnAttributes.indexed.rawValue) != 0 || (c.isIndexed && c.key != m.primaryKey)
    }

    // MARK: tables

    /// `Group::add_table` / `add_table_with_primary_key` (§7.2): the first removed slot is
    /// reused with its tag, else a new slot with tag 0; a primary-key column is created with
    /// the table (its index without the Indexed bit).
    @discardableResult
    mutating func addTable(_ spec: ClassSpec) throws(MigrationFailure) -> Int {
        let position: Int
        let tag: UInt32
        if let free = tables.indices.first(where: { tables[$0] == nil }) {
            position = free
            tag = removedTags[free] ?? 0
            removedTags[free] = nil
        } else {
            position = tables.count
            tag = 0
            tables.append(nil)
        }
        tables[position] = TableModel(name: Self.tableName(spec.name), key: TableKey(value: tag << 16 | UInt32(position)),
                                      kind: spec.embedded ? .embedded : .topLevel, columns: [], primaryKey: nil)
        modified.insert(position)
        if let pkName = spec.primaryKey, let pk = spec.property(pkName) {
            let c = try insertColumn(position, pk)
            tables[position]!.columns[c].isIndexed = true
            tables[position]!.primaryKey = tables[position]!.columns[c].key
        }
        return position
    }

    /// `Group::remove_table`: its columns go first (so link targets lose their backlink
    /// columns), then the slot keeps the next tag.
    mutating func removeTable(_ position: Int) {
        guard let m = tables[position] else { return }
        for c in m.columns where !c.isBacklink && c.type == .link { removeColumn(position, key: c.key) }
        removedTags[position] = ((m.key.value >> 16) + 1) & 0x7FFF
        tables[position] = nil
        modified.remove(position)
    }

    mutating func renameTable(_ position: Int, toClass name: String) {
        tables[position]!.name = Self.tableName(name)
        modified.insert(position)
    }

    // MARK: columns

    /// The column key `Table::generate_col_key` gives a new column now.
    func nextColumnKey(_ position: Int, type: ColumnType, attributes: ColumnAttributes) -> ColumnKey {
        SchemaBuilder.newColumnKey(in: tables[position]!, type: type, attributes: attributes)
    }

    /// The object store's `add_column`: a new column after the other public columns, holding
    /// every object's empty value; a link column adds its backlink column to the target (after
    /// its other columns); an index asked for (or a primary key's) is added with the Indexed bit.
    @discardableResult
    mutating func addColumn(_ position: Int, _ p: PropertySpec) throws(MigrationFailure) -> Int {
        let c = try insertColumn(position, p)
        if p.requiresIndex { addIndex(position, column: c) }
        return c
    }

    /// `Table::add_column` (no index).
    private mutating func insertColumn(_ position: Int, _ p: PropertySpec) throws(MigrationFailure) -> Int {
        var attributes = ColumnAttributes()
        switch p.collection {
        case .list?: attributes.insert(.list)
        case .set?: attributes.insert(.set)
        case .dictionary?: attributes.insert(.dictionary)
        case nil: break
        }
        if PropertySpec.storedNullability(type: p.type, collection: p.collection, optional: p.nullable) { attributes.insert(.nullable) }
        var target: Int?
        if p.type == .link {
            guard let name = p.objectType, let t = self.position(ofClass: name) else {
                throw MigrationFailure("\(className(at: position) ?? "?").\(p.name) links to a class that does not exist")
            }
            target = t
        }
        let key = nextColumnKey(position, type: p.type, attributes: attributes)
        var column = TableModel.ColumnModel(name: p.name, type: p.type, attributes: attributes, key: key,
                                            specType: Int64(p.type.rawValue) | (p.collection == .dictionary ? 2 << 16 : 0),
                                            specAttributes: Int64(attributes.rawValue), targetTable: nil, oppositeColumn: nil,
                                            isIndexed: false)
        var m = tables[position]!
        let at = m.columns.firstIndex { $0.isBacklink } ?? m.columns.count
        if let target {
            column.targetTable = tables[target]!.key
            m.columns.insert(column, at: at)
            m.values.insert([Value](repeating: TableModel.defaultValue(for: column), count: m.objectCount), at: at)
            tables[position] = m
            // The backlink column is made after the link column (a link to its own table takes
            // the next leaf index).
            let backlinkKey = nextColumnKey(target, type: .backlink, attributes: [])
            tables[position]!.columns[at].oppositeColumn = backlinkKey
            var t = tables[target]!
            t.columns.append(TableModel.ColumnModel(name: "", type: .backlink, attributes: [], key: backlinkKey,
                                                    specType: Int64(ColumnType.backlink.rawValue), specAttributes: 0,
                                                    targetTable: tables[position]!.key, oppositeColumn: key, isIndexed: false))
            t.values.append([Value](repeating: .list([]), count: t.objectCount))
            tables[target] = t
            modified.insert(target)
        } else {
            m.columns.insert(column, at: at)
            m.values.insert([Value](repeating: TableModel.defaultValue(for: column), count: m.objectCount), at: at)
            tables[position] = m
        }
        modified.insert(position)
        return at
    }

    /// `Table::remove_column`: a primary key stops being one; a link column takes its backlink
    /// column in the target with it; each table that loses a column bumps its column-key sequence.
    mutating func removeColumn(_ position: Int, key: ColumnKey) {
        guard var m = tables[position], let c = m.columnIndex(key: key) else { return }
        if m.primaryKey == key { m.primaryKey = nil }
        let column = m.columns[c]
        m.columns.remove(at: c)
        m.values.remove(at: c)
        m.columnKeySequence += 1
        tables[position] = m
        modified.insert(position)
        if column.type == .link, !column.isBacklink, let tk = column.targetTable, let t = self.position(of: tk),
           let opposite = column.oppositeColumn, var target = tables[t], let b = target.columnIndex(key: opposite) {
            target.columns.remove(at: b)
            target.values.remove(at: b)
            target.columnKeySequence += 1
            tables[t] = target
            modified.insert(t)
        }
    }

    mutating func removeColumn(_ position: Int, named name: String) {
        guard let m = tables[position], let c = m.columnIndex(named: name) else { return }
        removeColumn(position, key: m.columns[c].key)
    }

    mutating func renameColumn(_ position: Int, from: String, to: String) {
        guard let c = tables[position]?.columnIndex(named: from) else { return }
        tables[position]!.columns[c].name = to
        modified.insert(position)
    }

    /// `Table::set_nullability(col, true)` (required → optional keeps the values): a new column
    /// (new key) is made at the end of the public columns with the old values, the old one is
    /// removed and the new one takes its name. The index stays, without the Indexed bit.
    mutating func makeNullable(_ position: Int, named name: String) {
        guard let old = tables[position]?.columnIndex(named: name) else { return }
        let column = tables[position]!.columns[old]
        var attributes = column.attributes
        attributes.insert(.nullable)
        let key = nextColumnKey(position, type: column.type, attributes: attributes)
        var m = tables[position]!
        let at = m.columns.firstIndex { $0.isBacklink } ?? m.columns.count
        var made = column
        made.key = key
        made.attributes = attributes
        made.specAttributes = Int64(attributes.rawValue)
        m.columns.insert(made, at: at)
        m.values.insert(m.values[old], at: at)
        let wasPrimary = m.primaryKey == column.key
        tables[position] = m
        removeColumn(position, key: column.key)
        if wasPrimary { tables[position]!.primaryKey = key }
    }

    /// `Table::add_search_index`: the index and the Spec's Indexed bit.
    mutating func addIndex(_ position: Int, column c: Int) {
        tables[position]!.columns[c].isIndexed = true
        tables[position]!.columns[c].specAttributes |= Int64(ColumnAttributes.indexed.rawValue)
        modified.insert(position)
    }

    /// `Table::remove_search_index`.
    mutating func removeIndex(_ position: Int, column c: Int) {
        tables[position]!.columns[c].isIndexed = false
        tables[position]!.columns[c].specAttributes &= ~Int64(ColumnAttributes.indexed.rawValue | ColumnAttributes.fullText.rawValue)
        modified.insert(position)
    }

    /// `Table::set_primary_key_column`: the old key column loses the index it had only as the
    /// primary key; the new one gets an index (without the Indexed bit). Values must be unique:
    /// the duplicates found are returned (rows of the first two objects sharing a value) and
    /// nothing changes.
    mutating func setPrimaryKey(_ position: Int, named name: String?) -> (first: Int, second: Int)? {
        var m = tables[position]!
        let key = name.flatMap { n in m.columnIndex(named: n) }.map { m.columns[$0].key }
        if key == m.primaryKey { return nil }
        if let key, let c = m.columnIndex(key: key), let duplicate = Self.firstDuplicate(m.values[c]) { return duplicate }
        if let old = m.primaryKey, let c = m.columnIndex(key: old), m.columns[c].specAttributes & Int64(ColumnAttributes.indexed.rawValue) == 0 {
            m.columns[c].isIndexed = false
        }
        m.primaryKey = key
        if let key, let c = m.columnIndex(key: key) { m.columns[c].isIndexed = true }
        tables[position] = m
        modified.insert(position)
        return nil
    }

    /// Rows of the first two values that are equal (in the sense of primary-key lookup).
    static func firstDuplicate(_ values: [Value]) -> (first: Int, second: Int)? {
        var seen = [PrimaryKey: Int]()
        seen.reserveCapacity(values.count)
        for (row, v) in values.enumerated() {
            guard let k = PrimaryKey(v) else { continue }
            if let first = seen.updateValue(row, forKey: k) { return (first, row) }
        }
        return nil
    }

    // MARK: writing

    /// A fresh file in normal form holding every table (realm-format.md §13.7), at `version`.
    func encode(version: UInt64) throws(FormatError) -> [UInt8] {
        var names = [String]()
        var slots = [NewFile.TableSlot]()
        for (p, table) in tables.enumerated() {
            if let table {
                names.append(table.name)
                slots.append(.table(try TableEncoder.encode(table, indexes: try unchangedIndexes(p))))
            } else {
                names.append("")
                slots.append(.removed(tag: removedTags[p] ?? 0))
            }
        }
        return NewFile.bytes(tableNames: names, slots: slots, version: version)
    }
}

extension ModelGroup {
    /// The indexes of the table at `position` that can be copied from the source file: the
    /// table's objects and the column's values are as they were read. Copying keeps the index
    /// trees Realm built, as Realm keeps them when other columns change.
    func unchangedIndexes(_ position: Int) throws(FormatError) -> [ColumnKey: MutableNode] {
        guard let model = tables[position], !changedObjects.contains(position),
              let original = source.tables.first(where: { $0.position == position }), original.key == model.key else { return [:] }
        var out = [ColumnKey: MutableNode]()
        for c in model.columns where c.isIndexed || c.key == model.primaryKey {
            guard !changedColumns.contains(LinkColumn(table: position, column: c.key)), let column = original.column(key: c.key),
                  let ref = column.searchIndexRef, column.hasSearchIndex else { continue }
            source.resetWorkBudget()
            out[c.key] = try Self.loadTree(source, ref, depth: 0)
        }
        return out
    }

    /// A subtree of the source file as new nodes, each array at least as wide as it was.
    static func loadTree(_ snapshot: Snapshot, _ ref: Int, depth: Int) throws(FormatError) -> MutableNode {
        guard depth < 64 else { throw .corrupt(offset: ref, reason: "search index nested too deep to copy") }
        let node = try snapshot.node(ref)
        let copy = MutableNode(loading: node)
        copy.minimumWidth = node.width
        if node.hasRefs {
            for i in 0..<node.count {
                if let r = node.ref(i) { copy.setChild(i, try loadTree(snapshot, r, depth: depth + 1)) }
            }
        }
        return copy
    }
}

/// A migration that cannot be carried out (a problem of the file or the plan, not of one
/// object).
public struct MigrationFailure: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    init(_ message: String) { self.message = message }
}
