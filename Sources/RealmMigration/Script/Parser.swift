import RealmFormat

/// Parses the migration script language (Docs/migrations.md) into a `Script`. Every error
/// names its line and column.
public struct ScriptParser {
    private var tokens: [Token]
    private var i = 0
    /// Nesting of the expression being parsed, bounded so no script can exhaust the stack.
    private var depth = 0
    static let maxDepth = 200

    public static func parse(_ text: String) throws(ScriptError) -> Script {
        var p = ScriptParser(tokens: try Lexer.tokens(text))
        return try p.script()
    }

    /// Parses one expression (for tests and tools).
    public static func parseExpression(_ text: String) throws(ScriptError) -> Expression {
        var p = ScriptParser(tokens: try Lexer.tokens(text))
        let e = try p.expression()
        guard p.peek.kind == .end else { throw p.unexpected("after the expression") }
        return e
    }

    private init(tokens: [Token]) { self.tokens = tokens }

    // MARK: tokens

    private var peek: Token { tokens[i] }
    private func peek(_ n: Int) -> Token { tokens[min(i + n, tokens.count - 1)] }

    @discardableResult
    private mutating func advance() -> Token {
        let t = tokens[i]
        if i < tokens.count - 1 { i += 1 }
        return t
    }

    private func unexpected(_ context: String) -> ScriptError {
        ScriptError("unexpected \(peek.text) \(context)", at: peek.location)
    }

    private mutating func expect(_ symbol: String, _ context: String) throws(ScriptError) {
        guard peek.isSymbol(symbol) else {
            throw ScriptError("expected '\(symbol)' \(context), found \(peek.text)", at: peek.location)
        }
        advance()
    }

    private mutating func expectWord(_ word: String, _ context: String) throws(ScriptError) {
        guard peek.isWord(word) else {
            throw ScriptError("expected '\(word)' \(context), found \(peek.text)", at: peek.location)
        }
        advance()
    }

    private mutating func name(_ what: String) throws(ScriptError) -> Name {
        guard case let .identifier(text) = peek.kind else {
            throw ScriptError("expected \(what), found \(peek.text)", at: peek.location)
        }
        return Name(text: text, location: advance().location)
    }

    private mutating func names(_ what: String) throws(ScriptError) -> [Name] {
        var out = [try name(what)]
        while peek.isSymbol(",") {
            advance()
            out.append(try name(what))
        }
        return out
    }

    private mutating func skipSemicolons() {
        while peek.isSymbol(";") { advance() }
    }

    // MARK: statements

    private mutating func script() throws(ScriptError) -> Script {
        var versions = [VersionBlock]()
        skipSemicolons()
        while peek.kind != .end {
            guard peek.isWord("version") else {
                throw ScriptError("expected 'version N { … }', found \(peek.text)", at: peek.location)
            }
            let at = advance().location
            guard case let .integer(text) = peek.kind else {
                throw ScriptError("expected a schema version number after 'version', found \(peek.text)", at: peek.location)
            }
            guard let number = Int64(text) else { throw ScriptError("schema version \(text) is too large", at: peek.location) }
            if let last = versions.last, number <= last.number {
                throw ScriptError("version \(number) follows version \(last.number); versions must increase", at: peek.location)
            }
            advance()
            try expect("{", "to open version \(number)")
            var steps = [Step]()
            skipSemicolons()
            while !peek.isSymbol("}") {
                guard peek.kind != .end else { throw ScriptError("version \(number) is not closed with '}'", at: at) }
                steps.append(try step())
                skipSemicolons()
            }
            advance()
            versions.append(VersionBlock(number: number, location: at, steps: steps))
            skipSemicolons()
        }
        return Script(versions: versions)
    }

    private mutating func step() throws(ScriptError) -> Step {
        if peek.isWord("class") {
            advance()
            let className = try name("a class name")
            try expect("{", "to open class \(className.text)")
            var operations = [Operation]()
            skipSemicolons()
            while !peek.isSymbol("}") {
                guard peek.kind != .end else { throw ScriptError("class \(className.text) is not closed with '}'", at: className.location) }
                operations.append(try operation())
                skipSemicolons()
            }
            advance()
            return .modify(className: className, operations: operations)
        }
        if peek.isWord("add") && (peek(1).isWord("class") || (peek(1).isWord("embedded") && peek(2).isWord("class"))) {
            advance()
            let embedded = peek.isWord("embedded")
            if embedded { advance() }
            advance()
            let className = try name("a class name")
            try expect("{", "to open the properties of class \(className.text)")
            var properties = [PropertyDeclaration]()
            skipSemicolons()
            while !peek.isSymbol("}") {
                guard peek.kind != .end else { throw ScriptError("class \(className.text) is not closed with '}'", at: className.location) }
                let declaration = try propertyDeclaration()
                if let value = declaration.value {
                    throw ScriptError("a new class has no objects to compute '\(declaration.name.text)' for; drop the '= …'", at: value.location)
                }
                properties.append(declaration)
                skipSemicolons()
                while peek.isSymbol(",") { advance() }
            }
            advance()
            return .addClass(className: className, embedded: embedded, properties: properties)
        }
        if peek.isWord("remove") && peek(1).isWord("class") {
            advance()
            advance()
            return .removeClass(try names("a class name"))
        }
        if peek.isWord("rename") && peek(1).isWord("class") {
            advance()
            advance()
            let from = try name("a class name")
            try arrow()
            return .renameClass(from: from, to: try name("the new class name"))
        }
        throw ScriptError("expected 'class X { … }', 'add class', 'remove class' or 'rename class', found \(peek.text)", at: peek.location)
    }

