import RealmFormat
import RealmObjects
import RealmQuery

/// Planning a version block (object-store.md §10.1): each step checked against the schema it
/// changes (names, types, primary keys, link targets, predicates), the target schema built, and
/// the assignments compiled, before anything in the file is touched.
extension StepRunner {
    static func checkClassName(_ name: Name) throws(ScriptError) {
        guard name.text.utf8.count <= 57 else { throw ScriptError("class names are at most 57 bytes", at: name.location) }
        guard !name.text.isEmpty else { throw ScriptError("empty class name", at: name.location) }
    }

    mutating func planStep(_ step: Step) throws(ScriptError) {
        switch step {
        case .renameClass:
            break
        case let .addClass(name, embedded, declarations):
            guard target[name.text] == nil else { throw ScriptError("class '\(name.text)' exists already", at: name.location) }
            if removedClasses.contains(where: { $0.name.text == name.text }) {
                throw ScriptError("class '\(name.text)' is removed in this version; add it again in a later version", at: name.location)
            }
            try Self.checkClassName(name)
            var spec = ClassSpec(name: name.text, embedded: embedded, primaryKey: nil, properties: [])
            var p = ClassPlan(name: name.text, position: nil, inputName: name.text)
            for d in declarations {
                guard spec.property(d.name.text) == nil else { throw ScriptError("'\(d.name.text)' is declared twice", at: d.name.location) }
                spec.properties.append(try resolve(d, in: name.text))
                if d.primaryKey {
                    guard spec.primaryKey == nil else { throw ScriptError("\(name.text) has two primary keys", at: d.name.location) }
                    spec.primaryKey = d.name.text
                    spec.properties[spec.properties.count - 1].isPrimary = true
                }
                p.lines.append("+ \(d.name.text): \(spec.properties.last!.typeText)" + (d.primaryKey ? " primary key" : d.indexed ? " indexed" : ""))
            }
            if embedded && spec.primaryKey != nil { throw ScriptError("embedded classes cannot have a primary key", at: name.location) }
            target[name.text] = spec
            p.lines.insert(embedded ? "added (embedded)" : "added", at: 0)
            save(p)
        case let .removeClass(names):
            for name in names {
                guard target[name.text] != nil, let position = group.position(ofClass: name.text) else { throw unknownClass(name) }
                target[name.text] = nil
                var p = plan(name.text)
                p.removed = true
                p.lines = ["removed with its \(group.tables[position]!.objectCount) objects"]
                save(p)
                removedClasses.append((position, name))
            }
        case let .modify(name, operations):
            guard target[name.text] != nil else { throw unknownClass(name) }
            guard let position = group.position(ofClass: name.text) else {
                throw ScriptError("class '\(name.text)' is added in this version; declare its properties in 'add class'", at: name.location)
            }
            var p = plan(name.text)
            var state = ClassState()
            for op in operations { try planOperation(op, className: name.text, position: position, plan: &p, state: &state) }
            save(p)
        }
    }

    /// What a class block did so far, to refuse contradictions.
    struct ClassState {
        var added = Set<String>()
        var removed = Set<String>()
        var renamed = Set<String>()
    }

