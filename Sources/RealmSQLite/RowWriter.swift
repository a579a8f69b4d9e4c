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

    /// How a value is bound (`Storage`, with link targets as indexes into `targets`).
    enum Binding {
        case scalar
        case link(target: Int)
        case objKeyLink
        case mixed
    }

    /// One parameter of a table's INSERT, compiled from its `ColumnMapping`. No strings and no
    /// class references: the row loop runs these for every object.
    enum BindStep {
        case objectKey, parent, position, dictionaryKey
        /// Property `i` of the object, or the collection element when `i` is nil.
        case value(Int?, Binding)
        case tag(Int?)
    }

    /// A table's statement, its compiled parameters, and the writers of the tables it owns.
    final class TableWriter {
        let table: TableMapping
        let statement: SQLiteStatement
        let steps: [BindStep]
        var children: [(property: Int, writer: TableWriter)] = []
        /// Collection tables: the element is a link (tombstones and dangling links are left out).
        let elementLinkTarget: Int?

        init(table: TableMapping, statement: SQLiteStatement, steps: [BindStep], elementLinkTarget: Int?) {
            self.table = table
            self.statement = statement
            self.steps = steps
            self.elementLinkTarget = elementLinkTarget
        }
    }

    private let resolver: IdentityResolver
    private let json: ObjectJSON
    private var binder = ValueBinder()
    private var targets: [(objectClass: ObjectClass, keyIsObjKey: Bool)] = []
    private var targetIndex: [Int: Int] = [:]
    /// Writers of the class tables, in `mapping.classTables` order.
    private(set) var classWriters: [TableWriter] = []
    /// `object:<Class>` tags of Mixed links, per target table position.
    private var linkTags: [Int: [UInt8]] = [:]
    private(set) var danglingLinks = 0

    init(file: RealmFile, mapping: SchemaMapping, db: SQLiteConnection) throws(SQLiteExportError) {
        json = ObjectJSON(file: file)
        resolver = json.resolver
        for table in mapping.classTables { classWriters.append(try writer(for: table, db)) }
    }

    private func writer(for table: TableMapping, _ db: SQLiteConnection) throws(SQLiteExportError) -> TableWriter {
        let statement: SQLiteStatement
        do { statement = try db.prepare(table.insertStatement) } catch {
            throw .database(error, context: "preparing the insert into \(table.name)")
        }
        var elementLinkTarget: Int?
        let steps = table.columns.map { column -> BindStep in
            let binding: Binding
            switch column.storage {
            case .scalar: binding = .scalar
            case let .link(target, keyIsObjKey): binding = .link(target: targetNumber(target, keyIsObjKey))
            case .objKeyLink: binding = .objKeyLink
            case .mixed: binding = .mixed
            }
            switch column.source {
            case .objectKey: return .objectKey
            case .parent: return .parent
            case .position: return .position
            case .dictionaryKey: return .dictionaryKey
            case let .property(i): return .value(i, binding)
            case let .propertyTag(i): return .tag(i)
            case .element:
                if case let .link(t) = binding { elementLinkTarget = t }
                return .value(nil, binding)
            case .elementTag: return .tag(nil)
            }
        }
        let w = TableWriter(table: table, statement: statement, steps: steps, elementLinkTarget: elementLinkTarget)
        for (property, child) in table.children { w.children.append((property, try writer(for: child, db))) }
        return w
    }

    private func targetNumber(_ c: ObjectClass, _ keyIsObjKey: Bool) -> Int {
        if let i = targetIndex[c.table.position] { return i }
        targets.append((c, keyIsObjKey))
        targetIndex[c.table.position] = targets.count - 1
        return targets.count - 1
    }

    /// true: once `resolveTargets(of:)` has run, writing `w`'s rows never reads the realm —
    /// no table of it holds Mixed values (a Mixed link can point into any table).
    func needsOnlyResolvedTargets(_ w: TableWriter) -> Bool {
        for step in w.steps {
            switch step {
            case .value(_, .mixed), .tag: return false
            default: continue
            }
        }
        return w.children.allSatisfy { needsOnlyResolvedTargets($0.writer) }
    }

    /// Reads what writing `w`'s rows looks up: the keys of every link target and the embedded
    /// objects, so that the rows can be written while another thread reads the realm.
    func resolveTargets(of w: TableWriter) throws {
        for step in w.steps {
            if case let .value(_, .link(t)) = step { _ = try resolver.identity(in: targets[t].objectClass, key: 0) }
        }
        if let t = w.elementLinkTarget { _ = try resolver.identity(in: targets[t].objectClass, key: 0) }
        for (_, child) in w.children {
            if case .embedded = child.table.role, let c = child.table.objectClass { _ = try resolver.identity(in: c, key: 0) }
            try resolveTargets(of: child)
        }
    }

    /// Finalizes the statements (before the connection closes).
    func finish() { classWriters = [] }

    /// One object (or embedded object) row — object `row` of a leaf's decoded `columns` —
    /// then the rows of its collections and embedded objects.
    func writeObject(_ w: TableWriter, key: Int64, columns: [[Value]], row: Int, parent: Value?, slot: Slot) throws {
        let s = w.statement
        var index: Int32 = 1
        for step in w.steps {
            switch step {
            case .objectKey: s.bind(index, key)
            case .parent: binder.bind(parent ?? .null, to: s, at: index)
            case .position:
                if case let .position(p) = slot { s.bind(index, Int64(p)) } else { s.bindNull(index) }
            case .dictionaryKey:
                if case let .key(k) = slot { binder.bind(k, to: s, at: index) } else { s.bindNull(index) }
            case let .value(i?, .scalar): binder.bind(columns[i][row], to: s, at: index)
            case let .value(i?, binding): try bind(columns[i][row], binding, s, index)
            case let .tag(i?): try bindTag(columns[i][row], s, index)
            case .value(nil, _), .tag(nil): s.bindNull(index)
            }
            index += 1
        }
        do { try s.run() } catch { throw SQLiteExportError.database(error, context: rowContext(w.table, key: key)) }
        guard !w.children.isEmpty else { return }
        let ownKey = w.table.keyProperty.map { columns[$0][row] } ?? .int(key)
        for (i, child) in w.children {
            try writeChildren(child, of: columns[i][row], ownerKey: ownKey, owner: w, objectKey: key)
        }
    }

    private func writeChildren(_ w: TableWriter, of value: Value, ownerKey: Value, owner: TableWriter, objectKey: Int64) throws {
        switch w.table.role {
        case .objects:
            return
        case .collection:
            func row(_ slot: Slot, _ element: Value) throws {
                let s = w.statement
                var index: Int32 = 1
                for step in w.steps {
                    switch step {
                    case .parent: binder.bind(ownerKey, to: s, at: index)
                    case .position: if case let .position(p) = slot { s.bind(index, Int64(p)) }
                    case .dictionaryKey: if case let .key(k) = slot { binder.bind(k, to: s, at: index) }
                    case let .value(nil, binding): try bind(element, binding, s, index)
                    case .tag(nil): try bindTag(element, s, index)
                    default: s.bindNull(index)
                    }
                    index += 1
                }
                do { try s.run() } catch {
                    throw SQLiteExportError.database(error, context: rowContext(owner.table, key: objectKey) + ", table \(w.table.name)")
                }
            }
            switch value {
            case let .list(elements):
                var position = 0
                for e in elements {
                    if let t = w.elementLinkTarget {
                        // Unresolved links (tombstones) are hidden from SDK users (§10.1); a
                        // link to a missing object cannot be a list element of the database.
                        guard let k = linkKey(e), k >= 0 else { continue }
                        if case .missing = try resolver.identity(in: targets[t].objectClass, key: k) {
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
            guard let c = w.table.objectClass else { return }
            /// false: nothing was written (no object, or a link to a missing one).
            @discardableResult func embedded(_ element: Value, _ slot: Slot) throws -> Bool {
                guard let key = linkKey(element), key >= 0 else {
                    // A dictionary entry holding null: a row without an object.
                    if case .key = slot { try nullEntry(w, ownerKey: ownerKey, slot: slot) }
                    return false
                }
                guard case let .embedded(_, values) = try resolver.identity(in: c, key: key) else {
                    danglingLinks += 1
                    return false
                }
                try writeObject(w, key: key, columns: values.map { [$0] }, row: 0, parent: ownerKey, slot: slot)
                return true
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

    /// The ObjKey of a link; dictionaries hold theirs as typed links (their values are Mixed).
    private func linkKey(_ value: Value) -> Int64? {
        switch value {
        case let .link(k), let .typedLink(_, k): return k
        default: return nil
        }
    }

    /// The row of a dictionary entry that maps its key to null: owner and key, nothing else.
    private func nullEntry(_ w: TableWriter, ownerKey: Value, slot: Slot) throws {
        let s = w.statement
        var index: Int32 = 1
        for step in w.steps {
            switch step {
            case .parent: binder.bind(ownerKey, to: s, at: index)
            case .dictionaryKey: if case let .key(k) = slot { binder.bind(k, to: s, at: index) }
            default: s.bindNull(index)
            }
            index += 1
        }
        do { try s.run() } catch { throw SQLiteExportError.database(error, context: "a null entry of table \(w.table.name)") }
    }

    /// A value as its column stores it: scalars as `ValueMapping` says, links as the target's
    /// key, Mixed values by their own type.
    private func bind(_ value: Value, _ binding: Binding, _ s: SQLiteStatement, _ index: Int32) throws {
        switch binding {
        case .scalar:
            binder.bind(value, to: s, at: index)
        case let .link(t):
            guard let key = linkKey(value) else { return s.bindNull(index) }
            try bindLink(targets[t].objectClass, key, targets[t].keyIsObjKey, s, index)
        case .objKeyLink:
            if case let .link(k) = value, k >= 0 { s.bind(index, k) } else { s.bindNull(index) }
        case .mixed:
            switch value {
            case let .typedLink(tableKey, k):
                guard let target = try resolver.objectClass(for: tableKey) else {
                    danglingLinks += 1
                    return s.bindNull(index)
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
        // An unresolved link (a tombstone): SDKs show null (§10.1).
        guard key >= 0 else { return s.bindNull(index) }
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
        if case let .typedLink(tableKey, _) = value, let target = try resolver.objectClass(for: tableKey) {
            return s.bindText(index, linkTag(target))
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
        "class '\(table.objectClass?.name ?? table.name)', object \(key) (table \(table.name))"
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
