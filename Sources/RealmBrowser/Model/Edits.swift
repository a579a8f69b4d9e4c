import RealmFormat
import RealmObjects

/// The browser's writes: each edit, new object or delete is one transaction through
/// RealmObjects' `RealmWriter` — the writer `realmsh update`, `insert` and `delete` commit with,
/// so the same strict types, link rules (backlinks, embedded objects deleted with their owner,
/// links to a deleted object repaired) and crash-safe commit apply. Nothing is written unless
/// all of it succeeds.
struct Edits {
    let path: String

    struct Failure: Error {
        let message: String
    }

    /// Sets one property of one object.
    func set(_ target: EditTarget, to value: EditValue) throws(Failure) {
        try transaction { writer throws in
            let (c, p) = try Self.resolve(writer, target.objectClass.name, target.property.name)
            let stored: Value
            switch value {
            case let .value(v): stored = v
            case let .linkByKey(k): stored = .link(k)
            case let .linkByPrimaryKey(pk):
                guard let t = p.column.targetTable, let targetClass = writer.file.objectClass(for: t) else {
                    throw InputError(className: c.name, property: p.name, "links to a table that is not a class")
                }
                guard let k = try writer.objectKey(targetClass, primaryKey: pk) else {
                    throw InputError(className: c.name, property: p.name, "no \(targetClass.name) object has primary key \(Self.describe(pk))")
                }
                stored = .link(k)
            }
            try writer.set(c, key: target.key, p, stored)
        }
    }

    /// Creates an object with the given values by property name (the others empty or null);
    /// returns its ObjKey.
    func create(className: String, values: [String: Value]) throws(Failure) -> Int64 {
        var key: Int64 = 0
        try transaction { writer throws in
            guard let c = writer.file.objectClass(named: className) else { throw InputError(className: className, "no such class") }
            key = try writer.create(c, values: c.properties.map { values[$0.name] ?? Self.emptyValue($0) })
        }
        return key
    }

    /// Deletes one object as Realm does.
    func delete(className: String, key: Int64) throws(Failure) {
        try transaction { writer throws in try writer.delete(className: className, keys: [key]) }
    }

    /// What a new object holds where nothing was given: empty collections, null where allowed.
    static func emptyValue(_ p: Property) -> Value {
        switch p.collection {
        case .list?, .set?: return .list([])
        case .dictionary?: return .dictionary([])
        case nil: return .null
        }
    }

    private static func resolve(_ writer: RealmWriter, _ className: String, _ property: String) throws -> (ObjectClass, Property) {
        guard let c = writer.file.objectClass(named: className) else {
            throw InputError(className: className, "not a class of the file (internal tables are not edited)")
        }
        guard let p = c.property(named: property) else { throw InputError(className: className, property: property, "no such property") }
        return (c, p)
    }

    private func transaction(_ body: (RealmWriter) throws -> Void) throws(Failure) {
        let writer: RealmWriter
        do { writer = try RealmWriter(path: path) } catch { throw Failure(message: Self.message(error)) }
        do {
            try body(writer)
            try writer.commit()
        } catch {
            writer.rollback()
            throw Failure(message: Self.message(error))
        }
    }

    static func message(_ error: Error) -> String {
        switch error {
        case let e as InputError: return e.message + "; nothing was written"
        case let e as FormatError:
            switch e {
            case .locked: return "the file is locked by another process (an app has it open for writing?); nothing was written"
            case .duplicateKey: return e.message + "; nothing was written"
            default: return e.message
            }
        default: return "\(error); nothing was written"
        }
    }

    static func describe(_ v: Value) -> String {
        switch v {
        case let .string(bytes): return "'" + String(decoding: bytes, as: UTF8.self) + "'"
        case let .int(i): return String(i)
        case let .objectId(o): return o.hexString
        case let .uuid(u): return u.uuidString
        case .null: return "null"
        default: return "\(v)"
        }
    }
}

/// The sentence `D` asks before deleting: what the delete nullifies, removes from lists, and
/// deletes with the object (its embedded objects), as `RealmWriter.delete` will do it.
enum DeletePreview {
    static func question(_ c: ObjectClass, key: Int64, context: PaneContext) -> String {
        var effects = [String]()
        if let rows = try? context.readers.rows(c), let position = rows.position(ofKey: key),
           let backlinks = try? rows.backlinks(at: position) {
            for (b, origins) in backlinks where !origins.isEmpty {
                guard let originName = b.originClass, let propertyName = b.originProperty else { continue }
                let objects = Set(origins).count
                let property = context.objectClass(named: originName)?.property(named: propertyName)
                let place = "\(originName).\(propertyName)"
                let of = objects == 1 ? "1 object" : "\(grouped(objects)) objects"
                switch property?.collection {
                case .list?, .set?:
                    let entries = origins.count == 1 ? "1 entry" : "\(grouped(origins.count)) entries"
                    effects.append("removes \(entries) from \(place) of \(of)")
                case .dictionary?:
                    effects.append("sets \(origins.count == 1 ? "1 value" : "\(grouped(origins.count)) values") of \(place) to null in \(of)")
                case nil where property?.type == "mixed":
                    effects.append("clears the link in \(place) of \(of)")
                case nil:
                    effects.append("sets \(place) to null in \(of)")
                }
            }
        }
        var owned = [String: Int]()
        countEmbedded(c, key: key, context: context, depth: 0, into: &owned)
        if !owned.isEmpty {
            let total = owned.values.reduce(0, +)
            let kinds = owned.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            effects.append("deletes \(total == 1 ? "1 embedded object" : "\(total) embedded objects") with it (\(kinds))")
        }
        let name = "\(c.name)(\(context.cells.identity(c, key)))"
        let consequence = effects.isEmpty ? "Nothing links to it." : "This " + effects.joined(separator: "; ") + "."
        return "Delete \(name)? \(consequence) [y/N]"
    }

    /// The embedded objects an object owns, by class, through every level (object-store.md §5).
    private static func countEmbedded(_ c: ObjectClass, key: Int64, context: PaneContext, depth: Int, into counts: inout [String: Int]) {
        guard depth < 100, let values = try? context.cells.objectValues(c, key) else { return }
        for (p, v) in zip(c.properties, values) where p.type == "object" {
            guard let target = context.cells.target(of: p), target.isEmbedded else { continue }
            for k in LinkRepair.links(in: v, to: target.table.key, plainLinks: true) {
                counts[target.name, default: 0] += 1
                countEmbedded(target, key: k, context: context, depth: depth + 1, into: &counts)
            }
        }
    }
}
