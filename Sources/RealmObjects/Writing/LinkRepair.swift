import RealmFormat

/// Link values seen the way deletes and backlinks need them (object-store.md §6, §7), for
/// writers that keep tables as `TableModel`s: `RealmWriter` and the migration engine.
public enum LinkRepair {
    /// `value` with the links to `keys` of `table` repaired as Realm repairs them when those
    /// objects are deleted: to-one links and dictionary values become null, list and set
    /// entries go, Mixed values holding such a link become null (nested ones too).
    public static func removingLinks(to table: TableKey, keys: Set<Int64>, in value: Value, columnType: ColumnType) -> Value {
        func hit(_ v: Value) -> Bool {
            switch v {
            case let .link(k): return columnType == .link && keys.contains(k)
            case let .typedLink(t, k): return t == table && keys.contains(k)
            default: return false
            }
        }
        switch value {
        case _ where hit(value): return .null
        case let .list(elements):
            return .list(elements.filter { !hit($0) }.map { removingLinks(to: table, keys: keys, in: $0, columnType: columnType) })
        case let .dictionary(entries):
            return .dictionary(entries.map {
                DictionaryEntry(key: $0.key, value: hit($0.value) ? .null : removingLinks(to: table, keys: keys, in: $0.value, columnType: columnType))
            })
        default:
            return value
        }
    }

    /// The keys of objects of `table` that `value` links to, once per occurrence (what the
    /// target's backlink column holds for this origin, §10.6). `plainLinks`: the value comes
    /// from a link column, whose bare links all point at its target table.
    public static func links(in value: Value, to table: TableKey, plainLinks: Bool) -> [Int64] {
        RealmWriter.links(in: value, to: table, plainLinks: plainLinks)
    }

    /// The backlink column of `target` fed by column `c` of `origin` (§10.6): for each target
    /// object, one entry per link occurrence, origins in key order.
    public static func backlinks(of target: TableModel, from origin: TableModel, column c: Int) -> [Value] {
        var incoming = [Int64: [Value]]()
        let plain = origin.columns[c].type == .link
        for row in 0..<origin.objectCount {
            for k in links(in: origin.values[c][row], to: target.key, plainLinks: plain) {
                incoming[k, default: []].append(.link(origin.objectKeys[row]))
            }
        }
        return target.objectKeys.map { Value.list(incoming[$0] ?? []) }
    }

    /// Every ObjKey a link value holds, whatever its table.
    public static func linkedKeys(_ value: Value) -> [Int64] { RealmObjects.linkedKeys(value) }
}
