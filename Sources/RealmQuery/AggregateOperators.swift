import RealmFormat

/// `@min @max @sum @avg` (aggregate_ops.hpp): nulls and NaNs skipped; `@sum` of nothing is 0,
/// the others null.
enum Aggregate {
    static func compute(_ op: AggregateNode.Operation, _ values: [QValue], elementType: DataType) -> QValue {
        switch elementType {
        case .int:
            let ints = values.compactMap { v -> Int64? in if case let .int(i) = v { return i } else { return nil } }
            switch op {
            case .sum: return .int(ints.reduce(0, &+))
            case .avg: return ints.isEmpty ? .null : .double(ints.reduce(0.0) { $0 + Double($1) } / Double(ints.count))
            case .min: return ints.min().map(QValue.int) ?? .null
            case .max: return ints.max().map(QValue.int) ?? .null
            }
        case .float, .double:
            let ds = values.compactMap { v -> Double? in
                switch v {
                case let .float(f) where !f.isNaN: return Double(f)
                case let .double(d) where !d.isNaN: return d
                default: return nil
                }
            }
            switch op {
            case .sum: return .double(ds.reduce(0, +))
            case .avg: return ds.isEmpty ? .null : .double(ds.reduce(0, +) / Double(ds.count))
            case .min, .max:
                let valid = values.filter { v in
                    switch v {
                    case let .float(f): return !f.isNaN
                    case let .double(d): return !d.isNaN
                    default: return false
                    }
                }
                return extreme(op, valid)
            }
        case .decimal:
            let ds = values.compactMap { v -> Decimal128? in
                if case let .decimal(d) = v, d.kind != .nan { return d }
                return nil
            }
            switch op {
            case .sum: return .decimal(ds.reduce(DecimalMath.zero, DecimalMath.add))
            case .avg:
                guard !ds.isEmpty else { return .null }
                return .decimal(DecimalMath.divide(ds.reduce(DecimalMath.zero, DecimalMath.add), DecimalMath.from(Int64(ds.count))))
            case .min, .max: return extreme(op, ds.map(QValue.decimal))
            }
        case .timestamp:
            return op == .min || op == .max ? extreme(op, values.filter { if case .timestamp = $0 { return true } else { return false } }) : .null
        default:
            return mixed(op, values)
        }
    }

    /// Mixed values: sums and averages over the numbers only (as decimals), min/max over all
    /// non-null values in Mixed order.
    static func mixed(_ op: AggregateNode.Operation, _ values: [QValue]) -> QValue {
        switch op {
        case .sum, .avg:
            var sum = DecimalMath.zero
            var count = 0
            for v in values {
                switch v {
                case let .int(i): sum = DecimalMath.add(sum, DecimalMath.from(i))
                case let .double(d): sum = DecimalMath.add(sum, DecimalMath.from(d))
                case let .float(f): sum = DecimalMath.add(sum, DecimalMath.from(f))
                case let .decimal(d) where d.kind != .nan: sum = DecimalMath.add(sum, d)
                default: continue
                }
                count += 1
            }
            if op == .sum { return .decimal(sum) }
            return count == 0 ? .null : .decimal(DecimalMath.divide(sum, DecimalMath.from(Int64(count))))
        case .min, .max:
            return extreme(op, values.filter { v in
                if v.isNull { return false }
                if case let .decimal(d) = v { return d.kind != .nan }
                return true
            })
        }
    }

    /// The first smallest (or largest) value in Mixed order.
    static func extreme(_ op: AggregateNode.Operation, _ values: [QValue]) -> QValue {
        var best: QValue?
        for v in values {
            guard let b = best else {
                best = v
                continue
            }
            let c = QValue.compare(v, b)
            if (op == .min && c < 0) || (op == .max && c > 0) { best = v }
        }
        return best ?? .null
    }

    /// Dictionary aggregates dispatch on the dictionary's value type (dictionary.cpp).
    static func dictionary(_ op: AggregateNode.Operation, _ values: [QValue], valueType: DataType) -> QValue {
        let nonNull = values.filter { !$0.isNull }
        switch (op, valueType) {
        case (.sum, .int), (.avg, .int): return compute(op, nonNull, elementType: .int)
        case (.sum, .double), (.avg, .double), (.sum, .float), (.avg, .float): return compute(op, nonNull, elementType: .double)
        default: return mixed(op, nonNull)
        }
    }
}
