import RealmFormat

/// Turns a link's ObjKey into what the dump shows for it (fixtures/README.md): the target's
/// primary key, `{"$key": N}`, the embedded object itself, or `{"$missing": N}` when no object
/// has that key. Each target table is scanned once, on first use.
public final class IdentityResolver {
    public enum Identity {
        case primaryKey(Value)
        case key(Int64)
        case embedded(ObjectClass, [Value])
        case missing(Int64)
    }

    let file: RealmFile
    private var keysByTable: [Int: [Int64: Value]] = [:]
    private var embeddedRows: [Int: [Int64: [Value]]] = [:]
    private var extraClasses: [Int: ObjectClass] = [:]
    /// Objects in the embedded tables read so far.
    private(set) var embeddedRowCount = 0

    public init(file: RealmFile) { self.file = file }

    /// The class of any table, also of tables that are not listed as classes.
    public func objectClass(for key: TableKey) throws -> ObjectClass? {
        if let c = file.objectClass(for: key) { return c }
        guard let table = file.snapshot.table(key: key) else { return nil }
        if let c = extraClasses[table.position] { return c }
        let c = try file.makeClass(table)
        extraClasses[table.position] = c
        return c
    }

    public func identity(in target: ObjectClass, key: Int64) throws -> Identity {
        let position = target.table.position
        if target.isEmbedded {
            if embeddedRows[position] == nil {
                var rows = [Int64: [Value]]()
                try file.forEachObject(of: target) { k, values in rows[k] = Array(values) }
                embeddedRows[position] = rows
                embeddedRowCount += rows.count
            }
            guard let row = embeddedRows[position]?[key] else { return .missing(key) }
            return .embedded(target, row)
        }
        if keysByTable[position] == nil {
            var keys = [Int64: Value]()
            let pk = target.primaryKey.flatMap { target.property(named: $0) }
            try file.forEachObject(of: target, properties: pk.map { [$0] } ?? []) { k, values in
                keys[k] = values.first ?? .null
            }
            keysByTable[position] = keys
        }
        guard let value = keysByTable[position]?[key] else { return .missing(key) }
        return target.primaryKey == nil ? .key(key) : .primaryKey(value)
    }
}