    private mutating func arrow() throws(ScriptError) {
        if peek.isSymbol("->") || peek.isWord("to") {
            advance()
            return
        }
        throw ScriptError("expected '->' between the old and the new name, found \(peek.text)", at: peek.location)
    }

    private mutating func operation() throws(ScriptError) -> Operation {
        guard case let .identifier(keyword) = peek.kind, !peek.quoted else {
            throw ScriptError("expected add, remove, rename, change, set, delete, index, unindex or primary key, found \(peek.text)", at: peek.location)
        }
        let at = peek.location
        switch keyword {
        case "add":
            advance()
            return .add(try propertyDeclaration())
        case "remove":
            advance()
            return .remove(try names("a property name"))
        case "rename":
            advance()
            let from = try name("a property name")
            try arrow()
            return .rename(from: from, to: try name("the new property name"))
        case "change":
            advance()
            return .change(try propertyDeclaration())
        case "set":
            advance()
            let property = try name("a property name")
            try expect("=", "after 'set \(property.text)'")
            let value = try expression()
            var filter: Predicate?
            if peek.isWord("where") {
                advance()
                filter = try predicate()
            }
            return .set(property: property, value: value, filter: filter)
        case "delete":
            advance()
            try expectWord("where", "after 'delete'")
            return .delete(try predicate(), at: at)
        case "index":
            advance()
            return .index(try names("a property name"))
        case "unindex":
            advance()
            return .unindex(try names("a property name"))
        case "primary":
            advance()
            try expectWord("key", "after 'primary'")
            if peek.isWord("none") {
                advance()
                return .primaryKey(nil, at: at)
            }
            return .primaryKey(try name("the primary-key property (or none)"), at: at)
        default:
            var message = "unknown operation '\(keyword)'"
            let all = ["add", "remove", "rename", "change", "set", "delete", "index", "unindex", "primary"]
            message += didYouMean(keyword, all)
            message += " (operations: add, remove, rename, change, set, delete where, index, unindex, primary key)"
            throw ScriptError(message, at: at)
        }
    }

    private mutating func predicate() throws(ScriptError) -> Predicate {
        guard case let .string(text) = peek.kind else {
            throw ScriptError("expected the predicate as a string, e.g. where \"age > 30\", found \(peek.text)", at: peek.location)
        }
        return Predicate(text: text, location: advance().location)
    }

    private mutating func propertyDeclaration() throws(ScriptError) -> PropertyDeclaration {
        let property = try name("a property name")
        try expect(":", "after the property name '\(property.text)' (name: type)")
        let type = try typeReference()
        var indexed = false, primaryKey = false
        // Attributes follow the type on its line: `primary key` on the next line is a statement.
        let line = tokens[i - 1].location.line
        while peek.location.line == line {
            if peek.isWord("indexed") {
                advance()
                indexed = true
            } else if peek.isWord("primary") && peek(1).isWord("key") {
                advance()
                advance()
                primaryKey = true
            } else if peek.isWord("primaryKey") {
                advance()
                primaryKey = true
            } else {
                break
            }
        }
        var value: Expression?
        if peek.isSymbol("=") {
            advance()
            value = try expression()
        }
        return PropertyDeclaration(name: property, type: type, indexed: indexed, primaryKey: primaryKey, value: value)
    }

    private mutating func typeReference() throws(ScriptError) -> TypeReference {
        let first = try name("a type")
        let collections: [String: CollectionKind] = ["List": .list, "Set": .set, "Map": .dictionary, "Dictionary": .dictionary]
        if let kind = collections[first.text], peek.isSymbol("<") {
            advance()
            if kind == .dictionary {
                let key = try name("the key type (string)")
                guard key.text == "string" || key.text == "String" else {
                    throw ScriptError("dictionary keys are strings: Map<string, \(key.text)>", at: key.location)
                }
                try expect(",", "after the key type of Map<string, T>")
            }
            let element = try name("the element type")
            var optional = false
            if peek.isSymbol("?") {
                advance()
                optional = true
            }
            try expect(">", "to close \(first.text)<…>")
            return TypeReference(base: element.text, optional: optional, collection: kind, location: first.location)
        }
        var optional = false
        if peek.isSymbol("?") {
            advance()
            optional = true
        }
        return TypeReference(base: first.text, optional: optional, collection: nil, location: first.location)
    }

