import RealmFormat
import RealmObjects

/// Where a column's value comes from when a row is written.
enum ColumnSource {
    /// The object's ObjKey (`_key`).
    case objectKey
    /// The key of the row that owns this one (`parent`, `_parent`).
    case parent
    /// The element's place in its list or set (`position`, `_position`).
    case position
    /// The dictionary key (`key`, `_dictkey`).
    case dictionaryKey
    /// Property `i` of the object (its value column).
    case property(Int)
    /// The Mixed type tag of property `i` (`<name>_type`).
    case propertyTag(Int)
    /// The collection element (`value`).
    case element
    /// The Mixed type tag of the element (`value_type`).
    case elementTag
}

/// How a column's Realm values are stored.
enum Storage {
    /// By the value's own type (`ValueMapping`).
    case scalar
    /// A link: the target's key (its primary key, or the ObjKey for `_key` tables); a foreign
    /// key unless the target class is not exported (`--class`).
    case link(target: ObjectClass, keyIsObjKey: Bool)
    /// A Mixed or typed-link value: the value column and a type-tag column.
    case mixed
    /// A link into a table that is not a class: the ObjKey as it is.
    case objKeyLink
}

struct ColumnMapping {
    let name: String
    /// The column definition after the name: type, NOT NULL, PRIMARY KEY, REFERENCES.
    let definition: String
    let source: ColumnSource
    let storage: Storage
}

/// One SQL table and the Realm data its rows hold.
final class TableMapping {
    enum Role {
        /// The objects of a top-level class.
        case objects
        /// Embedded objects reached through `property` of the owner's rows (to-one if nil).
        case embedded(CollectionKind?)
        /// The elements of `property` (a list, set or dictionary of values or links).
        case collection(CollectionKind)
    }

    let name: String
    let role: Role
    /// The class of the rows (objects and embedded tables).
    let objectClass: ObjectClass?
    /// The owner's property whose values fill this table (embedded and collection tables).
    let property: Property?
    /// The table whose rows own this table's rows (weak: owners hold their children, and
    /// `SchemaMapping.tables` holds every table).
    private(set) weak var owner: TableMapping?
    /// The column other tables reference, and its declared type.
    fileprivate(set) var keyColumn: String
    let keyType: String
    /// true: the key is the ObjKey (`_key`); false: the Realm primary key.
    let keyIsObjKey: Bool
    /// The property that holds the key when it is the primary key.
    fileprivate(set) var keyProperty: Int?
    fileprivate(set) var columns: [ColumnMapping] = []
    fileprivate(set) var constraints: [String] = []
    /// Tables filled from this table's rows: (property index in `objectClass`, table).
    fileprivate(set) var children: [(property: Int, table: TableMapping)] = []
    /// Indexes of indexed properties: (index name, column).
    fileprivate(set) var indexes: [(name: String, column: String)] = []
    /// Property index → value column (and tag column) names, for `_realm_schema`.
    fileprivate(set) var propertyColumns: [Int: (value: String, tag: String?)] = [:]
    /// The column names, given out before the columns are made (a class table's are settled
    /// first: links from other tables name its key column).
    fileprivate var names: ColumnNames?

    init(name: String, role: Role, objectClass: ObjectClass?, property: Property?, owner: TableMapping?,
         keyColumn: String, keyType: String, keyIsObjKey: Bool) {
        self.name = name
        self.role = role
        self.objectClass = objectClass
        self.property = property
        self.owner = owner
        self.keyColumn = keyColumn
        self.keyType = keyType
        self.keyIsObjKey = keyIsObjKey
    }

    var createStatement: String {
        let items = columns.map { SQLName.quoted($0.name) + ($0.definition.isEmpty ? "" : " " + $0.definition) } + constraints
        return "CREATE TABLE \(SQLName.quoted(name)) (\n  " + items.joined(separator: ",\n  ") + "\n)"
    }

    var insertStatement: String {
        "INSERT INTO \(SQLName.quoted(name)) (\(SQLName.list(columns.map(\.name)))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    var indexStatements: [String] {
        indexes.map { "CREATE INDEX \(SQLName.quoted($0.name)) ON \(SQLName.quoted(name)) (\(SQLName.quoted($0.column)))" }
    }
}

