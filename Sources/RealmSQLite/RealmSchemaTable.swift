import RealmFormat
import RealmObjects

/// `_realm_schema`: the Realm schema of the export and where each part of it went, so that a
/// migration tool can rebuild the model (Docs/commands.md lists the rows):
///
/// - `schema_version`, `format_version`: the file's schema version (NULL: none) and file format,
///   in `version`;
/// - `class`: one per exported class — `property` its primary key, `embedded`, `sql_table` its
///   table (NULL for embedded classes, which live in their owners' tables), `sql_column` the
///   column links reference;
/// - `property`: one per property per table the class's objects are in (`parent_table`) — type,
///   optional, primary key, indexed, collection, link target, whether the target is embedded,
///   and the table and column(s) that hold its values (`sql_table`: the object's own table, or
///   for a collection or embedded property the table of its own);
/// - `backlink`: one per hidden backlink column (a linkingObjects property can be declared on
///   it): the class linked to, and `origin_class`.`origin_property` that links there;
/// - `table`: one per SQL table — `type` (`class`, `embedded`, `list`, `set`, `dictionary`),
///   the class and property whose data it holds, and `parent_table`, the table it belongs to.
enum RealmSchemaTable {
    static let columns = ["kind", "class", "property", "type", "optional", "primary_key", "indexed", "collection",
                          "link_target", "embedded", "origin_class", "origin_property", "sql_table", "sql_column",
                          "sql_type_column", "parent_table", "version"]

    static var createStatement: String {
        let types = ["TEXT NOT NULL", "TEXT", "TEXT", "TEXT", "BOOLEAN", "BOOLEAN", "BOOLEAN", "TEXT",
                     "TEXT", "BOOLEAN", "TEXT", "TEXT", "TEXT", "TEXT", "TEXT", "TEXT", "INTEGER"]
        return "CREATE TABLE \(SQLName.quoted(SchemaMapping.schemaTable)) (\n  "
            + zip(columns, types).map { SQLName.quoted($0) + " " + $1 }.joined(separator: ",\n  ") + "\n)"
    }

    static var insertStatement: String {
        "INSERT INTO \(SQLName.quoted(SchemaMapping.schemaTable)) (\(SQLName.list(columns))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    typealias Row = [String: SQLiteValue]

    static func rows(file: RealmFile, mapping: SchemaMapping) throws(FormatError) -> [Row] {
        var rows: [Row] = []
        rows.append(["kind": text("schema_version"), "version": try file.schemaVersion().map { .integer($0) } ?? .null])
        rows.append(["kind": text("format_version"), "version": .integer(Int64(file.snapshot.fileFormat))])
        for c in mapping.classes {
            let table = mapping.classTable(of: c)
            rows.append(["kind": text("class"), "class": text(c.name), "property": optionalText(c.primaryKey),
                         "embedded": bool(c.isEmbedded), "sql_table": optionalText(table?.name),
                         "sql_column": optionalText(table?.keyColumn)])
        }
        var tabled = Set<Int>()
        for table in mapping.tables {
            guard let c = table.objectClass else { continue }
            tabled.insert(c.table.position)
            rows += propertyRows(c, table, file)
        }
        for c in mapping.classes where !tabled.contains(c.table.position) { rows += propertyRows(c, nil, file) }
        for c in mapping.classes {
            for b in c.backlinks {

                rows.append(["kind": text("backlink"), "class": text(c.name), "origin_class": optionalText(b.originClass),
                             "origin_property": optionalText(b.originProperty)])
            }
        }
        for table in mapping.tables {
            var row: Row = ["kind": text("table"), "sql_table": text(table.name), "parent_table": optionalText(table.owner?.name),
                            "class": optionalText(table.objectClass?.name ?? table.owner?.objectClass?.name),
                            "property": optionalText(table.property?.name)]
            switch table.role {
            case .objects:
                row["type"] = text("class")
                row["sql_column"] = text(table.keyColumn)
            case let .embedded(kind):
                row["type"] = text("embedded")
                row["collection"] = optionalText(kind?.rawValue)
                row["sql_column"] = text(table.keyColumn)
                row["class"] = optionalText(table.objectClass?.name)
            case let .collection(kind):
                row["type"] = text(kind.rawValue)
                row["collection"] = text(kind.rawValue)
                row["class"] = optionalText(table.owner?.objectClass?.name)
            }
            rows.append(row)
        }
        return rows
    }

    /// A class's properties as `table` holds them (nil: the class has no table).
    private static func propertyRows(_ c: ObjectClass, _ table: TableMapping?, _ file: RealmFile) -> [Row] {
        c.properties.enumerated().map { i, p in
            let target = p.column.targetTable.flatMap { file.objectClass(for: $0) }
            var row: Row = ["kind": text("property"), "class": text(c.name), "property": text(p.name), "type": text(p.type),
                            "optional": bool(p.isOptional), "primary_key": bool(p.isPrimaryKey), "indexed": bool(p.isIndexed),
                            "collection": optionalText(p.collection?.rawValue), "link_target": optionalText(p.objectType),
                            "embedded": bool(target?.isEmbedded == true),
                            "sql_table": optionalText(table?.name), "parent_table": optionalText(table?.name)]
            guard let table else { return row }
            if let columns = table.propertyColumns[i] {
                row["sql_column"] = text(columns.value)
                row["sql_type_column"] = optionalText(columns.tag)
            } else if let child = table.children.first(where: { $0.property == i })?.table {
                row["sql_table"] = text(child.name)
                if case .collection = child.role {
                    row["sql_column"] = text("value")
                    if p.type == "mixed" || p.type == "typedLink" { row["sql_type_column"] = text("value_type") }
                }
            }
            return row
        }
    }

    private static func text(_ s: String) -> SQLiteValue { .text(Array(s.utf8)) }
    private static func optionalText(_ s: String?) -> SQLiteValue { s.map(text) ?? .null }
    private static func bool(_ b: Bool) -> SQLiteValue { .integer(b ? 1 : 0) }
}
