import RealmFormat
import RealmObjects
import RealmSQLite

/// Rebuilds a realm's canonical dump (fixtures/README.md) from its SQLite export alone: the
/// schema from `_realm_schema`, the objects from the tables, every value decoded from what SQL
/// holds. Written apart from the exporter (it reads SQL as any other client would), so a value
/// the export mapped wrongly shows up as a difference from realm-core's own dump.
final class DumpFromSQLite {
    struct Property {
        let name, type: String
        let optional, indexed, primaryKey, embeddedTarget: Bool
        let collection, objectType, sqlTable, sqlColumn, sqlTypeColumn: String?
    }

    struct Class {
        let name: String
        let primaryKey: String?
        let embedded: Bool
        let table: String?
        let keyColumn: String?
        var properties: [Property] = []
        var backlinks: [(String?, String?)] = []
    }

    struct Table {
        let name, type: String
        let keyColumn: String?
    }

    /// A row's values with its table's column positions (no dictionary per row).
    struct Row {
        let columns: [String: Int]
        let values: [SQLiteValue]
        subscript(name: String) -> SQLiteValue? { columns[name].map { values[$0] } }
    }

    let db: SQLiteConnection
    private(set) var classes: [Class] = []
    private var classIndex: [String: Int] = [:]
    /// Properties of the objects in each object or embedded table (by `parent_table`).
    private var propertiesByTable: [String: [Property]] = [:]
    private var tables: [String: Table] = [:]
    private(set) var formatVersion: SQLiteValue = .null
    private(set) var schemaVersion: SQLiteValue = .null
    /// Rows of child tables, by the owner's key.
    private var childRows: [String: [SQLiteValue: [Row]]] = [:]
    /// `_key` → primary key of classes whose table is keyed by `_key` (optional primary keys).
    private var primaryKeyByObjKey: [String: [SQLiteValue: SQLiteValue]] = [:]

