/// A recursive-descent parser for the grammar of query-language.md §2.1, accepting exactly what
/// Realm Core's bison parser accepts and reporting errors with its wording
/// ("syntax error, unexpected identifier"; "…, expecting end of file" once a complete query has
/// been read).
///
/// Parentheses group either a predicate or an arithmetic expression, decided by what is inside
/// (§2.3): the parser reads the contents as "predicate or expression" and lets the caller
/// continue with arithmetic and a comparison when it was an expression, so no backtracking is
/// needed and nesting costs linear time. Nesting depth is limited, so hostile input cannot
/// exhaust the stack.
public struct Parser {
    static let maxDepth = 200
    /// Arithmetic builds a left-deep tree; its depth is bounded by this many operators.
    static let maxOperations = 1000

    let query: String
    let tokens: [Token]
    var position = 0
    var depth = 0
    var operations = 0

    /// `lexer`, when given, reads `query` (Query makes one for its fast path first).
    public init(_ query: String, lexer: Lexer? = nil) {
        self.query = query
        tokens = (lexer ?? Lexer(query)).tokenize()
    }

    public static func parse(_ query: String, lexer: Lexer? = nil) throws(QueryError) -> QueryAST {
        var parser = Parser(query, lexer: lexer)
        return try parser.parseQuery()
    }

    // MARK: - Tokens

    var token: Token { tokens[position] }
    var kind: TokenKind { tokens[position].kind }
    func peek(_ n: Int = 1) -> TokenKind { tokens[min(position + n, tokens.count - 1)].kind }

    @discardableResult
    mutating func advance() -> Token {
        let t = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return t
    }

    func unexpected(_ expecting: String? = nil) -> QueryError {
        let t = token
        if t.kind == .invalid {
            return .syntax(detail: "invalid character: " + String(decoding: t.text, as: UTF8.self), query: query, at: t.range)
        }
        var detail = "syntax error, unexpected \(t.kind.displayName)"
        if let expecting { detail += ", expecting \(expecting)" }
        return .syntax(detail: detail, query: query, at: t.range)
    }

    @discardableResult
    mutating func expect(_ k: TokenKind, expecting: String? = nil) throws(QueryError) -> Token {
        guard kind == k else { throw unexpected(expecting) }
        return advance()
    }

    mutating func enter() throws(QueryError) {
        depth += 1
        if depth > Parser.maxDepth {
            throw .syntax(detail: "query nested too deeply (more than \(Parser.maxDepth) levels)", query: query, at: token.range)
        }
    }

    // MARK: - Query

    mutating func parseQuery() throws(QueryError) -> QueryAST {
        let predicate = try parseOr()
        var orderings = [OrderingNode]()
        while true {
            switch kind {
            case .sort: orderings.append(try parseSort())
            case .distinct: orderings.append(try parseDistinct())
            case .limit: orderings.append(try parseLimit())
            case .end: return QueryAST(predicate: predicate, orderings: orderings)
            default: throw unexpected("end of file")
            }
        }
    }

    /// What a parenthesised or bare operand turned out to be.
    enum Parsed {
        case predicate(PredicateNode)
        /// `bare`: a single value, not arithmetic or parenthesised (string operators,
        /// BETWEEN and GEOWITHIN need one on their left).
        case expression(ExprNode, bare: Bool)
    }

    mutating func parseOr() throws(QueryError) -> PredicateNode {
        guard case let .predicate(p) = try parseOrMixed() else { throw unexpected() }
        return p
    }

    mutating func parseOrMixed() throws(QueryError) -> Parsed {
        let left = try parseAndMixed()
        guard kind == .or else { return left }
        guard case let .predicate(first) = left else { throw unexpected() }
        var items = [first]
        while kind == .or {
            advance()
            items.append(try parseAnd())
        }
        return .predicate(.or(items))
    }

    mutating func parseAnd() throws(QueryError) -> PredicateNode {
        guard case let .predicate(p) = try parseAndMixed() else { throw unexpected() }
        return p
    }

    mutating func parseAndMixed() throws(QueryError) -> Parsed {
        let left = try parseUnaryMixed()
        guard kind == .and else { return left }
        guard case let .predicate(first) = left else { throw unexpected() }
        var items = [first]
        while kind == .and {
            advance()
            items.append(try parseUnary())
        }
        return .predicate(.and(items))
    }

