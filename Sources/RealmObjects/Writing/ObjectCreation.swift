import RealmFormat

extension RealmWriter {
    /// Creates (or with `.upsert`, updates by primary key) one object per JSON object, as
    /// Realm's `create(_:value:update:)` does (object-store.md §4.2): nested objects become
    /// linked objects (created or upserted) or embedded objects; `_key` and `_class` members
    /// (as `export` writes them) are ignored.
    public func write(className: String, objects: [JSONValue], policy: Policy) throws {
        guard let c = file.objectClass(named: className) else {
            throw InputError(className: className, "no such class (classes: \(file.classes.map(\.name).joined(separator: ", ")))")
        }
        if c.isEmbedded { throw InputError(className: className, "embedded objects are created inside their parent, not on their own") }
        if policy == .upsert && c.primaryKey == nil { throw InputError(className: className, "upsert needs a primary key; this class has none") }
        for (i, object) in objects.enumerated() {
            _ = try writeObject(c, object, policy: policy, index: i, depth: 0)
        }
    }

    /// One object of a stream, as `write(className:objects:policy:)` writes each; `index`
    /// names it in errors. With `keepingKey`, a new object of a class without primary key gets
    /// the ObjKey of its `_key` member (as `export` writes it), so that an export imported into
    /// an empty file keeps its identities (`{"$key": N}` links, the dump's `_key`s). Returns
    /// the object's ObjKey.
    @discardableResult
    public func write(className: String, object: JSONValue, policy: Policy, index: Int, keepingKey: Bool = false) throws -> Int64 {
        guard let c = file.objectClass(named: className) else {
            throw InputError(className: className, "no such class (classes: \(file.classes.map(\.name).joined(separator: ", ")))")
        }
        if c.isEmbedded { throw InputError(className: className, "embedded objects are created inside their parent, not on their own") }
        if policy == .upsert && c.primaryKey == nil { throw InputError(className: className, "upsert needs a primary key; this class has none") }
        var key: Int64?
        if keepingKey, c.primaryKey == nil, case let .number(text)? = object["_key"] {
            guard let k = Int64(text), k >= 0 else { throw InputError(objectIndex: index, className: c.name, property: "_key", "is not an object key: \(text)") }
            key = k
        }
        return try writeObject(c, object, policy: policy, index: index, depth: 0, key: key)
    }

