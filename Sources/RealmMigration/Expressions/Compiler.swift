import RealmFormat

/// An expression compiled against one class of the file as it was before the version block:
/// its static type and a closure computing its value for the object in a given row.
struct CompiledExpression {
    typealias Evaluate = (Int) throws(EvalError) -> Value
    let type: StaticType
    let evaluate: Evaluate
}

/// Type-checks expressions against a class's properties and compiles them to closures.
/// Property names resolve in the old object (the state before the version block), as a
/// migration block reads `oldObject["name"]`; `a.b` follows a to-one link; `_key` is the
/// object's key.
struct ExpressionCompiler {
    let group: ModelGroup
    let position: Int

    var model: TableModel { group.tables[position]! }
    var className: String { group.className(at: position) ?? model.name }

    func compile(_ e: Expression) throws(ScriptError) -> CompiledExpression {
        switch e {
        case let .literal(l, _):
            switch l {
            case .null: return CompiledExpression(type: .null) { _ throws(EvalError) in .null }
            case let .bool(b): return constant(.bool(b), .bool)
            case let .int(i): return constant(.int(i), .int)
            case let .double(d): return constant(.double(d), .double)
            case let .string(s): return constant(.string(Array(s.utf8)), .string)
            }
        case let .path(names):
            return try path(names)
        case let .call(name, arguments):
            var compiled = [CompiledExpression]()
            for a in arguments { compiled.append(try compile(a)) }
            return try Functions.compile(name, compiled, arguments.map(\.location))
        case let .unary(op, operand, at):
            return try unary(op, try compile(operand), at)
        case let .binary(op, l, r, at):
            return try Operators.binary(op, try compile(l), try compile(r), at)
        case let .conditional(c, a, b, at):
            let condition = try compile(c), yes = try compile(a), no = try compile(b)
            guard condition.type.kind == .bool || condition.type.kind == .mixed || condition.type.kind == .null else {
                throw ScriptError("the condition before '?' must be a bool, not \(condition.type.text)", at: c.location)
            }
            let type = try Operators.unify(yes.type, no.type, at: at, what: "the two sides of '? :'")
            let (ce, ye, ne) = (condition.evaluate, yes.evaluate, no.evaluate)
            return CompiledExpression(type: type) { row throws(EvalError) in
                try Operators.truth(ce(row), at) ? ye(row) : ne(row)
            }
        }
    }

    private func constant(_ v: Value, _ kind: ValueKind) -> CompiledExpression {
        CompiledExpression(type: .of(kind)) { _ throws(EvalError) in v }
    }

    private func unary(_ op: Expression.UnaryOperator, _ operand: CompiledExpression, _ at: SourceLocation) throws(ScriptError) -> CompiledExpression {
        let e = operand.evaluate
        switch op {
        case .not:
            guard [.bool, .mixed, .null].contains(operand.type.kind) else {
                throw ScriptError("'!' needs a bool, not \(operand.type.text)", at: at)
            }
            return CompiledExpression(type: .of(.bool)) { row throws(EvalError) in .bool(!(try Operators.truth(e(row), at))) }
        case .negate:
            guard operand.type.kind.isNumeric || [.mixed, .null].contains(operand.type.kind) else {
                throw ScriptError("'-' needs a number, not \(operand.type.text)", at: at)
            }
            return CompiledExpression(type: operand.type) { row throws(EvalError) in
                let zero = Value.int(0)
                return try Operators.arithmetic(.subtract, zero, e(row), at)
            }
        }
    }

    /// `name`, `_key`, or `link.….name`.
    private func path(_ names: [Name]) throws(ScriptError) -> CompiledExpression {
        var table = position
        var steps: [(values: [Value], keys: TableModel?)] = []
        var type = StaticType.null
        for (i, name) in names.enumerated() {
            let m = group.tables[table]!
            let owner = group.className(at: table) ?? m.name
            if name.text == "_key" && m.columnIndex(named: "_key") == nil {
                guard i == names.count - 1 else { throw ScriptError("_key is an int; it has no properties", at: name.location) }
                steps.append((m.objectKeys.map(Value.int), nil))
                type = .of(.int, nullable: i > 0)
                break
            }
            guard let c = m.columnIndex(named: name.text) else {
                let candidates = m.columns.filter { !$0.isBacklink }.map(\.name)
                throw ScriptError("\(owner) has no property '\(name.text)'\(didYouMean(name.text, candidates))"
                                  + (i == 0 ? " (expressions read the object as it was before this version)" : ""), at: name.location)
            }
            let column = m.columns[c]
            let viaLink = i > 0
            if i < names.count - 1 {
                guard column.type == .link, column.collection == nil, let target = column.targetTable.flatMap({ group.position(of: $0) }) else {
                    throw ScriptError("\(owner).\(name.text) is not a to-one link, so '.\(names[i + 1].text)' cannot follow it", at: names[i + 1].location)
                }
                steps.append((m.values[c], group.tables[target]))
                table = target
                continue
            }
            steps.append((m.values[c], nil))
            if column.collection != nil {
                guard !viaLink else { throw ScriptError("collections cannot be read through a link", at: name.location) }
                let spec = PropertySpec(name: column.name, type: column.type, collection: column.collection, nullable: column.isNullable,
                                        objectType: column.type == .link ? column.targetTable.flatMap { group.position(of: $0) }.flatMap { group.className(at: $0) } : nil)
                type = .of(.collection(spec))
            } else if column.type == .link {
                type = .of(.link(column.targetTable.flatMap { group.position(of: $0) } ?? -1), nullable: true)
            } else {
                type = .of(ValueKind(column.type), nullable: column.isNullable || column.type == .mixed || viaLink)
            }
        }
        if steps.count == 1 {
            let values = steps[0].values
            return CompiledExpression(type: type) { row throws(EvalError) in values[row] }
        }
        let chain = steps
        return CompiledExpression(type: type) { row throws(EvalError) in
            var r = row
            for (values, next) in chain {
                let v = values[r]
                guard let next else { return v }
                guard case let .link(k) = v, let targetRow = next.row(of: k) else { return .null }
                r = targetRow
            }
            return .null
        }
    }
}

