/// Index entries waiting to go into one column's search index (`TableEditor.pendingIndex`):
/// a million new objects' primary keys, say. Int values are kept as two plain arrays, values
/// and ObjKeys, until a value of another kind arrives (then all become `Value`s); a bulk
/// insert then sorts and builds from the ints (`SearchIndexWriter.build(ints:)`) with no boxed
/// value per entry.
struct PendingIndexEntries {
    private(set) var ints: [Int64] = []
    private(set) var keys: [Int64] = []
    /// Set once a value that is not an int arrived: every entry, in order.
    private(set) var values: [Value]?

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    init() {}

    /// An int column's entries (an index rebuild's).
    init(ints: [Int64], keys: [Int64]) {
        self.ints = ints
        self.keys = keys
    }

    mutating func append(_ value: Value, key: Int64) {
        keys.append(key)
        if values != nil {
            values!.append(value)
        } else if case let .int(v) = value {
            ints.append(v)
        } else {
            values = ints.map(Value.int) + [value]
            ints = []
        }
    }

    /// Entry `i`'s value.
    func value(_ i: Int) -> Value { values?[i] ?? .int(ints[i]) }

    /// The entries as (value, ObjKey) pairs.
    var pairs: [(value: Value, key: Int64)] { (0..<count).map { (value($0), keys[$0]) } }
}