    mutating func parseUnary() throws(QueryError) -> PredicateNode {
        guard case let .predicate(p) = try parseUnaryMixed() else { throw unexpected() }
        return p
    }

    mutating func parseUnaryMixed() throws(QueryError) -> Parsed {
        try enter()
        defer { depth -= 1 }
        switch kind {
        case .not:
            let t = advance()
            let inner = try parseUnary()
            return .predicate(.not(inner, t.range + inner.range))
        case .truePredicate, .falsePredicate:
            let t = advance()
            return .predicate(.constant(t.kind == .truePredicate, t.range))
        case .leftParen:
            let open = advance()
            let inner = try parseOrMixed()
            let close = try expect(.rightParen)
            switch inner {
            case let .predicate(p):
                return .predicate(p)
            case let .expression(e, _):
                let grouped = regroup(e, open.range + close.range)
                let full = try parseBinaryRest(grouped, minimumPrecedence: 0)
                return try parseComparisonTail(full, bare: false)
            }
        default:
            let value = try parseValue()
            if Parser.precedence(kind) != nil {
                let full = try parseBinaryRest(value, minimumPrecedence: 0)
                return try parseComparisonTail(full, bare: false)
            }
            return try parseComparisonTail(value, bare: true)
        }
    }

    /// A parenthesised expression keeps its node; only its span grows.
    func regroup(_ e: ExprNode, _ range: SourceRange) -> ExprNode {
        if case let .operation(l, op, r, _) = e { return .operation(l, op, r, range) }
        return e
    }

    mutating func parseComparisonTail(_ left: ExprNode, bare: Bool) throws(QueryError) -> Parsed {
        let opToken = token
        let op: ComparisonNode.Operator
        switch kind {
        case .equal: op = .equal
        case .notEqual: op = .notEqual
        case .in: op = .in
        case .less: op = .less
        case .lessEqual: op = .lessEqual
        case .greater: op = .greater
        case .greaterEqual: op = .greaterEqual
        case .beginsWith: op = .beginsWith
        case .endsWith: op = .endsWith
        case .contains: op = .contains
        case .like: op = .like
        case .text: op = .text
        case .between: op = .between
        case .geoWithin: op = .geoWithin
        default: return .expression(left, bare: bare)
        }
        switch op {
        case .equal, .notEqual, .in:
            advance()
            let ci = kind == .caseInsensitive
            if ci { advance() }
            let right = try parseExpression()
            return .predicate(.comparison(ComparisonNode(left: left, op: op, caseInsensitive: ci, right: right, operatorRange: opToken.range)))
        case .less, .lessEqual, .greater, .greaterEqual:
            advance()
            let right = try parseExpression()
            return .predicate(.comparison(ComparisonNode(left: left, op: op, caseInsensitive: false, right: right, operatorRange: opToken.range)))
        case .beginsWith, .endsWith, .contains, .like, .text:
            guard bare else { throw unexpected() }
            advance()
            let ci = op != .text && kind == .caseInsensitive
            if ci { advance() }
            let right = try parseValue()
            return .predicate(.comparison(ComparisonNode(left: left, op: op, caseInsensitive: ci, right: right, operatorRange: opToken.range)))
        case .between:
            guard bare else { throw unexpected() }
            advance()
            guard kind == .leftBrace || ([.any, .all, .none].contains(kind) && peek() == .leftBrace) else { throw unexpected() }
            let list = try parseList()
            return .predicate(.comparison(ComparisonNode(left: left, op: .between, caseInsensitive: false, right: .list(list), operatorRange: opToken.range)))
        case .geoWithin:
            guard bare, case .property = left else { throw unexpected() }
            advance()
            let shape = try parseGeoShape()
            return .predicate(.comparison(ComparisonNode(left: left, op: .geoWithin, caseInsensitive: false, right: shape, operatorRange: opToken.range)))
        }
    }

    // MARK: - Expressions

    static func precedence(_ k: TokenKind) -> Int? {
        switch k {
        case .plus, .minus: return 1
        case .star, .slash: return 2
        default: return nil
        }
    }

    mutating func parseExpression() throws(QueryError) -> ExprNode {
        let first = try parseFactor()
        return try parseBinaryRest(first, minimumPrecedence: 0)
    }

