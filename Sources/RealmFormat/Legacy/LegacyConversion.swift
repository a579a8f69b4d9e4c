/// A format 2–9 group converted to tables of today's layout, as Realm Core 13 upgrades it
/// (legacy-formats.md §8; Core 5.23.9 first takes formats 2–4 to 9, §8.1):
/// * every table but `pk` keeps its group position as TableKey; `pk` becomes primary keys
///   (indexed) and its slot a removed one;
/// * a row's position becomes its ObjKey, so objects keep their stored order;
/// * empty column names become `col_N`, repeated ones `name_N` (N: the Spec position);
/// * enumerated strings become plain strings, DateTime columns timestamps (seconds, 0);
/// * a one-column subtable column becomes a list of that column's type; link lists lists of
///   links; links stay links (nullable);
/// * backlinks are rebuilt from the links, as Core 13 rebuilds them;
/// * `!OID` and `!ROW_INDEX` (legacy sync and upgrade bookkeeping) are dropped, as Core 13's
///   `finalize_migration` drops them.
/// Where Core 13 loses data or gives up, the data is shown instead (§8.3): the old Mixed
/// column's values; a subtable of several columns as a list of embedded objects of a class
/// `<table>_<column>`; a `pk` table naming the key property by position (Realm Java 0.80).
/// An upgrade by Core 10–13 that was interrupted is finished the way Core 13 resumes it (§9).
struct LegacyConversion {
    /// One slot of the resulting group: a table or the slot `pk` leaves behind.
    enum Slot {
        case table(TableModel)
        case removed
    }

    let group: LegacyGroup
    /// Whether plain columns are kept by type (`LegacyTypedColumn`); false reads every column
    /// into `Value`s, the path the typed one is checked against.
    var keepsTypedColumns = true
    private(set) var names: [String] = []
    private(set) var slots: [Slot] = []
    /// The columns kept by type, per table; their `values` in the slot's model are empty
    /// (only `fileBytes` reads them).
    private(set) var typedColumns: [TableKey: [ColumnKey: LegacyTypedColumn]] = [:]

    /// Columns Core 13 removes at the end of its upgrade.
    static let droppedColumns: Set<String> = ["!OID", "!ROW_INDEX"]
    static let rowIndexColumn = "!ROW_INDEX"
    static let pkTableName = "pk"
    /// Core 13 keeps its progress in this table while it upgrades, and removes it at the end.
    static let progressTableName = "!UPDATE_PROGRESS"

    static func convert(_ group: LegacyGroup, keepingTypedColumns: Bool = true) throws(FormatError) -> LegacyConversion {
        var c = LegacyConversion(group: group)
        c.keepsTypedColumns = keepingTypedColumns
        try c.run()
        return c
    }

    // MARK: - Plans

    /// What one old column becomes.
    private struct ColumnPlan {
        let source: LegacySpec.Column
        var model: TableModel.ColumnModel
        /// The key the file gives the column (after Core's repair, §9), for opposite-column
        /// slots and cluster leaves of a half-upgraded table.
        var fileKey: ColumnKey
        /// Subtable of several columns: the embedded table (slot position) its rows go to.
        var embeddedTable: Int?
        /// Dropped at the end (`!OID`, `!ROW_INDEX`), but read while converting.
        var isDropped = false
    }

    /// One table being built: its columns, where its rows come from, its key.
    private struct TablePlan {
        let name: String
        let key: TableKey
        let kind: Table.Kind
        let spec: LegacySpec
        /// The old columns arrays whose rows, concatenated, are this table's objects (one for
        /// a table; one per subtable for an embedded table). Empty once an upgrade moved all.
        var rowSources: [LegacyRowSource]
        var rowCount: Int
        /// A half-upgraded table: objects and columns already moved (§9).
        var upgraded: Table?
        /// The interrupted upgrade had made the objects (they keep its keys).
        var objectsMoved = false
        var columns: [ColumnPlan] = []
        var primaryKey: ColumnKey?
    }

