import RealmFormat

/// A persisted property as the object store reports it (object-store.md §2, realm-format.md §17.4).
/// A class, not a struct: properties are passed around per value written, and one reference
/// is cheaper than copying a handful of strings.
public final class Property: Sendable {
    public let name: String
    /// `int bool string data date float double decimal128 objectId uuid mixed object` (and
    /// `typedLink` for the rare typed-link column).
    public let type: String
    public let isOptional: Bool
    public let isIndexed: Bool
    public let isPrimaryKey: Bool
    public let collection: CollectionKind?
    /// Target class of an `object` property.
    public let objectType: String?
    public let column: Column

    init(name: String, type: String, isOptional: Bool, isIndexed: Bool, isPrimaryKey: Bool,
         collection: CollectionKind?, objectType: String?, column: Column) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isIndexed = isIndexed
        self.isPrimaryKey = isPrimaryKey
        self.collection = collection
        self.objectType = objectType
        self.column = column
    }
}

/// A hidden backlink column: which class and property link here (§10.6).
public struct Backlink: Sendable {
    public let originClass: String?
    public let originProperty: String?
    public let column: Column
}

/// A class: a `class_` table seen through the object store (or, in raw form, any table).
public final class ObjectClass: Sendable {
    public let name: String
    public let table: Table
    public let primaryKey: String?
    public let isEmbedded: Bool
    public let isAsymmetric: Bool
    public let properties: [Property]
    public let backlinks: [Backlink]

    init(name: String, table: Table, primaryKey: String?, isEmbedded: Bool, isAsymmetric: Bool,
         properties: [Property], backlinks: [Backlink]) {
        self.name = name
        self.table = table
        self.primaryKey = primaryKey
        self.isEmbedded = isEmbedded
        self.isAsymmetric = isAsymmetric
        self.properties = properties
        self.backlinks = backlinks
    }

    public func property(named name: String) -> Property? { properties.first { $0.name == name } }
}