    /// Left-associative arithmetic, `*` `/` before `+` `-`.
    mutating func parseBinaryRest(_ start: ExprNode, minimumPrecedence: Int) throws(QueryError) -> ExprNode {
        try enter()
        defer { depth -= 1 }
        var left = start
        while let prec = Parser.precedence(kind), prec >= minimumPrecedence {
            operations += 1
            if operations > Parser.maxOperations {
                throw .syntax(detail: "expression has more than \(Parser.maxOperations) arithmetic operations", query: query, at: token.range)
            }
            let opToken = advance()
            let op: ArithmeticOperator
            switch opToken.kind {
            case .plus: op = .plus
            case .minus: op = .minus
            case .star: op = .times
            default: op = .divide
            }
            var right = try parseFactor()
            while let next = Parser.precedence(kind), next > prec {
                right = try parseBinaryRest(right, minimumPrecedence: next)
            }
            left = .operation(left, op, right, left.range + right.range)
        }
        return left
    }

    mutating func parseFactor() throws(QueryError) -> ExprNode {
        if kind == .leftParen {
            try enter()
            defer { depth -= 1 }
            let open = advance()
            let inner = try parseExpression()
            let close = try expect(.rightParen)
            return regroup(inner, open.range + close.range)
        }
        return try parseValue()
    }

    /// The constant a literal token makes, nil for other tokens (a switch: asked for every
    /// value the parser reads, where a dictionary would hash each time).
    static func constantKind(_ k: TokenKind) -> ConstantNode.Kind? {
        switch k {
        case .natural, .number: return .number
        case .string: return .string
        case .uuid: return .uuid
        case .objectId: return .objectId
        case .argument: return .argument
        case .infinity: return .infinity
        case .nan: return .nan
        case .base64: return .base64String
        case .float: return .float
        case .timestamp: return .timestamp
        case .objectKey: return .objectKey
        case .typedLink: return .typedLink
        case .trueLiteral: return .trueValue
        case .falseLiteral: return .falseValue
        case .null: return .null
        default: return nil
        }
    }

    /// `value = constant | property | list | aggregate | subquery`.
    mutating func parseValue() throws(QueryError) -> ExprNode {
        switch kind {
        case .any, .all, .none:
            let q = advance()
            let quantifier = Parser.quantifier(q.kind)
            if kind == .argument {
                let t = advance()
                return .constant(ConstantNode(kind: .argument, text: t.text, range: q.range + t.range, quantifier: quantifier))
            }
            if kind == .leftBrace {
                return .list(try parseList(quantifier: quantifier, start: q.range))
            }
            let path = try parsePath()
            return .property(try parsePostOperator(path, quantifier: quantifier, start: q.range))
        case .leftBrace:
            return .list(try parseList())
        case .subquery:
            return .subquery(try parseSubquery())
        case .obj:
            return .constant(try parseConstant())
        case .binary where peek() == .leftParen:
            return .constant(try parseConstant())
        default:
            if Parser.constantKind(kind) != nil { return .constant(try parseConstant()) }
            guard kind == .keyPathArgument || kind.canBeIdentifier else { throw unexpected() }
            let path = try parsePath()
            if kind == .dot, [.max, .min, .sum, .avg].contains(peek()) {
                advance()
                let opToken = advance()
                let op: AggregateNode.Operation
                switch opToken.kind {
                case .max: op = .max
                case .min: op = .min
                case .sum: op = .sum
                default: op = .avg
                }
                if kind == .dot, peek().canBeIdentifier {
                    advance()
                    let name = advance()
                    return .aggregate(AggregateNode(path: path, operation: op, property: (name.text, name.range), range: path.range + name.range))
                }
                return .aggregate(AggregateNode(path: path, operation: op, property: nil, range: path.range + opToken.range))
            }
            return .property(try parsePostOperator(path, quantifier: nil, start: path.range))
        }
    }

    mutating func parsePostOperator(_ path: PathNode, quantifier: Quantifier?, start: SourceRange) throws(QueryError) -> PropertyNode {
        if kind == .dot, peek() == .size || peek() == .type {
            advance()
            let t = advance()
            return PropertyNode(path: path, quantifier: quantifier, postOperator: t.kind == .size ? .size : .type,
                                postOperatorName: t.string, range: start + path.range + t.range)
        }
        if kind == .leftBracket, peek() == .indexSize, peek(2) == .rightBracket {
            advance()
            let t = advance()
            let close = advance()
            return PropertyNode(path: path, quantifier: quantifier, postOperator: .size, postOperatorName: t.string,
                                range: start + path.range + close.range)
        }
        return PropertyNode(path: path, quantifier: quantifier, postOperator: nil, postOperatorName: "", range: start + path.range)
    }