    init(path: String) throws {
        db = try SQLiteConnection(path: path, readOnly: true)
        for row in try rows("SELECT * FROM _realm_schema ORDER BY rowid") {
            switch row["kind"]?.text {
            case "schema_version": schemaVersion = row["version"] ?? .null
            case "format_version": formatVersion = row["version"] ?? .null
            case "class":
                let embedded = row["embedded"] == .integer(1)
                classIndex[row["class"]!.text!] = classes.count
                classes.append(Class(name: row["class"]!.text!, primaryKey: row["property"]?.text, embedded: embedded,
                                     table: row["sql_table"]?.text, keyColumn: row["sql_column"]?.text))
            case "property":
                let p = Property(name: row["property"]!.text!, type: row["type"]!.text!, optional: row["optional"] == .integer(1),
                                 indexed: row["indexed"] == .integer(1), primaryKey: row["primary_key"] == .integer(1),
                                 embeddedTarget: row["embedded"] == .integer(1), collection: row["collection"]?.text,
                                 objectType: row["link_target"]?.text, sqlTable: row["sql_table"]?.text,
                                 sqlColumn: row["sql_column"]?.text, sqlTypeColumn: row["sql_type_column"]?.text)
                let owner = row["parent_table"]?.text ?? ""
                propertiesByTable[owner, default: []].append(p)
                // The class listing takes the properties as the first table (or none) has them.
                let c = classIndex[row["class"]!.text!]!
                if !classes[c].properties.contains(where: { $0.name == p.name }) { classes[c].properties.append(p) }
            case "backlink":
                let c = classIndex[row["class"]!.text!]!
                classes[c].backlinks.append((row["origin_class"]?.text, row["origin_property"]?.text))
            case "table":
                let name = row["sql_table"]!.text!
                tables[name] = Table(name: name, type: row["type"]!.text!, keyColumn: row["sql_column"]?.text)
            default:
                throw Failure("unknown _realm_schema kind \(String(describing: row["kind"]))")
            }
        }
        classes.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        classIndex = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1.name, $0) })
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    func rows(_ sql: String) throws -> [Row] {
        let s = try db.prepare(sql)
        var columns: [String: Int] = [:]
        for i in 0..<s.columnCount where columns[s.columnName(at: i)] == nil { columns[s.columnName(at: i)] = Int(i) }
        var out: [Row] = []
        while try s.step() { out.append(Row(columns: columns, values: (0..<s.columnCount).map { s.value(at: $0) })) }
        return out
    }

    private static func quoted(_ name: String) -> String { "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" }

    // MARK: - The dump

    /// The `classes` array of the dump.
    var classesJSON: JSONValue {
        .array(classes.map { c in
            .object([
                ("name", .text(c.name)),
                ("primaryKey", c.primaryKey.map(JSONValue.text) ?? .null),
                ("embedded", .bool(c.embedded)),
                ("properties", .array(c.properties.map { p in
                    .object([("name", .text(p.name)), ("type", .text(p.type)), ("optional", .bool(p.optional)),
                             ("indexed", .bool(p.indexed)), ("primaryKey", .bool(p.primaryKey)),
                             ("collection", p.collection.map(JSONValue.text) ?? .null),
                             ("objectType", p.objectType.map(JSONValue.text) ?? .null), ("linkOrigin", .null)])
                })),
                ("backlinks", .array(c.backlinks.map { b in
                    .object([("originClass", b.0.map(JSONValue.text) ?? .null), ("originProperty", b.1.map(JSONValue.text) ?? .null)])
                })),
            ])
        })
    }

    /// The objects of a top-level class, in the table's order.
    func objects(of c: Class) throws -> [JSONValue] {
        guard let table = c.table else { return [] }
        return try rows("SELECT * FROM \(Self.quoted(table))").map { try object($0, table: table, topLevel: c) }
    }

    private func object(_ row: Row, table: String, topLevel: Class?) throws -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let c = topLevel, c.primaryKey == nil { members.append(("_key", try scalar("int", row["_key"] ?? .null))) }
        let ownKey = tables[table]?.keyColumn.flatMap { row[$0] } ?? .null
        for p in propertiesByTable[table] ?? [] {
            if p.sqlTable == table, let column = p.sqlColumn {
                members.append((p.name, try value(p, row[column] ?? .null, tag: p.sqlTypeColumn.flatMap { row[$0] })))
            } else if let child = p.sqlTable {
                members.append((p.name, try children(p, child, ownKey)))
            } else {
                throw Failure("\(table): property \(p.name) has no table")
            }
        }
        return .object(members)
    }

    private func children(_ p: Property, _ table: String, _ ownerKey: SQLiteValue) throws -> JSONValue {
        if childRows[table] == nil {
            let parentColumn = tables[table]?.type == "embedded" ? "_parent" : "parent"
            var grouped: [SQLiteValue: [Row]] = [:]
            for row in try rows("SELECT * FROM \(Self.quoted(table))") { grouped[row[parentColumn] ?? .null, default: []].append(row) }
            childRows[table] = grouped
        }
        let rows = childRows[table]?[ownerKey] ?? []
        let embedded = tables[table]?.type == "embedded"
        switch p.collection {
        case nil:
            guard embedded else { throw Failure("\(table): a to-one property in a collection table") }
            guard let row = rows.first else { return .null }
            return try object(row, table: table, topLevel: nil)
        case "list", "set":
            let positionColumn = embedded ? "_position" : "position"
            let ordered = rows.sorted { int($0[positionColumn]) < int($1[positionColumn]) }
            return .array(try ordered.map { try embedded ? object($0, table: table, topLevel: nil) : value(p, $0["value"] ?? .null, tag: $0["value_type"]) })
        default:
            let keyColumn = embedded ? "_dictkey" : "key"
            var entries: [(key: String, value: JSONValue)] = try rows.map { row in
                let key: String
                switch row[keyColumn] {
                case let .text(b)?: key = String(decoding: b, as: UTF8.self)
                case let .integer(i)?: key = String(i)
                default: throw Failure("\(table): dictionary key \(String(describing: row[keyColumn]))")
                }
                if embedded {
                    return (key, row["_key"] == .null ? .null : try object(row, table: table, topLevel: nil))
                }
                return (key, try value(p, row["value"] ?? .null, tag: row["value_type"]))
            }
            entries.sort { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            return .object(entries)
        }
    }

    private func int(_ v: SQLiteValue?) -> Int64 { if case let .integer(i)? = v { return i } else { return -1 } }

    /// A property's value (or collection element): links as the target's identity, Mixed by its tag.
    private func value(_ p: Property, _ v: SQLiteValue, tag: SQLiteValue?) throws -> JSONValue {
        switch p.type {
        case "object":
            guard v != .null, let target = p.objectType else { return .null }
            return try identity(target, v)
        case "mixed", "typedLink":
            return try mixed(v, tag: tag ?? .null)
        default:
            return try scalar(p.type, v)
        }
    }

    private func identity(_ className: String, _ v: SQLiteValue) throws -> JSONValue {
        guard let i = classIndex[className] else { throw Failure("link to unknown class \(className)") }
        let c = classes[i]
        guard let pk = c.primaryKey, let pkProperty = c.properties.first(where: { $0.name == pk }) else {
            return .object([("$key", try scalar("int", v))])
        }
        if c.keyColumn == "_key" {
            // An optional primary key: the link holds the ObjKey; the dump shows the primary key.
            if primaryKeyByObjKey[className] == nil, let table = c.table, let column = pkProperty.sqlColumn {
                var map: [SQLiteValue: SQLiteValue] = [:]
                for row in try rows("SELECT _key, \(Self.quoted(column)) FROM \(Self.quoted(table))") { map[row["_key"]!] = row[column]! }
                primaryKeyByObjKey[className] = map
            }
            return try scalar(pkProperty.type, primaryKeyByObjKey[className]?[v] ?? .null)
        }
        return try scalar(pkProperty.type, v)
    }

    private func mixed(_ v: SQLiteValue, tag: SQLiteValue) throws -> JSONValue {
        guard case let .text(t) = tag else {
            guard v == .null else { throw Failure("a Mixed value \(v) without a type tag") }
            return .null
        }
        let tag = String(decoding: t, as: UTF8.self)
        if tag == "object" {
            return .object([("$link", .object([("class", .null), ("id", .object([("$key", try scalar("int", v))]))]))])
        }
        if tag.hasPrefix("object:") {
            let target = String(tag.dropFirst("object:".count))
            return .object([("$link", .object([("class", .text(target)), ("id", v == .null ? .null : try identity(target, v))]))])
        }
        if tag == "list" || tag == "dictionary" {
            guard case let .text(json) = v else { throw Failure("a nested \(tag) that is not JSON text: \(v)") }
            return try JSONParser.parse(json)
        }
        return try scalar(tag, v)
    }

    /// A scalar as the dump writes it, from the SQLite value the export stored.
    func scalar(_ type: String, _ v: SQLiteValue) throws -> JSONValue {
        func wrapped(_ name: String, _ text: String) -> JSONValue { .object([(name, .text(text))]) }
        func number(_ d: Double, float: Bool) -> JSONValue {
            let text = float ? NumberText.float(Float(d)) : NumberText.double(d)
            return text.map(JSONValue.number) ?? wrapped("$numberDouble", NumberText.nonFinite(d))
        }
        switch (type, v) {
        case (_, .null): return .null
        case let ("int", .integer(i)): return .number(String(i))
        case let ("bool", .integer(i)) where i == 0 || i == 1: return .bool(i == 1)
        case let ("float", .real(d)), let ("double", .real(d)): return number(d, float: type == "float")
        case let ("float", .integer(i)), let ("double", .integer(i)): return number(Double(i), float: type == "float")
        case let ("float", .text(t)), let ("double", .text(t)):
            // The value SQLite's REAL cannot hold.
            if t == Array("NaN".utf8) { return wrapped("$numberDouble", "NaN") }
        case let ("string", .text(b)): return .string(b)
        case let ("data", .blob(b)):
            return .object([("$binary", .object([("base64", .text(Base64.encode(b))), ("subType", .text("00"))]))])
        case let ("date", .text(b)):
            let text = String(decoding: b, as: UTF8.self)
            if let t = ValueParsing.date(text) { return .object([("$date", .text(DateText.iso8601(t)))]) }
        case let ("decimal128", .text(b)): return wrapped("$numberDecimal", String(decoding: b, as: UTF8.self))
        case let ("objectId", .text(b)): return wrapped("$oid", String(decoding: b, as: UTF8.self))
        case let ("uuid", .text(b)): return wrapped("$uuid", String(decoding: b, as: UTF8.self))
        default: break
        }
        return wrapped("$unexpectedSQLiteValue", "\(type): \(v)")
    }
}
