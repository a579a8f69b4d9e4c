import RealmFormat

/// The commonest query, `property <op> integer` on an int property of the class itself
/// (`age == 42`, `age >= -5`), compiled straight from its tokens: no syntax tree, no operands,
/// no type checker. For such a query a trivial indexed count costs about as much as setting the
/// query up the general way, so the set-up is what a caller waits for.
///
/// What the general path makes of these four tokens is fixed: the identifier is a one-element
/// key path (query-language.md §3.1: no `@` name, no link, no subquery variable at top level)
/// naming a public column of the class; when that column is a single (not list, set or
/// dictionary) int, the left operand is that column and the literal is the int `strtoll` reads,
/// unconverted for an int property (§4, §5.5). The two types are equal, so the comparison is a
/// single-column condition (§5.0, realm-core's query builder path) with the operator as
/// written. Anything else — another column type, a name no column has, any other token shape,
/// `[c]`, `%` placeholders — returns nil and goes the general way, which gives the same results
/// and the errors. SimpleComparisonTests compares this with the general path for every property
/// of the test files.
enum SimpleComparison {
    /// The compiled predicate of `text` on `table`, or nil when the text is not of that shape.
    static func predicate(_ text: String, on table: TableData) -> CompiledPredicate? {
        predicate(Lexer(text), on: table)
    }

    /// The same, for the text `lexer` reads (Query lexes a query once, for both paths).
    static func predicate(_ lexer: Lexer, on table: TableData) -> CompiledPredicate? {
        // `%@` placeholders are rewritten first (Placeholders); they never appear here. The
        // tokens are read one at a time and only as far as they fit the shape.
        var p = 0
        let left = lexer.next(&p)
        guard left.kind == .identifier, let op = comparison(lexer.next(&p).kind) else { return nil }
        let right = lexer.next(&p)
        guard right.kind == .natural || right.kind == .number, lexer.next(&p).kind == .end else { return nil }
        let name = lexer.bytes[left.range.start..<left.range.end]
        let number = lexer.bytes[right.range.start..<right.range.end]
        // `\ ` escapes in a name (decoded by the general path) and the `@` names, which the
        // key-path rules give meanings (identifier tokens never start with `@`), go the general way.
        guard !name.contains(UInt8(ascii: "\\")), name.first != UInt8(ascii: "@"),
              let column = table.column(named: String(decoding: name, as: UTF8.self)),
              column.collection == nil, column.type == .int else { return nil }
        return .direct(DirectCondition(column: column, type: .int, op: op, value: .int(Numbers.strtoll(number))))
    }

    /// The single-column operator of a comparison token, as `equality` and `relational` choose
    /// it without `[c]`.
    static func comparison(_ kind: TokenKind) -> DirectCondition.Operator? {
        switch kind {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        default: return nil
        }
    }
}
