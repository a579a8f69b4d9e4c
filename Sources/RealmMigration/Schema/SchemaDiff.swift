import RealmFormat

/// What differs between two schemas, for people (`realmsh schema FILE --diff OTHER`) and as a
/// starting script (`realmsh migrate --generate`). Property order does not count (it is not
/// part of a Realm schema), nor do backlinks (they follow from the links).
public enum SchemaDiff {
    /// The comparison without index changes that only follow a primary-key change (the
    /// primary key is indexed anyway).
    static func changes(_ current: [ClassSpec], _ target: [ClassSpec]) -> [SchemaChange] {
        SchemaChange.compare(current, target, includeRemovedTables: true).filter { change in
            switch change {
            case let .addIndex(c, p): return target.first { $0.name == c }?.primaryKey != p.name
            case let .removeIndex(_, p): return !p.isPrimary
            default: return true
            }
        }
    }

    /// Classes added (`+ class`), removed (`- class`) and changed (`~ class` with one line per
    /// property change); empty when the schemas are the same.
    public static func lines(from current: [ClassSpec], to target: [ClassSpec]) -> [String] {
        let changes = changes(current, target)
        var out = [String]()
        for change in changes {
            switch change {
            case let .addTable(c):
                out.append(change.summary)
                let ordered = c.properties.filter(\.isPrimary) + c.properties.filter { !$0.isPrimary }
                for p in ordered { out.append("    \(p.name): \(p.typeText)" + (p.isPrimary ? " primary key" : p.indexed ? " indexed" : "")) }
            case .removeTable:
                out.append(change.summary)
            default:
                break
            }
        }
        var byClass = [String: [String]]()
        var order = [String]()
        for change in changes {
            let line: String
            switch change {
            case .addTable, .removeTable, .addInitialProperties: continue
            case let .removeProperty(_, p): line = "- \(p.name): \(p.typeText)"
            case let .addProperty(_, p): line = "+ \(p.name): \(p.typeText)" + (p.indexed && !p.isPrimary ? " indexed" : "")
            case let .changePropertyType(_, old, new):
                line = "~ \(old.name): \(old.typeText) → \(new.typeText)" + (new.indexed && !new.isPrimary ? " indexed" : "")
            case let .makeNullable(_, p): line = "~ \(p.name): \(p.typeText) → \(p.typeText)? (made optional)"
            case let .makeRequired(_, p):
                var q = p
                q.nullable = false
                line = "~ \(p.name): \(p.typeText) → \(q.typeText) (made required)"
            case let .addIndex(_, p): line = "~ \(p.name): index added"
            case let .removeIndex(_, p): line = "~ \(p.name): index removed"
            case let .changePrimaryKey(_, from, to): line = "~ primary key: \(from ?? "none") → \(to ?? "none")"
            case let .changeTableType(_, embedded): line = embedded ? "~ top-level → embedded" : "~ embedded → top-level"
            }
            if byClass[change.className] == nil { order.append(change.className) }
            byClass[change.className, default: []].append(line)
        }
        for name in order {
            out.append("~ class \(name)")
            out += byClass[name]!.map { "    " + $0 }
        }
        return out
    }