    mutating func planOperation(_ op: Operation, className: String, position: Int, plan p: inout ClassPlan,
                                        state: inout ClassState) throws(ScriptError) {
        var spec = target[className]!
        func existing(_ name: Name) throws(ScriptError) -> Int {
            guard let i = spec.propertyIndex(name.text) else {
                throw ScriptError("\(className) has no property '\(name.text)'\(didYouMean(name.text, spec.properties.map(\.name)))", at: name.location)
            }
            return i
        }
        switch op {
        case let .add(d):
            guard spec.property(d.name.text) == nil else {
                throw ScriptError("\(className) already has a property '\(d.name.text)' (use change to change it)", at: d.name.location)
            }
            if state.removed.contains(d.name.text) {
                throw ScriptError("'\(d.name.text)' is removed and added again in this version; use change \(d.name.text): …", at: d.name.location)
            }
            var property = try resolve(d, in: className)
            if d.primaryKey {
                try checkPrimaryKey(property, className: className, at: d.name.location)
                for i in spec.properties.indices { spec.properties[i].isPrimary = false }
                spec.primaryKey = d.name.text
                property.isPrimary = true
            }
            spec.properties.append(property)
            state.added.insert(d.name.text)
            var line = "+ \(d.name.text): \(property.typeText)" + (d.primaryKey ? " primary key" : d.indexed ? " indexed" : "")
            if let value = d.value {
                p.assignments.append(Assignment(className: className, property: d.name, expression: value, filter: nil, isConversion: false))
                line += " = \(value)"
            } else if property.collection == nil && property.type != .link && !property.nullable && old.tables[position]!.objectCount > 0 {
                problems.add(Problem(version: block.number, className: className, object: nil, property: d.name.text,
                                     message: "a new required property needs a value for the \(old.tables[position]!.objectCount) existing objects: add \(d.name.text): \(property.typeText) = …",
                                     location: d.name.location))
            }
            p.lines.append(line)
        case let .remove(names):
            for name in names {
                let i = try existing(name)
                if state.added.contains(name.text) { throw ScriptError("'\(name.text)' is added in this version", at: name.location) }
                if spec.primaryKey == name.text { spec.primaryKey = nil }
                spec.properties.remove(at: i)
                state.removed.insert(name.text)
                p.lines.append("- \(name.text)")
            }
        case let .rename(from, to):
            let i = try existing(from)
            if state.added.contains(from.text) { throw ScriptError("'\(from.text)' is added in this version; give it its final name there", at: from.location) }
            guard spec.property(to.text) == nil else { throw ScriptError("\(className) already has a property '\(to.text)'", at: to.location) }
            try Self.checkPropertyName(to)
            spec.properties[i].name = to.text
            if spec.primaryKey == from.text { spec.primaryKey = to.text }
            state.renamed.insert(to.text)
            p.renames.append((from, to))
            p.lines.append("~ \(from.text) → \(to.text) (renamed)")
        case let .change(d):
            let i = try existing(d.name)
            if state.added.contains(d.name.text) {
                throw ScriptError("'\(d.name.text)' is added in this version; declare it with its final type there", at: d.name.location)
            }
            if state.renamed.contains(d.name.text) {
                throw ScriptError("'\(d.name.text)' is renamed in this version; change its type in a later version", at: d.name.location)
            }
            let before = spec.properties[i]
            var after = try resolve(d, in: className)
            after.indexed = d.indexed || (before.indexed && PropertySpec.indexableTypes.contains(after.type) && after.collection == nil)
            if d.primaryKey || spec.primaryKey == d.name.text {
                if d.primaryKey { try checkPrimaryKey(after, className: className, at: d.name.location) }
                for j in spec.properties.indices { spec.properties[j].isPrimary = false }
                spec.primaryKey = d.name.text
                after.isPrimary = true
                if !d.primaryKey { try checkPrimaryKey(after, className: className, at: d.type.location) }
            }
            spec.properties[i] = after
            var line = "~ \(d.name.text): \(before.typeText) → \(after.typeText)"
            if d.indexed && !before.indexed { line += " indexed" }
            if d.primaryKey && !before.isPrimary { line += " primary key" }
            if let value = d.value {
                p.assignments.append(Assignment(className: className, property: d.name, expression: value, filter: nil, isConversion: false))
                line += " = \(value)"
            } else if let conversion = try defaultConversion(before, after, d) {
                p.assignments.append(Assignment(className: className, property: d.name, expression: conversion, filter: nil, isConversion: true))
                if !before.sameType(as: after) { line += " (converted: \(conversion))" }
            }
            p.lines.append(line)
        case let .set(property, value, filter):
            _ = try existing(property)
            if let filter { try checkPredicate(filter, className: p.inputName) }
            p.assignments.append(Assignment(className: className, property: property, expression: value, filter: filter, isConversion: false))
            p.lines.append("= \(property.text) = \(value)" + (filter.map { " where \"\($0.text)\"" } ?? ""))
        case let .delete(predicate, _):
            try checkPredicate(predicate, className: p.inputName)
            p.deletes.append(predicate)
            p.lines.append("delete where \"\(predicate.text)\"")
        case let .index(names):
            for name in names {
                let i = try existing(name)
                let property = spec.properties[i]
                guard PropertySpec.indexableTypes.contains(property.type), property.collection == nil else {
                    throw ScriptError("\(property.typeText) properties cannot be indexed", at: name.location)
                }
                spec.properties[i].indexed = true
                p.lines.append("~ \(name.text): indexed")
            }
        case let .unindex(names):
            for name in names {
                let i = try existing(name)
                spec.properties[i].indexed = false
                p.lines.append("~ \(name.text): not indexed" + (spec.primaryKey == name.text ? " (it keeps the primary key's index)" : ""))
            }
        case let .primaryKey(name, at):
            if let name {
                let i = try existing(name)
                try checkPrimaryKey(spec.properties[i], className: className, at: name.location)
                for j in spec.properties.indices { spec.properties[j].isPrimary = j == i }
                spec.primaryKey = name.text
            } else {
                guard spec.primaryKey != nil else { throw ScriptError("\(className) has no primary key", at: at) }
                for j in spec.properties.indices { spec.properties[j].isPrimary = false }
                spec.primaryKey = nil
            }
            p.lines.append("~ primary key: \(name?.text ?? "none")")
        }
        target[className] = spec
    }

