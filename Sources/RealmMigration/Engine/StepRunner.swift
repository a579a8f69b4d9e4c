import RealmFormat
import RealmObjects
import RealmQuery

/// Collects problems, keeping the first `limit` and counting them all.
final class ProblemSink {
    let limit: Int
    private(set) var items: [Problem] = []
    private(set) var count = 0

    init(limit: Int) { self.limit = limit }

    func add(_ p: Problem) {
        count += 1
        if items.count < limit { items.append(p) }
    }

    var isFull: Bool { count >= limit }
}

/// Runs one version block on the tables the way an SDK runs a migration for that schema
/// version (object-store.md §10.1): the target schema is the file's schema with the block's
/// changes; the pre-migration changes (new classes and properties, replaced and re-made
/// columns, dropped primary keys, indexes) are applied in `Schema::compare` order; then the
/// "migration block" — property renames, deletes, values computed from the old objects; then
/// the post-migration changes of a fresh comparison (removed properties, the new primary key,
/// indexes) and removed classes; then the primary keys are checked and the schema version set.
struct StepRunner {
    let block: VersionBlock
    /// The file as the block starts (queries run on it).
    let input: Snapshot
    var group: ModelGroup
    let problems: ProblemSink
    /// Link columns whose values changed, and tables whose objects changed, for the backlinks.
    var dirtyLinks = Set<LinkColumn>()
    var tablesWithChangedObjects = Set<Int>()

    init(block: VersionBlock, input: Snapshot, group: ModelGroup, problems: ProblemSink) {
        self.block = block
        self.input = input
        self.group = group
        self.problems = problems
    }

    // MARK: plan

    struct Assignment {
        let className: String
        let property: Name
        let expression: Expression
        let filter: Predicate?
        /// A conversion `change` wrote for the user (shown as such in the plan).
        let isConversion: Bool
        var compiled: CompiledExpression?
    }

    struct ClassPlan {
        var name: String
        /// Position among the tables (nil: added in this block).
        var position: Int?
        /// The class's name in the block's input file, for queries.
        var inputName: String
        var renames: [(from: Name, to: Name)] = []
        var deletes: [Predicate] = []
        var assignments: [Assignment] = []
        var lines: [String] = []
        var removed = false
    }

    var old: ModelGroup!
    var target: [String: ClassSpec] = [:]
    var plans: [String: ClassPlan] = [:]
    var planOrder: [String] = []
    var linkTypeLocations: [String: SourceLocation] = [:]
    var removedClasses: [(position: Int, name: Name)] = []
    lazy var store = ObjectStore(snapshot: input)

    mutating func plan(_ name: String) -> ClassPlan {
        if let p = plans[name] { return p }
        let position = group.position(ofClass: name)
        return ClassPlan(name: name, position: position, inputName: name)
    }

    mutating func save(_ p: ClassPlan) {
        if plans[p.name] == nil { planOrder.append(p.name) }
        plans[p.name] = p
    }

    func unknownClass(_ name: Name) -> ScriptError {
        let all = target.keys.sorted()
        return ScriptError("no class '\(name.text)'\(didYouMean(name.text, all)) (classes: \(all.joined(separator: ", ")))", at: name.location)
    }

    // MARK: run

    mutating func run() throws -> StepReport {
        try renameClasses()
        old = group
        let current = group.classSpecs()
        for c in current {
            let m = group.tables[group.position(ofClass: c.name)!]!
            var t = c
            for (i, p) in t.properties.enumerated() {
                let column = m.columns[m.columnIndex(named: p.name)!]
                t.properties[i].indexed = ModelGroup.explicitlyIndexed(column, in: m)
            }
            target[c.name] = t
        }
        for step in block.steps { try planStep(step) }
        try validateTarget()
        try compileAssignments()
        let counts = objectCounts()

        // Pre-migration changes, in Schema::compare order.
        let targetList = Array(target.values)
        let changes = SchemaChange.compare(current, targetList)
        for change in changes { try applyPre(change) }
        // The migration block.
        try renameProperties()
        try deleteObjects()
        try assignValues()
        guard problems.count == 0 else { return report(changes, counts) }
        // Post-migration changes, from a fresh comparison.
        for change in SchemaChange.compare(group.classSpecs(), targetList) { applyPost(change) }
        for (position, _) in removedClasses { group.removeTable(position) }
        finishLinks()
        validatePrimaryKeys()
        return report(changes, counts)
    }

    private mutating func renameClasses() throws(ScriptError) {
        for step in block.steps {
            guard case let .renameClass(from, to) = step else { continue }
            guard let position = group.position(ofClass: from.text) else {
                let all = group.classPositions.keys.sorted()
                throw ScriptError("no class '\(from.text)' to rename\(didYouMean(from.text, all))", at: from.location)
            }
            guard group.position(ofClass: to.text) == nil else { throw ScriptError("class '\(to.text)' exists already", at: to.location) }
            try Self.checkClassName(to)
            let inputName = plans[from.text]?.inputName ?? from.text
            plans[from.text] = nil
            planOrder.removeAll { $0 == from.text }
            group.renameTable(position, toClass: to.text)
            var p = ClassPlan(name: to.text, position: position, inputName: inputName)
            p.lines.append("renamed from \(from.text)")
            save(p)
        }
    }

