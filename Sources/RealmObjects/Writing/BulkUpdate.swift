import RealmFormat

/// Updating one property of many objects at once (`update --where`, `score = score + 1` for
/// every object a query selected): the same rules and errors as `value` then `set` object by
/// object, but every new value is computed and checked before anything is written, and a
/// plain scalar property is changed leaf by leaf (`TableEditor.update(_:column:absent:_:)`: one leaf
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
        let absent = { (key: Int64) -> any Error in InputError(className: c.name, property: p.name, "no object with key \(key)") }
        // Plain scalars: no links, no backlinks, no set order; checked inline as `create` does.
        if p.collection == nil && p.type != "object" && p.column.type != .mixed {
            let type = p.column.type, nullable = p.isOptional
            try editor.update(keys, column: column, absent: absent) { _, old in
                let value = try transform(old)
                if !Self.isScalar(value, type, nullable: nullable) { try check(value, for: p, of: c) }
                // Unchanged values are not written, as `store` skips them.
                return value.isIdentical(to: old) ? nil : value
            }
            return
        }
        // The rest: every new value made and checked, then stored object by object.
        var changed: [(key: Int64, value: Value)] = []
        try editor.update(keys, column: column, absent: absent) { i, old in
            let value = Self.ordered(try transform(old), p)
            try check(value, for: p, of: c)
            if !value.isIdentical(to: old), !(p.collection == .set && Self.sameElements(old, value, type: p.column.type)) {
                changed.append((keys[i], value))
            }
            return nil
        }
        editor.willChange(column: column, objects: changed.count)
        for (key, value) in changed { try store(value, p, of: c, key: key) }
    }
}
