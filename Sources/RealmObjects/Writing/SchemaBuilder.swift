import RealmFormat

/// Lays out a new file's tables from a schema the way an SDK creates them (realm-format.md
/// §17.1–§17.4, object-store.md §1): the `metadata` table first (TableKey 0) with the schema
/// version, then every class table in class-name order; then the columns class by class —
/// primary key first — where a link column adds its backlink column to the target at once.
public enum SchemaBuilder {
    /// The `classes` JSON that `schema --format json` prints (and the canonical dump holds).
    public static func tables(fromClassesJSON json: JSONValue, schemaVersion: Int64) throws -> (names: [String], models: [TableModel]) {
        guard case let .array(classes) = json else { throw InputError(className: "schema", "expects a JSON array of classes") }
        var parsed: [(name: String, embedded: Bool, primaryKey: String?, properties: [JSONValue])] = []
        for (i, c) in classes.enumerated() {
            guard let name = c["name"]?.stringValue, !name.isEmpty else {
                throw InputError(objectIndex: i, className: "schema", "each class needs a \"name\"")
            }
            guard name.utf8.count <= 57 else { throw InputError(className: name, "class names are at most 57 bytes (table names 63)") }
            var pk: String?
            if let p = c["primaryKey"]?.stringValue { pk = p }
            let embedded = c["embedded"] == .bool(true)
            guard case let .array(properties)? = c["properties"] else { throw InputError(className: name, "needs a \"properties\" array") }
            if embedded && pk != nil { throw InputError(className: name, "embedded classes cannot have a primary key") }
            parsed.append((name, embedded, pk, properties))
        }
        parsed.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        if Set(parsed.map(\.name)).count != parsed.count { throw InputError(className: "schema", "a class name appears twice") }

        let version = TableModel.ColumnModel(name: "version", type: .int, attributes: [], key: ColumnKey(value: 0),
                                             specType: 0, specAttributes: 0, targetTable: nil, oppositeColumn: nil, isIndexed: false)
        var metadata = TableModel(name: "metadata", key: TableKey(value: 0), kind: .topLevel, columns: [version], primaryKey: nil)
        let key = metadata.nextObjectKey()
        metadata.insertObject(key: key, values: [.int(schemaVersion)])

        var models = [metadata]
        var position = [String: Int]()
        for (i, c) in parsed.enumerated() {
            position[c.name] = i + 1
            models.append(TableModel(name: RealmFile.classPrefix + c.name, key: TableKey(value: UInt32(i + 1)),
                                     kind: c.embedded ? .embedded : .topLevel, columns: [], primaryKey: nil))
        }
        for c in parsed {
            let t = position[c.name]!
            var ordered = c.properties
            if let pk = c.primaryKey {
                guard let at = ordered.firstIndex(where: { $0["name"]?.stringValue == pk }) else {
                    throw InputError(className: c.name, property: pk, "the primary key is not among the properties")
                }
                ordered.insert(ordered.remove(at: at), at: 0)
            }
            for p in ordered {
                try addProperty(p, of: c.name, table: t, primaryKey: c.primaryKey, models: &models, position: position)
            }
        }
        return (models.map(\.name), models)
    }

    static let types: [String: ColumnType] = [
        "int": .int, "bool": .bool, "string": .string, "data": .binary, "date": .timestamp, "float": .float,
        "double": .double, "decimal128": .decimal, "objectId": .objectId, "uuid": .uuid, "mixed": .mixed, "object": .link,
    ]

