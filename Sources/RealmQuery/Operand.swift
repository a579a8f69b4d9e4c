import RealmFormat

/// A compiled operand of a comparison: what realm-core calls a `Subexpr`. Each case mirrors one
/// of its expression classes, because their static properties (type, single or multiple values,
/// quantifier) decide which comparison rules apply (query-language.md §5.0–§5.2).
indirect enum Operand {
    /// A literal, argument or constant list (`Value<T>`, `ConstantMixedList`).
    case constant(Constant)
    /// A scalar property, possibly through links, possibly a path into a Mixed (`Columns<T>`).
    case column(ColumnOperand)
    /// A link property or link path (`Columns<Link>`).
    case link(LinkOperand)
    /// A list, set or dictionary of values (`ColumnsCollection<T>`, `Columns<Dictionary>`).
    case collection(CollectionOperand)
    /// `dict.@keys`.
    case dictionaryKeys(CollectionOperand)
    /// `links.@count`: the number of objects reached, or with `last`, the size of that link
    /// property for each object reached by the rest of the path (`LinkCount`).
    case linkCount(LinkMap, last: LinkStep?)
    /// `@links.@count` (`BacklinkCount`).
    case backlinkCount(LinkMap)
    /// `.@size` of a string, binary or Mixed property (`SizeOperator`).
    case size(Operand)
    /// `.@count` of a list, set or dictionary (`ColumnListSize`, `DictionarySize`).
    case collectionSize(CollectionOperand)
    /// `list.length` (`ColumnListElementLength`).
    case elementLength(CollectionOperand)
    /// `.@type` of a Mixed value (`TypeOfValueOperator`).
    case typeOf(Operand)
    /// `list.@max` (`CollectionColumnAggregate`).
    case collectionAggregate(AggregateNode.Operation, CollectionOperand)
    /// `links.@max.prop` (`SubColumnAggregate`).
    case linkAggregate(AggregateNode.Operation, LinkMap, Column, DataType)
    /// `SUBQUERY(…).@count` (`SubQueryCount`).
    case subqueryCount(LinkMap, Subquery)
    /// `a + b` (`Operator`).
    case arithmetic(ArithmeticOperator, Operand, Operand)
}

struct Constant {
    var values: [QValue]
    var fromList: Bool
    /// nil: a bare null (realm-core's `Value<null>`).
    var type: DataType?
    var quantifier: Quantifier?
    /// Came from `{…}` or a list argument (`ConstantMixedList`).
    var isMixedList: Bool = false
    /// Given for lists and special forms; a single value's is made from it when asked (only
    /// error messages ask, so a literal is not formatted for every query).
    private var givenDescription: String?
    var description: String { givenDescription ?? ValueText.describe(values[0]) }

    init(values: [QValue], fromList: Bool, type: DataType?, quantifier: Quantifier?, isMixedList: Bool = false, description: String) {
        self.values = values
        self.fromList = fromList
        self.type = type
        self.quantifier = quantifier
        self.isMixedList = isMixedList
        givenDescription = description
    }

    /// One value, described as `ValueText.describe` describes it.
    init(single value: QValue, type: DataType?) {
        values = [value]
        fromList = false
        self.type = type
        quantifier = nil
        givenDescription = nil
    }

    /// Fixes the description before `values` change (it describes the values as written).
    mutating func keepDescription() { givenDescription = description }
}

struct ColumnOperand {
    var links: LinkMap
    let column: Column
    let type: DataType
    var quantifier: Quantifier?
    /// A path into a Mixed property's nested collections (`prop[0]`, `prop['k']`, `prop[*]`).
    var mixedPath: [PathElement] = []
}

struct LinkOperand {
    /// Ends with the link column itself.
    var links: LinkMap
    var quantifier: Quantifier?
    /// The last step is a list (`m_is_list`).
    var isList: Bool
}

