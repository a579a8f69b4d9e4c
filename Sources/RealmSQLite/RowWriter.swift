import RealmFormat
import RealmObjects

/// Writes objects into the tables of a `SchemaMapping`: one prepared INSERT per table, reused
/// for every row; an object's collection elements and embedded objects right after it.
final class RowWriter {
    enum Slot {
        case none
        case position(Int)
        case key(Value)
    }

    private let mapping: SchemaMapping
    private let resolver: IdentityResolver
    private let json: ObjectJSON
    private var binder = ValueBinder()
    /// Indexed like `mapping.tables`.
    private var statements: [SQLiteStatement] = []
    private var tableIndex: [ObjectIdentifier: Int] = [:]
    /// `object:<Class>` tags of Mixed links, per target table position.
    private var linkTags: [Int: [UInt8]] = [:]
    private(set) var embeddedRows = 0
    private(set) var collectionRows = 0
    private(set) var danglingLinks = 0

    init(file: RealmFile, mapping: SchemaMapping, db: SQLiteConnection) throws(SQLiteExportError) {
        self.mapping = mapping
        json = ObjectJSON(file: file)
        resolver = json.resolver
        for (i, table) in mapping.tables.enumerated() {
            do { statements.append(try db.prepare(table.insertStatement)) } catch {
                throw .database(error, context: "preparing the insert into \(table.name)")
            }
            tableIndex[ObjectIdentifier(table)] = i
        }
    }

    /// Finalizes the statements (before the connection closes).
    func finish() { statements = [] }

    private func statement(_ table: TableMapping) -> SQLiteStatement { statements[tableIndex[ObjectIdentifier(table)]!] }

    /// One object (or embedded object) row, then the rows of its collections and embedded objects.
    func writeObject<Row: RandomAccessCollection<Value>>(_ table: TableMapping, key: Int64, values: Row,
                                                         parent: Value?, slot: Slot) throws where Row.Index == Int {
        let s = statement(table)
        var index: Int32 = 1
        for column in table.columns {
            switch column.source {
            case .objectKey: s.bind(index, key)
            case .parent: binder.bind(parent ?? .null, to: s, at: index)
            case .position:
                if case let .position(p) = slot { s.bind(index, Int64(p)) } else { s.bindNull(index) }
            case .dictionaryKey:
                if case let .key(k) = slot { binder.bind(k, to: s, at: index) } else { s.bindNull(index) }
            case let .property(i): try bind(values[values.startIndex + i], column.storage, s, index)
            case let .propertyTag(i): try bindTag(values[values.startIndex + i], s, index)
            case .element, .elementTag: s.bindNull(index)
            }
            index += 1
        }
        do { try s.run() } catch { throw SQLiteExportError.database(error, context: rowContext(table, key: key)) }
        guard !table.children.isEmpty else { return }
        let ownKey = table.keyProperty.map { values[values.startIndex + $0] } ?? .int(key)
        for (i, child) in table.children {
            try writeChildren(child, of: values[values.startIndex + i], ownerKey: ownKey, ownerTable: table, objectKey: key)
        }
    }

    private func writeChildren(_ table: TableMapping, of value: Value, ownerKey: Value, ownerTable: TableMapping, objectKey: Int64) throws {
        switch table.role {
        case .objects:
            return
        case .collection:
            let s = statement(table)
            let valueColumn = table.columns.first { if case .element = $0.source { return true } else { return false } }!
            let isLink: Bool
            if case .link = valueColumn.storage { isLink = true } else { isLink = false }
            func row(_ slot: Slot, _ element: Value) throws {
                var index: Int32 = 1
                for column in table.columns {
                    switch column.source {
                    case .parent: binder.bind(ownerKey, to: s, at: index)
                    case .position: if case let .position(p) = slot { s.bind(index, Int64(p)) }
                    case .dictionaryKey: if case let .key(k) = slot { binder.bind(k, to: s, at: index) }
                    case .element: try bind(element, column.storage, s, index)
                    case .elementTag: try bindTag(element, s, index)
                    default: s.bindNull(index)
                    }
                    index += 1
                }
                do { try s.run() } catch { throw SQLiteExportError.database(error, context: rowContext(ownerTable, key: objectKey) + ", \(table.name)") }
                collectionRows += 1
            }
            switch value {
            case let .list(elements):
                var position = 0
                for e in elements {
                    if isLink {
                        // Unresolved links (tombstones) are hidden from SDK users (§10.1); a
                        // link to a missing object cannot be a list element of the database.
                        let k: Int64
                        switch e {
                        case let .link(key), let .typedLink(_, key): k = key
                        default: k = -1
                        }
                        guard k >= 0 else { continue }
                        if case .missing = try linkIdentity(valueColumn.storage, k) {
                            danglingLinks += 1
                            continue
                        }
                    }
                    try row(.position(position), e)
                    position += 1
                }
            case let .dictionary(entries):
                for entry in entries { try row(.key(entry.key), entry.value) }
            default:
                return
            }
        case let .embedded(kind):
            guard let c = table.objectClass else { return }
            /// false: nothing was written (no object, or a link to a missing one).
            @discardableResult func embedded(_ element: Value, _ slot: Slot) throws -> Bool {
                // Dictionaries hold their links as typed links (their values are Mixed).
                let key: Int64
                switch element {
                case let .link(k), let .typedLink(_, k): key = k
                default: key = -1
                }
                guard key >= 0 else {
                    // A dictionary entry holding null: a row without an object.
                    if case .key = slot { try nullEntry(table, ownerKey: ownerKey, slot: slot) }
                    return false
                }
                switch try resolver.identity(in: c, key: key) {
                case let .embedded(_, row):
                    embeddedRows += 1
                    try writeObject(table, key: key, values: row, parent: ownerKey, slot: slot)
                    return true
                default:
                    danglingLinks += 1
                    return false
                }
            }
            switch (kind, value) {
            case (nil, _): try embedded(value, .none)
            case let (_, .list(elements)):
                var position = 0
                for e in elements where try embedded(e, .position(position)) { position += 1 }
            case let (_, .dictionary(entries)):
                for entry in entries { try embedded(entry.value, .key(entry.key)) }
            default:
                return
            }
        }
    }