    static func addProperty(_ p: JSONValue, of className: String, table t: Int, primaryKey: String?,
                            models: inout [TableModel], position: [String: Int]) throws {
        guard let name = p["name"]?.stringValue, !name.isEmpty else { throw InputError(className: className, "a property needs a \"name\"") }
        guard name.utf8.count <= 63 else { throw InputError(className: className, property: name, "property names are at most 63 bytes") }
        if models[t].columnIndex(named: name) != nil { throw InputError(className: className, property: name, "appears twice") }
        guard let typeName = p["type"]?.stringValue, let type = types[typeName] else {
            throw InputError(className: className, property: name, "unknown type \(p["type"]?.compactText ?? "(none)") (expected one of \(types.keys.sorted().joined(separator: ", ")))")
        }
        var collection: CollectionKind?
        if let kind = p["collection"]?.stringValue {
            guard let k = CollectionKind(rawValue: kind) else { throw InputError(className: className, property: name, "unknown collection '\(kind)'") }
            collection = k
        }
        let isPK = name == primaryKey
        let optional = p["optional"] == .bool(true)
        if isPK {
            guard [.int, .string, .objectId, .uuid].contains(type), collection == nil else {
                throw InputError(className: className, property: name, "a primary key must be an int, string, objectId or uuid")
            }
        }
        var attributes = ColumnAttributes()
        switch collection {
        case .list?: attributes.insert(.list)
        case .set?: attributes.insert(.set)
        case .dictionary?: attributes.insert(.dictionary)
        case nil: break
        }
        // Nullability as the object store stores it (§17.4): to-one links, dictionaries of links
        // and Mixed always; lists and sets of links never.
        if type == .mixed || (type == .link && (collection == nil || collection == .dictionary)) || (type != .link && optional) {
            attributes.insert(.nullable)
        }
        var target: Int?
        if type == .link {
            guard let objectType = p["objectType"]?.stringValue, let tp = position[objectType] else {
                throw InputError(className: className, property: name, "links to an unknown class \(p["objectType"]?.compactText ?? "(none)")")
            }
            target = tp
        }
        let indexed = p["indexed"] == .bool(true) || isPK
        if indexed && !isPK && ![.int, .bool, .string, .timestamp, .objectId, .uuid, .mixed].contains(type) || (indexed && collection != nil) {
            throw InputError(className: className, property: name, "\(typeName) properties cannot be indexed")
        }
        let colKey = newColumnKey(in: models[t], type: type, attributes: attributes)
        let specType = Int64(type.rawValue) | (collection == .dictionary ? 2 << 16 : 0)
        // Realm adds the primary key's index without setting the Indexed bit (§7.7).
        let specAttributes = Int64(attributes.rawValue) | (indexed && !isPK ? 1 : 0)
        let column = TableModel.ColumnModel(name: name, type: type, attributes: attributes, key: colKey, specType: specType,
                                            specAttributes: specAttributes, targetTable: nil, oppositeColumn: nil, isIndexed: indexed)
        // Public columns stay before the backlink columns in Spec order (§7.5).
        let at = models[t].columns.firstIndex { $0.isBacklink } ?? models[t].columns.count
        models[t].columns.insert(column, at: at)
        models[t].values.insert([], at: at)
        if let target {
            // Created after the link column, so a link to its own table takes the next leaf index.
            let backlinkKey = newColumnKey(in: models[target], type: .backlink, attributes: [])
            models[t].columns[at].targetTable = models[target].key
            models[t].columns[at].oppositeColumn = backlinkKey
            let backlink = TableModel.ColumnModel(name: "", type: .backlink, attributes: [], key: backlinkKey,
                                                  specType: Int64(ColumnType.backlink.rawValue), specAttributes: 0,
                                                  targetTable: models[t].key, oppositeColumn: colKey, isIndexed: false)
            models[target].columns.append(backlink)
            models[target].values.append([])
        }
        if isPK { models[t].primaryKey = colKey }
    }

    /// §7.6: the lowest free leaf index; tag = column-key sequence XOR table key.
    public static func newColumnKey(in model: TableModel, type: ColumnType, attributes: ColumnAttributes) -> ColumnKey {
        newColumnKey(columns: model.columns, sequence: model.columnKeySequence, table: model.key, type: type, attributes: attributes)
    }

    /// The same for a table's `columns`, column-key sequence (table slot 5) and key.
    public static func newColumnKey(columns: [TableModel.ColumnModel], sequence: UInt64, table: TableKey,
                                    type: ColumnType, attributes: ColumnAttributes) -> ColumnKey {
        let used = Set(columns.map { $0.key.leafIndex })
        var leaf = 0
        while used.contains(leaf) { leaf += 1 }
        let tag = (sequence ^ UInt64(table.value)) & 0xFFFF_FFFF
        let value = Int64(leaf) | Int64(type.rawValue) << 16 | Int64(attributes.rawValue & 0xFF) << 22 | Int64(tag) << 30
        return ColumnKey(value: value)
    }
}