    private var plans: [Int: TablePlan] = [:]
    private var slotCount = 0

    private mutating func run() throws(FormatError) {
        slotCount = group.tables.count
        var pkPosition: Int?
        for t in group.tables where t.name != Self.progressTableName {
            let tableKey = TableKey(value: UInt32(t.position))
            var plan = TablePlan(name: t.name, key: tableKey, kind: .topLevel, spec: t.spec,
                                 rowSources: t.columns.map { [LegacyRowSource(columns: $0, hasIndexSlots: t.hasIndexSlots)] } ?? [],
                                 rowCount: t.rowCount, upgraded: t.upgraded)
            // Core 13 converts the keys of `pk` with table key 0 (Table::migrate_column_info).
            plan.columns = try columnPlans(t.spec, tableName: t.name, keys: t.upgraded == nil ? nil : t.columnKeys,
                                           key: t.name == Self.pkTableName ? TableKey(value: 0) : tableKey)
            plans[t.position] = plan
            if t.name == Self.pkTableName { pkPosition = t.position }
        }
        if let p = pkPosition {
            let pk = try rows(p)
            plans[p] = nil
            try applyPrimaryKeys(pk)
        }
        try linkColumnsToBacklinks()

        var models = [Int: TableModel]()
        for position in plans.keys.sorted() { models[position] = try rows(position) }
        try resolveLinks(&models)
        try rebuildBacklinks(&models)

        for position in 0..<slotCount {
            if let m = models[position] {
                names.append(m.name)
                slots.append(.table(Self.droppingBookkeeping(m)))
            } else {
                names.append("")
                slots.append(.removed)
            }
        }
    }

    /// Column names after Core 13's renaming: empty → `col_N`; a name an earlier column
    /// already has (after its own renaming) → `name_N`.
    static func renamedColumns(_ names: [String]) -> [String] {
        var out = names
        for i in out.indices {
            if out[i].isEmpty {
                out[i] = "col_\(i)"
            } else if out.firstIndex(of: out[i]) != i {
                out[i] += "_\(i)"
            }
        }
        return out
    }

