import RealmFormat

/// Aggregates of one property over a query's objects (realm-core's `Query::sum`, `average`,
/// `maximum`, `minimum`; decimals are not aggregated here): nulls are skipped; the sum of
/// ints is an int (wrapping) and of floats/doubles a double, in table order; the average is a
/// double, null when no value was aggregated; the maximum and minimum keep the property's type
/// (Mixed order), null when there is none. Ints and doubles are summed in place, leaf by leaf
/// (`IntegerLeaf.summarize`, `FloatingLeaf.summarize`).
extension Query {
    public func sum(_ property: String) throws -> Value {
        let column = try aggregated(property, allowed: [.int, .float, .double])
        if column.type == .int { return .int(try integerSummary(column).sum) }
        return .double(try floatingSummary(column).sum)
    }

    public func average(_ property: String) throws -> Value {
        let column = try aggregated(property, allowed: [.int, .float, .double])
        if column.type == .int {
            let s = try integerSummary(column)
            return s.count == 0 ? .null : .double(Double(s.sum) / Double(s.count))
        }
        let s = try floatingSummary(column)
        return s.count == 0 ? .null : .double(s.sum / Double(s.count))
    }

    public func max(_ property: String) throws -> Value { try extreme(property, greater: true) }
    public func min(_ property: String) throws -> Value { try extreme(property, greater: false) }

    private func extreme(_ property: String, greater: Bool) throws -> Value {
        let column = try aggregated(property, allowed: [.int, .float, .double, .timestamp])
        if column.type == .int {
            let s = try integerSummary(column)
            return s.count == 0 ? .null : .int(greater ? s.max : s.min)
        }
        var best = Value.null
        try forEachSelectedLeaf(column) { leaf, _, selected, start in
            let values = try table.decode(column, in: leaf)
            for (i, v) in values.enumerated() where selected.map({ Bitset.test($0, start + i) }) ?? true {
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
    private func forEachSelectedLeaf(_ column: Column, _ body: (ClusterLeaf, Int, [UInt64]?, Int) throws -> Void) throws {
        let selected = try rows(forAggregate: ())
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

    private func integerSummary(_ column: Column) throws -> IntegerSummary {
        var s = IntegerSummary()
        try forEachSelectedLeaf(column) { leaf, ref, selected, start in
            let values = try IntegerLeaf(table.snapshot, ref: ref, nullable: column.isNullable)
            try checkCount(values.count, leaf, column, ref)
            values.summarize(into: &s, selected: selected, first: start)
        }
        return s
    }

    private func floatingSummary(_ column: Column) throws -> FloatingSummary {
        var s = FloatingSummary()
        try forEachSelectedLeaf(column) { leaf, ref, selected, start in
            let values = try FloatingLeaf(table.snapshot, ref: ref, float: column.type == .float)
            try checkCount(values.count, leaf, column, ref)
            values.summarize(into: &s, selected: selected, first: start)
        }
        return s
    }

    private func checkCount(_ count: Int, _ leaf: ClusterLeaf, _ column: Column, _ ref: Int) throws {
        guard count == leaf.count else {
            throw FormatError.corrupt(offset: ref, reason: "class '\(table.className)': property '\(column.name)' holds \(count) values for \(leaf.count) objects")
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