struct CollectionOperand {
    enum Kind { case list, set, dictionary }
    var links: LinkMap
    let column: Column
    let kind: Kind
    /// Element type; dictionaries are always Mixed-typed in queries.
    let elementType: DataType
    var quantifier: Quantifier?
    /// `list[n]` (`UInt64.max` for LAST).
    var index: UInt64?
    /// Paths into nested collections: for lists of Mixed with more than one step, and for
    /// dictionaries (default `[*]`: all values).
    var path: [PathElement] = []
    var pathOnlyUnaryKeys = false
}

/// A subquery's predicate on the target class; its matches are computed once per query.
final class Subquery {
    let predicate: CompiledPredicate
    let table: TableData
    private var cached: Bitset?

    init(predicate: CompiledPredicate, table: TableData) {
        self.predicate = predicate
        self.table = table
    }

    func matches(row: Int) throws -> Bool {
        if cached == nil {
            let n = try table.count()
            cached = try Evaluator(table: table).evaluate(predicate, candidates: Bitset(count: n, filled: true))
        }
        return cached!.contains(row)
    }
}

extension Operand {
    // MARK: Static properties (what realm-core's query building asks of a Subexpr)

    /// `get_type()`; nil for a bare null.
    var type: DataType? {
        switch self {
        case let .constant(c): return c.type
        case let .column(c): return c.type
        case .link: return .link
        case let .collection(c): return c.elementType
        case .dictionaryKeys: return .string
        case .linkCount, .backlinkCount, .size, .collectionSize, .elementLength, .subqueryCount: return .int
        case .typeOf: return .typeOfValue
        case let .collectionAggregate(_, c): return DataType(column: c.column.type) ?? .mixed
        case let .linkAggregate(op, _, _, t): return Operand.aggregateResultType(op, t)
        case let .arithmetic(_, l, _): return l.type
        }
    }

    static func aggregateResultType(_ op: AggregateNode.Operation, _ t: DataType) -> DataType {
        switch op {
        case .min, .max: return t
        case .sum:
            switch t {
            case .int: return .int
            case .float, .double: return .double
            default: return .decimal
            }
        case .avg:
            return [.int, .float, .double].contains(t) ? .double : .decimal
        }
    }

    /// `has_constant_evaluation()`.
    var isConstant: Bool { if case .constant = self { return true } else { return false } }

    /// `has_single_value()`: a constant with exactly one value.
    var hasSingleValue: Bool {
        if case let .constant(c) = self { return c.values.count == 1 }
        return false
    }

    var singleValue: QValue {
        if case let .constant(c) = self, let v = c.values.first { return v }
        return .null
    }

    /// `has_multiple_values()`.
    var hasMultipleValues: Bool {
        switch self {
        case let .constant(c): return c.fromList
        case let .column(c): return c.links.hasLinks && !c.links.onlyUnaryLinks
        case let .link(l): return l.isList || !l.links.onlyUnaryLinks
        case .collection, .elementLength: return true
        default: return false
        }
    }

    /// `get_comparison_type()`.
    var quantifier: Quantifier? {
        switch self {
        case let .constant(c): return c.quantifier
        case let .column(c): return c.quantifier
        case let .link(l): return l.quantifier
        case let .collection(c), let .dictionaryKeys(c), let .elementLength(c): return c.quantifier
        case let .typeOf(inner): return inner.quantifier
        case let .arithmetic(_, l, r):
            if !l.hasSingleValue { return l.quantifier }
            if !r.hasSingleValue { return r.quantifier }
            return nil
        default: return nil
        }
    }

    /// A plain property of the queried class: no link step and no path (realm-core's
    /// `ObjPropertyBase` without links): comparisons on it use the direct column conditions.
    var directColumn: Column? {
        if case let .column(c) = self, !c.links.hasLinks, c.mixedPath.isEmpty { return c.column }
        return nil
    }

    var isCollection: Bool { if case .collection = self { return true } else { return false } }

