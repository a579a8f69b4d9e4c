import RealmFormat

/// Gives a parsed query its meaning against a class (query-language.md §3–§5): resolves key
/// paths, types constants by the other side of each comparison, rejects what Realm Core 14
/// rejects with its message, and decides, as realm-core's query builder does, which comparisons
/// run as single-column conditions and which as general expression comparisons.
final class TypeChecker {
    let store: ObjectStore
    var base: TableData
    let arguments: ArgumentList
    let query: String
    /// Subquery variables in scope: (table position, name); the name reads as "" there.
    var variables: [(table: Int, name: [UInt8])] = []

    init(store: ObjectStore, base: TableData, arguments: [QueryArgument], query: String) {
        self.store = store
        self.base = base
        self.arguments = ArgumentList(arguments: arguments)
        self.query = query
    }

    // MARK: - Predicates

    func predicate(_ node: PredicateNode) throws(QueryError) -> CompiledPredicate {
        switch node {
        case let .and(children): return .and(try children.map { c throws(QueryError) in try predicate(c) })
        case let .or(children): return .or(try children.map { c throws(QueryError) in try predicate(c) })
        case let .not(child, _): return .not(try predicate(child))
        case let .constant(value, _): return .constant(value)
        case let .comparison(c):
            switch c.op {
            case .equal, .notEqual, .in: return try equality(c)
            case .less, .lessEqual, .greater, .greaterEqual: return try relational(c.left, c.op, c.right, c)
            case .beginsWith, .endsWith, .contains, .like, .text: return try stringOperator(c)
            case .between: return try between(c)
            case .geoWithin:
                throw .invalidQuery(message: "GEOWITHIN queries are not supported by realmsh", at: c.operatorRange)
            }
        }
    }

    /// Both sides of a comparison: the non-constant side first, then the constant typed by it
    /// (`ParserDriver::cmp`).
    func operands(_ c: ComparisonNode) throws(QueryError) -> (Operand, Operand) {
        let lc = c.left.isConstant, rc = c.right.isConstant
        if lc && rc { throw .invalidQuery(message: "Cannot compare two constants", at: c.range) }
        if rc {
            let l = try visit(c.left)
            let r = try visit(c.right, hint: l.type)
            try verify(l, r, c)
            return (l, r)
        }
        let r = try visit(c.right)
        let l = lc ? try visit(c.left, hint: r.type) : try visit(c.left)
        try verify(r, l, c)
        return (l, r)
    }

    func verify(_ a: Operand, _ b: Operand, _ c: ComparisonNode) throws(QueryError) {
        if a.isCollection && b.isCollection {
            throw .invalidQuery(message: "Ordered comparison between two primitive lists is not implemented yet ('\(a.description)' and '\(b.description)')", at: c.range)
        }
        if a.isConstant && b.isConstant && a.type == .typeOfValue && b.type == .typeOfValue {
            throw .invalidQuery(message: "Comparison between two constants is not supported ('\(a.description)' and '\(b.description)')", at: c.range)
        }
        if case .link = a, a.hasMultipleValues, b.hasSingleValue, b.singleValue.isNull {
            throw .invalidQuery(message: "Cannot compare linklist ('\(a.description)') with NULL", at: c.range)
        }
    }

    static func operatorName(_ op: ComparisonNode.Operator) -> String {
        switch op {
        case .equal: return "="
        case .notEqual: return "!="
        case .in: return "in"
        case .less: return "<"
        case .lessEqual: return "<="
        case .greater: return ">"
        case .greaterEqual: return ">="
        case .beginsWith: return "beginswith"
        case .endsWith: return "endswith"
        case .contains: return "contains"
        case .like: return "like"
        case .text: return "text"
        case .between: return "between"
        case .geoWithin: return "geowithin"
        }
    }

    func requireStringType(_ t: DataType?, _ op: String, _ c: ComparisonNode) throws(QueryError) {
        guard t == .string || t == .binary || t == .mixed else {
            throw .invalidQuery(message: "Unsupported comparison operator '\(op)' against type '\(DataType.name(t))', right side must be a string or binary type", at: c.right.range)
        }
    }

