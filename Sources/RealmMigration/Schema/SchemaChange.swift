import RealmFormat

/// One difference between a file's schema and a target schema, as Realm Core's
/// `Schema::compare` lists them (object-store.md §9.1). The order of a list of changes is the
/// order in which an SDK applies them, which decides the new columns' keys.
public enum SchemaChange: Sendable, Equatable {
    case addTable(ClassSpec)
    /// Only listed for display: an SDK leaves a class that is no longer declared in the file.
    case removeTable(ClassSpec)
    case addInitialProperties(ClassSpec)
    case removeProperty(className: String, PropertySpec)
    case changePropertyType(className: String, old: PropertySpec, new: PropertySpec)
    case makeNullable(className: String, PropertySpec)
    case makeRequired(className: String, PropertySpec)
    case addIndex(className: String, PropertySpec)
    case removeIndex(className: String, PropertySpec)
    case addProperty(className: String, PropertySpec)
    case changePrimaryKey(className: String, from: String?, to: String?)
    case changeTableType(className: String, embedded: Bool)

    public var className: String {
        switch self {
        case let .addTable(c), let .removeTable(c), let .addInitialProperties(c): return c.name
        case let .removeProperty(n, _), let .changePropertyType(n, _, _), let .makeNullable(n, _), let .makeRequired(n, _),
             let .addIndex(n, _), let .removeIndex(n, _), let .addProperty(n, _), let .changePrimaryKey(n, _, _),
             let .changeTableType(n, _):
            return n
        }
    }

    /// `Schema::compare`: tables added (and, when asked, removed) first, then per class in name
    /// order the property changes — removals, type changes, nullability and index changes in the
    /// file's column order, then additions in the target's order, then the primary key — and
    /// last the table-type changes.
    public static func compare(_ current: [ClassSpec], _ target: [ClassSpec], includeRemovedTables: Bool = false) -> [SchemaChange] {
        let current = ClassSpec.sortedByName(current), target = ClassSpec.sortedByName(target)
        var changes = [SchemaChange]()
        let pairs = zipByName(target, current)
        for (t, c) in pairs {
            if let t, c == nil { changes.append(.addTable(t)) }
            if let c, t == nil, includeRemovedTables { changes.append(.removeTable(c)) }
        }
        for (t, c) in pairs {
            if let t, let c {
                compareClass(c, t, into: &changes)
            } else if let t {
                changes.append(.addInitialProperties(t))
            }
        }
        for (t, c) in pairs {
            if let t, let c, t.embedded != c.embedded { changes.append(.changeTableType(className: t.name, embedded: t.embedded)) }
        }
        return changes
    }

    private static func compareClass(_ existing: ClassSpec, _ target: ClassSpec, into changes: inout [SchemaChange]) {
        let name = existing.name
        for current in existing.properties {
            guard let wanted = target.property(current.name) else {
                changes.append(.removeProperty(className: name, current))
                continue
            }
            if !current.sameType(as: wanted) {
                changes.append(.changePropertyType(className: name, old: current, new: wanted))
                continue
            }
            if current.nullable != wanted.nullable {
                changes.append(current.nullable ? .makeRequired(className: name, current) : .makeNullable(className: name, current))
            }
            // `current.indexed` is the file's index; a primary key counts as indexed too.
            if wanted.requiresIndex {
                if !current.indexed { changes.append(.addIndex(className: name, current)) }
            } else if current.requiresIndex {
                changes.append(.removeIndex(className: name, current))
            }
        }
        for wanted in target.properties where existing.property(wanted.name) == nil {
            changes.append(.addProperty(className: name, wanted))
        }
        if existing.primaryKey != target.primaryKey {
            changes.append(.changePrimaryKey(className: name, from: existing.primaryKey, to: target.primaryKey))
        }
    }

    /// Pairs of (target, existing) classes with the same name, in byte-wise name order.
    private static func zipByName(_ a: [ClassSpec], _ b: [ClassSpec]) -> [(ClassSpec?, ClassSpec?)] {
        var out = [(ClassSpec?, ClassSpec?)]()
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i].name == b[j].name {
                out.append((a[i], b[j]))
                i += 1
                j += 1
            } else if j >= b.count || (i < a.count && Array(a[i].name.utf8).lexicographicallyPrecedes(Array(b[j].name.utf8))) {
                out.append((a[i], nil))
                i += 1
            } else {
                out.append((nil, b[j]))
                j += 1
            }
        }
        return out
    }

    /// One line for people: `+ Contact.firstName: string`, `~ Contact.phone: int → string`, ….
    public var summary: String {
        switch self {
        case let .addTable(c):
            var notes = [String]()
            if c.embedded { notes.append("embedded") }
            if let pk = c.primaryKey { notes.append("primary key \(pk)") }
            return "+ class \(c.name)" + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
        case let .removeTable(c): return "- class \(c.name)"
        case let .addInitialProperties(c):
            return "  \(c.name): " + c.properties.map { "\($0.name): \($0.typeText)" }.joined(separator: ", ")
        case let .removeProperty(n, p): return "- \(n).\(p.name): \(p.typeText)"
        case let .changePropertyType(n, old, new): return "~ \(n).\(old.name): \(old.typeText) → \(new.typeText)"
        case let .makeNullable(n, p):
            var q = p
            q.nullable = true
            return "~ \(n).\(p.name): \(p.typeText) → \(q.typeText) (made optional)"
        case let .makeRequired(n, p):
            var q = p
            q.nullable = false
            return "~ \(n).\(p.name): \(p.typeText) → \(q.typeText) (made required)"
        case let .addIndex(n, p): return "~ \(n).\(p.name): index added"
        case let .removeIndex(n, p): return "~ \(n).\(p.name): index removed"
        case let .addProperty(n, p): return "+ \(n).\(p.name): \(p.typeText)" + (p.indexed && !p.isPrimary ? " indexed" : "")
        case let .changePrimaryKey(n, from, to): return "~ \(n): primary key \(from ?? "none") → \(to ?? "none")"
        case let .changeTableType(n, embedded): return "~ \(n): " + (embedded ? "top-level → embedded" : "embedded → top-level")
        }
    }
}
