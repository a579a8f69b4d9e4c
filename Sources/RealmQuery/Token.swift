/// The tokens of the query language (query-language.md §1), named as Realm Core's parser names
/// them in its messages ("unexpected identifier", "unexpected '('", "unexpected end of file").
public enum TokenKind: Sendable, Equatable {
    case end
    // Punctuation and arithmetic: printed quoted, as '('.
    case plus, minus, star, slash, leftBracket, rightBracket, comma, leftParen, rightParen
    case leftBrace, rightBrace, dot
    // Operators.
    case equal, notEqual, less, greater, lessEqual, greaterEqual, caseInsensitive
    case and, or, not
    case any, all, none
    // Keywords.
    case truePredicate, falsePredicate, subquery, trueLiteral, falseLiteral, null
    case beginsWith, endsWith, contains, text, like, between, `in`, geoWithin
    case geoBox, geoPolygon, geoCircle
    case obj, sort, distinct, limit, binary, ascending, descending
    case indexFirst, indexLast, indexSize
    // '@' operators.
    case size, type, max, min, sum, avg, keyOrValue, backlink
    // Literals.
    case identifier, string, base64, infinity, nan, natural, number, float, timestamp
    case uuid, objectId, objectKey, typedLink, argument, keyPathArgument
    /// A byte no rule accepts; the parser reports it when it reaches it, as realm-core's
    /// scanner does ("invalid character: #").
    case invalid

    /// The name Realm Core's parser prints for the token.
    public var displayName: String {
        switch self {
        case .end: return "end of file"
        case .plus: return "'+'"
        case .minus: return "'-'"
        case .star: return "'*'"
        case .slash: return "'/'"
        case .leftBracket: return "'['"
        case .rightBracket: return "']'"
        case .comma: return "','"
        case .leftParen: return "'('"
        case .rightParen: return "')'"
        case .leftBrace: return "'{'"
        case .rightBrace: return "'}'"
        case .dot: return "'.'"
        case .equal: return "=="
        case .notEqual: return "!="
        case .less: return "<"
        case .greater: return ">"
        case .lessEqual: return "<="
        case .greaterEqual: return ">="
        case .caseInsensitive: return "[c]"
        case .and: return "&&"
        case .or: return "||"
        case .not: return "!"
        case .any: return "any"
        case .all: return "all"
        case .none: return "none"
        case .truePredicate: return "truepredicate"
        case .falsePredicate: return "falsepredicate"
        case .subquery: return "subquery"
        case .trueLiteral: return "true"
        case .falseLiteral: return "false"
        case .null: return "null"
        case .beginsWith: return "beginswith"
        case .endsWith: return "endswith"
        case .contains: return "contains"
        case .text: return "fulltext"
        case .like: return "like"
        case .between: return "between"
        case .in: return "in"
        case .geoWithin: return "geowithin"
        case .geoBox: return "geobox"
        case .geoPolygon: return "geopolygon"
        case .geoCircle: return "geocircle"
        case .obj: return "obj"
        case .sort: return "sort"
        case .distinct: return "distinct"
        case .limit: return "limit"
        case .binary: return "binary"
        case .ascending: return "ascending"
        case .descending: return "descending"
        case .indexFirst: return "FIRST"
        case .indexLast: return "LAST"
        case .indexSize: return "SIZE"
        case .size: return "@size"
        case .type: return "@type"
        case .max: return "@max"
        case .min: return "@min"
        case .sum: return "@sum"
        case .avg: return "@average"
        case .keyOrValue: return "key or value"
        case .backlink: return "@links"
        case .identifier: return "identifier"
        case .string: return "string"
        case .base64: return "base64"
        case .infinity: return "infinity"
        case .nan: return "NaN"
        case .natural: return "natural0"
        case .number: return "number"
        case .float: return "float"
        case .timestamp: return "date"
        case .uuid: return "UUID"
        case .objectId: return "ObjectId"
        case .objectKey: return "link"
        case .typedLink: return "typed link"
        case .argument: return "argument"
        case .keyPathArgument: return "keypath"
        case .invalid: return "invalid character"
        }
    }

    /// Keyword tokens that may also name a property (the grammar's `id` rule, §2.1).
    var canBeIdentifier: Bool {
        switch self {
        case .identifier, .backlink, .beginsWith, .endsWith, .contains, .like, .between, .keyOrValue,
             .sort, .distinct, .limit, .ascending, .descending, .in, .text, .binary,
             .indexFirst, .indexLast, .indexSize:
            return true
        default:
            return false
        }
    }
}

/// A byte range of the query text.
public struct SourceRange: Sendable, Equatable {
    public let start: Int
    public let end: Int
    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = end
    }
    public static func + (a: SourceRange, b: SourceRange) -> SourceRange {
        SourceRange(min(a.start, b.start), max(a.end, b.end))
    }
}

/// One token: its kind, where it is, and its text (identifiers with their `\ ` escapes decoded).
public struct Token: Sendable {
    public let kind: TokenKind
    public let range: SourceRange
    public let text: [UInt8]

    public var string: String { String(decoding: text, as: UTF8.self) }
}