    // MARK: expressions

    mutating func expression() throws(ScriptError) -> Expression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ScriptError("expression nested more than \(Self.maxDepth) levels deep", at: peek.location) }
        let condition = try coalescing()
        guard peek.isSymbol("?") else { return condition }
        let at = advance().location
        let yes = try expression()
        try expect(":", "in 'condition ? a : b'")
        let no = try expression()
        return .conditional(condition, yes, no, at)
    }

    private mutating func coalescing() throws(ScriptError) -> Expression {
        var operands = [try binary(level: 0)]
        var locations = [SourceLocation]()
        while peek.isSymbol("??") {
            locations.append(advance().location)
            operands.append(try binary(level: 0))
        }
        // Right-associative: a ?? (b ?? c).
        var result = operands.removeLast()
        while let left = operands.popLast() { result = .binary(.coalesce, left, result, locations.removeLast()) }
        return result
    }

    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func binary(level: Int) throws(ScriptError) -> Expression {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case let .symbol(s) = peek.kind, Self.levels[level].contains(s) {
            let at = advance().location
            let right = try binary(level: level + 1)
            left = .binary(Expression.BinaryOperator(rawValue: s)!, left, right, at)
            // Comparisons do not chain: `a < b < c` is an error.
            if level == 2, case let .symbol(next) = peek.kind, Self.levels[2].contains(next) {
                throw ScriptError("comparisons do not chain; use && between them", at: peek.location)
            }
        }
        return left
    }

    private mutating func unary() throws(ScriptError) -> Expression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ScriptError("expression nested more than \(Self.maxDepth) levels deep", at: peek.location) }
        if peek.isSymbol("-") {
            let at = advance().location
            if case let .integer(text) = peek.kind {
                advance()
                guard let v = Int64("-" + text) else { throw ScriptError("integer -\(text) is out of range", at: at) }
                return .literal(.int(v), at)
            }
            return .unary(.negate, try unary(), at)
        }
        if peek.isSymbol("!") {
            let at = advance().location
            return .unary(.not, try unary(), at)
        }
        return try primary()
    }

    private mutating func primary() throws(ScriptError) -> Expression {
        let t = peek
        switch t.kind {
        case let .integer(text):
            advance()
            guard let v = Int64(text) else { throw ScriptError("integer \(text) is out of range", at: t.location) }
            return .literal(.int(v), t.location)
        case let .number(d):
            advance()
            return .literal(.double(d), t.location)
        case let .string(s):
            advance()
            return .literal(.string(s), t.location)
        case .symbol("("):
            advance()
            let inner = try expression()
            try expect(")", "to close '('")
            return inner
        case let .identifier(word):
            advance()
            if !t.quoted {
                switch word {
                case "true": return .literal(.bool(true), t.location)
                case "false": return .literal(.bool(false), t.location)
                case "null", "nil": return .literal(.null, t.location)
                default: break
                }
            }
            let first = Name(text: word, location: t.location)
            if peek.isSymbol("(") && !t.quoted {
                advance()
                var arguments = [Expression]()
                if !peek.isSymbol(")") {
                    arguments.append(try expression())
                    while peek.isSymbol(",") {
                        advance()
                        arguments.append(try expression())
                    }
                }
                try expect(")", "to close the arguments of \(word)(…)")
                return .call(first, arguments)
            }
            var path = [first]
            while peek.isSymbol(".") {
                advance()
                path.append(try name("a property name after '.'"))
            }
            return .path(path)
        default:
            throw ScriptError("expected a value, a property or a function call, found \(t.text)", at: t.location)
        }
    }
}

extension Expression: CustomStringConvertible {
    /// The expression as it could be written (fully parenthesised where operators nest).
    public var description: String { text(top: true) }

    private func text(top: Bool) -> String {
        switch self {
        case let .literal(l, _):
            switch l {
            case .null: return "null"
            case let .bool(b): return "\(b)"
            case let .int(i): return "\(i)"
            case let .double(d): return "\(d)"
            case let .string(s):
                var out = "\""
                for ch in s.unicodeScalars {
                    switch ch {
                    case "\"": out += "\\\""
                    case "\\": out += "\\\\"
                    case "\n": out += "\\n"
                    case "\t": out += "\\t"
                    default: out.unicodeScalars.append(ch)
                    }
                }
                return out + "\""
            }
        case let .path(names): return names.map(\.text).joined(separator: ".")
        case let .call(name, arguments): return name.text + "(" + arguments.map { $0.text(top: true) }.joined(separator: ", ") + ")"
        case let .unary(op, operand, _): return op.rawValue + operand.text(top: false)
        case let .binary(op, l, r, _):
            let inner = l.text(top: false) + " " + op.rawValue + " " + r.text(top: false)
            return top ? inner : "(" + inner + ")"
        case let .conditional(c, a, b, _):
            let inner = c.text(top: false) + " ? " + a.text(top: false) + " : " + b.text(top: false)
            return top ? inner : "(" + inner + ")"
        }
    }
}