/// The relational schema of an export: one table per top-level class, one per collection
/// property, one per embedded property along each path from a top-level class (embedded
/// objects are keyed by their owner, so they need a table per place they live in).
struct SchemaMapping {
    static let schemaTable = "_realm_schema"
    /// A hostile file could describe a schema whose embedded paths multiply without end.
    static let maxTables = 20_000

    /// Every table, owners before the tables they own.
    private(set) var tables: [TableMapping] = []
    /// The top-level class tables, in class order.
    private(set) var classTables: [TableMapping] = []
    /// The exported classes (top-level and the embedded ones they reach).
    private(set) var classes: [ObjectClass] = []
    private var names = NameAllocator(reserved: [schemaTable])
    private var classTableByPosition: [Int: TableMapping] = [:]

    /// `selected`: the top-level classes to export (nil: all); the embedded classes they reach
    /// come with them.
    init(file: RealmFile, selected: [ObjectClass]?) throws(SQLiteExportError) {
        let topLevel = (selected ?? file.classes).filter { !$0.isEmbedded }
        // Keys first: a link column takes the type of its target's key column.
        for c in topLevel {
            let table: TableMapping
            if !c.sqlKeyIsObjKey, let pk = c.primaryKey.flatMap({ c.property(named: $0) }) {
                table = TableMapping(name: names.allocate(c.name), role: .objects, objectClass: c, property: nil, owner: nil,
                                     keyColumn: pk.name, keyType: ValueMapping.declaredType(pk.type), keyIsObjKey: false)
                table.keyProperty = c.properties.firstIndex { $0 === pk }
            } else {
                table = TableMapping(name: names.allocate(c.name), role: .objects, objectClass: c, property: nil, owner: nil,
                                     keyColumn: "_key", keyType: "INTEGER", keyIsObjKey: true)
            }
            let columnNames = ColumnNames(table, c, file: file)
            if let k = table.keyProperty, let name = columnNames.properties[k] { table.keyColumn = name }
            table.names = columnNames
            classTableByPosition[c.table.position] = table
            classTables.append(table)
        }
        var embeddedSeen: [Int: ObjectClass] = [:]
        for table in classTables {
            tables.append(table)
            try addColumns(table, file: file, embeddedPath: [], embeddedSeen: &embeddedSeen)
        }
        // A whole export lists every class, also an embedded one no property reaches (it has
        // no table, only its `_realm_schema` rows).
        let embedded = selected == nil ? file.classes.filter(\.isEmbedded)
            : embeddedSeen.values.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        classes = topLevel + embedded
    }

    /// The class table of a top-level class, if it is exported.
    func classTable(of c: ObjectClass) -> TableMapping? { classTableByPosition[c.table.position] }

    private func target(of property: Property, in file: RealmFile) -> ObjectClass? {
        property.column.targetTable.flatMap { file.objectClass(for: $0) }
    }