    /// The row of a dictionary entry that maps its key to null: owner and key, nothing else.
    private func nullEntry(_ table: TableMapping, ownerKey: Value, slot: Slot) throws {
        let s = statement(table)
        var index: Int32 = 1
        for column in table.columns {
            switch column.source {
            case .parent: binder.bind(ownerKey, to: s, at: index)
            case .dictionaryKey: if case let .key(k) = slot { binder.bind(k, to: s, at: index) }
            default: s.bindNull(index)
            }
            index += 1
        }
        do { try s.run() } catch { throw SQLiteExportError.database(error, context: table.name) }
    }

    private func linkIdentity(_ storage: Storage, _ key: Int64) throws -> IdentityResolver.Identity? {
        guard case let .link(target, _, _) = storage else { return nil }
        return try resolver.identity(in: target, key: key)
    }

    /// A value as its column stores it: scalars as `ValueMapping` says, links as the target's
    /// key, Mixed values by their own type.
    private func bind(_ value: Value, _ storage: Storage, _ s: SQLiteStatement, _ index: Int32) throws {
        switch storage {
        case .scalar:
            binder.bind(value, to: s, at: index)
        case let .link(target, keyIsObjKey, _):
            let key: Int64
            switch value {
            case let .link(k), let .typedLink(_, k): key = k
            default:
                s.bindNull(index)
                return
            }
            try bindLink(target, key, keyIsObjKey, s, index)
        case .objKeyLink:
            if case let .link(k) = value, k >= 0 { s.bind(index, k) } else { s.bindNull(index) }
        case .mixed:
            switch value {
            case let .typedLink(tableKey, k):
                guard let target = try resolver.objectClass(for: tableKey) else {
                    danglingLinks += 1
                    s.bindNull(index)
                    return
                }
                try bindLink(target, k, target.sqlKeyIsObjKey, s, index)
            case let .link(k):
                // An untyped link in a Mixed (old files): the ObjKey, its target unknown.
                s.bind(index, k)
            case .list, .dictionary:
                let sink = MemorySink()
                var out = JSONEmitter(sink: sink, pretty: false)
                try json.writeMixed(value, to: &out, depth: 0)
                out.flush()
                s.bindText(index, sink.bytes)
            default:
                binder.bind(value, to: s, at: index)
            }
        }
    }

    private func bindLink(_ target: ObjectClass, _ key: Int64, _ keyIsObjKey: Bool, _ s: SQLiteStatement, _ index: Int32) throws {
        guard key >= 0 else {
            // An unresolved link (a tombstone): SDKs show null (§10.1).
            s.bindNull(index)
            return
        }
        switch try resolver.identity(in: target, key: key) {
        case let .primaryKey(pk):
            if keyIsObjKey { s.bind(index, key) } else { binder.bind(pk, to: s, at: index) }
        case .key:
            s.bind(index, key)
        case .missing, .embedded:
            danglingLinks += 1
            s.bindNull(index)
        }
    }

    private func bindTag(_ value: Value, _ s: SQLiteStatement, _ index: Int32) throws {
        if case let .typedLink(tableKey, _) = value {
            if let target = try resolver.objectClass(for: tableKey) {
                s.bindText(index, linkTag(target))
                return
            }
        }
        if let tag = ValueMapping.mixedTag(value) { s.bindText(index, tag) } else { s.bindNull(index) }
    }

    private func linkTag(_ c: ObjectClass) -> [UInt8] {
        if let tag = linkTags[c.table.position] { return tag }
        let tag = ValueMapping.Tags.object + Array(":".utf8) + Array(c.name.utf8)
        linkTags[c.table.position] = tag
        return tag
    }

    private func rowContext(_ table: TableMapping, key: Int64) -> String {
        let c = table.objectClass?.name ?? table.name
        return "class '\(c)', object \(key) (table \(table.name))"
    }
}

extension ObjectClass {
    /// true: the SQL table's key is `_key` (the ObjKey), because the class has no primary key
    /// or an optional one (NULL cannot be a key a link refers to).
    var sqlKeyIsObjKey: Bool {
        guard let pk = primaryKey.flatMap({ property(named: $0) }) else { return true }
        return pk.isOptional
    }
}
