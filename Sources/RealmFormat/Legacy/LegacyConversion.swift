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
/// * `!OID` and `!ROW_INDEX` (legacy sync bookkeeping) are dropped, as Core 13's
///   `finalize_migration` drops them.
/// Where Core 13 loses data or gives up, the data is shown instead (§8.3): the old Mixed
/// column's values; a subtable of several columns as a list of embedded objects of a class
/// `<table>_<column>`; a `pk` table naming the key property by position (Realm Java 0.80).
struct LegacyConversion {
    /// One slot of the resulting group: a table or the slot `pk` leaves behind.
    enum Slot {
        case table(TableModel)
        case removed
    }

    let group: LegacyGroup
    private(set) var names: [String] = []
    private(set) var slots: [Slot] = []

    /// Columns Core 13 removes at the end of its upgrade.
    static let droppedColumns: Set<String> = ["!OID", "!ROW_INDEX"]
    static let pkTableName = "pk"

    static func convert(_ group: LegacyGroup) throws(FormatError) -> LegacyConversion {
        var c = LegacyConversion(group: group)
        try c.run()
        return c
    }

    // MARK: - Plans

    /// What one old column becomes.
    private struct ColumnPlan {
        let source: LegacySpec.Column
        var model: TableModel.ColumnModel
        /// Subtable of several columns: the embedded table (slot position) its rows go to.
        var embeddedTable: Int?
    }

    /// One table being built: its columns, where its rows come from, its key.
    private struct TablePlan {
        let name: String
        let key: TableKey
        let kind: Table.Kind
        let spec: LegacySpec
        /// The columns arrays whose rows, concatenated, are this table's objects.
        var rowSources: [Node]
        var rowCount: Int
        var columns: [ColumnPlan] = []
        var primaryKey: ColumnKey?
    }

    private var plans: [Int: TablePlan] = [:]
    private var slotCount = 0

