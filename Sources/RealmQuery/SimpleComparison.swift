import RealmFormat

/// The commonest query, `property <op> integer` on an int property of the class itself
/// (`age == 42`, `age >= -5`), compiled straight from its tokens: no syntax tree, no operands,
/// no type checker. For such a query a trivial indexed count costs about as much as setting the
/// query up the general way, so the set-up is what a caller waits for.
///
/// What the general path makes of these four tokens (query-language.md §2.1, §4, §5.1) is fixed:
/// the identifier is a one-element key path (no `@` name, no link, no subquery variable at top
/// level), it names a public column of the class; when that column is a single (not list, set
/// or dictionary) int, the left operand is that column, the literal is the int `strtoll` reads
/// (an int needs no conversion for an int hint, §4.1), the two types are equal, so the
/// comparison is a single-column condition (realm-core's query builder path) with the
/// operator as written. Anything else — another column type, a name no column has, any other
/// token shape, `%` placeholders — returns nil and goes the general way, which gives the same
/// results and the errors. SimpleComparisonTests compares this with the general path for every
/// column of the test files.
enum SimpleComparison {
    /// The compiled predicate of `text` on `table`, or nil when the text is not of that shape.
    static func predicate(_ text: String, on table: TableData) -> CompiledPredicate? {
        // `%@` placeholders are rewritten first (Placeholders); they never appear here.
        let tokens = Lexer(text).tokenize()
        guard tokens.count == 4, tokens[0].kind == .identifier, tokens[3].kind == .end,
              tokens[2].kind == .natural || tokens[2].kind == .number else { return nil }
        let op: DirectCondition.Operator
        switch tokens[1].kind {
        case .equal: op = .equal
        case .notEqual: op = .notEqual
        case .less: op = .less
        case .lessEqual: op = .lessEqual
        case .greater: op = .greater
        case .greaterEqual: op = .greaterEqual
        default: return nil
        }
        let name = tokens[0].text
        // Identifier tokens never start with `@` (that is `@links`, `@size`, …); checked anyway,
        // since the key-path rules give those names meanings.
        guard name.first != UInt8(ascii: "@"),
              let column = table.column(named: String(decoding: name, as: UTF8.self)),
              column.collection == nil, column.type == .int else { return nil }
        return .direct(DirectCondition(column: column, type: .int, op: op, value: .int(Numbers.strtoll(tokens[2].text))))
    }
}