    mutating func parseConstant() throws(QueryError) -> ConstantNode {
        let t = token
        switch t.kind {
        case .obj:
            advance()
            try expect(.leftParen)
            let cls = try expect(.string)
            try expect(.comma)
            let pk = token
            guard [.natural, .number, .string, .uuid, .objectId, .argument].contains(pk.kind) else { throw unexpected() }
            advance()
            let close = try expect(.rightParen)
            var node = ConstantNode(kind: Parser.constantKind(pk.kind)!, text: pk.text, range: t.range + close.range)
            node.objectClass = Array(cls.text.dropFirst().dropLast())
            return node
        case .binary:
            advance()
            try expect(.leftParen)
            let v = token
            guard v.kind == .string || v.kind == .base64 else { throw unexpected() }
            advance()
            let close = try expect(.rightParen)
            return ConstantNode(kind: v.kind == .string ? .binaryString : .binaryBase64, text: v.text, range: t.range + close.range)
        case .any, .all, .none:
            guard peek() == .argument else {
                advance()
                throw unexpected()
            }
            let q = advance()
            let arg = advance()
            let quantifier = Parser.quantifier(q.kind)
            return ConstantNode(kind: .argument, text: arg.text, range: q.range + arg.range, quantifier: quantifier)
        default:
            guard let k = Parser.constantKind(t.kind) else { throw unexpected() }
            advance()
            return ConstantNode(kind: k, text: t.text, range: t.range)
        }
    }

    /// `[ANY|ALL|NONE] { constant, … }`. Like realm-core's grammar, a leading comma is
    /// accepted (`{, 1}` is `{1}`).
    mutating func parseList(quantifier: Quantifier? = nil, start: SourceRange? = nil) throws(QueryError) -> ListNode {
        var quantifier = quantifier
        var startRange = start
        if quantifier == nil, [.any, .all, .none].contains(kind) {
            let q = advance()
            quantifier = Parser.quantifier(q.kind)
            startRange = q.range
        }
        let open = try expect(.leftBrace)
        var elements = [ConstantNode]()
        if kind != .rightBrace && kind != .comma {
            elements.append(try parseConstant())
        }
        while kind == .comma {
            advance()
            elements.append(try parseConstant())
        }
        let close = try expect(.rightBrace)
        return ListNode(elements: elements, quantifier: quantifier, range: (startRange ?? open.range) + close.range)
    }

    /// `SUBQUERY(path, $var, predicate).@count`.
    mutating func parseSubquery() throws(QueryError) -> SubqueryNode {
        let start = advance()
        try expect(.leftParen)
        guard kind == .keyPathArgument || kind.canBeIdentifier else { throw unexpected() }
        let path = try parsePath()
        try expect(.comma)
        guard kind.canBeIdentifier else { throw unexpected() }
        let variable = advance()
        try expect(.comma)
        try enter()
        let predicate = try parseOr()
        depth -= 1
        try expect(.rightParen)
        try expect(.dot, expecting: "'.'")
        let size = try expect(.size, expecting: "@size")
        return SubqueryNode(path: path, variable: variable.text, variableRange: variable.range, predicate: predicate,
                            range: start.range + size.range)
    }

