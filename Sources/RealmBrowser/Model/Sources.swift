import RealmFormat
import RealmObjects

extension PaneContext {
    /// The position and reader of one object, nil when it is gone.
    func locate(_ ref: ObjectRef) -> (ObjectClass, ObjectRows, Int)? {
        guard let c = objectClass(named: ref.className), let rows = try? readers.rows(c),
              let position = rows.position(ofKey: ref.key) else { return nil }
        return (c, rows, position)
    }

    /// The value of one property of one object.
    func value(of ref: ObjectRef, _ property: String) throws -> (Property, Value)? {
        guard let (c, rows, position) = locate(ref), let index = c.properties.firstIndex(where: { $0.name == property }) else { return nil }
        return (c.properties[index], try rows.value(index, at: position))
    }

    /// The ObjKeys of `target`'s objects a source lists, in its order (nil: every object).
    func keys(of source: ObjectSource, in target: ObjectClass) throws -> [Int64]? {
        switch source {
        case .allObjects:
            return nil
        case let .object(key):
            return [key]
        case let .property(ref, name):
            guard let (p, value) = try value(of: ref, name) else { return [] }
            return LinkRepair.links(in: value, to: target.table.key, plainLinks: p.column.type == .link)
        case let .backlinks(ref, originClass, originProperty):
            guard let (_, rows, position) = locate(ref) else { return [] }
            let group = try rows.backlinks(at: position).first {
                $0.backlink.originClass == originClass && $0.backlink.originProperty == originProperty
            }
            var seen = Set<Int64>()
            return (group?.origins ?? []).filter { seen.insert($0).inserted }
        }
    }

    /// The items of a collection of values.
    func items(of source: ValueSource) throws -> ValueItems? {
        guard let (property, top) = try value(of: source.origin, source.property) else { return nil }
        var value = top
        for step in source.path {
            switch (step, value) {
            case let (.index(i), .list(elements)) where i < elements.count: value = elements[i]
            case let (.key(k), .dictionary(entries)):
                guard let e = entries.first(where: { $0.key == k }) else { return nil }
                value = e.value
            default: return nil
            }
        }
        let target = source.path.isEmpty ? cells.target(of: property) : nil
        switch value {
        case let .list(elements):
            return ValueItems(property: property, target: target, isDictionary: false,
                              items: elements.enumerated().map { (.index($0.offset), $0.element) })
        case let .dictionary(entries):
            return ValueItems(property: property, target: target, isDictionary: true,
                              items: entries.map { (.key($0.key), $0.value) })
        default:
            return nil
        }
    }
}

/// A collection of values (a list, set or dictionary property, or one nested in a Mixed), so
/// that it can be read again from a new snapshot.
struct ValueSource: Equatable {
    enum Step: Equatable {
        case index(Int)
        case key(Value)
    }
    let origin: ObjectRef
    let property: String
    /// Into the collections nested in a Mixed value.
    var path: [Step] = []
}

/// The items a `ValueSource` names, as read.
struct ValueItems {
    let property: Property
    /// The class of the linked objects (a dictionary of links), nil for values.
    let target: ObjectClass?
    let isDictionary: Bool
    let items: [(step: ValueSource.Step, value: Value)]
}