    private mutating func run() throws(FormatError) {
        let pkTable = group.table(named: Self.pkTableName)
        slotCount = group.tables.count
        for t in group.tables where t.name != Self.pkTableName {
            let columns = try group.source.refsNode(t.columnsRef, minimum: 0, what: "columns of table '\(t.name)'")
            var plan = TablePlan(name: t.name, key: TableKey(value: UInt32(t.position)), kind: .topLevel, spec: t.spec,
                                 rowSources: [columns], rowCount: t.rowCount)
            plan.columns = try columnPlans(t.spec, tableName: t.name, key: plan.key)
            plans[t.position] = plan
        }
        if let pkTable { try applyPrimaryKeys(pkTable) }
        try linkColumnsToBacklinks()

        var models = [Int: TableModel]()
        for position in plans.keys.sorted() { models[position] = try rows(position) }
        try rebuildBacklinks(&models)

        for position in 0..<slotCount {
            if let m = models[position] {
                names.append(m.name)
                slots.append(.table(m))
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

    private mutating func columnPlans(_ spec: LegacySpec, tableName: String, key: TableKey) throws(FormatError) -> [ColumnPlan] {
        let names = Self.renamedColumns(spec.publicColumns.map(\.name))
        var out = [ColumnPlan]()
        for c in spec.columns {
            if c.type != .backlink && Self.droppedColumns.contains(c.name) { continue }
            var type: ColumnType
            var attributes = ColumnAttributes(rawValue: Int(c.attributes) & ~0x7)   // keys never carry indexed/unique/reserved
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
            // Core 13 gives a column the key (index, type, attributes, table key), except that
            // a plain int column keeps the key `index` it had before (Spec::update_colkey).
            let keyAttributes = Int64(attributes.rawValue & 0xFF)
            let keyType = Int64(type == .link && attributes.contains(.list) ? ColumnType.link.rawValue : type.rawValue)
            let keyValue = keyType == 0 && keyAttributes == 0
                ? Int64(c.index)
                : Int64(c.index) | keyType << 16 | keyAttributes << 22 | Int64(key.value) << 30
            let indexed = c.isIndexed && c.type != .backlink
            let model = TableModel.ColumnModel(
                name: c.type == .backlink ? "" : names[c.index], type: type, attributes: attributes,
                key: ColumnKey(value: keyValue), specType: specType,
                specAttributes: Int64(attributes.rawValue & ~0x1) | (indexed ? 1 : 0),
                targetTable: nil, oppositeColumn: nil, isIndexed: indexed)
            out.append(ColumnPlan(source: c, model: model, embeddedTable: embedded))
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
        let backlinkKey = ColumnKey(value: Int64(spec.columns.count) | Int64(ColumnType.backlink.rawValue) << 16 | Int64(position) << 30)
        let backlink = TableModel.ColumnModel(name: "", type: .backlink, attributes: [], key: backlinkKey,
                                              specType: Int64(ColumnType.backlink.rawValue), specAttributes: 0,
                                              targetTable: nil, oppositeColumn: nil, isIndexed: false)
        plan.columns.append(ColumnPlan(source: LegacySpec.Column.embeddedParent(index: spec.columns.count), model: backlink, embeddedTable: nil))
        plans[position] = plan
        return position
    }

    // MARK: - Primary keys (§7)

    /// The `pk` table: one row per class with a primary key, `pk_table` naming the class
    /// (without `class_`) and `pk_property` the property (by position in Realm Java 0.80).
    private mutating func applyPrimaryKeys(_ pk: LegacyTable) throws(FormatError) {
        let reader = LegacyColumnReader(source: group.source, table: pk.name)
        guard let classColumn = pk.spec.columns.first(where: { $0.name == "pk_table" }),
              let propertyColumn = pk.spec.columns.first(where: { $0.name == "pk_property" }) else { return }
        let classes = try stringCells(reader, classColumn, root: pk.root(of: classColumn))
        let properties: [Value]
        switch propertyColumn.type {
        case .int: properties = try reader.ints(pk.root(of: propertyColumn), nullable: propertyColumn.isNullable).map { $0.map(Value.int) ?? .null }
        case .string, .stringEnum: properties = try stringCells(reader, propertyColumn, root: pk.root(of: propertyColumn))
        default: return
        }
        guard classes.count == properties.count else {
            throw .corrupt(offset: pk.ref, reason: "table 'pk' has \(classes.count) classes for \(properties.count) properties")
        }
        for (cls, property) in zip(classes, properties) {
            guard case let .string(bytes) = cls else { continue }
            let className = String(decoding: bytes, as: UTF8.self)
            guard let table = group.table(named: RealmClassPrefix.table(className)) ?? group.table(named: className),
                  var plan = plans[table.position] else { continue }
            let index: Int?
            switch property {
            case let .string(p): index = plan.columns.firstIndex { $0.model.name == String(decoding: p, as: UTF8.self) && !$0.model.isBacklink }
            case let .int(i): index = plan.columns.firstIndex { $0.source.index == Int(i) && !$0.model.isBacklink }
            default: index = nil
            }
            guard let index else { continue }
            plan.primaryKey = plan.columns[index].model.key
            plan.columns[index].model.isIndexed = true
            plan.columns[index].model.specAttributes |= 1
            plans[table.position] = plan
        }
    }

    private func stringCells(_ reader: LegacyColumnReader, _ column: LegacySpec.Column, root: Int) throws(FormatError) -> [Value] {
        let strings = column.type == .stringEnum
            ? try reader.enumeratedStrings(root, keys: column.enumKeysRef!, nullable: column.isNullable)
            : try reader.strings(root, nullable: column.isNullable)
        return strings.map { $0.map(Value.string) ?? .null }
    }

    // MARK: - Links (§6)

    /// Each link column's target table and backlink column, and each backlink column's origin.
    private mutating func linkColumnsToBacklinks() throws(FormatError) {
        for position in plans.keys.sorted() {
            var plan = plans[position]!
            for i in plan.columns.indices {
                let c = plan.columns[i]
                if let e = c.embeddedTable {
                    let backlink = plans[e]!.columns.last!
                    plan.columns[i].model.targetTable = TableKey(value: UInt32(e))
                    plan.columns[i].model.oppositeColumn = backlink.model.key
                    plans[e]!.columns[plans[e]!.columns.count - 1].model.targetTable = plan.key
                    plans[e]!.columns[plans[e]!.columns.count - 1].model.oppositeColumn = c.model.key
                    continue
                }
                guard let linked = c.source.linkedTable, c.source.type != .table else { continue }
                guard let other = plans[linked] else {
                    throw .corrupt(offset: plan.spec.ref, reason: "table '\(plan.name)': column \(c.source.index) links to table '\(group.tables[linked].name)', which cannot be linked to")
                }
                let opposite: ColumnPlan?
                if c.source.type == .backlink {
                    opposite = other.columns.first { $0.source.index == c.source.originColumn && $0.source.type != .backlink }
                } else {
                    opposite = other.columns.first {
                        $0.source.type == .backlink && $0.source.linkedTable == position && $0.source.originColumn == c.source.index
                    }
                }
                guard let opposite else {
                    throw .corrupt(offset: plan.spec.ref, reason: "table '\(plan.name)': \(c.source.type.name) column \(c.source.index) has no opposite column in table '\(other.name)'")
                }
                plan.columns[i].model.targetTable = other.key
                plan.columns[i].model.oppositeColumn = opposite.model.key
            }
            plans[position] = plan
        }
    }

    // MARK: - Rows (§5, §6)

    /// Every object of a planned table: values of its own columns; backlinks are left empty
    /// here and filled by `rebuildBacklinks`.
    private mutating func rows(_ position: Int) throws(FormatError) -> TableModel {
        let plan = plans[position]!
        var model = TableModel(name: plan.name, key: plan.key, kind: plan.kind, columns: plan.columns.map(\.model),
                               primaryKey: plan.primaryKey)
        let reader = LegacyColumnReader(source: group.source, table: plan.name)
        let n = plan.rowCount
        for (c, column) in plan.columns.enumerated() {
            if column.model.isBacklink {
                model.values[c] = Array(repeating: .list([]), count: n)
                continue
            }
            var values = [Value]()
            for columns in plan.rowSources {
                guard let root = columns.ref(column.source.slot) else {
                    throw reader.corrupt(columns.ref, "column '\(column.model.name)' has no data")
                }
                values += try cells(reader, column, root: root)
            }
            guard values.count == n else {
                throw reader.corrupt(plan.spec.ref, "column '\(column.model.name)' has \(values.count) rows, the table \(n)")
            }
            model.values[c] = values
        }
        model.objectKeys = (0..<n).map(Int64.init)
        model.sequenceNumber = UInt64(n)
        return model
    }

    /// One column's cells over one columns array.
    private mutating func cells(_ reader: LegacyColumnReader, _ column: ColumnPlan, root: Int) throws(FormatError) -> [Value] {
        let c = column.source
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
                    let count = try LegacyTableRows.count(reader, spec: sub, columns: columns)
                    plans[e]!.rowSources.append(columns)
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
            return try reader.ints(root, nullable: c.isNullable).map { $0.map(Value.int) ?? .null }
        case .bool:
            return try reader.ints(root, nullable: c.isNullable).map { $0.map { .bool($0 != 0) } ?? .null }
        case .float:
            return try reader.floats(root, type: .float)
        case .double:
            return try reader.floats(root, type: .double)
        case .string:
            return try reader.strings(root, nullable: c.isNullable).map { $0.map(Value.string) ?? .null }
        case .stringEnum:
            return try reader.enumeratedStrings(root, keys: c.enumKeysRef!, nullable: c.isNullable).map { $0.map(Value.string) ?? .null }
        case .binary:
            return try reader.binaries(root, nullable: c.isNullable).map { $0.map(Value.binary) ?? .null }
        case .dateTime:
            return try reader.ints(root, nullable: c.isNullable).map { s in
                s.map { .timestamp(Timestamp(seconds: $0, nanoseconds: 0)) } ?? .null
            }
        case .timestamp:
            let zero = Timestamp(seconds: 0, nanoseconds: 0)
            return try reader.timestamps(root).map { t in t.map(Value.timestamp) ?? (c.isNullable ? .null : .timestamp(zero)) }
        case .mixed:
            return try reader.mixed(root)
        case .link, .linkList, .backlink, .table:
            throw reader.corrupt(root, "column \(c.index) (\(c.type.name)) holds no single values")
        }
    }

    /// Backlink cells from the links, in the order Core 13's `migrate_links` sets the links:
    /// origin objects in key order, each list in its order. A link to a row its target table
    /// does not have is dropped (Core 13 could not set it either).
    private func rebuildBacklinks(_ models: inout [Int: TableModel]) throws(FormatError) {
        var cells = [Int: [Int: [[Int64]]]]()       // target table → backlink column → rows
        for (position, m) in models {
            for (c, column) in m.columns.enumerated() where column.type == .link && !column.isBacklink {
                guard let target = column.targetTable.map({ Int($0.value) }), let targetModel = models[target],
                      let b = targetModel.columns.firstIndex(where: { $0.key == column.oppositeColumn }) else {
                    throw .corrupt(offset: 0, reason: "table '\(m.name)': link column '\(column.name)' has no backlink column")
                }
                let targetRows = targetModel.objectCount
                var lists = cells[target]?[b] ?? Array(repeating: [], count: targetRows)
                for row in 0..<m.objectCount {
                    var kept = [Value]()
                    switch m.values[c][row] {
                    case let .link(t):
                        if t >= 0 && t < Int64(targetRows) { lists[Int(t)].append(Int64(row)); kept = [.link(t)] }
                        models[position]!.values[c][row] = kept.first ?? .null
                    case let .list(links):
                        for case let .link(t) in links where t >= 0 && t < Int64(targetRows) {
                            lists[Int(t)].append(Int64(row))
                            kept.append(.link(t))
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
}

/// Rows of a table or subtable: the size of its first column (legacy-formats.md §3).
enum LegacyTableRows {
    static func count(_ reader: LegacyColumnReader, spec: LegacySpec, columns: Node) throws(FormatError) -> Int {
        guard let first = spec.columns.first else { return 0 }
        guard let root = columns.ref(first.slot) else { throw reader.corrupt(columns.ref, "subtable column 0 has no data") }
        return try reader.size(of: first, root: root)
    }
}

/// The object store's `class_` table prefix (object-store.md §2).
enum RealmClassPrefix {
    static func table(_ className: String) -> String { "class_" + className }
}

extension LegacySpec.Column {
    /// The backlink column an embedded table made from a subtable gets (it has no old column).
    static func embeddedParent(index: Int) -> LegacySpec.Column {
        LegacySpec.Column(index: index, name: "", type: .backlink, attributes: 0, slot: -1, linkedTable: nil,
                          originColumn: nil, subspec: nil, enumKeysRef: nil)
    }
}
