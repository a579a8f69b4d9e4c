import RealmFormat

/// New objects of a class whose every property is a plain scalar (no links, collections,
/// Mixed values or embedded objects), from rows of table cells: the bulk-load path of a
/// CSV import (issue #16). Each row goes straight to `TableEditor.insert`, as
/// `RealmWriter.create` ends up doing, without `create`'s per-value steps (set order, link
/// checks) that such a class never needs; the rules stay — each cell is checked to be of
/// its property's type (or null where optional), and the unique index refuses a duplicate
/// primary key before anything changes (object-store.md §4.2, realm-format.md §13.10).
public struct ScalarRowInserter {
    let writer: RealmWriter
    let objectClass: ObjectClass
    let editor: TableEditor
    /// The table column of each property, in `objectClass.properties` order.
    public let columns: [Int]
    /// Each property's column type and whether it is optional, in the same order.
    let types: [(type: ColumnType, nullable: Bool)]
    /// The cells of a new object with nothing set (§13.10 "Create"): what a row starts as.
    public let defaultRow: [Value]

    /// Nil unless every property of `c` is a plain scalar and `c` is a top-level class.
    init?(writer: RealmWriter, objectClass c: ObjectClass) throws {
        guard !c.isEmbedded else { return nil }
        let editor = try writer.editor(c.table.position)
        var columns: [Int] = [], types: [(type: ColumnType, nullable: Bool)] = []
        for p in c.properties {
            guard p.collection == nil, p.type != "object", p.type != "mixed", p.column.type != .mixed,
                  let column = editor.columnIndex(key: p.column.key) else { return nil }
            columns.append(column)
            types.append((p.column.type, p.isOptional))
        }
        self.writer = writer
        objectClass = c
        self.editor = editor
        self.columns = columns
        self.types = types
        defaultRow = editor.defaultRow
    }

    /// Creates one object from `row` (a `defaultRow` with each property's cell set at
    /// `columns`); returns its ObjKey: `key` if given (a class without primary key keeping
    /// an exported ObjKey, as `write(className:object:policy:index:keepingKey:)` does — the
    /// key counter is not advanced), else the table's next. A cell of the wrong type, a
    /// duplicate primary key or a key in use throws an `InputError` with nothing changed.
    @discardableResult
    public func insert(_ row: [Value], key kept: Int64? = nil) throws -> Int64 {
        guard row.count == defaultRow.count else {
            throw InputError(className: objectClass.name, "expects \(defaultRow.count) cells (one per column), got \(row.count)")
        }
        for i in columns.indices where !RealmWriter.isScalar(row[columns[i]], types[i].type, nullable: types[i].nullable) {
            let p = objectClass.properties[i]
            throw InputError(className: objectClass.name, property: p.name,
                             "expects \(p.isOptional ? "an optional " : "")\(p.type), got \(writer.describe(row[columns[i]]))")
        }
        if let kept {
            guard objectClass.primaryKey == nil, kept >= 0 else {
                throw InputError(className: objectClass.name, property: "_key", "is not an object key: \(kept)")
            }
            if editor.contains(kept) {
                throw InputError(className: objectClass.name, property: "_key", "an object with key \(kept) exists already")
            }
        }
        let key = kept ?? editor.nextObjectKey()
        do {
            try editor.insert(key: key, values: row)
        } catch {
            guard case .duplicateKey = error else { throw error }
            let pk = objectClass.properties.firstIndex { $0.isPrimaryKey }
            throw InputError(className: objectClass.name, property: objectClass.primaryKey,
                             "an object with primary key \(writer.describe(pk.map { row[columns[$0]] } ?? .null)) already exists")
        }
        writer.summary.inserted += 1
        return key
    }
}

extension RealmWriter {
    /// A `ScalarRowInserter` for `c`, or nil when a property of `c` is not a plain scalar
    /// (or `c` is embedded): such objects are created by `create` or `write`.
    public func scalarRowInserter(_ c: ObjectClass) throws -> ScalarRowInserter? {
        try ScalarRowInserter(writer: self, objectClass: c)
    }
}