    /// A migration script from `current` to `target` (a starting point: values of new required
    /// properties and failed conversions are placeholders marked TODO, and a property removed
    /// and another added in one class may really be a rename).
    public static func script(from current: [ClassSpec], to target: [ClassSpec], version: Int64, header: [String]) -> String {
        let changes = changes(current, target)
        var lines = header.map { "// " + $0 }
        lines.append("version \(version) {")
        var body = [String]()
        for change in changes {
            guard case let .addTable(c) = change else { continue }
            body.append("  add \(c.embedded ? "embedded " : "")class \(name(c.name)) {")
            let ordered = c.properties.filter(\.isPrimary) + c.properties.filter { !$0.isPrimary }
            for p in ordered { body.append("    \(name(p.name)): \(p.typeText)" + (p.isPrimary ? " primary key" : p.indexed ? " indexed" : "")) }
            body.append("  }")
        }
        var perClass = [String: [String]]()
        var order = [String]()
        var removedProperties = [String: [String]]()
        var addedProperties = [String: [String]]()
        for change in changes {
            var ops = [String]()
            let className = change.className
            switch change {
            case .addTable, .addInitialProperties, .removeTable: continue
            case let .removeProperty(_, p):
                ops.append("remove \(name(p.name))")
                removedProperties[className, default: []].append(p.name)
            case let .addProperty(_, p):
                var line = "add \(name(p.name)): \(p.typeText)" + (p.indexed && !p.isPrimary ? " indexed" : "")
                if p.collection == nil && p.type != .link && !p.nullable {
                    line += " = \(placeholder(p.type))  // TODO: the value for existing objects"
                }
                ops.append(line)
                addedProperties[className, default: []].append(p.name)
            case let .changePropertyType(_, old, new):
                var line = "change \(name(new.name)): \(new.typeText)" + (new.indexed && !new.isPrimary ? " indexed" : "")
                let convertible = old.collection == nil && new.collection == nil && old.type != .link && new.type != .link
                    && Conversion.possible(from: ValueKind(old.type), to: ValueKind(new.type))
                let collectionCopy = old.collection != nil && new.collection != nil && old.collection != .dictionary
                    && new.collection != .dictionary && old.type == new.type && old.objectType == new.objectType
                if convertible {
                    line += "  // converted with \(PropertySpec.typeNames[new.type] ?? "?")(\(old.name))"
                } else if !collectionCopy {
                    if new.collection == nil && (new.type != .link) {
                        line += " = \(placeholder(new.type))  // TODO: \(old.typeText) values cannot be converted"
                    } else if new.collection == nil {
                        line += " = null  // TODO: the values are not converted"
                    } else {
                        line = "remove \(name(old.name))  // TODO: \(old.typeText) → \(new.typeText): add it again in a later version"
                    }
                }
                ops.append(line)
            case let .makeNullable(_, p):
                var q = p
                q.nullable = true
                ops.append("change \(name(p.name)): \(q.typeText)")
            case let .makeRequired(_, p):
                var q = p
                q.nullable = false
                ops.append("change \(name(p.name)): \(q.typeText)"
                           + (p.collection == nil ? " = \(name(p.name)) ?? \(placeholder(p.type))  // TODO: the value for nulls" : ""))
            case let .addIndex(_, p): ops.append("index \(name(p.name))")
            case let .removeIndex(_, p): ops.append("unindex \(name(p.name))")
            case let .changePrimaryKey(_, _, to): ops.append("primary key \(to.map(name) ?? "none")")
            case let .changeTableType(_, embedded):
                ops.append("// TODO: \(className) becomes \(embedded ? "embedded" : "top-level"), which realmsh does not migrate yet")
            }
            if perClass[className] == nil { order.append(className) }
            perClass[className, default: []] += ops
        }
        for className in order {
            body.append("  class \(name(className)) {")
            if let removed = removedProperties[className], let added = addedProperties[className] {
                body.append("    // \(removed.joined(separator: ", ")) removed and \(added.joined(separator: ", ")) added: if one is a rename,")
                body.append("    // write 'rename old -> new' instead, which keeps the values")
            }
            body += perClass[className]!.map { "    " + $0 }
            body.append("  }")
        }
        for change in changes {
            guard case let .removeTable(c) = change else { continue }
            body.append("  remove class \(name(c.name))  // deletes its objects; drop this line to keep them in the file")
        }
        if body.isEmpty { body.append("  // the schemas are the same: this version only sets the schema version") }
        lines += body
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A name as the script writes it: in backticks unless it is a plain name.
    static func name(_ text: String) -> String {
        let plain = !text.isEmpty && text.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 >= 0x80 }
            && !(text.utf8.first! >= 48 && text.utf8.first! <= 57)
        let words: Set<String> = ["true", "false", "null", "nil"]
        return plain && !words.contains(text) ? text : "`\(text)`"
    }

    /// An expression giving the type's empty value.
    static func placeholder(_ type: ColumnType) -> String {
        switch type {
        case .int: return "0"
        case .bool: return "false"
        case .string: return "\"\""
        case .double: return "0.0"
        case .float: return "float(0)"
        case .decimal: return "decimal(\"0\")"
        case .timestamp: return "date(\"1970-01-01T00:00:00Z\")"
        case .objectId: return "objectId(\"000000000000000000000000\")"
        case .uuid: return "uuid(\"00000000-0000-0000-0000-000000000000\")"
        case .binary: return "data(\"\")"
        default: return "null"
        }
    }
}