    /// `keys`: the keys a half-done upgrade gave the columns (§9); otherwise each column's key
    /// starts as its Spec position (Spec::init).
    private mutating func columnPlans(_ spec: LegacySpec, tableName: String, keys: [Int64]? = nil, key: TableKey) throws(FormatError) -> [ColumnPlan] {
        let names = Self.renamedColumns(spec.publicColumns.map(\.name))
        var out = [ColumnPlan]()
        for c in spec.columns {
            var type: ColumnType
            // Keys never carry the indexed and unique bits (Spec::update_colkey).
            var attributes = ColumnAttributes(rawValue: Int(c.attributes) & ~0x3)
            var specType: Int64
            var embedded: Int?
            switch c.type {
            case .int, .bool, .string, .binary, .timestamp, .float, .double:
                type = ColumnType(rawValue: c.type.rawValue)!
                specType = Int64(c.type.rawValue)
            case .stringEnum:
                type = .string
                specType = Int64(ColumnType.string.rawValue)
            case .dateTime:
                type = .timestamp
                specType = Int64(ColumnType.timestamp.rawValue)
            case .mixed:
                type = .mixed
                attributes.insert(.nullable)
                specType = Int64(ColumnType.mixed.rawValue)
            case .link:
                type = .link
                attributes.insert(.nullable)
                specType = Int64(ColumnType.link.rawValue)
            case .linkList:
                // Core 14's upgrade turns ColKey type 13 into 12 + List; the Spec keeps 13 (§16.3).
                type = .link
                attributes.insert(.list)
                specType = Int64(ColumnType.linkList.rawValue)
            case .backlink:
                type = .backlink
                attributes = []
                specType = Int64(ColumnType.backlink.rawValue)
            case .table:
                let sub = c.subspec!
                if sub.columns.count == 1, let element = Self.listElementType(sub.columns[0].type) {
                    type = element
                    attributes.formUnion(ColumnAttributes(rawValue: Int(sub.columns[0].attributes) & 0x10))
                    attributes.insert(.list)
                    specType = Int64(element.rawValue)
                } else {
                    embedded = try planEmbeddedTable(sub, parent: tableName, column: names[c.index])
                    type = .link
                    attributes.insert(.list)
                    specType = Int64(ColumnType.linkList.rawValue)
                }
            }
            // Core 13 keeps a column's key when its type and attributes already match, and
            // otherwise makes (index, type, attributes, table key) (Spec::update_colkey); then
            // Core 14 turns a link list's type 13 into 12 (its attributes already say List).
            let existing = ColumnKey(value: keys?[c.index] ?? Int64(c.index))
            let coreType = c.type == .linkList || embedded != nil ? ColumnType.linkList.rawValue : type.rawValue
            let keyAttributes = Int64(attributes.rawValue & 0xFF)
            var keyValue = existing.value
            if existing.rawType != coreType || Int64(existing.attributes.rawValue) != keyAttributes {
                keyValue = Int64(existing.leafIndex) | Int64(coreType) << 16 | keyAttributes << 22 | Int64(key.value) << 30
            }
            if coreType == ColumnType.linkList.rawValue {
                keyValue = keyValue & ~(0x3F << 16) | Int64(ColumnType.link.rawValue) << 16
            }
            let indexed = c.isIndexed && c.type != .backlink
            let model = TableModel.ColumnModel(
                name: c.type == .backlink ? "" : names[c.index], type: type, attributes: attributes,
                key: ColumnKey(value: keyValue), specType: specType,
                specAttributes: Int64(attributes.rawValue) | (indexed ? 1 : 0),
                targetTable: nil, oppositeColumn: nil, isIndexed: indexed)
            out.append(ColumnPlan(source: c, model: model, fileKey: existing, embeddedTable: embedded,
                                  isDropped: c.type != .backlink && Self.droppedColumns.contains(c.name)))
        }
        return out
    }

    /// The element type of a list made from a one-column subtable.
    static func listElementType(_ type: LegacyColumnType) -> ColumnType? {
        switch type {
        case .int, .bool, .string, .binary, .timestamp, .float, .double, .mixed: return ColumnType(rawValue: type.rawValue)
        case .stringEnum: return .string
        case .dateTime: return .timestamp
        case .link, .linkList, .backlink, .table: return nil
        }
    }

    /// A subtable column of other than one column becomes a list of embedded objects; their
    /// class gets a new slot after the group's tables. Its rows are collected later.
    private mutating func planEmbeddedTable(_ spec: LegacySpec, parent: String, column: String) throws(FormatError) -> Int {
        if spec.columns.contains(where: { [.link, .linkList, .backlink].contains($0.type) }) {
            throw .corrupt(offset: spec.ref, reason: "table '\(parent)': subtable column '\(column)' has link columns, which Realm never allowed in subtables")
        }
        let position = slotCount
        slotCount += 1
        var name = parent + "_" + column
        let taken = Set(group.tables.map(\.name)).union(plans.values.map(\.name))
        if taken.contains(name) {
            var n = 2
            while taken.contains(name + "_\(n)") { n += 1 }
            name += "_\(n)"
        }
        var plan = TablePlan(name: name, key: TableKey(value: UInt32(position)), kind: .embedded, spec: spec,
                             rowSources: [], rowCount: 0)
        plan.columns = try columnPlans(spec, tableName: name, key: plan.key)
        let index = spec.columns.count
        let backlinkKey = ColumnKey(value: Int64(index) | Int64(ColumnType.backlink.rawValue) << 16 | Int64(position) << 30)
        let backlink = TableModel.ColumnModel(name: "", type: .backlink, attributes: [], key: backlinkKey,
                                              specType: Int64(ColumnType.backlink.rawValue), specAttributes: 0,
                                              targetTable: nil, oppositeColumn: nil, isIndexed: false)
        plan.columns.append(ColumnPlan(source: .embeddedParent(index: index), model: backlink, fileKey: backlinkKey, embeddedTable: nil))
        plans[position] = plan
        return position
    }

