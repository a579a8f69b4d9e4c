/// Realm's element order of sets and key order of dictionaries in format 24
/// (realm-format.md §10.2, §10.3): Realm finds elements and keys by binary search, so a writer
/// must store them in exactly this order, without duplicates.
extension LeafEncoder {
    /// A set's elements of `type` in Realm's format-24 order, duplicates removed (the first
    /// occurrence stays). Floats and doubles: null, then NaN, then by value (−0.0 = 0.0).
    /// Decimals: NaN, then null, then by value (1.5 = 1.50). Mixed: `ValueOrder` (null, then by
    /// rank, numbers across types). Everything else: null first, then by value.
    public static func setOrder(_ elements: [Value], type: ColumnType) -> [Value] {
        let sorted = elements.enumerated().sorted { a, b in
            let c = setCompare(a.element, b.element, type: type)
            return c != 0 ? c < 0 : a.offset < b.offset
        }
        var out = [Value]()
        out.reserveCapacity(sorted.count)
        for (_, v) in sorted {
            if let last = out.last, setCompare(last, v, type: type) == 0 { continue }
            out.append(v)
        }
        return out
    }

    /// Dictionary entries in key order (§10.3: string keys byte-wise on UTF-8, int keys by
    /// value), one entry per key: a later entry replaces an earlier one with the same key.
    public static func dictionaryOrder(_ entries: [DictionaryEntry]) -> [DictionaryEntry] {
        let sorted = entries.enumerated().sorted { a, b in
            let c = ValueOrder.compare(a.element.key, b.element.key)
            return c != 0 ? c < 0 : a.offset < b.offset
        }
        var out = [DictionaryEntry]()
        out.reserveCapacity(sorted.count)
        for (_, entry) in sorted {
            if let last = out.last, ValueOrder.compare(last.key, entry.key) == 0 {
                out[out.count - 1] = entry
            } else {
                out.append(entry)
            }
        }
        return out
    }

    /// −1, 0 or 1: how two elements of a set of `type` are ordered (§10.2); 0 means the same
    /// element.
    public static func setCompare(_ a: Value, _ b: Value, type: ColumnType) -> Int {
        switch type {
        case .float, .double:
            // null < NaN < numbers.
            func rank(_ v: Value) -> (Int, Double) {
                switch v {
                case .null: return (0, 0)
                case let .float(f): return f.isNaN ? (1, 0) : (2, Double(f))
                case let .double(d): return d.isNaN ? (1, 0) : (2, d)
                default: return (3, 0)
                }
            }
            let (ra, x) = rank(a), (rb, y) = rank(b)
            if ra != rb { return ra < rb ? -1 : 1 }
            if ra == 3 { return ValueOrder.compare(a, b) }
            return x == y ? 0 : (x < y ? -1 : 1)
        case .decimal:
            // NaN < null < numbers.
            func rank(_ v: Value) -> Int {
                switch v {
                case let .decimal(d): return d.kind == .nan ? 0 : 2
                case .null: return 1
                default: return 3
                }
            }
            let ra = rank(a), rb = rank(b)
            if ra != rb { return ra < rb ? -1 : 1 }
            if case let .decimal(x) = a, case let .decimal(y) = b { return x.compareNumerically(y) }
            return ValueOrder.compare(a, b)
        case .mixed:
            // Decimals against decimals exactly; a NaN stays below every number (ValueOrder).
            if case let .decimal(x) = a, case let .decimal(y) = b, x.kind != .nan, y.kind != .nan {
                return x.compareNumerically(y)
            }
            return ValueOrder.compare(a, b)
        default:
            return ValueOrder.compare(a, b)
        }
    }
}
