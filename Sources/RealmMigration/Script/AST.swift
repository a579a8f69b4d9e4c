import RealmFormat

/// A parsed migration script: `version N { … }` blocks in the order written.
public struct Script: Sendable {
    public var versions: [VersionBlock]
}

/// One `version N { … }` block: what an app's migration block does when the file goes to
/// schema version N.
public struct VersionBlock: Sendable {
    public var number: Int64
    public var location: SourceLocation
    public var steps: [Step]
}

/// A statement directly inside a version block.
public enum Step: Sendable {
    /// `class X { … }`: changes to an existing class.
    case modify(className: Name, operations: [Operation])
    /// `add [embedded] class X { property declarations }`.
    case addClass(className: Name, embedded: Bool, properties: [PropertyDeclaration])
    /// `remove class X, Y`: the class and all its objects (`migration.deleteData(forType:)`).
    case removeClass([Name])
    /// `rename class A -> B`.
    case renameClass(from: Name, to: Name)
}

/// A name and where it is written.
public struct Name: Sendable, Equatable {
    public var text: String
    public var location: SourceLocation
}

/// `name: type [indexed] [primary key] [= expression]`.
public struct PropertyDeclaration: Sendable {
    public var name: Name
    public var type: TypeReference
    public var indexed: Bool
    public var primaryKey: Bool
    public var value: Expression?
}

/// `int`, `string?`, `Person?`, `List<Dog>`, `Set<int?>`, `Map<string, double>`.
public struct TypeReference: Sendable, Equatable {
    /// A property type name (`int`, `date`, …) or a class name.
    public var base: String
    public var optional: Bool
    public var collection: CollectionKind?
    public var location: SourceLocation
}

/// A statement inside `class X { … }`.
public enum Operation: Sendable {
    case add(PropertyDeclaration)
    case remove([Name])
    case rename(from: Name, to: Name)
    /// `change p: type [indexed] [primary key] [= expression]`.
    case change(PropertyDeclaration)
    /// `set p = expression [where "predicate"]`.
    case set(property: Name, value: Expression, filter: Predicate?)
    /// `delete where "predicate"`.
    case delete(Predicate, at: SourceLocation)
    case index([Name])
    case unindex([Name])
    /// `primary key p` / `primary key none`.
    case primaryKey(Name?, at: SourceLocation)
}

/// A predicate of Realm's query language, written as a string literal.
public struct Predicate: Sendable {
    public var text: String
    /// Where the string literal starts (its opening quote).
    public var location: SourceLocation
}

/// An expression over the properties of the object as it was before the version block.
public indirect enum Expression: Sendable {
    public enum Literal: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case string(String)
    }

    public enum UnaryOperator: String, Sendable { case negate = "-", not = "!" }

    public enum BinaryOperator: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case and = "&&", or = "||", coalesce = "??"
    }

    case literal(Literal, SourceLocation)
    /// `name` or `link.name.…`; `_key` is the object's key.
    case path([Name])
    case call(Name, [Expression])
    case unary(UnaryOperator, Expression, SourceLocation)
    case binary(BinaryOperator, Expression, Expression, SourceLocation)
    case conditional(Expression, Expression, Expression, SourceLocation)

    public var location: SourceLocation {
        switch self {
        case let .literal(_, l), let .unary(_, _, l): return l
        case let .path(names): return names[0].location
        case let .call(name, _): return name.location
        case let .binary(_, left, _, _): return left.location
        case let .conditional(c, _, _, _): return c.location
        }
    }
}