    /// The columns of an object or embedded table, and the tables its collection and embedded
    /// properties fill.
    private mutating func addColumns(_ table: TableMapping, file: RealmFile, embeddedPath: [String],
                                     embeddedSeen: inout [Int: ObjectClass]) throws(SQLiteExportError) {
        guard let c = table.objectClass else { return }
        let columnNames = table.names ?? ColumnNames(table, c, file: file)
        // A dictionary of embedded objects can map a key to null: that entry is a row whose
        // `_key` is NULL, so there `_key` is UNIQUE (not the rowid) and properties allow NULL.
        let holdsNullEntries: Bool
        if case .embedded(.dictionary?) = table.role { holdsNullEntries = true } else { holdsNullEntries = false }
        if let key = columnNames.objectKey {
            table.columns.append(ColumnMapping(name: key, definition: holdsNullEntries ? "INTEGER UNIQUE" : "INTEGER PRIMARY KEY",
                                               source: .objectKey, storage: .scalar))
        }
        if case let .embedded(kind) = table.role, let owner = table.owner, let parent = columnNames.parent {
            table.columns.append(ColumnMapping(name: parent, definition: ownerReference(owner), source: .parent, storage: .scalar))
            if let position = columnNames.position {
                table.columns.append(ColumnMapping(name: position, definition: "INTEGER NOT NULL", source: .position, storage: .scalar))
                table.constraints.append("UNIQUE (\(SQLName.list([parent, position])))")
            } else if let key = columnNames.dictionaryKey {
                table.columns.append(ColumnMapping(name: key, definition: dictionaryKeyType(table.property) + " NOT NULL", source: .dictionaryKey, storage: .scalar))
                table.constraints.append("UNIQUE (\(SQLName.list([parent, key])))")
            } else if kind == nil {
                table.constraints.append("UNIQUE (\(SQLName.quoted(parent)))")
            }
        }
        var childProperties: [(Int, Property)] = []
        for (i, p) in c.properties.enumerated() where columnNames.properties[i] == nil { childProperties.append((i, p)) }
        for (i, p) in c.properties.enumerated() {
            guard let name = columnNames.properties[i] else { continue }
            let linkTarget = p.type == "object" ? target(of: p, in: file) : nil
            var definition: String
            var storage = Storage.scalar
            if p.type == "object" {
                (definition, storage) = linkColumn(linkTarget, notNull: false, onDelete: "SET NULL")
            } else if p.type == "mixed" || p.type == "typedLink" {
                definition = ""
                storage = .mixed
            } else {
                definition = ValueMapping.declaredType(p.type)
                if p.isPrimaryKey && !table.keyIsObjKey {
                    definition += p.type == "int" ? " PRIMARY KEY" : " PRIMARY KEY NOT NULL"
                } else {
                    if !p.isOptional && !holdsNullEntries { definition += " NOT NULL" }
                    if p.isPrimaryKey { definition += " UNIQUE" }
                }
            }
            table.columns.append(ColumnMapping(name: name, definition: definition, source: .property(i), storage: storage))
            if let tag = columnNames.tags[i] {
                table.columns.append(ColumnMapping(name: tag, definition: "TEXT", source: .propertyTag(i), storage: .scalar))
            }
            table.propertyColumns[i] = (name, columnNames.tags[i])
            // Indexed properties, and links: a backlink query and an ON DELETE action look rows
            // up by the link column.
            if (p.isIndexed && !p.isPrimaryKey) || storage.isLink {
                table.indexes.append((names.allocate(table.name + "_" + name + "_index"), name))
            }
        }
        for (i, p) in childProperties {
            let child: TableMapping
            let linkTarget = p.type == "object" ? target(of: p, in: file) : nil
            if let e = linkTarget, e.isEmbedded {
                guard !embeddedPath.contains(e.name) else {
                    throw .embeddingCycle(path: (embeddedPath + [e.name]).joined(separator: " → "))
                }
                embeddedSeen[e.table.position] = e
                child = TableMapping(name: names.allocate(table.name + "_" + p.name), role: .embedded(p.collection), objectClass: e,
                                     property: p, owner: table, keyColumn: "_key", keyType: "INTEGER", keyIsObjKey: true)
                try register(child)
                try addColumns(child, file: file, embeddedPath: embeddedPath + [e.name], embeddedSeen: &embeddedSeen)
            } else {
                child = TableMapping(name: names.allocate(table.name + "_" + p.name), role: .collection(p.collection ?? .list), objectClass: nil,
                                     property: p, owner: table, keyColumn: "", keyType: "", keyIsObjKey: false)
                try register(child)
                addCollectionColumns(child, p, linkTarget)
            }
            table.children.append((i, child))
        }
    }

    private mutating func register(_ table: TableMapping) throws(SQLiteExportError) {
        guard tables.count < Self.maxTables else { throw .tooManyTables(Self.maxTables) }
        tables.append(table)
    }

