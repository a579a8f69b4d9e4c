import RealmFormat

/// Writing with values that are already typed — the object-store calls an app makes
/// (object-store.md §4: create an object with its primary key, then set each property), for
/// library users and benchmarks that have values rather than JSON. The rules are the JSON
/// path's: strict types, unique and immutable primary keys, links to existing objects with
/// their backlinks (also for `.typedLink`s in Mixed values), embedded objects deleted when
/// their link is replaced.
extension RealmWriter {
    /// Creates an object from one value per property of `c`, in `c.properties` order (links
    /// as `.link(ObjKey)`, lists and sets as `.list`, dictionaries as `.dictionary`); returns
    /// its ObjKey.
    @discardableResult
    public func create(_ c: ObjectClass, values: [Value]) throws -> Int64 {
        guard values.count == c.properties.count else {
            throw InputError(className: c.name, "expects \(c.properties.count) values (one per property), got \(values.count)")
        }
        if c.isEmbedded { throw InputError(className: c.name, "embedded objects are created inside their parent, not on their own") }
        let plan = try creationPlan(c)
        // The plan's row buffer, taken so that it is changed in place (every step's column is
        // written below; link and backlink columns keep their defaults).
        var row = plan.row
        plan.row = []
        defer { plan.row = row }
        var links: [(Property, Value)] = []
        for i in plan.steps.indices {
            let value = Self.ordered(values[i], plan.steps[i].property)
            // Links, and Mixed values holding links, are set once the object exists (backlinks).
            if plan.steps[i].isLink || plan.steps[i].isMixed && Self.holdsTypedLink(value) {
                let step = plan.steps[i]
                try check(value, for: step.property, of: c)
                if value != row[step.column] { links.append((step.property, value)) }
                continue
            }
            // Plain scalars are checked inline; collections and Mixed by the general check.
            if let type = plan.steps[i].scalarType, Self.isScalar(value, type, nullable: plan.steps[i].nullable) {
            } else {
                try check(value, for: plan.steps[i].property, of: c)
            }
            row[plan.steps[i].column] = value
        }
        let key = plan.editor.nextObjectKey()
        do {
            try plan.editor.insert(key: key, values: row)
        } catch {
            guard case .duplicateKey = error else { throw error }
            let pk = c.properties.firstIndex { $0.isPrimaryKey }
            throw InputError(className: c.name, property: c.primaryKey,
                             "an object with primary key \(describe(pk.map { values[$0] } ?? .null)) already exists")
        }
        for (p, value) in links { try store(value, p, of: c, key: key) }
        summary.inserted += 1
        return key
    }

    func creationPlan(_ c: ObjectClass) throws -> CreationPlan {
        if let last = lastCreationPlan, last.objectClass === c { return last }
        if let plan = creationPlans[ObjectIdentifier(c)] {
            lastCreationPlan = plan
            return plan
        }
        let editor = try self.editor(c.table.position)
        var steps: [CreationPlan.Step] = []
        for p in c.properties {
            guard let column = editor.columnIndex(key: p.column.key) else {
                throw InputError(className: c.name, property: p.name, "has no column in the table")
            }
            let plain = p.collection == nil && p.type != "object" && p.type != "mixed"
            steps.append(.init(property: p, column: column, isLink: p.type == "object", isMixed: p.column.type == .mixed,
                               scalarType: plain ? p.column.type : nil, nullable: p.isOptional))
        }
        let plan = CreationPlan(objectClass: c, editor: editor, steps: steps)
        creationPlans[ObjectIdentifier(c)] = plan
        lastCreationPlan = plan
        return plan
    }

    /// A non-collection, non-link, non-Mixed value of the column's type (or null when allowed).
    static func isScalar(_ value: Value, _ type: ColumnType, nullable: Bool) -> Bool {
        switch (value, type) {
        case (.null, _): return nullable
        case (.int, .int), (.bool, .bool), (.float, .float), (.double, .double), (.string, .string), (.binary, .binary),
             (.timestamp, .timestamp), (.decimal, .decimal), (.objectId, .objectId), (.uuid, .uuid): return true
        default: return false
        }
    }

    static func holdsTypedLink(_ value: Value) -> Bool {
        switch value {
        case .typedLink: return true
        case let .list(elements): return elements.contains(where: holdsTypedLink)
        case let .dictionary(entries): return entries.contains { holdsTypedLink($0.value) }
        default: return false
        }
    }

    /// The object of `c` whose primary key is `value`, if any (this transaction's changes included).
    public func objectKey(_ c: ObjectClass, primaryKey value: Value) throws -> Int64? {
        try editor(c.table.position).objectKey(primaryKey: value)
    }

