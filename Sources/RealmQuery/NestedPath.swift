import RealmFormat


/// Navigating nested collections inside Mixed values and dictionaries (`Collection::get_any`):
/// each path element applies to a dictionary (key, `[*]`, `@keys`), a list (index, `[*]`) or a
/// link (property name); the values at the end of the path are gathered per end position.
enum NestedPath {
    static func collect(_ value: QValue, path: [PathElement], at index: Int, into groups: inout [[QValue]],
                        onlyUnaryKeys: inout Bool, store: ObjectStore) throws {
        guard index < path.count else { return }
        let element = path[index]
        let end = index == path.count - 1
        if end { groups.append([]) }
        func emit(_ v: QValue) throws {
            if end {
                groups[groups.count - 1].append(v)
            } else {
                try collect(v, path: path, at: index + 1, into: &groups, onlyUnaryKeys: &onlyUnaryKeys, store: store)
            }
        }
        switch (value, element) {
        case let (.dictionary(entries), .key(k, _)):
            guard !entries.isEmpty else { return }
            if let e = entries.first(where: { $0.key == .string(k) }) {
                try emit(QValue(e.value))
            } else if k == PathNames.keys {
                onlyUnaryKeys = false
                if end { groups[groups.count - 1] += entries.map { QValue($0.key) } }
            } else if end {
                groups[groups.count - 1].append(.null)
            }
        case let (.dictionary(entries), .all):
            for e in entries { try emit(QValue(e.value)) }
        case let (.list(elements), .index(i)):
            guard !elements.isEmpty else { return }
            let n = i == UInt64.max ? elements.count - 1 : (i < UInt64(elements.count) ? Int(i) : -1)
            if n >= 0 {
                try emit(QValue(elements[n]))
            } else {
                for e in elements { try emit(QValue(e)) }
            }
        case let (.list(elements), .all):
            for e in elements { try emit(QValue(e)) }
        case let (.typedLink(tableKey, objKey), .key(k, _)):
            guard let table = store.table(key: tableKey), let row = try table.row(of: objKey),
                  let column = table.column(named: String(decoding: k, as: UTF8.self)) else { return }
            var v = QValue(try table.value(column, row: row))
            if !end, case let .link(key) = v, let target = column.targetTable { v = .typedLink(target, key) }
            try emit(v)
        default:
            return
        }
    }
}