    /// `(id | $K<n>) { .id | [n] | [FIRST] | [LAST] | [*] | ['key'] | [$n] }`. After `@links`
    /// the next two names are joined into one element, `@links.Class.property`.
    mutating func parsePath() throws(QueryError) -> PathNode {
        var elements = [PathElement]()
        var keyPathArgument: (Int, SourceRange)?
        var backlinkParts = 0
        let first = token
        var range = first.range

        func add(_ e: PathElement, _ r: SourceRange) throws(QueryError) {
            if backlinkParts > 0 {
                guard case let .key(k, kr) = e, case let .key(b, br) = elements[elements.count - 1] else {
                    throw QueryError.syntax(detail: "An ID must follow @links", query: query, at: r)
                }
                elements[elements.count - 1] = .key(b + [UInt8(ascii: ".")] + k, br + kr)
                backlinkParts = backlinkParts == 2 ? 0 : backlinkParts + 1
            } else {
                if case let .key(k, _) = e, k == PathNames.links { backlinkParts = 1 }
                elements.append(e)
            }
            range = range + r
        }

        if kind == .keyPathArgument {
            let t = advance()
            keyPathArgument = (Parser.argumentNumber(t.text.dropFirst(2)), t.range)
        } else {
            guard kind.canBeIdentifier else { throw unexpected() }
            let t = advance()
            try add(.key(t.kind == .backlink ? PathNames.links : t.text, t.range), t.range)
        }
        while true {
            if kind == .dot, peek().canBeIdentifier {
                advance()
                let t = advance()
                try add(.key(t.kind == .backlink ? PathNames.links : t.text, t.range), t.range)
            } else if kind == .leftBracket, peek() != .indexSize {
                let open = advance()
                let t = token
                let element: PathElement
                switch t.kind {
                case .natural: element = .index(UInt64(bitPattern: Numbers.strtoll(t.text)))
                case .indexFirst: element = .index(0)
                case .indexLast: element = .index(UInt64.max)
                case .star: element = .all
                case .string: element = .key(Array(t.text.dropFirst().dropLast()), t.range)
                case .argument: element = .argument(Parser.argumentNumber(t.text.dropFirst()), t.range)
                default: throw unexpected()
                }
                advance()
                let close = try expect(.rightBracket)
                try add(element, open.range + close.range)
            } else {
                break
            }
        }
        return PathNode(elements: elements, keyPathArgument: keyPathArgument.map { (index: $0.0, range: $0.1) }, range: range)
    }

    static func quantifier(_ k: TokenKind) -> Quantifier {
        switch k {
        case .all: return .all
        case .none: return .none
        default: return .any
        }
    }

    /// `$12` → 12; absurdly large numbers saturate (they are reported as missing arguments).
    static func argumentNumber<C: Collection<UInt8>>(_ digits: C) -> Int {
        var n = 0
        for d in digits {
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(d) - 48)
            if o1 || o2 { return Int.max }
            n = s
        }
        return n
    }

    // MARK: - Orderings

    mutating func parseSort() throws(QueryError) -> OrderingNode {
        advance()
        try expect(.leftParen, expecting: "'('")
        var keys = [(path: PathNode, ascending: Bool)]()
        repeat {
            if !keys.isEmpty { advance() }
            guard kind == .keyPathArgument || kind.canBeIdentifier else { throw unexpected() }
            let path = try parsePath()
            switch kind {
            case .ascending: keys.append((path, true))
            case .descending: keys.append((path, false))
            default: throw unexpected("ascending or descending or '.' or '['")
            }
            advance()
        } while kind == .comma
        try expect(.rightParen)
        return .sort(keys)
    }

    mutating func parseDistinct() throws(QueryError) -> OrderingNode {
        advance()
        try expect(.leftParen, expecting: "'('")
        var paths = [PathNode]()
        repeat {
            if !paths.isEmpty { advance() }
            guard kind == .keyPathArgument || kind.canBeIdentifier else { throw unexpected() }
            paths.append(try parsePath())
        } while kind == .comma
        try expect(.rightParen)
        return .distinct(paths)
    }

    mutating func parseLimit() throws(QueryError) -> OrderingNode {
        let start = advance()
        try expect(.leftParen, expecting: "'('")
        let n = try expect(.natural, expecting: "natural0")
        let close = try expect(.rightParen)
        let value = Numbers.strtoll(n.text)
        return .limit(value < 0 ? Int.max : Int(value), start.range + close.range)
    }

    // MARK: - Geospatial (parsed so errors match realm-core; evaluation is not supported)

    mutating func parseGeoShape() throws(QueryError) -> ExprNode {
        let start = token
        switch kind {
        case .argument:
            advance()
            return .constant(ConstantNode(kind: .null, text: [], range: start.range))
        case .geoBox, .geoCircle, .geoPolygon:
            advance()
            try expect(.leftParen)
            var level = 1
            while level > 0 {
                switch kind {
                case .leftParen: level += 1
                case .rightParen: level -= 1
                case .end, .invalid: throw unexpected()
                default: break
                }
                advance()
            }
            return .constant(ConstantNode(kind: .null, text: [], range: start.range + tokens[position - 1].range))
        default:
            throw unexpected()
        }
    }
}