    /// How realm-core describes the operand in messages.
    var description: String {
        switch self {
        case let .constant(c): return c.description
        case let .column(c): return Operand.join(c.links.description, c.column.name)
        case let .link(l): return l.links.description
        case let .collection(c): return Operand.join(c.links.description, c.column.name)
        case let .dictionaryKeys(c): return Operand.join(c.links.description, c.column.name) + ".@keys"
        case let .linkCount(m, last): return Operand.join(m.description, last?.column.name ?? "") + ".@count"
        case let .backlinkCount(m): return Operand.join(m.description, "@links.@count")
        case let .size(inner): return inner.description + ".@size"
        case let .collectionSize(c): return Operand.join(c.links.description, c.column.name) + ".@size"
        case let .elementLength(c): return Operand.join(c.links.description, c.column.name) + ".length"
        case let .typeOf(inner): return inner.description + ".@type"
        case let .collectionAggregate(op, c): return Operand.join(c.links.description, c.column.name) + op.name
        case let .linkAggregate(op, m, col, _): return m.description + op.name + "." + col.name
        case let .subqueryCount(m, _): return "SUBQUERY(\(m.description)).@count"
        case let .arithmetic(op, l, r): return "(\(l.description) \(op.rawValue) \(r.description))"
        }
    }

    static func join(_ a: String, _ b: String) -> String {
        a.isEmpty ? b : (b.isEmpty ? a : a + "." + b)
    }

    // MARK: Evaluation

    /// The operand's evaluations for one object of the base table. Most operands give one;
    /// collections reached through a to-many path give one per object reached (realm-core's
    /// sub-index iteration), each compared on its own.
    func evaluate(row: Int) throws -> [Values] {
        switch self {
        case let .constant(c):
            return [Values(items: c.values, fromList: c.fromList)]
        case let .column(c):
            return try c.evaluate(row: row)
        case let .link(l):
            let keys = try l.links.links(row: row)
            if l.links.onlyUnaryLinks {
                return [.single(keys.first.map { QValue.link($0) } ?? .null)]
            }
            return [.list(keys.map { .link($0) })]
        case let .collection(c):
            return try c.evaluate(row: row)
        case let .dictionaryKeys(c):
            return try c.lists(row: row).map { list in
                guard case let .dictionary(entries) = list.value else { return .emptyList }
                return .list(entries.map { QValue($0.key) })
            }.ifEmpty(.emptyList)
        case let .linkCount(m, last):
            guard let last else { return [.single(.int(Int64(try m.count(row: row))))] }
            let keys = try m.links(row: row)
            var sizes = [QValue]()
            for k in keys {
                guard let r = try last.from.row(of: k) else { continue }
                sizes.append(.int(Int64(try Operand.linkSize(last, row: r))))
            }
            return [.list(sizes)]
        case let .backlinkCount(m):
            if !m.hasLinks { return [.single(.int(Int64(try m.base.totalBacklinks(row: row))))] }
            var total = 0
            for k in try m.links(row: row) {
                if let r = try m.target.row(of: k) { total += try m.target.totalBacklinks(row: r) }
            }
            return [.single(.int(Int64(total)))]
        case let .size(inner):
            return try inner.evaluate(row: row).map { v in
                Values(items: v.items.compactMap(Operand.sizeOf), fromList: v.fromList)
            }
        case let .collectionSize(c):
            let (lists, fromList) = try c.listValues(row: row)
            return [Values(items: lists.map { .int(Int64(Operand.collectionCount($0))) }, fromList: fromList)]
        case let .elementLength(c):
            var sizes = [QValue]()
            for list in try c.listValues(row: row).0 {
                guard case let .list(elements) = list else { continue }
                for e in elements {
                    switch e {
                    case let .string(s), let .binary(s): sizes.append(.int(Int64(s.count)))
                    case .null where c.elementType != .mixed: sizes.append(.int(0))
                    default: break
                    }
                }
            }
            return [.list(sizes)]
        case let .typeOf(inner):
            return try inner.evaluate(row: row).map { v in
                Values(items: v.items.map { .typeOfValue(TypeOfValue.of($0)) }, fromList: v.fromList)
            }
        case let .collectionAggregate(op, c):
            return [try c.aggregate(op, row: row)]
        case let .linkAggregate(op, m, column, type):
            let keys = try m.links(row: row).sorted()
            var values = [QValue]()
            for k in keys {
                guard let r = try m.target.row(of: k) else { continue }
                let v = QValue(try m.target.value(column, row: r))
                if !v.isNull { values.append(v) }
            }
            return [.single(Aggregate.compute(op, values, elementType: type))]
        case let .subqueryCount(m, sub):
            var count = 0
            for k in try m.links(row: row) {
                if let r = try sub.table.row(of: k), try sub.matches(row: r) { count += 1 }
            }
            return [.single(.int(Int64(count)))]
        case let .arithmetic(op, l, r):
            return try Operand.arithmetic(op, l, r, row: row)
        }
    }

