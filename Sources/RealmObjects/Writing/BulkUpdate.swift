import RealmFormat

/// Updating one property of many objects at once (`update --where`, `score = score + 1` for
/// every object a query selected): the same rules and errors as `value` then `set` object by
/// object, but every new value is computed and checked before anything is written, and a
/// plain scalar property is changed leaf by leaf (`TableEditor.set(_:column:_:)`: one leaf
/// lookup and one decode of the column per leaf, not three lookups per object). Properties
/// with side effects (links and their backlinks, Mixed values, collections) are stored object
/// by object after the checks, as `set` stores them.
extension RealmWriter {
    /// Sets property `p` of each object of `keys` to `transform` of its current value. Keys
    /// may come in any order; an object given twice is changed once; `transform` is called
    /// once per object, in ascending key order, before anything is written. A key not in the table,
    /// a failing `transform` or a value `p` cannot hold (`InputError`, as `set` throws it)
    /// fails with nothing changed. Returns the number of objects updated (counted in
    /// `summary.updated`, whether or not their value changed, as `set` counts).
    @discardableResult
    public func update(_ c: ObjectClass, keys: [Int64], _ p: Property, transform: (Value) throws -> Value) throws -> Int {
        let sorted = zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 } ? keys : Array(Set(keys)).sorted()
        try updateColumn(c, keys: sorted, p, transform: transform)
        summary.updated += sorted.count
        return sorted.count
    }

    /// `update` of ascending, distinct keys, `summary` aside.
    func updateColumn(_ c: ObjectClass, keys: [Int64], _ p: Property, transform: (Value) throws -> Value) throws {
        if p.isPrimaryKey { throw InputError(className: c.name, property: p.name, "a primary key cannot be changed after creation") }
        let editor = try self.editor(c.table.position)
        guard let column = editor.columnIndex(key: p.column.key) else {
            throw InputError(className: c.name, property: p.name, "has no column in the table")
        }
        let present = editor.presentKeys(keys)
        if present.count != keys.count {
            let found = Set(present)
            throw InputError(className: c.name, property: p.name, "no object with key \(keys.first { !found.contains($0) } ?? keys[0])")
        }
        let old = try editor.values(keys, column: column)
        // Plain scalars: no links, no backlinks, no set order; checked inline as `create` does.
        let scalarType = p.collection == nil && p.type != "object" && p.column.type != .mixed ? p.column.type : nil
        var changedKeys: [Int64] = [], newValues: [Value] = []
        for (key, oldValue) in zip(keys, old) {
            let value = Self.ordered(try transform(oldValue), p)
            if let scalarType, Self.isScalar(value, scalarType, nullable: p.isOptional) {
            } else {
                try check(value, for: p, of: c)
            }
            // Unchanged values are not written, as `store` skips them.
            if value.isIdentical(to: oldValue) { continue }
            if p.collection == .set, Self.sameElements(oldValue, value, type: p.column.type) { continue }
            changedKeys.append(key)
            newValues.append(value)
        }
        if scalarType != nil {
            try editor.set(changedKeys, column: column, newValues)
        } else {
            editor.willChange(column: column, objects: changedKeys.count)
            for (key, value) in zip(changedKeys, newValues) { try store(value, p, of: c, key: key) }
        }
    }
}
