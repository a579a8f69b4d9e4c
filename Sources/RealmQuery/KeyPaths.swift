import RealmFormat

/// Resolving key paths (query-language.md §3, realm-core's `PathNode::visit`,
/// `PropertyNode::visit`, `LinkChain::column`): links are followed left to right, the first
/// non-link property ends the link part, and what follows indexes into it.
extension TypeChecker {
    /// A subquery variable reads as the empty name on its class (and is then skipped).
    func translate(_ table: TableData, _ name: [UInt8]) -> [UInt8] {
        if variables.isEmpty { return name }
        return variables.contains { $0.table == table.table.position && $0.name == name } ? [] : name
    }

    /// The path's elements with arguments filled in: `$K0` spliced from a string argument,
    /// `[$n]` as an index or key.
    func resolvedElements(_ path: PathNode) throws(QueryError) -> [PathElement] {
        if let (n, range) = path.keyPathArgument {
            if !path.elements.isEmpty {
                throw .invalidQuery(message: "Key path argument cannot be mixed with other elements", at: path.range)
            }
            try arguments.verify(n, at: range)
            guard case let .value(v) = arguments.arguments[n], !v.isNull else {
                throw .invalidArgument(message: "Null or list cannot be used for parameter '$K\(n)'", at: range)
            }
            guard case let .string(s) = v else {
                throw .invalidArgument(message: "Invalid index type for '$K\(n)'. Expected a string, but found type '\(DataType.name(v.type))'", at: range)
            }
            var elements = [PathElement]()
            var backlinkParts = 0
            for part in s.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
                let key = Array(part)
                if backlinkParts > 0, case let .key(b, r) = elements[elements.count - 1] {
                    elements[elements.count - 1] = .key(b + [UInt8(ascii: ".")] + key, r)
                    backlinkParts = backlinkParts == 2 ? 0 : backlinkParts + 1
                } else {
                    if key == PathNames.links { backlinkParts = 1 }
                    elements.append(.key(key, range))
                }
            }
            return elements
        }
        // Most paths have no `[$n]`: then they are used as parsed (no new array).
        guard path.elements.contains(where: { if case .argument = $0 { return true } else { return false } }) else {
            return path.elements
        }
        return try path.elements.map { e throws(QueryError) -> PathElement in
            guard case let .argument(n, range) = e else { return e }
            try arguments.verify(n, at: range)
            guard case let .value(v) = arguments.arguments[n], !v.isNull else {
                throw .invalidQuery(message: "Invalid index parameter", at: range)
            }
            switch v {
            case let .int(i): return .index(UInt64(bitPattern: i))
            case let .string(s): return .key(s, range)
            default: throw .invalidQuery(message: "Invalid index type", at: range)
            }
        }
    }

    static func key(_ e: PathElement) -> (name: [UInt8], range: SourceRange)? {
        if case let .key(k, r) = e { return (k, r) }
        return nil
    }

    /// Follows the links of a path (`PathNode::visit`): the link map and the position of the
    /// first element that is not a followed link.
    func walk(_ elements: [PathElement], quantifier: Quantifier?) throws(QueryError) -> (LinkMap, Int) {
        var chain = LinkMap(store: store, base: base)
        var i = 0
        while i < elements.count {
            let e = elements[i]
            if case let .key(raw, range) = e {
                let name = translate(chain.target, raw)
                // The special names all start with `@`.
                if name.first == UInt8(ascii: "@"), name.starts(with: PathNames.linksDot) {
                    try backlink(&chain, Array(name.dropFirst(7)), range)
                    i += 1
                    continue
                }
                if name.first == UInt8(ascii: "@"), name == PathNames.values {
                    guard let last = chain.steps.last, last.column.collection == .dictionary else {
                        throw .invalidQuery(message: "@values only allowed on dictionaries", at: range)
                    }
                    i += 1
                    continue
                }
                if name.isEmpty {
                    i += 1
                    continue
                }
                let nameString = String(decoding: name, as: UTF8.self)
                if let column = chain.target.column(named: nameString) {
                    if column.type == .link, let target = store.target(of: column) {
                        chain.steps.append(LinkStep(column: column, from: chain.target, to: target, index: nil))
                        i += 1
                        continue
                    }
                    break
                }
            }
            guard index(&chain, e) else { break }
            i += 1
        }
        return (chain, i)
    }

    /// `[n]` on a list of links, `['k']` on a dictionary of links, `[*]` on any collection
    /// (`LinkChain::index`).
    func index(_ chain: inout LinkMap, _ e: PathElement) -> Bool {
        guard let last = chain.steps.last, last.index == nil else { return false }
        switch e {
        case .all:
            return true
        case .index where last.column.collection == .list, .key where last.column.collection == .dictionary:
            chain.steps[chain.steps.count - 1].index = e
            return true
        default:
            return false
        }
    }

    /// `@links.Class.property`: the objects of Class whose property links here.
    func backlink(_ chain: inout LinkMap, _ spec: [UInt8], _ range: SourceRange) throws(QueryError) {
        let dot = spec.firstIndex(of: UInt8(ascii: "."))
        let className = String(decoding: dot.map { spec[..<$0] } ?? spec[...], as: UTF8.self)
        let propertyName = dot.map { Array(spec[($0 + 1)...]) } ?? spec
        let origin = store.table(backlinkClass: className)
        let originColumn = origin.flatMap { o in o.column(named: String(decoding: translate(o, propertyName), as: UTF8.self)) }
        guard let origin, let originColumn else {
            throw .invalidQuery(message: "No property '\(String(decoding: propertyName, as: UTF8.self))' found in type '\(className)' which links to type '\(chain.target.className)'", at: range)
        }
        guard originColumn.type == .link, let column = chain.target.backlinkColumn(from: origin, column: originColumn) else {
            // realm-core 14 crashes here (links inside Mixed, or a property that is not a link
            // to this class); realmsh refuses.
            throw .invalidQuery(message: "Property '\(origin.className).\(originColumn.name)' is not a link to type '\(chain.target.className)' (links stored in Mixed properties have no backlinks to follow)", at: range)
        }
        chain.steps.append(LinkStep(column: column, from: chain.target, to: origin, index: nil))
    }

    /// A property (`PropertyNode::visit`): the column at the end of the links, any index steps
    /// into it, and a post-operator.
    func property(_ p: PropertyNode) throws(QueryError) -> Operand {
        let elements = try resolvedElements(p.path)
        if case let (name, _)? = elements.last.flatMap(TypeChecker.key), name == PathNames.links {
            let (chain, _) = try walk(Array(elements.dropLast()), quantifier: p.quantifier)
            return .backlinkCount(chain)
        }
        var (chain, i) = try walk(elements, quantifier: p.quantifier)
        // The property's name for error messages, made only for one.
        var identifierSource: (table: TableData, name: [UInt8])?
        if i < elements.count {
            guard let (k, _) = TypeChecker.key(elements[i]) else {
                throw .invalidQuery(message: "[\(elements[i].description)] not expected", at: p.path.range)
            }
            identifierSource = (chain.target, k)
        }
        var identifier: String {
            identifierSource.map { String(decoding: translate($0.table, $0.name), as: UTF8.self) } ?? ""
        }
        var sub = try column(&chain, elements, &i, p)
        let indexes = Array(elements[i...])
        if let first = indexes.first {
            if indexes.count > 1, sub.type != .mixed {
                throw .invalidQuery(message: "Only Property of type 'any' can have nested collections", at: p.path.range)
            }
            var ok = false
            switch sub {
            case var .column(c) where c.type == .mixed:
                c.mixedPath = indexes
                sub = .column(c)
                ok = true
            case var .collection(c) where c.kind == .dictionary:
                if case let .key(k, _) = first {
                    ok = true
                    if k == PathNames.keys {
                        sub = .dictionaryKeys(c)
                    } else if k != PathNames.values {
                        c.path = indexes
                        c.pathOnlyUnaryKeys = !indexes.contains(.all)
                        sub = .collection(c)
                    }
                } else if first == .all {
                    ok = true
                    c.path = indexes
                    c.pathOnlyUnaryKeys = false
                    sub = .collection(c)
                }
            case var .collection(c) where c.kind == .list:
                if c.elementType == .mixed || indexes.count == 1 {
                    switch first {
                    case let .index(n):
                        c.index = n
                        ok = true
                    case .all:
                        ok = true
                    default:
                        ok = false
                    }
                    if ok, c.elementType == .mixed { c.path = indexes }
                    sub = .collection(c)
                }
            default:
                break
            }
            if !ok {
                if case let .key(k, range) = first {
                    if p.postOperator == nil, String(decoding: k, as: UTF8.self).lowercased() == "length",
                       let length = try elementLength(elements, p) {
                        return length
                    }
                    throw .invalidQuery(message: "Property '\(chain.target.className).\(identifier)' has no property '\(String(decoding: k, as: UTF8.self))'", at: range)
                }
                throw .invalidQuery(message: "Property '\(chain.target.className).\(identifier)' does not support index '\(first.description)'", at: p.path.range)
            }
        }
        guard let post = p.postOperator else { return sub }
        return try postOperator(post, sub, p)
    }

    /// `list.length`: the lengths of a list's string or binary elements.
    func elementLength(_ elements: [PathElement], _ p: PropertyNode) throws(QueryError) -> Operand? {
        let trimmed = Array(elements.dropLast())
        guard let (name, range) = trimmed.last.flatMap(TypeChecker.key) else { return nil }
        var (chain, _) = try walk(trimmed, quantifier: p.quantifier)
        guard let op = try linkChainColumn(&chain, String(decoding: name, as: UTF8.self), hasPath: false, p.quantifier, range),
              case let .collection(c) = op, c.kind != .dictionary, [.string, .binary, .mixed].contains(c.elementType) else { return nil }
        return .elementLength(c)
    }

    /// The property at position `i` after the links (`ParserDriver::column`).
    func column(_ chain: inout LinkMap, _ elements: [PathElement], _ i: inout Int, _ p: PropertyNode) throws(QueryError) -> Operand {
        if i == elements.count {
            guard let last = chain.steps.last else {
                throw .invalidQuery(message: "A subquery variable must be followed by a property", at: p.path.range)
            }
            if last.index == nil {
                return .link(LinkOperand(links: chain, quantifier: p.quantifier, isList: last.column.collection == .list))
            }
            chain.steps.removeLast()
            i -= 2
            guard i >= 0 else { throw .invalidQuery(message: "Invalid key path", at: p.path.range) }
        }
        guard let (raw, range) = TypeChecker.key(elements[i]) else {
            throw .invalidQuery(message: "[\(elements[i].description)] not expected", at: p.path.range)
        }
        let name = String(decoding: translate(chain.target, raw), as: UTF8.self)
        i += 1
        if let op = try linkChainColumn(&chain, name, hasPath: i < elements.count, p.quantifier, range) { return op }
        let names = chain.target.table.publicColumns.map(\.name)
        throw .unknownProperty(className: chain.target.className, property: name, at: range,
                               suggestion: NameSuggestion.nearest(name, among: names))
    }

    /// The operand for a property of the chain's target class (`LinkChain::column`).
    func linkChainColumn(_ chain: inout LinkMap, _ name: String, hasPath: Bool, _ quantifier: Quantifier?, _ range: SourceRange) throws(QueryError) -> Operand? {
        guard let column = chain.target.column(named: name) else { return nil }
        if column.collection == .dictionary {
            return .collection(CollectionOperand(links: chain, column: column, kind: .dictionary, elementType: .mixed,
                                                 quantifier: quantifier, path: [.all], pathOnlyUnaryKeys: false))
        }
        if column.type == .link, let target = store.target(of: column) {
            chain.steps.append(LinkStep(column: column, from: chain.target, to: target, index: nil))
            return .link(LinkOperand(links: chain, quantifier: quantifier, isList: column.collection == .list))
        }
        guard let type = DataType(column: column.type) else { return nil }
        if let kind = column.collection {
            return .collection(CollectionOperand(links: chain, column: column, kind: kind == .set ? .set : .list,
                                                 elementType: type, quantifier: quantifier))
        }
        if let q = quantifier, !hasPath, !chain.steps.contains(where: { $0.isCollection || $0.isBacklink }) {
            throw .invalidQuery(message: "The keypath following '\(q.name)' must contain a list", at: range)
        }
        return .column(ColumnOperand(links: chain, column: column, type: type, quantifier: quantifier))
    }

    /// `.@count`, `.@size`, `[SIZE]`, `.@type` (`PostOpNode::visit`).
    func postOperator(_ post: PropertyNode.PostOperator, _ sub: Operand, _ p: PropertyNode) throws(QueryError) -> Operand {
        switch (post, sub) {
        case let (.size, .link(l)):
            if l.links.steps.count > 1 { return .linkCount(l.links.dropLast(), last: l.links.steps.last) }
            return .linkCount(l.links, last: nil)
        case let (.size, .collection(c)):
            return .collectionSize(c)
        case let (.size, .column(c)) where [.string, .binary, .mixed].contains(c.type):
            return .size(sub)
        case let (.type, .column(c)) where c.type == .mixed:
            return .typeOf(sub)
        case let (.type, .collection(c)) where c.elementType == .mixed:
            return .typeOf(sub)
        case let (.type, .column(c)):
            let bits = TypeOfValue.of(c.type)
            return .constant(Constant(values: [.typeOfValue(bits)], fromList: false, type: .typeOfValue, quantifier: nil,
                                      description: ValueText.describe(.typeOfValue(bits))))
        case (.type, .link):
            return .constant(Constant(values: [.typeOfValue(TypeOfValue.objectLink)], fromList: false, type: .typeOfValue,
                                      quantifier: nil, description: ValueText.describe(.typeOfValue(TypeOfValue.objectLink))))
        default:
            throw .invalidQuery(message: "Operation '\(p.postOperatorName)' is not supported on property of type '\(DataType.name(sub.type))'", at: p.range)
        }
    }

    /// `path.@max` (of a list) and `links.@max.prop` (of linked objects).
    func aggregate(_ a: AggregateNode) throws(QueryError) -> Operand {
        let node = PropertyNode(path: a.path, quantifier: nil, postOperator: nil, postOperatorName: "", range: a.path.range)
        let sub = try property(node)
        if let (name, range) = a.property {
            guard case let .link(l) = sub else {
                let elements = try resolvedElements(a.path)
                let (_, i) = try walk(elements, quantifier: nil)
                let identifier = i < elements.count ? (TypeChecker.key(elements[i]).map { String(decoding: $0.name, as: UTF8.self) } ?? "") : ""
                throw .invalidQuery(message: "Operation '\(a.operation.name)' cannot apply to property '\(identifier)' because it is not a list", at: a.range)
            }
            let target = l.links.target
            let column = target.column(named: String(decoding: translate(target, name), as: UTF8.self))
            let type = column.flatMap { DataType(column: $0.type) }
            guard let column, let type, column.collection == nil, [.int, .float, .double, .decimal, .timestamp, .mixed].contains(type) else {
                let typeName = column.map { $0.collection == nil ? ($0.type == .link ? "link" : DataType.name(DataType(column: $0.type))) : DataType.name(DataType(column: $0.type)) } ?? "unknown"
                throw .invalidQuery(message: "collection aggregate not supported for type '\(typeName)'", at: range)
            }
            if type == .timestamp && (a.operation == .sum || a.operation == .avg) {
                throw .invalidQuery(message: "Cannot use aggregate '\(a.operation.name)' for this type of property", at: a.range)
            }
            return .linkAggregate(a.operation, l.links, column, type)
        }
        if case let .collection(c) = sub, c.kind == .dictionary || [.int, .float, .double, .decimal, .mixed].contains(c.elementType) {
            return .collectionAggregate(a.operation, c)
        }
        throw .invalidQuery(message: "Cannot use aggregate '\(a.operation.name)' for this type of property", at: a.range)
    }

    /// `SUBQUERY(path, $x, predicate).@count` (`SubqueryNode::visit`).
    func subquery(_ s: SubqueryNode) throws(QueryError) -> Operand {
        let variable = String(decoding: s.variable, as: UTF8.self)
        guard s.variable.count >= 2, s.variable.first == UInt8(ascii: "$") else {
            throw .malformedLiteral(message: "The subquery variable '\(variable)' is invalid. The variable must start with '$' and cannot be empty; for example '$x'.", at: s.variableRange)
        }
        let elements = try resolvedElements(s.path)
        let (chain, i) = try walk(elements, quantifier: nil)
        let identifier: String
        let column: Column?
        if i < elements.count {
            let raw = TypeChecker.key(elements[i])?.name ?? []
            identifier = String(decoding: translate(chain.target, raw), as: UTF8.self)
            column = chain.target.column(named: identifier)
        } else {
            identifier = elements.last.flatMap(TypeChecker.key).map { String(decoding: $0.name, as: UTF8.self) } ?? ""
            column = chain.steps.last?.column
        }
        guard let column else {
            throw .invalidQuery(message: "A subquery can not operate on a list of primitive values (property '\(identifier)')", at: s.path.range)
        }
        if column.collection == .list && column.type != .link {
            throw .invalidQuery(message: "A subquery can not operate on a list of primitive values (property '\(identifier)')", at: s.path.range)
        }
        guard i == elements.count, column.collection == .list || column.isBacklink else {
            let typeName = column.type == .link ? "link" : DataType.name(DataType(column: column.type))
            throw .invalidQuery(message: "A subquery must operate on a list property, but '\(identifier)' is type '\(typeName)'", at: s.path.range)
        }
        let previous = base
        base = chain.target
        defer { base = previous }
        if variables.contains(where: { $0.table == base.table.position && $0.name == s.variable }) {
            throw .invalidQuery(message: "Unable to create a subquery expression with variable '\(variable)' since an identical variable already exists in this context", at: s.variableRange)
        }
        variables.append((base.table.position, s.variable))
        defer { variables.removeLast() }
        let inner = try predicate(s.predicate)
        return .subqueryCount(chain, Subquery(predicate: inner, table: chain.target))
    }
}

/// The special names of key paths (query-language.md §3), as bytes made once: compared on
/// every path element.
enum PathNames {
    static let links = Array("@links".utf8)
    static let linksDot = Array("@links.".utf8)
    static let values = Array("@values".utf8)
    static let keys = Array("@keys".utf8)
}