    // MARK: - Primary keys (§7)

    /// The `pk` table: one row per class with a primary key, `pk_table` naming the class
    /// (without `class_`) and `pk_property` the property (by position in Realm Java 0.80).
    private mutating func applyPrimaryKeys(_ pk: TableModel) throws(FormatError) {
        guard let classColumn = pk.columnIndex(named: "pk_table"),
              let propertyColumn = pk.columnIndex(named: "pk_property") else { return }
        for row in 0..<pk.objectCount {
            guard case let .string(bytes) = pk.values[classColumn][row] else { continue }
            let className = String(decoding: bytes, as: UTF8.self)
            guard let table = group.table(named: "class_" + className) ?? group.table(named: className),
                  var plan = plans[table.position] else { continue }
            let index: Int?
            switch pk.values[propertyColumn][row] {
            case let .string(p): index = plan.columns.firstIndex { !$0.model.isBacklink && $0.model.name == String(decoding: p, as: UTF8.self) }
            case let .int(i): index = plan.columns.firstIndex { !$0.model.isBacklink && $0.source.index == Int(i) }
            default: index = nil
            }
            guard let index, !plan.columns[index].isDropped else { continue }
            plan.primaryKey = plan.columns[index].model.key
            plan.columns[index].model.isIndexed = true
            plan.columns[index].model.specAttributes |= 1
            plans[table.position] = plan
        }
    }

    // MARK: - Links (§6)

    /// Each link column's target table and backlink column, and each backlink column's origin:
    /// from the subspecs, or — once an upgrade moved them (§9) — from the table tops.
    private mutating func linkColumnsToBacklinks() throws(FormatError) {
        for position in plans.keys.sorted() {
            var plan = plans[position]!
            for i in plan.columns.indices {
                let c = plan.columns[i]
                if let e = c.embeddedTable {
                    let b = plans[e]!.columns.count - 1
                    plan.columns[i].model.targetTable = TableKey(value: UInt32(e))
                    plan.columns[i].model.oppositeColumn = plans[e]!.columns[b].model.key
                    plans[e]!.columns[b].model.targetTable = plan.key
                    plans[e]!.columns[b].model.oppositeColumn = c.model.key
                    continue
                }
                guard [.link, .linkList, .backlink].contains(c.source.type), c.model.targetTable == nil else { continue }
                guard let (other, opposite) = oppositeColumn(of: c, in: plan, position: position) else {
                    throw .corrupt(offset: plan.spec.ref, reason: "table '\(plan.name)': \(c.source.type.name) column \(c.source.index) has no opposite column")
                }
                plan.columns[i].model.targetTable = plans[other]!.key
                plan.columns[i].model.oppositeColumn = plans[other]!.columns[opposite].model.key
            }
            plans[position] = plan
        }
    }

    /// (target table, column index in its plan) of a link or backlink column.
    private func oppositeColumn(of c: ColumnPlan, in plan: TablePlan, position: Int) -> (Int, Int)? {
        if let linked = c.source.linkedTable {
            guard let other = plans[linked] else { return nil }
            let j: Int?
            if c.source.type == .backlink {
                j = other.columns.firstIndex { $0.source.index == c.source.originColumn && $0.source.type != .backlink }
            } else {
                j = other.columns.firstIndex {
                    $0.source.type == .backlink && $0.source.linkedTable == position && $0.source.originColumn == c.source.index
                }
            }
            return j.map { (linked, $0) }
        }
        // Moved to the table top (§9): slots 7 and 8 at the column's leaf index name the other
        // table's key and the opposite column's key.
        let table = group.tables[position]
        let leaf = c.fileKey.leafIndex
        guard leaf < table.oppositeTables.count, leaf < table.oppositeColumns.count,
              let other = group.tables.first(where: { $0.upgraded?.key.value == UInt32(truncatingIfNeeded: table.oppositeTables[leaf]) }),
              let otherPlan = plans[other.position],
              let j = otherPlan.columns.firstIndex(where: { Self.sameColumn($0.fileKey, ColumnKey(value: table.oppositeColumns[leaf])) })
        else { return nil }
        return (other.position, j)
    }