    /// `==`, `!=`, `IN` (`EqualityNode::visit`).
    func equality(_ c: ComparisonNode) throws(QueryError) -> CompiledPredicate {
        var (left, right) = try operands(c)
        var lt = left.type, rt = right.type
        if lt == .link, right.isConstant {
            right = try typedLinks(left, right, c)
            rt = .link
        }
        if rt == .link, left.isConstant {
            left = try typedLinks(right, left, c)
            lt = .link
        }
        if let lt, let rt, !DataType.comparable(lt, rt) {
            throw .invalidQuery(message: "Unsupported comparison between type '\(lt.name)' and type '\(rt.name)'", at: c.range)
        }
        if lt == .typeOfValue || rt == .typeOfValue, lt != rt {
            throw .invalidArgument(message: "Unsupported comparison between @type and raw value: '\(DataType.name(lt))' and '\(DataType.name(rt))'", at: c.range)
        }
        if c.op == .in && !right.hasMultipleValues {
            throw .invalidArgument(message: "The keypath following 'IN' must contain a list. Found '\(right.description)'", at: c.right.range)
        }
        if c.op != .notEqual, case let .constant(list) = right, list.isMixedList, !list.values.isEmpty,
           (list.quantifier ?? .any) == .any, let column = left.directColumn, lt != .mixed, let lt {
            // realm-core's IN optimisation: always case-sensitive (query-language.md §5.11).
            return .directIn(DirectIn(column: column, needles: inNeedles(column, lt, list.values)))
        }
        if lt == .link, rt == .link, right.isConstant {
            if case let .link(l) = left, l.links.steps.count == 1, (l.quantifier ?? .any) == .any, c.op != .in {
                let keys = (try? constantValues(right)).map { $0.map { v -> Int64? in if case let .link(k) = v { return k } else { return nil } } } ?? []
                return .linksTo(LinksTo(column: l.links.steps[0].column, keys: keys, equal: c.op == .equal))
            }
        } else if right.hasSingleValue, lt == rt || lt == .mixed, let column = left.directColumn, let lt {
            // Where query-language.md §5.4 says `[c]` with a non-string right side is rejected,
            // realm-core 14.14 only rejects it on the expression path: on a property of the
            // class itself (`age ==[c] 5`) its query builder takes this single-column path
            // first and ignores `[c]`. realm-core wins; realmsh does the same.
            let value = right.singleValue
            let op: DirectCondition.Operator
            let caseApplies = [.string, .binary, .mixed].contains(lt)
            if c.op == .notEqual {
                op = c.caseInsensitive && caseApplies && !value.isNull ? .notEqualIns : .notEqual
            } else {
                op = c.caseInsensitive && caseApplies && !value.isNull ? .equalIns : .equal
            }
            if [.int, .bool, .string, .binary, .timestamp, .float, .double, .decimal, .objectId, .uuid, .mixed].contains(lt) {
                try checkUTF8(lt, op, value, c)
                return .direct(DirectCondition(column: column, type: lt, op: op, value: value))
            }
        }
        if !c.caseInsensitive {
            return .compare(Comparison(condition: c.op == .notEqual ? .notEqual : .equal, left: left, right: right))
        }
        try requireStringType(rt, TypeChecker.operatorName(c.op) + "[c]", c)
        try checkPattern(right, c)
        return .compare(Comparison(condition: c.op == .notEqual ? .notEqualIns : .equalIns, left: left, right: right))
    }

    func constantValues(_ o: Operand) throws(QueryError) -> [QValue] {
        if case let .constant(c) = o { return c.values }
        return []
    }

    /// Link constants become keys of the link's target class (`handle_typed_links`).
    func typedLinks(_ link: Operand, _ constant: Operand, _ c: ComparisonNode) throws(QueryError) -> Operand {
        guard case let .link(l) = link, case var .constant(k) = constant else { return constant }
        let target = l.links.target
        var values = [QValue]()
        for v in k.values {
            switch v {
            case .null: values.append(.null)
            case let .link(key): values.append(.link(key))
            case let .typedLink(table, key):
                guard table == target.table.key else {
                    let other = store.table(key: table)
                    throw .invalidArgument(message: "The relationship '\(l.links.description)' which links to type '\(target.className)' cannot be compared to an argument of type '\(other?.className ?? "?")' with key \(key)", at: c.right.range)
                }
                values.append(.link(key))
            default:
                throw .invalidQuery(message: "Unsupported comparison between '\(l.links.description)' and type '\(DataType.name(v.type))'", at: c.range)
            }
        }
        k.keepDescription()
        k.values = values
        k.type = .link
        k.isMixedList = false
        return .constant(k)
    }