    /// The current value of property `p` of object `key` (this transaction's changes included).
    public func value(_ c: ObjectClass, key: Int64, _ p: Property) throws -> Value {
        let editor = try self.editor(c.table.position)
        guard let column = editor.columnIndex(key: p.column.key), editor.contains(key) else {
            throw InputError(className: c.name, property: p.name, "no object with key \(key)")
        }
        return try editor.value(key, column: column)
    }

    /// Sets property `p` of object `key`.
    public func set(_ c: ObjectClass, key: Int64, _ p: Property, _ value: Value) throws {
        if p.isPrimaryKey { throw InputError(className: c.name, property: p.name, "a primary key cannot be changed after creation") }
        try check(value, for: p, of: c)
        guard try editor(c.table.position).contains(key) else { throw InputError(className: c.name, property: p.name, "no object with key \(key)") }
        try store(Self.ordered(value, p), p, of: c, key: key)
        summary.updated += 1
    }

    /// Throws unless `value` is what property `p` stores: its type (or null when optional),
    /// element by element for collections; links to existing objects of the target class.
    func check(_ value: Value, for p: Property, of c: ObjectClass) throws {
        func fail(_ reason: String) -> InputError { InputError(className: c.name, property: p.name, reason) }
        switch p.collection {
        case nil:
            try checkScalar(value, p, c, nullable: p.isOptional || p.type == "object")
        case .list?, .set?:
            guard case let .list(elements) = value else { throw fail("expects a list") }
            for e in elements { try checkScalar(e, p, c, nullable: p.isOptional) }
        case .dictionary?:
            guard case let .dictionary(entries) = value else { throw fail("expects a dictionary") }
            for e in entries {
                guard case .string = e.key else { throw fail("dictionary keys are strings") }
                try checkScalar(e.value, p, c, nullable: p.isOptional || p.type == "object" || p.type == "mixed")
            }
        }
    }

    private func checkScalar(_ value: Value, _ p: Property, _ c: ObjectClass, nullable: Bool) throws {
        let type = p.column.type
        let ok: Bool
        switch value {
        case .null: ok = nullable || type == .mixed
        case .int: ok = type == .int || type == .mixed
        case .bool: ok = type == .bool || type == .mixed
        case .float: ok = type == .float || type == .mixed
        case .double: ok = type == .double || type == .mixed
        case .string: ok = type == .string || type == .mixed
        case .binary: ok = type == .binary || type == .mixed
        case .timestamp: ok = type == .timestamp || type == .mixed
        case .decimal: ok = type == .decimal || type == .mixed
        case .objectId: ok = type == .objectId || type == .mixed
        case .uuid: ok = type == .uuid || type == .mixed
        case let .typedLink(t, k) where type == .mixed:
            // Realm's rules for a link in a Mixed value (`Group::validate(ObjLink)`).
            guard let targetClass = file.objectClass(for: t) else {
                throw InputError(className: c.name, property: p.name, "links to table \(t.value), which is not a class")
            }
            if targetClass.isEmbedded { throw InputError(className: c.name, property: p.name, "cannot link to embedded object (\(targetClass.name))") }
            if targetClass.isAsymmetric { throw InputError(className: c.name, property: p.name, "cannot link to ephemeral object (\(targetClass.name))") }
            guard try editor(targetClass.table.position).contains(k) else {
                throw InputError(className: c.name, property: p.name, "no \(targetClass.name) object has key \(k)")
            }
            ok = true
        case let .link(k), let .typedLink(_, k):
            guard type == .link, let target = p.column.targetTable, let targetClass = file.objectClass(for: target) else {
                ok = false
                break
            }
            if case let .typedLink(t, _) = value, t != target { ok = false; break }
            guard try editor(targetClass.table.position).contains(k) else {
                throw InputError(className: c.name, property: p.name, "no \(targetClass.name) object has key \(k)")
            }
            ok = true
        case .list, .dictionary: ok = false
        }
        guard ok else {
            throw InputError(className: c.name, property: p.name, "expects \(p.isOptional ? "an optional " : "")\(p.type), got \(describe(value))")
        }
    }
}

/// Where `create` puts each property of a class: its column, and what is checked.
final class CreationPlan {
    struct Step {
        let property: Property
        let column: Int
        let isLink: Bool
        let isMixed: Bool
        /// The column type of a plain scalar property (checked inline); nil otherwise.
        let scalarType: ColumnType?
        let nullable: Bool
    }
    let objectClass: ObjectClass
    let editor: TableEditor
    let steps: [Step]
    /// The cells of the next object, reused from one `create` to the next.
    var row: [Value]

    init(objectClass: ObjectClass, editor: TableEditor, steps: [Step]) {
        self.objectClass = objectClass
        self.editor = editor
        self.steps = steps
        row = editor.defaultRow
    }
}
