/// The parse tree of a query (query-language.md §2): what the parser recognised, with the
/// source span of every node. Nothing here knows a schema; the type checker gives it meaning.
public struct QueryAST: Sendable {
    public let predicate: PredicateNode
    public let orderings: [OrderingNode]
}

public enum Quantifier: Sendable, Equatable {
    case any, all, none

    var name: String {
        switch self {
        case .any: return "ANY"
        case .all: return "ALL"
        case .none: return "NONE"
        }
    }
}

public indirect enum PredicateNode: Sendable {
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode, SourceRange)
    case constant(Bool, SourceRange)
    case comparison(ComparisonNode)

    public var range: SourceRange {
        switch self {
        case let .and(p), let .or(p): return p.dropFirst().reduce(p[0].range) { $0 + $1.range }
        case let .not(_, r), let .constant(_, r): return r
        case let .comparison(c): return c.range
        }
    }
}

public struct ComparisonNode: Sendable {
    public enum Operator: Sendable, Equatable {
        case equal, notEqual, `in`
        case less, lessEqual, greater, greaterEqual
        case beginsWith, endsWith, contains, like, text
        case between, geoWithin
    }
    public let left: ExprNode
    public let op: Operator
    /// `[c]` was written after the operator.
    public let caseInsensitive: Bool
    public let right: ExprNode
    public let operatorRange: SourceRange
    public var range: SourceRange { left.range + right.range }
}

public enum ArithmeticOperator: Character, Sendable {
    case plus = "+", minus = "-", times = "*", divide = "/"
}

public indirect enum ExprNode: Sendable {
    case constant(ConstantNode)
    case list(ListNode)
    case property(PropertyNode)
    case aggregate(AggregateNode)
    case subquery(SubqueryNode)
    case operation(ExprNode, ArithmeticOperator, ExprNode, SourceRange)

    public var range: SourceRange {
        switch self {
        case let .constant(c): return c.range
        case let .list(l): return l.range
        case let .property(p): return p.range
        case let .aggregate(a): return a.range
        case let .subquery(s): return s.range
        case let .operation(_, _, _, r): return r
        }
    }

    /// Constant-valued: a literal, a list, an argument, or arithmetic on those (`is_constant`).
    var isConstant: Bool {
        switch self {
        case .constant, .list: return true
        case let .operation(l, _, r, _): return l.isConstant && r.isConstant
        default: return false
        }
    }

    var isList: Bool {
        switch self {
        case .list: return true
        case let .operation(l, _, r, _): return l.isList || r.isList
        default: return false
        }
    }
}

public struct ConstantNode: Sendable {
    public enum Kind: Sendable, Equatable {
        case number, infinity, nan, float, string, base64String, binaryString, binaryBase64, timestamp
        case uuid, objectId, objectKey, typedLink, null, trueValue, falseValue, argument
    }
    public let kind: Kind
    /// The token text (strings with their quotes, `$12` for arguments).
    public let text: [UInt8]
    public let range: SourceRange
    /// `ANY $0`: a quantifier in front of an argument.
    public var quantifier: Quantifier?
    /// `obj('Class', pk)`: the class name (without quotes).
    public var objectClass: [UInt8]?

    public var string: String { String(decoding: text, as: UTF8.self) }
}

public struct ListNode: Sendable {
    public let elements: [ConstantNode]
    public let quantifier: Quantifier?
    public let range: SourceRange
}

public enum PathElement: Sendable, Equatable {
    /// A property name, a dictionary key (`['k']`, `.k`), or a joined `@links.Class.property`.
    case key([UInt8], SourceRange)
    /// `[n]`, `[FIRST]` (0), `[LAST]` (`UInt64.max`).
    case index(UInt64)
    /// `[*]`.
    case all
    /// `[$n]`: an argument used as an index or key.
    case argument(Int, SourceRange)

    var keyString: String? {
        if case let .key(k, _) = self { return String(decoding: k, as: UTF8.self) }
        return nil
    }

    /// As realm-core prints a path element in messages (`FIRST`, `LAST`, `'key'`, `*`).
    var description: String {
        switch self {
        case let .key(k, _): return String(decoding: k, as: UTF8.self)
        case let .index(i): return i == 0 ? "FIRST" : (i == UInt64.max ? "LAST" : String(i))
        case .all: return "*"
        case let .argument(n, _): return "$\(n)"
        }
    }
}

public struct PathNode: Sendable {
    public var elements: [PathElement]
    /// `$K0`: the whole path is spliced in from a string argument.
    public var keyPathArgument: (index: Int, range: SourceRange)?
    public var range: SourceRange
}

public struct PropertyNode: Sendable {
    public enum PostOperator: Sendable, Equatable { case size, type }
    public let path: PathNode
    public let quantifier: Quantifier?
    public let postOperator: PostOperator?
    /// The spelling of the post-operator (`@count`, `@size`, `SIZE`, `@type`) for messages.
    public let postOperatorName: String
    public let range: SourceRange
}

public struct AggregateNode: Sendable {
    public enum Operation: Sendable, Equatable {
        case max, min, sum, avg
        var name: String {
            switch self {
            case .max: return ".@max"
            case .min: return ".@min"
            case .sum: return ".@sum"
            case .avg: return ".@avg"
            }
        }
    }
    public let path: PathNode
    public let operation: Operation
    /// `links.@max.age`: the property of the linked objects.
    public let property: (name: [UInt8], range: SourceRange)?
    public let range: SourceRange
}

public struct SubqueryNode: Sendable {
    public let path: PathNode
    public let variable: [UInt8]
    public let variableRange: SourceRange
    public let predicate: PredicateNode
    public let range: SourceRange
}

public enum OrderingNode: Sendable {
    case sort([(path: PathNode, ascending: Bool)])
    case distinct([PathNode])
    case limit(Int, SourceRange)
}