/// Operators: arithmetic, comparison, logic, `??`, with their typing rules.
enum Operators {
    /// The common type of two branches (`? :`, `??`).
    static func unify(_ a: StaticType, _ b: StaticType, at: SourceLocation, what: String) throws(ScriptError) -> StaticType {
        if a.kind == .null { return StaticType(kind: b.kind, nullable: true) }
        if b.kind == .null { return StaticType(kind: a.kind, nullable: true) }
        if a.kind == b.kind { return StaticType(kind: a.kind, nullable: a.nullable || b.nullable) }
        if a.kind == .mixed || b.kind == .mixed { return StaticType(kind: .mixed, nullable: true) }
        if a.kind.isNumeric && b.kind.isNumeric, a.kind != .decimal, b.kind != .decimal {
            return StaticType(kind: numericResult(a.kind, b.kind), nullable: a.nullable || b.nullable)
        }
        throw ScriptError("\(what) have different types (\(a.text) and \(b.text))", at: at)
    }

    static func numericResult(_ a: ValueKind, _ b: ValueKind) -> ValueKind {
        if a == .double || b == .double { return .double }
        if a == .float || b == .float { return .float }
        return .int
    }

    static func binary(_ op: Expression.BinaryOperator, _ l: CompiledExpression, _ r: CompiledExpression,
                       _ at: SourceLocation) throws(ScriptError) -> CompiledExpression {
        let le = l.evaluate, re = r.evaluate
        let a = l.type, b = r.type
        let dynamic: Set<String> = ["mixed", "null"]
        func isDynamic(_ t: StaticType) -> Bool { dynamic.contains(t.kind.name) }
        switch op {
        case .coalesce:
            var type = try unify(a, b, at: at, what: "the two sides of '??'")
            type.nullable = b.nullable
            return CompiledExpression(type: type) { row throws(EvalError) in
                let v = try le(row)
                return v.isNull ? try re(row) : v
            }
        case .and, .or:
            for t in [a, b] where !(t.kind == .bool || isDynamic(t)) {
                throw ScriptError("'\(op.rawValue)' needs bools, not \(t.text)", at: at)
            }
            let isAnd = op == .and
            return CompiledExpression(type: .of(.bool)) { row throws(EvalError) in
                let first = try truth(le(row), at)
                if isAnd ? !first : first { return .bool(first) }
                return .bool(try truth(re(row), at))
            }
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let comparable = a.kind == b.kind || (a.kind.isNumeric && b.kind.isNumeric) || isDynamic(a) || isDynamic(b)
            guard comparable else { throw ScriptError("cannot compare \(a.text) with \(b.text)", at: at) }
            if op != .equal && op != .notEqual {
                for t in [a, b] {
                    if case .link = t.kind { throw ScriptError("objects can only be compared with == and !=", at: at) }
                    if case .collection = t.kind { throw ScriptError("collections cannot be compared", at: at) }
                    if t.kind == .bool { throw ScriptError("bools can only be compared with == and !=", at: at) }
                }
            }
            return CompiledExpression(type: .of(.bool)) { row throws(EvalError) in
                let x = try le(row), y = try re(row)
                switch op {
                case .equal: return .bool(equal(x, y))
                case .notEqual: return .bool(!equal(x, y))
                default:
                    guard let c = compare(x, y) else { return .bool(false) }
                    switch op {
                    case .less: return .bool(c < 0)
                    case .lessOrEqual: return .bool(c <= 0)
                    case .greater: return .bool(c > 0)
                    default: return .bool(c >= 0)
                    }
                }
            }
        case .add, .subtract, .multiply, .divide, .remainder:
            let type: StaticType
            if op == .add && (a.kind == .string || b.kind == .string) {
                guard a.kind == .string || isDynamic(a), b.kind == .string || isDynamic(b) else {
                    throw ScriptError("'+' joins two strings; convert the other side with string(…) (\(a.text) + \(b.text))", at: at)
                }
                type = StaticType(kind: .string, nullable: a.nullable || b.nullable)
            } else if isDynamic(a) || isDynamic(b) {
                let known = isDynamic(a) ? b : a
                if !isDynamic(known) && !known.kind.isNumeric && known.kind != .string {
                    throw ScriptError("'\(op.rawValue)' needs numbers, not \(known.text)", at: at)
                }
                type = StaticType(kind: isDynamic(known) ? .mixed : known.kind, nullable: true)
            } else {
                guard a.kind.isNumeric, b.kind.isNumeric else {
                    throw ScriptError("'\(op.rawValue)' needs numbers, not \(a.text) and \(b.text)", at: at)
                }
                guard a.kind != .decimal, b.kind != .decimal else {
                    throw ScriptError("decimal128 arithmetic is not supported; convert with double(…)", at: at)
                }
                type = StaticType(kind: numericResult(a.kind, b.kind), nullable: a.nullable || b.nullable)
            }
            return CompiledExpression(type: type) { row throws(EvalError) in try arithmetic(op, le(row), re(row), at) }
        }
    }