    /// Keys name the same column when leaf index and type agree: Core's repair of backlink
    /// keys changes their tag, and sets the opposite slots to the new keys only afterwards.
    static func sameColumn(_ a: ColumnKey, _ b: ColumnKey) -> Bool { a.leafIndex == b.leafIndex && a.rawType == b.rawType }

    // MARK: - Rows (§5, §6, §9)

    /// Every object of a planned table with the values of its own columns; links hold raw
    /// old rows (`.link`) until `resolveLinks`, backlinks are left empty for `rebuildBacklinks`.
    private mutating func rows(_ position: Int) throws(FormatError) -> TableModel {
        let plan = plans[position]!
        var model = TableModel(name: plan.name, key: plan.key, kind: plan.kind, columns: plan.columns.map(\.model),
                               primaryKey: plan.primaryKey)
        let reader = LegacyColumnReader(source: group.source, table: plan.name)
        let n = plan.rowCount
        // Objects an interrupted upgrade already made keep their keys (Core 13 makes none
        // when the cluster holds as many as the old columns have rows, §9).
        let cluster = try plan.upgraded.map { t throws(FormatError) in try LegacyClusterRows(source: group.source, table: t) }
        let moved = cluster.map { $0.objectKeys.count == n && n > 0 } ?? false
        model.objectKeys = moved ? cluster!.objectKeys : (0..<n).map(Int64.init)
        plans[position]!.objectsMoved = moved
        for (c, column) in plan.columns.enumerated() {
            if column.model.isBacklink {
                model.values[c] = Array(repeating: .list([]), count: n)
                continue
            }
            let isLink = [.link, .linkList].contains(column.source.type)
            let roots = plan.rowSources.map { $0.root(of: column.source) }
            if keepsTypedColumns, roots.count == 1, let root = roots[0], !moved, plan.name != Self.pkTableName,
               !column.isDropped, !column.source.isConvertedList, column.model.key != plan.primaryKey,
               let typed = LegacyTypedColumn.read(reader, column.source, model: column.model, root: root) {
                guard typed.count == n else {
                    throw reader.corrupt(plan.spec.ref, "column '\(column.model.name)' has \(typed.count) rows, the table \(n)")
                }
                typedColumns[plan.key, default: [:]][column.model.key] = typed
                continue
            }
            var values = [Value]()
            if !roots.isEmpty, roots.allSatisfy({ $0 != nil }), !moved || isLink {
                // One columns array (a table's own rows) gives the column as it is, uncopied.
                if roots.count == 1 {
                    values = try cells(reader, column, root: roots[0]!)
                } else {
                    for root in roots { values += try cells(reader, column, root: root!) }
                }
            } else if n == 0 {
                values = []
            } else if let cluster {
                values = try cluster.values(specIndex: column.source.index, leafIndex: column.fileKey.leafIndex, count: n,
                                            default: TableModel.defaultValue(for: column.model))
            } else {
                throw reader.corrupt(plan.spec.ref, "column '\(column.model.name)' has no data")
            }
            guard values.count == n else {
                throw reader.corrupt(plan.spec.ref, "column '\(column.model.name)' has \(values.count) rows, the table \(n)")
            }
            model.values[c] = values
        }
        model.sequenceNumber = max(UInt64(n), (moved ? plan.upgraded?.sequenceNumber : nil) ?? 0)
        return model
    }