    // MARK: schema changes

    private mutating func position(_ className: String) throws -> Int {
        guard let p = group.position(ofClass: className) else { throw MigrationFailure("class \(className) is missing from the file") }
        return p
    }

    private mutating func applyPre(_ change: SchemaChange) throws {
        switch change {
        case let .addTable(c):
            try group.addTable(c)
        case let .addInitialProperties(c):
            let p = try position(c.name)
            for property in c.properties where !property.isPrimary { try group.addColumn(p, property) }
        case let .changePropertyType(name, old, new):
            let p = try position(name)
            group.removeColumn(p, named: old.name)
            try group.addColumn(p, new)
        case let .makeNullable(name, property):
            group.makeNullable(try position(name), named: property.name)
        case let .makeRequired(name, property):
            let p = try position(name)
            group.removeColumn(p, named: property.name)
            // `make_property_required` re-adds the file's property (its index, its primary-key flag).
            var required = property
            required.nullable = false
            try group.addColumn(p, required)
        case let .changePrimaryKey(name, _, _):
            _ = group.setPrimaryKey(try position(name), named: nil)
        case let .addIndex(name, property):
            let p = try position(name)
            if let c = group.tables[p]!.columnIndex(named: property.name) { group.addIndex(p, column: c) }
        case let .removeIndex(name, property):
            let p = try position(name)
            if let c = group.tables[p]!.columnIndex(named: property.name) { group.removeIndex(p, column: c) }
        case .addProperty(let name, let property):
            try group.addColumn(try position(name), property)
        case .removeProperty, .removeTable:
            break
        case let .changeTableType(name, _):
            throw MigrationFailure("changing \(name) between embedded and top-level is not supported")
        }
    }

    private mutating func applyPost(_ change: SchemaChange) {
        guard let p = group.position(ofClass: change.className) else { return }
        switch change {
        case let .removeProperty(_, property):
            group.removeColumn(p, named: property.name)
        case let .changePrimaryKey(name, _, to):
            if let duplicate = group.setPrimaryKey(p, named: to) { reportDuplicate(name, to ?? "", p, duplicate) }
        case let .addIndex(_, property):
            if let c = group.tables[p]!.columnIndex(named: property.name) { group.addIndex(p, column: c) }
        case let .removeIndex(_, property):
            if let c = group.tables[p]!.columnIndex(named: property.name) { group.removeIndex(p, column: c) }
        default:
            break
        }
    }

    private func reportDuplicate(_ className: String, _ property: String, _ position: Int, _ rows: (first: Int, second: Int)) {
        let m = group.tables[position]!
        let value = m.columnIndex(named: property).map { Conversion.describe(m.values[$0][rows.first]) } ?? "?"
        problems.add(Problem(version: block.number, className: className, object: nil, property: property,
                             message: "primary key \(value) would be shared by objects \(identity(m, rows.first)) and \(identity(m, rows.second)) (primary keys must be unique)",
                             location: nil))
    }

    /// Primary keys whose values were set must still be unique (`validate_primary_columns`).
    private func validatePrimaryKeys() {
        for p in group.modified.sorted() {
            guard let m = group.tables[p], let pk = m.primaryKey, group.changedColumns.contains(LinkColumn(table: p, column: pk)),
                  let c = m.columnIndex(key: pk), let duplicate = ModelGroup.firstDuplicate(m.values[c]) else { continue }
            reportDuplicate(group.className(at: p) ?? m.name, m.columns[c].name, p, duplicate)
        }
    }

    func identity(_ m: TableModel, _ row: Int) -> String {
        if let pk = m.primaryKey, let c = m.columnIndex(key: pk) { return "\(m.columns[c].name) \(Conversion.describe(m.values[c][row]))" }
        return "_key \(m.objectKeys[row])"
    }

    // MARK: the migration block

    /// `Migration.renameProperty` (object-store.md §10.2): the column added for the new name in
    /// the pre-migration changes is removed and the old column takes the name (made optional if
    /// the new property is).
    private mutating func renameProperties() throws {
        for name in planOrder {
            guard let plan = plans[name], let p = plan.position, !plan.renames.isEmpty else { continue }
            for (from, to) in plan.renames {
                guard let oldColumn = group.tables[p]!.columnIndex(named: from.text) else { continue }
                let wasNullable = group.tables[p]!.columns[oldColumn].isNullable
                if group.tables[p]!.columnIndex(named: to.text) != nil { group.removeColumn(p, named: to.text) }
                group.renameColumn(p, from: from.text, to: to.text)
                if let wanted = target[name]?.property(to.text), wanted.nullable && !wasNullable {
                    group.makeNullable(p, named: to.text)
                }
            }
        }
    }