    /// Sets properties of existing objects (`update --set`, `--json`).
    public func update(className: String, keys: [Int64], values: JSONValue) throws {
        guard let c = file.objectClass(named: className) else { throw InputError(className: className, "no such class") }
        guard case let .object(members) = values else { throw InputError(className: className, "the new values must be a JSON object") }
        // Announced up front, so an index of a property most objects change is built once at
        // commit from the start, not entry by entry until the editor notices.
        let editor = try self.editor(c.table.position)
        for (name, _) in members {
            if let p = c.property(named: name), let column = editor.columnIndex(key: p.column.key) {
                editor.willChange(column: column, objects: keys.count)
            }
        }
        guard !keys.isEmpty else { return }
        // Plain scalar properties get one value for every object, coerced once (the first
        // object's errors, as the object-by-object path reports them) and set leaf by leaf
        // (`updateColumn`); links, Mixed values and collections are set object by object.
        var scalars: [(Property, Value)] = [], others: [(Property, JSONValue)] = []
        for (name, json) in members {
            guard let p = c.property(named: name) else { throw unknownProperty(name, c, index: 0) }
            if p.isPrimaryKey { throw InputError(objectIndex: 0, className: c.name, property: name, "a primary key cannot be changed after creation") }
            if p.collection == nil && p.type != "object" && p.column.type != .mixed {
                scalars.append((p, try coerce(p, of: c, json, index: 0)))
            } else {
                others.append((p, json))
            }
        }
        let sorted = zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 } ? keys : Array(Set(keys)).sorted()
        for (p, value) in scalars { try updateColumn(c, keys: sorted, p) { _ in value } }
        if !others.isEmpty {
            for (i, key) in keys.enumerated() {
                for (p, json) in others { try set(p, of: c, key: key, json, policy: .upsert, index: i, depth: 0) }
            }
        }
        summary.updated += keys.count
    }

    func unknownProperty(_ name: String, _ c: ObjectClass, index: Int?) -> InputError {
        var reason = "no such property"
        reason += NameSuggestion.didYouMean(name, among: c.properties.map(\.name))
        return InputError(objectIndex: index, className: c.name, property: name, reason)
    }

    /// Creates or updates one object; returns its ObjKey. `key`: the ObjKey a new object of a
    /// class without primary key gets (else the table's next).
    func writeObject(_ c: ObjectClass, _ json: JSONValue, policy: Policy, index: Int, depth: Int, key keptKey: Int64? = nil) throws -> Int64 {
        guard depth < 100 else { throw InputError(objectIndex: index, className: c.name, "objects nest more than 100 levels deep") }
        guard case let .object(members) = json else {
            throw InputError(objectIndex: index, className: c.name, "expects a JSON object, got \(json.kind)")
        }
        // Each member resolved to its property once; `_key` and `_class` (export's) are skipped.
        var given: [(property: Property, position: Int, value: JSONValue)] = []
        given.reserveCapacity(members.count)
        for (name, value) in members where name != "_key" && name != "_class" {
            guard let position = c.properties.firstIndex(where: { $0.name == name }) else { throw unknownProperty(name, c, index: index) }
            given.append((c.properties[position], position, value))
        }
        let editor = try self.editor(c.table.position)
        var existing: Int64?
        var pkValue: Value?
        if let pkName = c.primaryKey {
            guard let pk = given.first(where: { $0.property.name == pkName }) else {
                throw InputError(objectIndex: index, className: c.name, property: pkName, "the primary key is missing")
            }
            let value = try coerce(pk.property, of: c, pk.value, index: index)
            guard PrimaryKey(value) != nil else {
                throw InputError(objectIndex: index, className: c.name, property: pkName, "is not a valid primary key value")
            }
            pkValue = value
            // An insert learns of a duplicate from the index itself (below), without a lookup.
            if policy == .upsert { existing = try editor.objectKey(primaryKey: value) }
        }
        if let key = existing {
            for member in given where !member.property.isPrimaryKey {
                try set(member.property, of: c, key: key, member.value, policy: policy, index: index, depth: depth)
            }
            summary.updated += 1
            return key
        }
        // A new object: required scalars must be given; the rest start empty or null.
        var isGiven = [Bool](repeating: false, count: c.properties.count)
        for member in given { isGiven[member.position] = true }
        for (i, p) in c.properties.enumerated() where !isGiven[i] && !p.isOptional && p.collection == nil && p.type != "object" && p.type != "mixed" {
            throw InputError(objectIndex: index, className: c.name, property: p.name, "is required but missing")
        }
        // Values without side effects go into the new row at once (one insert, each index
        // entry made once); links may create other objects, and links in Mixed values need
        // backlinks (§10.6), so they are set afterwards.
        var row = editor.defaultRow
        var links: [(Property, JSONValue)] = []
        for member in given {
            let p = member.property
            if p.isPrimaryKey, let pkValue, let pk = editor.primaryKeyColumn {
                row[pk] = pkValue
            } else if p.type == "object" || (p.column.type == .mixed && ValueCoercion.mentionsLink(member.value)) {
                links.append((p, member.value))
            } else if let column = editor.columnIndex(key: p.column.key) {
                row[column] = try coerce(p, of: c, member.value, index: index)
            }
        }
        let key = keptKey ?? editor.nextObjectKey()
        if let keptKey, editor.contains(keptKey) {
            throw InputError(objectIndex: index, className: c.name, property: "_key", "an object with key \(keptKey) exists already")
        }
        do {
            try editor.insert(key: key, values: row)
        } catch {
            guard case .duplicateKey = error else { throw error }
            throw InputError(objectIndex: index, className: c.name, property: c.primaryKey,
                             "an object with primary key \(describe(pkValue ?? .null)) already exists (use upsert to update it)")
        }
        for (p, value) in links { try set(p, of: c, key: key, value, policy: policy, index: index, depth: depth) }
        summary.inserted += depth == 0 || !c.isEmbedded ? 1 : 0
        return key
    }

    /// Writes one property of an existing object; backlinks follow its links, and an
    /// embedded object whose owning link is replaced is deleted (object-store.md §5).
    func set(_ p: Property, of c: ObjectClass, key: Int64, _ json: JSONValue, policy: Policy, index: Int, depth: Int) throws {
        try store(try propertyValue(p, of: c, json, policy: policy, index: index, depth: depth), p, of: c, key: key)
    }

    /// Stores a checked value in one property of an existing object, with the link rules.
    /// Sets and dictionaries come in the order they are written (`ordered`). A set given
    /// with the elements it has keeps its stored order (and its bytes).
    func store(_ value: Value, _ p: Property, of c: ObjectClass, key: Int64) throws {
        let editor = try self.editor(c.table.position)
        guard let column = editor.columnIndex(key: p.column.key), editor.contains(key) else { return }
        let old = try editor.value(key, column: column)
        guard !old.isIdentical(to: value) else { return }
        if p.collection == .set, Self.sameElements(old, value, type: p.column.type) { return }
        try editor.set(key, column: column, value)
        try linksChanged(in: editor, column: column, key: key, from: old, to: value)
        if p.type == "object", let target = p.column.targetTable, let targetClass = file.objectClass(for: target), targetClass.isEmbedded {
            let kept = Set(linkedKeys(value))
            let dropped = linkedKeys(old).filter { !kept.contains($0) }
            if !dropped.isEmpty { try delete(className: targetClass.name, keys: dropped, countAsDeleted: false) }
        }
    }

    /// The stored value for a property from its JSON.
    func propertyValue(_ p: Property, of c: ObjectClass, _ json: JSONValue, policy: Policy, index: Int, depth: Int) throws -> Value {
        if p.type == "object" {
            guard let target = p.column.targetTable, let targetClass = file.objectClass(for: target) else {
                throw InputError(objectIndex: index, className: c.name, property: p.name, "links to a table that is not a class")
            }
            func link(_ j: JSONValue) throws -> Int64? {
                if case .null = j { return nil }
                return try linkTarget(targetClass, j, policy: policy, index: index, depth: depth + 1, from: (c, p))
            }
            switch p.collection {
            case nil:
                return try link(json).map(Value.link) ?? .null
            case .list?, .set?:
                if case .null = json { return .list([]) }
                guard case let .array(elements) = json else { throw mismatch(p, c, index, "expects an array of \(targetClass.name) objects, got \(json.kind)") }
                var keys = [Value]()
                for e in elements {
                    guard let k = try link(e) else { throw mismatch(p, c, index, "a list of objects cannot hold null") }
                    keys.append(.link(k))
                }
                return Self.ordered(.list(keys), p)
            case .dictionary?:
                if case .null = json { return .dictionary([]) }
                guard case let .object(members) = json else { throw mismatch(p, c, index, "expects an object of \(targetClass.name) objects, got \(json.kind)") }
                var entries = [DictionaryEntry]()
                for (k, v) in members {
                    do { try ValueCoercion.checkDictionaryKey(k) } catch { throw mismatchFailure(p, c, index, error) }
                    let target = try link(v).map { Value.typedLink(table: targetClass.table.key, key: $0) } ?? .null
                    entries.append(DictionaryEntry(key: .string(Array(k.utf8)), value: target))
                }
                return Self.ordered(.dictionary(entries), p)
            }
        }
        return try coerce(p, of: c, json, index: index)
    }

    /// A property value that is not a link (Mixed values may hold links, `$link`).
    func coerce(_ p: Property, of c: ObjectClass, _ json: JSONValue, index: Int) throws -> Value {
        let type = p.column.type
        func element(_ json: JSONValue, nullable: Bool) throws -> Value {
            guard type == .mixed else { return try ValueCoercion.scalar(json, type: type, nullable: nullable) }
            return try ValueCoercion.mixed(json, depth: 0) { name, identity in try mixedLink(name, identity, from: c) }
        }
        do {
            switch p.collection {
            case nil:
                return try element(json, nullable: p.isOptional)
            case .list?, .set?:
                if case .null = json { return .list([]) }
                guard case let .array(elements) = json else { throw ValueCoercion.Failure.mismatch("expects an array, got \(json.kind)") }
                var out = [Value]()
                for e in elements {
                    let v = try element(e, nullable: p.isOptional)
                    if p.collection == .set, v.isCollection {
                        // §10.5: Realm nests collections in Mixed lists and dictionaries only.
                        throw ValueCoercion.Failure.mismatch("a set cannot hold a nested list or dictionary, got \(e.kind)")
                    }
                    out.append(v)
                }
                return Self.ordered(.list(out), p)
            case .dictionary?:
                if case .null = json { return .dictionary([]) }
                guard case let .object(members) = json else { throw ValueCoercion.Failure.mismatch("expects an object, got \(json.kind)") }
                var out = [DictionaryEntry]()
                for (k, v) in members {
                    try ValueCoercion.checkDictionaryKey(k)
                    out.append(DictionaryEntry(key: .string(Array(k.utf8)), value: try element(v, nullable: p.isOptional)))
                }
                return Self.ordered(.dictionary(out), p)
            }
        } catch {
            throw mismatchFailure(p, c, index, error)
        }
    }

    /// A new value of `p` in the order it is written: a set as Realm Core builds it from the
    /// elements inserted in the order given (§10.2, `LeafEncoder.setOrder`), dictionary keys
    /// sorted, a later entry replacing an earlier one with the same key (§10.3). Done once,
    /// where the value is made: Realm's order of a set depends on the order of insertion.
    static func ordered(_ value: Value, _ p: Property) -> Value {
        switch (p.collection, value) {
        case let (.set?, .list(elements)): return .list(LeafEncoder.setOrder(elements, type: p.column.type))
        case let (.dictionary?, .dictionary(entries)): return .dictionary(LeafEncoder.dictionaryOrder(entries))
        default: return value
        }
    }

    /// Whether two values of a set property hold the same elements (Realm's element
    /// equality: −0.0 = 0.0, and here NaN = NaN), in whatever order.
    static func sameElements(_ a: Value, _ b: Value, type: ColumnType) -> Bool {
        guard case let .list(x) = a, case let .list(y) = b, x.count == y.count else { return false }
        let order = { (u: Value, v: Value) in LeafEncoder.setCompare(u, v, type: type) < 0 }
        return zip(x.sorted(by: order), y.sorted(by: order)).allSatisfy { LeafEncoder.setCompare($0, $1, type: type) == 0 }
    }

    /// The ObjKey a link's JSON names: a nested object (created or upserted, or embedded),
    /// `{"$key": N}`, or the target's primary-key value.
    func linkTarget(_ target: ObjectClass, _ json: JSONValue, policy: Policy, index: Int, depth: Int,
                    from origin: (ObjectClass, Property)) throws -> Int64 {
        let (c, p) = origin
        if target.isEmbedded {
            guard case .object = json else { throw mismatch(p, c, index, "expects an embedded \(target.name) object, got \(json.kind)") }
            return try writeObject(target, json, policy: .insert, index: index, depth: depth)
        }
        if case let .object(members) = json {
            if members.count == 1, members[0].0 == "$key", case let .number(text) = members[0].1, let k = Int64(text) {
                guard try editor(target.table.position).contains(k) else { throw mismatch(p, c, index, "no \(target.name) object has key \(k)") }
                return k
            }
            if members.count == 1, members[0].0 == "$missing" {
                throw mismatch(p, c, index, "a dangling link ($missing) cannot be written; link an existing \(target.name) object")
            }
            // `{"$oid": …}`, `{"$uuid": …}`, `{"$numberLong": …}`: a primary key in the form
            // export writes it (fixtures/README.md), not a nested object (whose members are
            // property names, which never start with `$`).
            if !(members.count == 1 && members[0].0.hasPrefix("$")) {
                return try writeObject(target, json, policy: policy, index: index, depth: depth)
            }
        }
        guard let pkName = target.primaryKey, let pk = target.property(named: pkName) else {
            throw mismatch(p, c, index, "\(target.name) has no primary key: link with {\"$key\": N} or a nested object")
        }
        let value = try coerce(pk, of: target, json, index: index)
        guard PrimaryKey(value) != nil, let key = try objectKey(primaryKey: value, in: target.table.position) else {
            throw mismatch(p, c, index, "no \(target.name) object has primary key \(describe(value))")
        }
        return key
    }

    func mismatch(_ p: Property, _ c: ObjectClass, _ index: Int, _ reason: String) -> InputError {
        InputError(objectIndex: index, className: c.name, property: p.name, reason)
    }

    func mismatchFailure(_ p: Property, _ c: ObjectClass, _ index: Int, _ error: Error) -> Error {
        if case let ValueCoercion.Failure.mismatch(reason)? = error as? ValueCoercion.Failure { return mismatch(p, c, index, reason) }
        return error
    }

    func describe(_ v: Value) -> String {
        let sink = MemorySink()
        var out = JSONEmitter(sink: sink, pretty: false)
        ObjectJSON.writeScalar(v, to: &out)
        out.flush()
        return sink.text
    }
}

/// Every ObjKey a link value holds.
func linkedKeys(_ value: Value) -> [Int64] {
    switch value {
    case let .link(k): return [k]
    case let .typedLink(_, k): return [k]
    case let .list(elements): return elements.flatMap(linkedKeys)
    case let .dictionary(entries): return entries.flatMap { linkedKeys($0.value) }
    default: return []
    }
}