    /// The needles of `Query::in` for a column type (query.cpp).
    func inNeedles(_ column: Column, _ type: DataType, _ values: [QValue]) -> DirectIn.Needles {
        switch type {
        case .uuid, .objectId, .string:
            let needles = values.filter { $0.isNull || $0.type == type }
            return needles.isEmpty ? .nothing : .exact(needles, fallbackInt: nil)
        case .int:
            var needles = [QValue]()
            for v in values {
                switch v {
                case .null where column.isNullable: needles.append(.null)
                case .int: needles.append(v)
                case let .double(d) where d.isFinite && d == d.rounded(.towardZero) && abs(d) < 9.2e18:
                    needles.append(.int(Int64(d)))
                default: break
                }
            }
            return needles.isEmpty ? .exact([], fallbackInt: -1) : .exact(needles, fallbackInt: nil)
        default:
            var conditions = [DirectCondition]()
            for v in values where v.type == type || (v.isNull && column.isNullable) {
                if v.isNull && ![.string, .binary].contains(type) {
                    conditions.append(DirectCondition(column: column, type: .mixed, op: .equal, value: .null))
                } else {
                    conditions.append(DirectCondition(column: column, type: type, op: .equal, value: v))
                }
            }
            return conditions.isEmpty ? .everything : .equalities(conditions)
        }
    }

    /// String conditions on a property of the queried class refuse patterns that are not
    /// valid UTF-8 (realm-core: "Malformed UTF-8").
    func checkUTF8(_ type: DataType, _ op: DirectCondition.Operator, _ value: QValue, _ c: ComparisonNode) throws(QueryError) {
        guard case let .string(s) = value else { return }
        let checked: [DirectCondition.Operator]
        switch type {
        case .string: checked = [.notEqual, .beginsWith, .endsWith, .like, .equalIns, .notEqualIns, .beginsWithIns, .endsWithIns, .containsIns, .likeIns]
        case .mixed: checked = [.equalIns]
        default: return
        }
        if checked.contains(op), StringMatching.caseMap(s, upper: true) == nil {
            throw .invalidQuery(message: "Malformed UTF-8: \(String(decoding: s, as: UTF8.self))", at: c.right.range)
        }
    }

    /// A `[c]` pattern that is a constant must be valid UTF-8 (realm-core's behaviour for
    /// invalid patterns on the expression path is undefined; realmsh rejects them).
    func checkPattern(_ pattern: Operand, _ c: ComparisonNode) throws(QueryError) {
        guard case let .constant(k) = pattern else { return }
        for v in k.values {
            if case let .string(s) = v, StringMatching.caseMap(s, upper: true) == nil {
                throw .invalidQuery(message: "Malformed UTF-8: \(String(decoding: s, as: UTF8.self))", at: c.right.range)
            }
        }
    }

