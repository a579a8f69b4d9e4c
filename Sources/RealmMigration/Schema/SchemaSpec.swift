import RealmFormat
import RealmObjects

/// A persisted property as the object store compares schemas (object-store.md §2, §9):
/// type, collection kind, nullability, link target, index, primary key.
public struct PropertySpec: Sendable, Equatable {
    public var name: String
    /// `.link` for object properties.
    public var type: ColumnType
    public var collection: CollectionKind?
    /// The stored nullability (elements of a collection; always true for to-one links and mixed).
    public var nullable: Bool
    /// Target class of an object property.
    public var objectType: String?
    /// The file's schema: the column has a general index. A target schema: an index is asked
    /// for (the primary key gets one anyway).
    public var indexed: Bool
    public var isPrimary: Bool

    public init(name: String, type: ColumnType, collection: CollectionKind? = nil, nullable: Bool = false,
                objectType: String? = nil, indexed: Bool = false, isPrimary: Bool = false) {
        self.name = name
        self.type = type
        self.collection = collection
        self.nullable = nullable
        self.objectType = objectType
        self.indexed = indexed
        self.isPrimary = isPrimary
    }

    /// Realm's `Property::requires_index`.
    var requiresIndex: Bool { indexed || isPrimary }

    /// Same type, link target and collection kind (what `Schema::compare` calls a type change).
    func sameType(as other: PropertySpec) -> Bool {
        type == other.type && collection == other.collection && objectType == other.objectType
    }

    /// `int`, `string?`, `Person?`, `List<Dog>`, `Set<int?>`, `Map<string, Dog?>` — the syntax
    /// of the script and of `realmsh schema`.
    public var typeText: String {
        let element = objectType ?? PropertySpec.typeNames[type] ?? type.propertyTypeName
        let optional = nullable && type != .mixed
        switch collection {
        case .list?: return "List<\(element)\(optional ? "?" : "")>"
        case .set?: return "Set<\(element)\(optional ? "?" : "")>"
        case .dictionary?: return "Map<string, \(element)\(optional ? "?" : "")>"
        case nil: return element + (optional ? "?" : "")
        }
    }

    /// The script's type names (those of the canonical dump, plus `decimal` for decimal128).
    static let typeNames: [ColumnType: String] = [
        .int: "int", .bool: "bool", .string: "string", .binary: "data", .timestamp: "date", .float: "float",
        .double: "double", .decimal: "decimal128", .objectId: "objectId", .uuid: "uuid", .mixed: "mixed",
    ]

    static let typesByName: [String: ColumnType] = {
        var out = [String: ColumnType]()
        for (t, n) in typeNames { out[n] = t }
        out["decimal"] = .decimal
        return out
    }()

    /// Stored nullability as the object store sets it (§17.4): to-one links, dictionaries of
    /// links and mixed always; lists and sets of links never.
    static func storedNullability(type: ColumnType, collection: CollectionKind?, optional: Bool) -> Bool {
        if type == .mixed { return true }
        if type == .link { return collection == nil || collection == .dictionary }
        return optional
    }

    static let primaryKeyTypes: Set<ColumnType> = [.int, .string, .objectId, .uuid]
    static let indexableTypes: Set<ColumnType> = [.int, .bool, .string, .timestamp, .objectId, .uuid, .mixed]
}

/// A class as the object store sees it.
public struct ClassSpec: Sendable, Equatable {
    public var name: String
    public var embedded: Bool
    public var primaryKey: String?
    /// In column order.
    public var properties: [PropertySpec]

    public init(name: String, embedded: Bool, primaryKey: String?, properties: [PropertySpec]) {
        self.name = name
        self.embedded = embedded
        self.primaryKey = primaryKey
        self.properties = properties
    }

    public func property(_ name: String) -> PropertySpec? { properties.first { $0.name == name } }
    func propertyIndex(_ name: String) -> Int? { properties.firstIndex { $0.name == name } }
}

extension ClassSpec {
    /// The classes of an opened file (`realmsh schema`'s view).
    public static func classes(of file: RealmFile) -> [ClassSpec] {
        file.classes.filter { !$0.isAsymmetric }.map { c in
            ClassSpec(name: c.name, embedded: c.isEmbedded, primaryKey: c.primaryKey, properties: c.properties.map { p in
                PropertySpec(name: p.name, type: p.column.type, collection: p.collection, nullable: p.column.isNullable,
                             objectType: p.objectType, indexed: p.isIndexed, isPrimary: p.isPrimaryKey)
            })
        }
    }

    /// The classes of a schema JSON: the `classes` array `realmsh schema --format json` prints
    /// (or a whole canonical dump, whose `classes` member is used).
    public static func classes(fromJSON json: JSONValue) throws(SchemaJSONError) -> [ClassSpec] {
        var list = json
        if case .object = json, let classes = json["classes"] { list = classes }
        guard case let .array(items) = list else { throw SchemaJSONError("expects a JSON array of classes (as 'realmsh schema --format json' prints)") }
        var out = [ClassSpec]()
        for (i, item) in items.enumerated() {
            guard let name = item["name"]?.stringValue, !name.isEmpty else { throw SchemaJSONError("class \(i) has no \"name\"") }
            guard case let .array(properties)? = item["properties"] else { throw SchemaJSONError("class \(name) has no \"properties\" array") }
            let pk = item["primaryKey"]?.stringValue
            var specs = [PropertySpec]()
            for p in properties {
                guard let pname = p["name"]?.stringValue, !pname.isEmpty else { throw SchemaJSONError("a property of \(name) has no \"name\"") }
                guard let typeName = p["type"]?.stringValue else { throw SchemaJSONError("\(name).\(pname) has no \"type\"") }
                let type: ColumnType
                if typeName == "object" {
                    type = .link
                } else if let t = PropertySpec.typesByName[typeName] {
                    type = t
                } else {
                    throw SchemaJSONError("\(name).\(pname) has unknown type '\(typeName)'")
                }
                var collection: CollectionKind?
                if let c = p["collection"]?.stringValue {
                    guard let kind = CollectionKind(rawValue: c) else { throw SchemaJSONError("\(name).\(pname) has unknown collection '\(c)'") }
                    collection = kind
                }
                let objectType = p["objectType"]?.stringValue
                if type == .link && objectType == nil { throw SchemaJSONError("\(name).\(pname) is an object property without \"objectType\"") }
                let optional = p["optional"] == .bool(true)
                let isPrimary = pname == pk
                specs.append(PropertySpec(name: pname, type: type, collection: collection,
                                          nullable: PropertySpec.storedNullability(type: type, collection: collection, optional: optional),
                                          objectType: type == .link ? objectType : nil,
                                          indexed: p["indexed"] == .bool(true) && !isPrimary, isPrimary: isPrimary))
            }
            if let pk, !specs.contains(where: { $0.name == pk }) { throw SchemaJSONError("the primary key '\(pk)' of \(name) is not among its properties") }
            out.append(ClassSpec(name: name, embedded: item["embedded"] == .bool(true), primaryKey: pk, properties: specs))
        }
        return sortedByName(out)
    }

    static func sortedByName(_ classes: [ClassSpec]) -> [ClassSpec] {
        classes.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }
}

/// A schema JSON that cannot be read.
public struct SchemaJSONError: Error, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}
