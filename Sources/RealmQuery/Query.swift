import RealmFormat

/// A query on one class of a file: a predicate in Realm's query language with its arguments,
/// compiled once and run on demand. Filters chain like Realm's `Results.filter`: the predicates
/// are ANDed and the new SORT/DISTINCT/LIMIT follow the existing ones.
///
/// ```swift
/// let store = ObjectStore(snapshot: try Snapshot(path: "default.realm"))
/// let people = try Query(store: store, className: "Person", "age > $0 SORT(name ASC)", arguments: [.int(30)])
/// let keys = try people.filter("name BEGINSWITH 'A'").objectKeys()
/// ```
public final class Query {
    public let store: ObjectStore
    public let table: TableData
    let predicates: [CompiledPredicate]
    let orderings: [OrderingStep]

    /// Parses and type-checks `text` against the class (errors: `QueryError`).
    public convenience init(store: ObjectStore, className: String, _ text: String, arguments: [QueryArgument] = []) throws(QueryError) {
        guard let table = store.table(className: className) else {
            throw .invalidQuery(message: "No class '\(className)' in the file", at: nil)
        }
        try self.init(store: store, table: table, text, arguments: arguments)
    }

    public convenience init(store: ObjectStore, table: TableData, _ text: String, arguments: [QueryArgument] = []) throws(QueryError) {
        try self.init(store: store, table: table, text, arguments: arguments, simpleComparisons: true)
    }

    /// `simpleComparisons: false` compiles every query the general way, even the ones
    /// SimpleComparison compiles from their tokens (its tests compare the two).
    init(store: ObjectStore, table: TableData, _ text: String, arguments: [QueryArgument], simpleComparisons: Bool) throws(QueryError) {
        self.store = store
        self.table = table
        let placeholders = Placeholders(text)
        let lexer = Lexer(placeholders.rewritten)
        if simpleComparisons, let p = SimpleComparison.predicate(lexer, on: table) {
            predicates = [p]
            orderings = []
            return
        }
        do {
            let ast = try Parser.parse(placeholders.rewritten, lexer: lexer)
            let checker = TypeChecker(store: store, base: table, arguments: arguments, query: placeholders.rewritten)
            predicates = [try checker.predicate(ast.predicate)]
            orderings = try checker.orderings(ast.orderings)
        } catch {
            throw placeholders.remap(error)
        }
    }

    init(store: ObjectStore, table: TableData, predicates: [CompiledPredicate], orderings: [OrderingStep]) {
        self.store = store
        self.table = table
        self.predicates = predicates
        self.orderings = orderings
    }

    /// A query on the results of this one (query-language.md §6.4).
    public func filter(_ text: String, arguments: [QueryArgument] = []) throws(QueryError) -> Query {
        if orderings.contains(where: { if case .limit = $0 { return true } else { return false } }) {
            throw .illegalOperation(message: "Filtering a Results with a limit is not yet implemented", at: nil)
        }
        let next = try Query(store: store, table: table, text, arguments: arguments)
        return Query(store: store, table: table, predicates: predicates + next.predicates, orderings: orderings + next.orderings)
    }

    /// The matching objects' rows (positions in table order), in result order.
    public func rows() throws -> [Int] {
        try Ordering.apply(orderings, to: matches().members)
    }

    /// The rows that satisfy every predicate, before SORT/DISTINCT/LIMIT.
    func matches() throws -> Bitset {
        // A query is one top-level operation: it starts with a full work budget (Snapshot).
        table.snapshot.resetWorkBudget()
        let n = try table.count()
        var matches = Bitset(count: n, filled: true)
        let evaluator = Evaluator(table: table)
        for p in predicates { matches = try evaluator.evaluate(p, candidates: matches) }
        return matches
    }

    /// The matching objects' keys, in result order.
    public func objectKeys() throws -> [Int64] {
        let keys = try table.keys()
        return try rows().map { keys[$0] }
    }

    /// The number of objects the query shows (after DISTINCT and LIMIT).
    public func count() throws -> Int {
        // Without SORT/DISTINCT/LIMIT the count is the number of bits set: no row list; an
        // indexed int equality alone is counted from its index (IndexLookup.swift), an int or
        // bool compared with a constant alone leaf by leaf without a bit set over the table
        // (Evaluator.scanCount).
        if orderings.isEmpty {
            if predicates.count == 1, case let .direct(d) = predicates[0] {
                table.snapshot.resetWorkBudget()
                let evaluator = Evaluator(table: table)
                if let n = try evaluator.indexCount(d) { return n }
                if let n = evaluator.scanCount(d) { return n }
            }
            return try matches().cardinality
        }
        return try rows().count
    }
}