    /// `<`, `<=`, `>`, `>=` (`RelationalNode::visit`).
    func relational(_ leftNode: ExprNode, _ op: ComparisonNode.Operator, _ rightNode: ExprNode, _ c: ComparisonNode) throws(QueryError) -> CompiledPredicate {
        let node = ComparisonNode(left: leftNode, op: op, caseInsensitive: false, right: rightNode, operatorRange: c.operatorRange)
        let (left, right) = try operands(node)
        let lt = left.type, rt = right.type
        let rightNull = right.hasSingleValue && right.singleValue.isNull
        let leftNull = left.hasSingleValue && left.singleValue.isNull
        if lt == .link || lt == .typeOfValue {
            throw .invalidQuery(message: "Unsupported operator \(TypeChecker.operatorName(op)) in query. Only equal (==) and not equal (!=) are supported for this type.", at: c.operatorRange)
        }
        if !(leftNull || rightNull) {
            guard let lt, let rt, DataType.comparable(lt, rt) else {
                throw .invalidQuery(message: "Unsupported comparison between type '\(DataType.name(lt))' and type '\(DataType.name(rt))'", at: node.range)
            }
        }
        let directOp: DirectCondition.Operator
        let condition: Condition
        switch op {
        case .less: (directOp, condition) = (.less, .less)
        case .lessEqual: (directOp, condition) = (.lessEqual, .lessEqual)
        case .greater: (directOp, condition) = (.greater, .greater)
        default: (directOp, condition) = (.greaterEqual, .greaterEqual)
        }
        if let column = left.directColumn, right.hasSingleValue, let lt, lt == rt || lt == .mixed,
           [.int, .string, .timestamp, .float, .double, .decimal, .objectId, .uuid, .mixed].contains(lt) {
            return .direct(DirectCondition(column: column, type: lt, op: directOp, value: right.singleValue))
        }
        return .compare(Comparison(condition: condition, left: left, right: right))
    }

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `TEXT` (`StringOpsNode::visit`).
    func stringOperator(_ c: ComparisonNode) throws(QueryError) -> CompiledPredicate {
        let (left, right) = try operands(c)
        let lt = left.type, rt = right.type
        // Only the right side's type is checked (after conversion), as realm-core does: §5.6
        // calls string operators on numeric properties errors, but `age CONTAINS 'abc'` is
        // accepted by realm-core 14.14 (the string does not convert to a number) and never
        // matches; `age LIKE '3*'` is refused because '3*' converts to the int 3.
        try requireStringType(rt, TypeChecker.operatorName(c.op), c)
        let ci = c.caseInsensitive
        if let column = left.directColumn, right.hasSingleValue, let lt, lt == rt || lt == .mixed, rt == .string || rt == .binary {
            let value = right.singleValue
            if c.op == .text {
                if rt == .string { return try fullText(LinkMap(store: store, base: base), column, value, c) }
            } else {
                let op: DirectCondition.Operator
                switch c.op {
                case .beginsWith: op = ci ? .beginsWithIns : .beginsWith
                case .endsWith: op = ci ? .endsWithIns : .endsWith
                case .contains: op = ci ? .containsIns : .contains
                default: op = ci ? .likeIns : .like
                }
                if rt == .string { try checkUTF8(lt, op, value, c) }
                return .direct(DirectCondition(column: column, type: lt, op: op, value: value))
            }
        }
        if c.op == .text {
            guard case let .column(col) = left, col.type == .string, col.mixedPath.isEmpty else {
                throw .invalidQuery(message: "TEXT needs a string property on its left", at: c.left.range)
            }
            return try fullText(col.links, col.column, right.singleValue, c)
        }
        try checkPattern(right, c)
        let condition: Condition
        switch c.op {
        case .beginsWith: condition = ci ? .beginsWithIns : .beginsWith
        case .endsWith: condition = ci ? .endsWithIns : .endsWith
        case .contains: condition = ci ? .containsIns : .contains
        default: condition = ci ? .likeIns : .like
        }
        return .compare(Comparison(condition: condition, left: right, right: left))
    }

    func fullText(_ links: LinkMap, _ column: Column, _ value: QValue, _ c: ComparisonNode) throws(QueryError) -> CompiledPredicate {
        guard column.attributes.contains(.fullText) else {
            throw .illegalOperation(message: "Column has no fulltext index", at: c.left.range)
        }
        guard case let .string(text) = value else {
            throw .illegalOperation(message: "Missing search token", at: c.right.range)
        }
        switch FullTextCondition.parse(text) {
        case let .success(words):
            return .fullText(FullTextCondition(links: links, column: column, includes: words.includes, prefixes: words.prefixes, excludes: words.excludes))
        case let .failure(e):
            throw .illegalOperation(message: e.message, at: c.right.range)
        }
    }

