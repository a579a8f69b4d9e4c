import RealmFormat

/// Aggregates of one property over a query's objects (realm-core's `Query::sum`, `average`,
/// `maximum`, `minimum`; decimals are not aggregated here): nulls are skipped; the sum of
/// ints is an int (wrapping) and of floats/doubles a double, in table order; the average is a
/// double, null when no value was aggregated; the maximum and minimum keep the property's type
/// (Mixed order), null when there is none. Ints and doubles are summed in place, leaf by leaf
/// (`IntegerLeaf.summarize`, `FloatingLeaf.summarize`).
extension Query {
    public func sum(_ property: String) throws -> Value { try aggregates([.sum(property)])[0] }
    public func average(_ property: String) throws -> Value { try aggregates([.average(property)])[0] }
    public func max(_ property: String) throws -> Value { try aggregates([.max(property)])[0] }
    public func min(_ property: String) throws -> Value { try aggregates([.min(property)])[0] }

    /// Several aggregates at once, in the order asked: the matches are found once, and the
    /// cluster leaves walked once, each int or floating property summarized in the same visit
    /// (`sum` and `average` of one property share its summary; an int's `max`/`min` too).
    public func aggregates(_ requests: [AggregateRequest]) throws -> [Value] {
        var columns = [Column]()
        for r in requests {
            let allowed: Set<ColumnType> = r.isExtreme ? [.int, .float, .double, .timestamp] : [.int, .float, .double]
            columns.append(try aggregated(r.property, allowed: allowed))
        }
        // The properties summarized in place, each once: ints for every aggregate, floats and
        // doubles for sums and averages (their extremes compare decoded values).
        var summarized = [Column]()
        for (r, c) in zip(requests, columns) where (c.type == .int || (c.type != .timestamp && !r.isExtreme))
            && !summarized.contains(where: { $0.key == c.key }) {
            summarized.append(c)
        }
        var ints = [Int64: IntegerSummary](), floats = [Int64: FloatingSummary]()
        let selected = try rows(forAggregate: ())
        if !summarized.isEmpty {
            for c in summarized {
                if c.type == .int { ints[c.key.value] = IntegerSummary() } else { floats[c.key.value] = FloatingSummary() }
            }
            let refs = try summarized.map { c in try table.columnRefs(c) }
            for (l, (leaf, start)) in try table.leaves().enumerated() {
                let end = start + leaf.count
                guard selected.any(in: start, end) else { continue }
                let words = selected.all(in: start, end) ? nil : selected.words
                for (k, c) in summarized.enumerated() {
                    guard l < refs[k].count, refs[k][l] != 0 else {
                        throw FormatError.corrupt(offset: leaf.node.ref, reason: "class '\(table.className)': no data for property '\(c.name)'")
                    }
                    let ref = refs[k][l]
                    if c.type == .int {
                        let values = try IntegerLeaf(table.snapshot, ref: ref, nullable: c.isNullable)
                        try checkCount(values.count, leaf, c, ref)
                        values.summarize(into: &ints[c.key.value, default: IntegerSummary()], selected: words, first: start)
                    } else {
                        let values = try FloatingLeaf(table.snapshot, ref: ref, float: c.type == .float)
                        try checkCount(values.count, leaf, c, ref)
                        values.summarize(into: &floats[c.key.value, default: FloatingSummary()], selected: words, first: start)
                    }
                }
            }
        }
        var out = [Value]()
        for (r, c) in zip(requests, columns) {
            switch r {
            case .sum:
                if let s = ints[c.key.value] { out.append(.int(s.sum)) } else { out.append(.double(floats[c.key.value]?.sum ?? 0)) }
            case .average:
                if let s = ints[c.key.value] {
                    out.append(s.count == 0 ? .null : .double(Double(s.sum) / Double(s.count)))
                } else {
                    let s = floats[c.key.value] ?? FloatingSummary()
                    out.append(s.count == 0 ? .null : .double(s.sum / Double(s.count)))
                }
            case .max, .min:
                let greater = { if case .max = r { return true } else { return false } }()
                if let s = ints[c.key.value] {
                    out.append(s.count == 0 ? .null : .int(greater ? s.max : s.min))
                } else {
                    out.append(try extreme(c, greater: greater, selected: selected))
                }
            }
        }
        return out
    }

    /// The largest or smallest value of a float, double or timestamp property (Mixed order).
    private func extreme(_ column: Column, greater: Bool, selected: Bitset) throws -> Value {
        var best = Value.null
        try forEachSelectedLeaf(column, selected) { leaf, _, words, start in
            let values = try table.decode(column, in: leaf)
            for (i, v) in values.enumerated() where words.map({ Bitset.test($0, start + i) }) ?? true {
                if v.isNull { continue }
                if best.isNull { best = v; continue }
                let c = ValueOrder.compare(v, best)
                if greater ? c > 0 : c < 0 { best = v }
            }
        }
        return best
    }

    /// The column of `property`, checked to be a plain property of an aggregatable type.
    private func aggregated(_ property: String, allowed: Set<ColumnType>) throws -> Column {
        guard let column = table.column(named: property) else {
            throw QueryError.invalidQuery(message: "No property '\(property)' on object type '\(table.className)'", at: nil)
        }
        guard column.collection == nil, allowed.contains(column.type) else {
            throw QueryError.illegalOperation(message: "Cannot aggregate property '\(property)' of this type", at: nil)
        }
        return column
    }

    /// The aggregated objects leaf by leaf: each cluster leaf holding some, its column ref, and
    /// the match words (nil when every object of the leaf matches).
    private func forEachSelectedLeaf(_ column: Column, _ selected: Bitset, _ body: (ClusterLeaf, Int, [UInt64]?, Int) throws -> Void) throws {
        for (leaf, start) in try table.leaves() {
            let end = start + leaf.count
            guard selected.any(in: start, end) else { continue }
            guard let ref = leaf.columnRef(column.leafIndex) else {
                throw FormatError.corrupt(offset: leaf.node.ref, reason: "class '\(table.className)': no data for property '\(column.name)'")
            }
            try body(leaf, ref, selected.all(in: start, end) ? nil : selected.words, start)
        }
    }

    /// The objects a table aggregate covers: the matches, limited as LIMIT/DISTINCT say.
    private func rows(forAggregate: Void) throws -> Bitset {
        if orderings.isEmpty { return try matches() }
        var out = Bitset(count: try table.count())
        for r in try rows() { out.insert(r) }
        return out
    }

    private func checkCount(_ count: Int, _ leaf: ClusterLeaf, _ column: Column, _ ref: Int) throws {
        guard count == leaf.count else {
            throw FormatError.corrupt(offset: ref, reason: "class '\(table.className)': property '\(column.name)' holds \(count) values for \(leaf.count) objects")
        }
    }
}

/// One table aggregate of `Query.aggregates`: a property's sum, average, maximum or minimum.
public enum AggregateRequest: Sendable, Equatable {
    case sum(String), average(String), max(String), min(String)

    var property: String {
        switch self {
        case let .sum(p), let .average(p), let .max(p), let .min(p): return p
        }
    }

    var isExtreme: Bool {
        switch self {
        case .max, .min: return true
        case .sum, .average: return false
        }
    }
}

extension Value {
    var numericDouble: Double? {
        switch self {
        case let .int(i): return Double(i)
        case let .float(f): return Double(f)
        case let .double(d): return d
        default: return nil
        }
    }
}