    /// The size of one link property of one object (`LinkCount` with a last column).
    static func linkSize(_ step: LinkStep, row: Int) throws -> Int {
        if step.isBacklink {
            let cells = try step.from.backlinks(step.column)
            return row < cells.count ? cells[row].count : 0
        }
        return collectionCount(try step.from.value(step.column, row: row), unaryLink: !step.isCollection)
    }

    static func collectionCount(_ v: Value, unaryLink: Bool = false) -> Int {
        switch v {
        case let .list(l): return l.count
        case let .dictionary(d): return d.count
        case .null: return 0
        default: return unaryLink ? 1 : 0
        }
    }

    /// `.@size` of one value: bytes of a string or binary, elements of a nested collection,
    /// null for null; other types have no size (realm-core leaves them undefined) and drop out.
    static func sizeOf(_ v: QValue) -> QValue? {
        switch v {
        case .null: return .null
        case let .string(s), let .binary(s): return .int(Int64(s.count))
        case let .list(l): return .int(Int64(l.count))
        case let .dictionary(d): return .int(Int64(d.count))
        default: return nil
        }
    }

    static func arithmetic(_ op: ArithmeticOperator, _ l: Operand, _ r: Operand, row: Int) throws -> [Values] {
        func apply(_ a: Values, _ b: Values) throws -> Values {
            if !a.fromList && !b.fromList {
                let n = min(a.items.count, b.items.count)
                return Values(items: (0..<n).map { QValue.arithmetic(op, a.items[$0], b.items[$0]) }, fromList: false)
            }
            if a.fromList && b.fromList {
                throw QueryError.invalidQuery(message: "Operations involving two lists are not supported", at: nil)
            }
            if a.fromList {
                guard let y = b.items.first else { return .emptyList }
                return .list(a.items.map { QValue.arithmetic(op, $0, y) })
            }
            guard let x = a.items.first else { return .emptyList }
            return .list(b.items.map { QValue.arithmetic(op, x, $0) })
        }
        if l.hasSingleValue {
            let x = l.singleValue
            return try r.evaluate(row: row).map { v in Values(items: v.items.map { QValue.arithmetic(op, x, $0) }, fromList: v.fromList) }
        }
        if r.hasSingleValue {
            let y = r.singleValue
            return try l.evaluate(row: row).map { v in Values(items: v.items.map { QValue.arithmetic(op, $0, y) }, fromList: v.fromList) }
        }
        let a = try l.evaluate(row: row), b = try r.evaluate(row: row)
        var out = [Values]()
        for i in 0..<max(a.count, b.count) {
            out.append(try apply(a[min(i, a.count - 1)], b[min(i, b.count - 1)]))
        }
        return out
    }
}

extension Array {
    func ifEmpty(_ element: Element) -> [Element] { isEmpty ? [element] : self }
}

extension ColumnOperand {
    func evaluate(row: Int) throws -> [Values] {
        let base: Values
        if !links.hasLinks {
            base = .single(QValue(try links.base.value(column, row: row)))
        } else if links.onlyUnaryLinks {
            if let k = try links.links(row: row).first, let r = try links.target.row(of: k) {
                base = .single(QValue(try links.target.value(column, row: r)))
            } else {
                base = .single(.null)
            }
        } else {
            var items = [QValue]()
            for k in try links.links(row: row) {
                guard let r = try links.target.row(of: k) else { continue }
                items.append(QValue(try links.target.value(column, row: r)))
            }
            base = .list(items)
        }
        if mixedPath.isEmpty { return [base] }
        var groups = [[QValue]]()
        var onlyUnary = false
        for v in base.items {
            try NestedPath.collect(v, path: mixedPath, at: 0, into: &groups, onlyUnaryKeys: &onlyUnary, store: links.store)
        }
        if groups.isEmpty { return [.emptyList] }
        return groups.map { Values(items: $0, fromList: !onlyUnary || $0.isEmpty) }
    }
}