    /// `BETWEEN {a, b}` (`BetweenNode::visit`).
    func between(_ c: ComparisonNode) throws(QueryError) -> CompiledPredicate {
        guard case let .list(list) = c.right else { throw .invalidQuery(message: "BETWEEN needs a list", at: c.right.range) }
        guard list.elements.count == 2 else {
            throw .invalidQuery(message: "Operator 'BETWEEN' requires list with 2 elements.", at: c.right.range)
        }
        let probe = try visit(c.left, hint: .int)
        if probe.isCollection {
            let q: Quantifier?
            if case let .property(p) = c.left { q = p.quantifier } else { q = nil }
            if (q ?? .any) != .all {
                throw .invalidQuery(message: "Only 'ALL' supported for operator 'BETWEEN' when applied to lists.", at: c.range)
            }
        }
        if case let .column(col) = probe, !col.links.hasLinks, col.type == .int || col.type == .timestamp {
            let lo = try visit(.constant(list.elements[0]), hint: col.type)
            let hi = try visit(.constant(list.elements[1]), hint: col.type)
            if lo.hasSingleValue && hi.hasSingleValue {
                let from = lo.singleValue, to = hi.singleValue
                if col.type == .timestamp, from.isNull || to.isNull {
                    throw .illegalOperation(message: "'from' or 'to' must not be null", at: c.right.range)
                }
                if from.type == col.type && to.type == col.type {
                    return .between(DirectBetween(column: col.column, from: from, to: to))
                }
            }
        }
        let low = try relational(c.left, .greaterEqual, .constant(list.elements[0]), c)
        let high = try relational(c.left, .lessEqual, .constant(list.elements[1]), c)
        return .and([low, high])
    }

    // MARK: - Expressions

    func visit(_ node: ExprNode, hint: DataType? = .int) throws(QueryError) -> Operand {
        switch node {
        case let .constant(c): return try constant(c, hint: hint)
        case let .list(l): return try list(l, hint: hint)
        case let .property(p): return try property(p)
        case let .aggregate(a): return try aggregate(a)
        case let .subquery(s): return try subquery(s)
        case let .operation(l, op, r, range): return try operation(l, op, r, range, hint: hint)
        }
    }

    func operation(_ l: ExprNode, _ op: ArithmeticOperator, _ r: ExprNode, _ range: SourceRange, hint: DataType?) throws(QueryError) -> Operand {
        let lc = l.isConstant, rc = r.isConstant
        if lc && rc && !(l.isList || r.isList) {
            let right = try visit(r, hint: hint)
            let left = try visit(l, hint: hint)
            let result = QValue.arithmetic(op, left.singleValue, right.singleValue)
            return .constant(Constant(values: [result], fromList: false, type: .mixed, quantifier: nil, description: ValueText.describe(result)))
        }
        let left: Operand, right: Operand
        if rc {
            left = try visit(l)
            right = try visit(r, hint: left.type)
        } else {
            right = try visit(r)
            left = lc ? try visit(l, hint: right.type) : try visit(l)
        }
        let numeric: (DataType?) -> Bool = { t in t.map { $0.isNumeric || $0 == .mixed } ?? false }
        guard numeric(left.type), numeric(right.type) else {
            throw .invalidArgument(message: "Cannot perform '\(op.rawValue)' operation on '\(left.description)' and '\(right.description)'", at: range)
        }
        return .arithmetic(op, left, right)
    }

    func list(_ node: ListNode, hint: DataType?) throws(QueryError) -> Operand {
        var values = [QValue]()
        for e in node.elements {
            let v = try constant(e, hint: hint)
            guard case let .constant(k) = v, k.values.count == 1 else {
                let message = "Invalid constant inside constant list"
                throw hint == .typeOfValue ? .invalidArgument(message: message, at: e.range) : .invalidQuery(message: message, at: e.range)
            }
            if hint == .typeOfValue, k.type != .typeOfValue {
                throw .invalidArgument(message: "Invalid constant inside constant list: \(k.description)", at: e.range)
            }
            values.append(k.values[0])
        }
        let description = "{" + values.map(ValueText.describe).joined(separator: ", ") + "}"
        return .constant(Constant(values: values, fromList: true, type: hint == .typeOfValue ? .typeOfValue : .mixed,
                                  quantifier: node.quantifier, isMixedList: hint != .typeOfValue, description: description))
    }
}