    /// A condition's value: true, false, or null (false).
    static func truth(_ v: Value, _ at: SourceLocation) throws(EvalError) -> Bool {
        switch v {
        case let .bool(b): return b
        case .null: return false
        default: throw EvalError(message: "expected a bool, got \(Conversion.describe(v))", location: at)
        }
    }

    static func arithmetic(_ op: Expression.BinaryOperator, _ x: Value, _ y: Value, _ at: SourceLocation) throws(EvalError) -> Value {
        if x.isNull || y.isNull { return .null }
        func fail(_ why: String) -> EvalError { EvalError(message: why, location: at) }
        if case let .string(s) = x, case let .string(t) = y, op == .add { return .string(s + t) }
        switch (x, y) {
        case let (.int(i), .int(j)):
            let result: (Int64, Bool)
            switch op {
            case .add: result = i.addingReportingOverflow(j)
            case .subtract: result = i.subtractingReportingOverflow(j)
            case .multiply: result = i.multipliedReportingOverflow(by: j)
            case .divide:
                guard j != 0 else { throw fail("division by zero (\(i) / 0)") }
                result = i.dividedReportingOverflow(by: j)
            default:
                guard j != 0 else { throw fail("division by zero (\(i) % 0)") }
                result = i.remainderReportingOverflow(dividingBy: j)
            }
            guard !result.1 else { throw fail("integer overflow (\(i) \(op.rawValue) \(j))") }
            return .int(result.0)
        default:
            guard let a = number(x), let b = number(y) else {
                throw fail("'\(op.rawValue)' needs numbers, got \(Conversion.describe(x)) and \(Conversion.describe(y))")
            }
            let r: Double
            switch op {
            case .add: r = a + b
            case .subtract: r = a - b
            case .multiply: r = a * b
            case .divide: r = a / b
            default: r = a.truncatingRemainder(dividingBy: b)
            }
            let isFloat: Bool = {
                if case .double = x { return false }
                if case .double = y { return false }
                if case .float = x { return true }
                if case .float = y { return true }
                return false
            }()
            return isFloat ? .float(Float(r)) : .double(r)
        }
    }

    static func number(_ v: Value) -> Double? {
        switch v {
        case let .int(i): return Double(i)
        case let .double(d): return d
        case let .float(f): return Double(f)
        case let .decimal(d): return d.doubleValue
        default: return nil
        }
    }

    static func equal(_ x: Value, _ y: Value) -> Bool {
        if x.isNull || y.isNull { return x.isNull && y.isNull }
        if let c = compare(x, y) { return c == 0 }
        return x == y
    }

    /// −1, 0, 1; nil when the two cannot be ordered (null, different kinds).
    static func compare(_ x: Value, _ y: Value) -> Int? {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (x, y) {
        case let (.int(a), .int(b)): return sign(a, b)
        case let (.string(a), .string(b)): return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        case let (.timestamp(a), .timestamp(b)): return sign(a, b)
        case let (.bool(a), .bool(b)): return a == b ? 0 : (a ? 1 : -1)
        case let (.objectId(a), .objectId(b)): return sign(a, b)
        case let (.uuid(a), .uuid(b)): return sign(a, b)
        case let (.binary(a), .binary(b)): return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        case let (.link(a), .link(b)): return a == b ? 0 : nil
        default:
            guard let a = number(x), let b = number(y), !a.isNaN, !b.isNaN else { return nil }
            return sign(a, b)
        }
    }
}
