/// Index entries waiting to go into one column's search index (`TableEditor.pendingIndex`):
/// a million new objects' primary keys, say. Int values are kept as two plain sequences, values
/// and ObjKeys (each a mere count while it counts up, `ConsecutiveInts`), until a value of
/// another kind arrives (then all become `Value`s); a bulk insert then sorts and builds from
/// the ints (`SearchIndexWriter.build(ints:)`) with no boxed value per entry.
struct PendingIndexEntries {
    private(set) var ints = ConsecutiveInts()
    private(set) var keys = ConsecutiveInts()
    /// Set once a value that is not an int arrived: every entry, in order.
    private(set) var values: [Value]?
    /// The first entries whose int values ascend strictly, each above the one before: a
    /// primary key's entries in a bulk load, looked up here (`PendingPrimaryKeys`) rather than
    /// in a second copy. `ints` keeps them when the entries turn into `Value`s.
    private(set) var ascendingInts = 0

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    init() {}

    /// An int column's entries (an index rebuild's).
    init(ints: [Int64], keys: [Int64]) {
        self.ints = ConsecutiveInts(ints)
        self.keys = ConsecutiveInts(keys)
    }

    mutating func append(_ value: Value, key: Int64) {
        keys.append(key)
        if values != nil {
            values!.append(value)
        } else if case let .int(v) = value {
            if extendsAscendingInts(v) { ascendingInts += 1 }
            ints.append(v)
        } else {
            values = ints.map(Value.int) + [value]
            ints.keepFirst(ascendingInts)
        }
    }

    /// Whether an int appended next joins the ascending first entries.
    func extendsAscendingInts(_ v: Int64) -> Bool {
        values == nil && ascendingInts == ints.count && (ints.last.map { v > $0 } ?? true)
    }

    /// The ObjKey of the entry among the ascending first ones whose value is `v`, if any.
    func key(ofAscendingInt v: Int64) -> Int64? {
        guard ascendingInts > 0, v <= ints[ascendingInts - 1] else { return nil }
        var lo = 0, hi = ascendingInts
        while lo < hi {
            let mid = (lo + hi) / 2
            if ints[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo < ascendingInts && ints[lo] == v ? keys[lo] : nil
    }

    /// Entry `i`'s value.
    func value(_ i: Int) -> Value { values?[i] ?? .int(ints[i]) }

    /// The entries as (value, ObjKey) pairs.
    var pairs: [(value: Value, key: Int64)] { (0..<count).map { (value($0), keys[$0]) } }
}
