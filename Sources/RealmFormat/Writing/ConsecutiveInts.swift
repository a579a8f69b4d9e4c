/// Int64 values appended one by one, kept as the first and a count while each is one above
/// the one before, as an array from the first that is not. A bulk load's pending index
/// entries (`PendingIndexEntries`) hold their objects' ObjKeys, which come from a counter
/// (realm-format.md §8.5), and often primary keys that count up too: a million such entries
/// then cost no million-element arrays (issue #16). Values are given back exactly as they
/// were appended (a run may wrap around, as `&+` does).
struct ConsecutiveInts: RandomAccessCollection {
    private var first: Int64 = 0
    /// The number of values while they are consecutive.
    private var run = 0
    /// Every value, once they are not consecutive.
    private var array: [Int64]?

    init() {}

    init(_ values: [Int64]) { array = values }

    var startIndex: Int { 0 }
    var endIndex: Int { array?.count ?? run }

    subscript(i: Int) -> Int64 {
        if let array { return array[i] }
        precondition(i >= 0 && i < run, "index \(i) outside \(run) consecutive values")
        return first &+ Int64(i)
    }

    /// Whether the values are kept as a run (no array).
    var isRun: Bool { array == nil }

    mutating func append(_ value: Int64) {
        if array != nil {
            array!.append(value)
        } else if run == 0 {
            first = value
            run = 1
        } else if first &+ Int64(run) == value {
            run += 1
        } else {
            var values = [Int64]()
            values.reserveCapacity(run + 1)
            for i in 0..<run { values.append(first &+ Int64(i)) }
            values.append(value)
            array = values
        }
    }

    /// Keeps the first `n` values.
    mutating func keepFirst(_ n: Int) {
        if let count = array?.count {
            array!.removeSubrange(Swift.min(n, count)...)
        } else {
            run = Swift.min(run, n)
        }
    }
}