    /// `parent, position | key, value [, value_type]` of a collection table. No property can
    /// collide with these names: the table holds nothing else.
    private mutating func addCollectionColumns(_ table: TableMapping, _ p: Property, _ linkTarget: ObjectClass?) {
        guard let owner = table.owner, case let .collection(kind) = table.role else { return }
        table.columns.append(ColumnMapping(name: "parent", definition: ownerReference(owner), source: .parent, storage: .scalar))
        if kind == .dictionary {
            table.columns.append(ColumnMapping(name: "key", definition: dictionaryKeyType(p) + " NOT NULL", source: .dictionaryKey, storage: .scalar))
            table.constraints.append("PRIMARY KEY (\"parent\", \"key\")")
        } else {
            // Sets keep their stored order too: it is the order an app iterates them in.
            table.columns.append(ColumnMapping(name: "position", definition: "INTEGER NOT NULL", source: .position, storage: .scalar))
            table.constraints.append("PRIMARY KEY (\"parent\", \"position\")")
        }
        if p.type == "object" {
            // Lists and sets of links hold no nulls; a deleted target leaves them (CASCADE), it
            // leaves a dictionary entry null (SET NULL), as Realm does.
            let (definition, storage) = kind == .dictionary
                ? linkColumn(linkTarget, notNull: false, onDelete: "SET NULL")
                : linkColumn(linkTarget, notNull: true, onDelete: "CASCADE")
            table.columns.append(ColumnMapping(name: "value", definition: definition, source: .element, storage: storage))
            if storage.isLink { table.indexes.append((names.allocate(table.name + "_value_index"), "value")) }
        } else if p.type == "mixed" || p.type == "typedLink" {
            table.columns.append(ColumnMapping(name: "value", definition: "", source: .element, storage: .mixed))
            table.columns.append(ColumnMapping(name: "value_type", definition: "TEXT", source: .elementTag, storage: .scalar))
        } else {
            let type = ValueMapping.declaredType(p.type)
            table.columns.append(ColumnMapping(name: "value", definition: type + (p.isOptional ? "" : " NOT NULL"), source: .element, storage: .scalar))
        }
    }

    /// `TYPE NOT NULL REFERENCES Owner(key) ON DELETE CASCADE`: a row lives and dies with its owner.
    private func ownerReference(_ owner: TableMapping) -> String {
        "\(owner.keyType) NOT NULL REFERENCES \(SQLName.quoted(owner.name)) (\(SQLName.quoted(owner.keyColumn))) ON DELETE CASCADE"
    }

    /// A link column: the target's key type, and a foreign key when the target is exported.
    private func linkColumn(_ target: ObjectClass?, notNull: Bool, onDelete: String) -> (String, Storage) {
        let required = notNull ? " NOT NULL" : ""
        // A link into a table that is no class (never written by an SDK): its ObjKey.
        guard let target else { return ("INTEGER" + required, .objKeyLink) }
        if let t = classTable(of: target) {
            return ("\(t.keyType)\(required) REFERENCES \(SQLName.quoted(t.name)) (\(SQLName.quoted(t.keyColumn))) ON DELETE \(onDelete)",
                    .link(target: target, keyIsObjKey: t.keyIsObjKey))
        }
        // Not exported (`--class`): the same key, without a foreign key to check it against.
        let pk = target.primaryKey.flatMap { target.property(named: $0) }
        let type = target.sqlKeyIsObjKey ? "INTEGER" : ValueMapping.declaredType(pk?.type ?? "int")
        return (type + required, .link(target: target, keyIsObjKey: target.sqlKeyIsObjKey))
    }

    private func dictionaryKeyType(_ p: Property?) -> String {
        // Spec key type 0 is int (§7.5); SDKs only ever write string keys.
        p?.column.dictionaryKeyType == 0 ? "INTEGER" : "TEXT"
    }
}

extension Storage {
    var isLink: Bool { if case .link = self { return true } else { return false } }
}

/// The column names of an object or embedded table: the structural columns first (the names
/// the documentation promises stay as they are), then the properties held in the table
/// itself, then the Mixed type tags (so that a property named `x_type` keeps its name).
struct ColumnNames {
    var objectKey, parent, position, dictionaryKey: String?
    /// Property index → column, for the properties that are columns of this table (not
    /// collections or embedded objects, which have tables of their own).
    var properties: [Int: String] = [:]
    var tags: [Int: String] = [:]

    init(_ table: TableMapping, _ c: ObjectClass, file: RealmFile) {
        var allocator = NameAllocator()
        if table.keyIsObjKey { objectKey = allocator.allocate("_key") }
        if case let .embedded(kind) = table.role {
            parent = allocator.allocate("_parent")
            switch kind {
            case .list?, .set?: position = allocator.allocate("_position")
            case .dictionary?: dictionaryKey = allocator.allocate("_dictkey")
            case nil: break
            }
        }
        for (i, p) in c.properties.enumerated() {
            let target = p.type == "object" ? p.column.targetTable.flatMap { file.objectClass(for: $0) } : nil
            if p.collection == nil && target?.isEmbedded != true { properties[i] = allocator.allocate(p.name) }
        }
        for (i, p) in c.properties.enumerated() where properties[i] != nil && (p.type == "mixed" || p.type == "typedLink") {
            tags[i] = allocator.allocate(properties[i]! + "_type")
        }
    }
}