    private mutating func selectedKeys(_ predicate: Predicate, _ plan: ClassPlan) throws -> [Int64] {
        do {
            return try Query(store: store, className: plan.inputName, predicate.text).objectKeys()
        } catch let error as QueryError {
            throw Self.scriptError(error, predicate)
        }
    }

    private mutating func deleteObjects() throws {
        for name in planOrder {
            guard let plan = plans[name], let p = plan.position, !plan.deletes.isEmpty else { continue }
            var doomed = Set<Int64>()
            for predicate in plan.deletes { doomed.formUnion(try selectedKeys(predicate, plan)) }
            let before = group.tables[p]!.objectCount
            dirtyLinks.formUnion(group.deleteObjects(p, keys: doomed))
            tablesWithChangedObjects.insert(p)
            deletedCounts[name] = before - group.tables[p]!.objectCount
        }
    }

    private var deletedCounts: [String: Int] = [:]

    /// Every assignment, object by object: the expression over the old object, stored in the
    /// new property. Failures become problems naming the object and its value.
    private mutating func assignValues() throws {
        for name in planOrder {
            guard let plan = plans[name], let p = plan.position, !plan.assignments.isEmpty else { continue }
            let before = old.tables[p]!
            for a in plan.assignments {
                guard let compiled = a.compiled else { continue }
                let only = try a.filter.map { f in Set(try selectedKeys(f, plan)) }
                var m = group.tables[p]!
                group.tables[p] = nil
                defer { group.tables[p] = m }
                guard let c = m.columnIndex(named: a.property.text) else { continue }
                let column = m.columns[c]
                var values = m.values[c]
                m.values[c] = []
                var oldRow = 0
                for row in 0..<m.objectCount {
                    let key = m.objectKeys[row]
                    while oldRow < before.objectCount && before.objectKeys[oldRow] < key { oldRow += 1 }
                    guard oldRow < before.objectCount, before.objectKeys[oldRow] == key else { continue }
                    if let only, !only.contains(key) { continue }
                    do {
                        let v = try compiled.evaluate(oldRow)
                        switch Storing.value(v, for: column) {
                        case let .success(stored): values[row] = stored
                        case let .failure(why):
                            fail(a, name, before, oldRow, why.message, a.expression.location)
                        }
                    } catch {
                        fail(a, name, before, oldRow, error.message, error.location)
                    }
                    if problems.isFull { break }
                }
                m.values[c] = values
                group.modified.insert(p)
                group.changedColumns.insert(LinkColumn(table: p, column: column.key))
                if column.type == .link { dirtyLinks.insert(LinkColumn(table: p, column: column.key)) }
                if problems.isFull { return }
            }
        }
    }

    private func fail(_ a: Assignment, _ className: String, _ before: TableModel, _ row: Int, _ message: String, _ at: SourceLocation) {
        var text = message
        if a.isConversion {
            let oldValue = before.columnIndex(named: a.property.text).map { before.values[$0][row] } ?? .null
            text = oldValue.isNull
                ? "is null, but the property becomes required; give the values with change \(a.property.text): … = \(a.property.text) ?? …"
                : "\(message); give the new values with change \(a.property.text): … = …"
        }
        problems.add(Problem(version: block.number, className: className, object: (row, identity(before, row)),
                             property: a.property.text, message: text, location: at))
    }

    /// Links copied to objects that this block deleted are dropped, embedded objects that lost
    /// their owner are deleted, and the affected backlink columns are rebuilt.
    private mutating func finishLinks() {
        for link in dirtyLinks { group.dropDanglingLinks(link) }
        while true {
            let orphans = group.orphans()
            if orphans.isEmpty { break }
            for (t, keys) in orphans {
                dirtyLinks.formUnion(group.deleteObjects(t, keys: keys))
                tablesWithChangedObjects.insert(t)
            }
        }
        group.rebuildBacklinks(origins: dirtyLinks, tablesWithChangedObjects: tablesWithChangedObjects)
    }

    // MARK: report

    private func report(_ changes: [SchemaChange], _ counts: [String: Int]) -> StepReport {
        var classes = [ClassReport]()
        for name in planOrder {
            guard let p = plans[name], !p.lines.isEmpty else { continue }
            let objects = counts[name] ?? 0
            let deleted = deletedCounts[name] ?? 0
            let changed = p.removed ? false : (!p.assignments.isEmpty || changes.contains { $0.className == name } || !p.renames.isEmpty)
            classes.append(ClassReport(name: name, lines: p.lines, objects: objects, rewritten: changed ? objects - deleted : 0, deleted: p.removed ? objects : deleted))
        }
        return StepReport(version: block.number, classes: classes)
    }
}