extension CollectionOperand {
    /// The collections this operand reads for one object (`get_lists`): the object's own, the
    /// one behind a to-one path (empty when a link is null), or one per object reached through
    /// a to-many path (then `fromList`).
    func listValues(row: Int) throws -> ([Value], Bool) {
        if !links.hasLinks { return ([try links.base.value(column, row: row)], false) }
        let keys = try links.links(row: row)
        if links.onlyUnaryLinks {
            guard let k = keys.first, let r = try links.target.row(of: k) else { return ([.list([])], false) }
            return ([try links.target.value(column, row: r)], false)
        }
        var out = [Value]()
        for k in keys {
            if let r = try links.target.row(of: k) { out.append(try links.target.value(column, row: r)) }
        }
        return (out, true)
    }

    func lists(row: Int) throws -> [(value: Value, fromList: Bool)] {
        let (values, fromList) = try listValues(row: row)
        return values.map { ($0, fromList) }
    }

    func evaluate(row: Int) throws -> [Values] {
        if kind == .dictionary { return try evaluateDictionary(row: row) }
        let (lists, _) = try listValues(row: row)
        if lists.isEmpty { return [.emptyList] }
        var out = [Values]()
        for list in lists {
            guard case let .list(elements) = list else {
                out.append(.emptyList)
                continue
            }
            var items = elements.map(QValue.init)
            if let index {
                if items.isEmpty {
                    items = []
                } else if index == UInt64.max {
                    items = [items[items.count - 1]]
                } else {
                    items = index < UInt64(items.count) ? [items[Int(index)]] : []
                }
            }
            if path.count > 1 {
                var groups = [[QValue]]()
                var onlyUnary = false
                for v in items {
                    try NestedPath.collect(v, path: path, at: 1, into: &groups, onlyUnaryKeys: &onlyUnary, store: links.store)
                }
                if groups.isEmpty {
                    out.append(.emptyList)
                } else {
                    out += groups.map { Values(items: $0, fromList: !onlyUnary || $0.isEmpty) }
                }
            } else {
                out.append(.list(items))
            }
        }
        return out
    }

    /// `Columns<Dictionary>`: the values at the path in the object's dictionary (or each
    /// dictionary reached); a missing key in a non-empty dictionary reads as null.
    func evaluateDictionary(row: Int) throws -> [Values] {
        let (dictionaries, _) = try listValues(row: row)
        var onlyUnary = pathOnlyUnaryKeys && links.onlyUnaryLinks
        var groups = [[QValue]]()
        for d in dictionaries {
            guard case .dictionary = d else { continue }
            try NestedPath.collect(QValue(d), path: path, at: 0, into: &groups, onlyUnaryKeys: &onlyUnary, store: links.store)
        }
        if groups.isEmpty { return [.emptyList] }
        return groups.map { Values(items: $0, fromList: !onlyUnary || $0.isEmpty) }
    }

    /// `list.@max` and friends: one result per collection read.
    func aggregate(_ op: AggregateNode.Operation, row: Int) throws -> Values {
        let (lists, fromList) = try listValues(row: row)
        var results = [QValue]()
        for list in lists {
            switch list {
            case let .dictionary(entries):
                let values = entries.map { QValue($0.value) }
                results.append(entries.isEmpty ? (op == .sum ? .int(0) : .null)
                               : Aggregate.dictionary(op, values, valueType: DataType(column: column.type) ?? .mixed))
            case let .list(elements):
                results.append(Aggregate.compute(op, elements.map(QValue.init).filter { !$0.isNull }, elementType: elementType))
            default:
                results.append(op == .sum ? .int(0) : .null)
            }
        }
        if !fromList && results.isEmpty { results = [kind == .dictionary && op == .sum ? .int(0) : .null] }
        return Values(items: results, fromList: fromList)
    }
}