    static func checkPropertyName(_ name: Name) throws(ScriptError) {
        guard name.text.utf8.count <= 63 else { throw ScriptError("property names are at most 63 bytes", at: name.location) }
    }

    func checkPrimaryKey(_ p: PropertySpec, className: String, at: SourceLocation) throws(ScriptError) {
        guard PropertySpec.primaryKeyTypes.contains(p.type), p.collection == nil else {
            throw ScriptError("a primary key must be an int, string, objectId or uuid, not \(p.typeText)", at: at)
        }
        if target[className]?.embedded == true { throw ScriptError("embedded classes cannot have a primary key", at: at) }
    }

    /// The values `change p: type` keeps when no expression is given: the old value converted
    /// (`string(p)`, `int(p)`, …), or the old value itself when only the optionality changes
    /// to required. Nothing when the values stay as they are.
    func defaultConversion(_ before: PropertySpec, _ after: PropertySpec, _ d: PropertyDeclaration) throws(ScriptError) -> Expression? {
        let path = Expression.path([d.name])
        if before.sameType(as: after) {
            return before.nullable && !after.nullable ? path : nil
        }
        if before.collection != nil || after.collection != nil {
            if before.collection != nil && after.collection != nil && before.type == after.type && before.objectType == after.objectType
                && before.collection != .dictionary && after.collection != .dictionary {
                return path
            }
            throw ScriptError("\(before.typeText) values cannot be converted to \(after.typeText); give the new values: change \(d.name.text): \(after.typeText) = …",
                              at: d.type.location)
        }
        if before.type == .link || after.type == .link {
            throw ScriptError("\(before.typeText) values cannot be converted to \(after.typeText); give the new values (= null) or remove and add the property",
                              at: d.type.location)
        }
        if after.type == .mixed { return path }
        let kind = ValueKind(after.type)
        guard Conversion.possible(from: ValueKind(before.type), to: kind) else {
            throw ScriptError("\(before.typeText) values cannot be converted to \(after.typeText); give the new values: change \(d.name.text): \(after.typeText) = …",
                              at: d.type.location)
        }
        let function = PropertySpec.typeNames[after.type] ?? kind.name
        return .call(Name(text: function, location: d.type.location), [path])
    }

