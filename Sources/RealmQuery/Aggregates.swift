import RealmFormat

/// Aggregates of one property over a query's objects (realm-core's `Query::sum`, `average`,
/// `maximum`, `minimum`; decimals are not aggregated here): nulls are skipped; the sum of
/// ints is an int and of floats/doubles a double; the average is a double, null when no value
/// was aggregated; the maximum and minimum keep the property's type, null when there is none.
extension Query {
    public func sum(_ property: String) throws -> Value {
        let (column, rows) = try aggregated(property, allowed: [.int, .float, .double])
        switch column.type {
        case .int:
            var total: Int64 = 0
            try forEachValue(column, rows) { if case let .int(v) = $0 { total &+= v } }
            return .int(total)
        default:
            var total = 0.0
            try forEachValue(column, rows) { total += $0.numericDouble ?? 0 }
            return .double(total)
        }
    }

    public func average(_ property: String) throws -> Value {
        let (column, rows) = try aggregated(property, allowed: [.int, .float, .double])
        var total = 0.0, n = 0
        try forEachValue(column, rows) { v in
            if let d = v.numericDouble {
                total += d
                n += 1
            }
        }
        return n == 0 ? .null : .double(total / Double(n))
    }

    public func max(_ property: String) throws -> Value { try extreme(property, greater: true) }
    public func min(_ property: String) throws -> Value { try extreme(property, greater: false) }

    private func extreme(_ property: String, greater: Bool) throws -> Value {
        let (column, rows) = try aggregated(property, allowed: [.int, .float, .double, .timestamp])
        var best = Value.null
        try forEachValue(column, rows) { v in
            if v.isNull { return }
            if best.isNull { best = v; return }
            let c = ValueOrder.compare(v, best)
            if greater ? c > 0 : c < 0 { best = v }
        }
        return best
    }

    /// The column of `property` and the rows to aggregate (nil: all objects).
    private func aggregated(_ property: String, allowed: Set<ColumnType>) throws -> (Column, [Int]?) {
        guard let column = table.column(named: property) else {
            throw QueryError.invalidQuery(message: "No property '\(property)' on object type '\(table.className)'", at: nil)
        }
        guard column.collection == nil, allowed.contains(column.type) else {
            throw QueryError.illegalOperation(message: "Cannot aggregate property '\(property)' of this type", at: nil)
        }
        return (column, try rows())
    }

    private func forEachValue(_ column: Column, _ rows: [Int]?, _ body: (Value) -> Void) throws {
        let values = try table.values(column)
        if let rows {
            for r in rows where r < values.count { body(values[r]) }
        } else {
            values.forEach(body)
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