    /// One column's cells over one columns array.
    private mutating func cells(_ reader: LegacyColumnReader, _ column: ColumnPlan, root: Int) throws(FormatError) -> [Value] {
        let c = column.source
        if c.isConvertedList {
            // A subtable column an upgrade retyped but did not move yet: its rows are still
            // one-column subtables (Core 13's copy_list).
            let element = LegacySpec.Column.listElement(of: c)
            return try reader.plainInts(root).map { v throws(FormatError) -> Value in
                guard v != 0 else { return .list([]) }
                let columns = try group.source.refsNode(Int(v), minimum: 1, what: "table '\(reader.table)': list subtable")
                guard let r = columns.ref(0) else { return .list([]) }
                return .list(try scalarCells(reader, element, root: r))
            }
        }
        switch c.type {
        case .table:
            let sub = c.subspec!
            let subtables = try reader.subtables(root, spec: sub)
            if let e = column.embeddedTable {
                // Rows of every subtable, in parent row order, become the embedded objects.
                var out = [Value]()
                for columns in subtables {
                    guard let columns else {
                        out.append(.list([]))
                        continue
                    }
                    let start = plans[e]!.rowCount
                    let count = try LegacyRowSource.rowCount(reader, spec: sub, columns: columns)
                    plans[e]!.rowSources.append(LegacyRowSource(columns: columns, hasIndexSlots: true))
                    plans[e]!.rowCount = start + count
                    out.append(.list((start..<(start + count)).map { .link(Int64($0)) }))
                }
                return out
            }
            let element = sub.columns[0]
            return try subtables.map { columns throws(FormatError) -> Value in
                guard let columns, let r = columns.ref(element.slot) else { return .list([]) }
                return .list(try scalarCells(reader, element, root: r))
            }
        case .link:
            return try reader.links(root).map { $0.map(Value.link) ?? .null }
        case .linkList:
            return try reader.linkLists(root).map { .list($0.map(Value.link)) }
        case .backlink:
            return []
        default:
            return try scalarCells(reader, c, root: root)
        }
    }

    /// Cells of a column of single values (§5).
    func scalarCells(_ reader: LegacyColumnReader, _ c: LegacySpec.Column, root: Int) throws(FormatError) -> [Value] {
        switch c.type {
        case .int:
            return try reader.intCells(root, nullable: c.isNullable) { .int($0) }
        case .bool:
            return try reader.intCells(root, nullable: c.isNullable) { .bool($0 != 0) }
        case .float:
            return try reader.floats(root, type: .float)
        case .double:
            return try reader.floats(root, type: .double)
        case .string:
            if let keys = c.enumKeysRef {
                return try reader.enumeratedStrings(root, keys: keys, nullable: c.isNullable).map { $0.map(Value.string) ?? .null }
            }
            return try reader.stringCells(root, nullable: c.isNullable)
        case .stringEnum:
            return try reader.enumeratedStrings(root, keys: c.enumKeysRef!, nullable: c.isNullable).map { $0.map(Value.string) ?? .null }
        case .binary:
            return try reader.binaries(root, nullable: c.isNullable).map { $0.map(Value.binary) ?? .null }
        case .dateTime:
            return try reader.intCells(root, nullable: c.isNullable) { .timestamp(Timestamp(seconds: $0, nanoseconds: 0)) }
        case .timestamp:
            let zero = Timestamp(seconds: 0, nanoseconds: 0)
            return try reader.timestamps(root).map { t in t.map(Value.timestamp) ?? (c.isNullable ? .null : .timestamp(zero)) }
        case .mixed:
            return try reader.mixed(root)
        case .link, .linkList, .backlink, .table:
            throw reader.corrupt(root, "column \(c.index) (\(c.type.name)) holds no single values")
        }
    }