    /// A declared type as a property of the target schema.
    mutating func resolve(_ d: PropertyDeclaration, in className: String) throws(ScriptError) -> PropertySpec {
        try Self.checkPropertyName(d.name)
        let t = d.type
        var spec: PropertySpec
        if let type = PropertySpec.typesByName[t.base] {
            spec = PropertySpec(name: d.name.text, type: type, collection: t.collection,
                                nullable: PropertySpec.storedNullability(type: type, collection: t.collection, optional: t.optional))
        } else if t.base == "object" || t.base == "linkingObjects" {
            throw ScriptError("write the class name as the type of an object property (e.g. \(d.name.text): Person?)", at: t.location)
        } else {
            if t.optional && (t.collection == .list || t.collection == .set) {
                throw ScriptError("lists and sets of objects cannot hold null", at: t.location)
            }
            spec = PropertySpec(name: d.name.text, type: .link, collection: t.collection,
                                nullable: PropertySpec.storedNullability(type: .link, collection: t.collection, optional: true), objectType: t.base)
            linkTypeLocations[className + "." + d.name.text] = t.location
        }
        if d.indexed {
            guard PropertySpec.indexableTypes.contains(spec.type), spec.collection == nil else {
                throw ScriptError("\(spec.typeText) properties cannot be indexed", at: t.location)
            }
            spec.indexed = true
        }
        return spec
    }

    mutating func checkPredicate(_ predicate: Predicate, className: String) throws(ScriptError) {
        do {
            _ = try Query(store: store, className: className, predicate.text)
        } catch {
            throw Self.scriptError(error, predicate)
        }
    }

    /// A query error placed in the script: the predicate string starts one column after its quote.
    static func scriptError(_ error: QueryError, _ predicate: Predicate) -> ScriptError {
        var column = predicate.location.column + 1
        if let r = error.range {
            let bytes = Array(predicate.text.utf8)
            column += String(decoding: bytes[0..<max(0, min(r.start, bytes.count))], as: UTF8.self).count
        }
        var message = "in the predicate: \(error.message)"
        if let s = error.suggestion { message += "; did you mean '\(s)'?" }
        return ScriptError(message, at: SourceLocation(line: predicate.location.line, column: column))
    }

    func validateTarget() throws(ScriptError) {
        for (name, c) in target {
            for p in c.properties where p.type == .link {
                let at = linkTypeLocations[name + "." + p.name] ?? block.location
                guard let objectType = p.objectType, let linked = target[objectType] else {
                    if let removed = removedClasses.first(where: { $0.name.text == p.objectType }) {
                        throw ScriptError("\(name).\(p.name) links to \(removed.name.text), which this version removes; remove or change \(name).\(p.name) too",
                                          at: removed.name.location)
                    }
                    let all = target.keys.sorted()
                    throw ScriptError("\(name).\(p.name) links to an unknown class '\(p.objectType ?? "?")'\(didYouMean(p.objectType ?? "", all))", at: at)
                }
                if linked.embedded && p.collection == .set { throw ScriptError("sets cannot hold embedded objects", at: at) }
            }
        }
    }

    mutating func compileAssignments() throws(ScriptError) {
        for name in planOrder {
            guard var p = plans[name], let position = p.position, !p.removed else { continue }
            let compiler = ExpressionCompiler(group: old, position: position)
            let spec = target[name]!
            // A conversion that `change` wrote is dropped when a later `set` gives every value.
            p.assignments = p.assignments.enumerated().filter { i, a in
                !a.isConversion || !p.assignments[(i + 1)...].contains { $0.property.text == a.property.text && $0.filter == nil }
            }.map(\.element)
            for i in p.assignments.indices {
                let a = p.assignments[i]
                guard let property = spec.property(a.property.text) else {
                    throw ScriptError("'\(a.property.text)' is renamed or removed later in this version", at: a.property.location)
                }
                if property.type == .link, let t = property.objectType, target[t]?.embedded == true {
                    throw ScriptError("\(name).\(property.name) owns embedded objects; links to them cannot be copied", at: a.property.location)
                }
                let compiled = try compiler.compile(a.expression)
                let linkTarget = property.objectType.flatMap { old.position(ofClass: $0) }
                if let why = Storing.mismatch(compiled.type, into: property, linkTarget: linkTarget) {
                    throw ScriptError(why, at: a.expression.location)
                }
                p.assignments[i].compiled = compiled
            }
            plans[name] = p
        }
    }

    func objectCounts() -> [String: Int] {
        var out = [String: Int]()
        for (name, p) in plans { if let position = p.position { out[name] = old.tables[position]!.objectCount } }
        return out
    }
}