    /// Links read from old columns hold old rows; they become the target's ObjKeys: the row
    /// itself, or — when an interrupted upgrade gave the target other keys and kept the rows
    /// in `!ROW_INDEX` — the key of the object with that row (Core 13's migrate_links). An old
    /// column is read by the origin object's old row, which `!ROW_INDEX` gives the same way.
    private func resolveLinks(_ models: inout [Int: TableModel]) throws(FormatError) {
        var rowToKey = [Int: [Int64: Int64]]()
        var keyToRow = [Int: [Int64: Int]]()
        for (position, m) in models {
            guard let c = m.columnIndex(named: Self.rowIndexColumn) else { continue }
            var forward = [Int64: Int64](), backward = [Int64: Int]()
            for (row, key) in m.objectKeys.enumerated() {
                if case let .int(r) = m.values[c][row] {
                    forward[r] = key
                    backward[key] = Int(r)
                }
            }
            rowToKey[position] = forward
            keyToRow[position] = backward
        }
        for (position, plan) in plans {
            guard var m = models[position] else { continue }
            for (c, column) in plan.columns.enumerated() where [.link, .linkList].contains(column.source.type) {
                guard plan.rowSources.allSatisfy({ $0.root(of: column.source) != nil }), !plan.rowSources.isEmpty,
                      let target = column.model.targetTable.map({ Int($0.value) }) else { continue }
                let map = rowToKey[target]
                guard plan.objectsMoved || map != nil else { continue }     // rows are keys on both sides
                let original = m.values[c]
                for (row, key) in m.objectKeys.enumerated() {
                    let oldRow = keyToRow[position]?[key] ?? Int(key)
                    guard oldRow >= 0, oldRow < original.count else {
                        m.values[c][row] = column.source.type == .link ? .null : .list([])
                        continue
                    }
                    func resolve(_ v: Value) -> Value {
                        guard case let .link(r) = v, let map else { return v }
                        return map[r].map(Value.link) ?? .link(-1)
                    }
                    switch original[oldRow] {
                    case let .list(links): m.values[c][row] = .list(links.map(resolve))
                    case let v: m.values[c][row] = resolve(v)
                    }
                }
            }
            models[position] = m
        }
    }

    /// Backlink cells from the links, in the order Core 13's `migrate_links` sets the links:
    /// origin objects in key order, each list in its order. A link to an object its target
    /// table does not have is dropped (Core 13 could not set it either).
    private func rebuildBacklinks(_ models: inout [Int: TableModel]) throws(FormatError) {
        var cells = [Int: [Int: [[Int64]]]]()       // target table → backlink column → rows
        for position in models.keys.sorted() {
            let m = models[position]!
            for (c, column) in m.columns.enumerated() where column.type == .link {
                guard let target = column.targetTable.map({ Int($0.value) }), let targetModel = models[target],
                      let b = targetModel.columns.firstIndex(where: { $0.key == column.oppositeColumn }) else {
                    throw .corrupt(offset: 0, reason: "table '\(m.name)': link column '\(column.name)' has no backlink column")
                }
                var lists = cells[target]?[b] ?? Array(repeating: [], count: targetModel.objectCount)
                for row in 0..<m.objectCount {
                    switch m.values[c][row] {
                    case let .link(k):
                        if let t = targetModel.row(of: k) {
                            lists[t].append(m.objectKeys[row])
                        } else {
                            models[position]!.values[c][row] = .null
                        }
                    case let .list(links):
                        var kept = [Value]()
                        for case let .link(k) in links {
                            guard let t = targetModel.row(of: k) else { continue }
                            lists[t].append(m.objectKeys[row])
                            kept.append(.link(k))
                        }
                        if kept.count != links.count { models[position]!.values[c][row] = .list(kept) }
                    default:
                        break
                    }
                }
                cells[target, default: [:]][b] = lists
            }
        }
        for (target, columns) in cells {
            for (b, lists) in columns {
                models[target]!.values[b] = lists.map { .list($0.map(Value.link)) }
            }
        }
    }

    /// Core 13's `finalize_migration` removes `!OID` and `!ROW_INDEX`.
    private static func droppingBookkeeping(_ model: TableModel) -> TableModel {
        var m = model
        for c in stride(from: m.columns.count - 1, through: 0, by: -1)
        where !m.columns[c].isBacklink && droppedColumns.contains(m.columns[c].name) {
            m.columns.remove(at: c)
            m.values.remove(at: c)
        }
        return m
    }
}
