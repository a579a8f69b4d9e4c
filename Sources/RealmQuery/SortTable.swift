/// The values of the SORT keys for every row, laid out flat (row-major) so that comparing two
/// rows touches no reference-counted containers; sorting then permutes plain indices.
/// The order is realm-core's `Sorter`: key by key in Mixed order, null links last ascending and
/// first descending, ties by current position, which makes it total: a full sort and a bounded
/// selection of the first `n` agree.
struct SortTable {
    let rows: [Int]
    let width: Int
    var values: [QValue]
    var nullLinks: [Bool]
    let ascending: [Bool]
    let hasLinks: [Bool]

    init(_ rows: [Int], _ keys: [SortKey]) throws {
        self.rows = rows
        width = keys.count
        ascending = keys.map(\.ascending)
        hasLinks = keys.map(\.hasLinks)
        values = []
        values.reserveCapacity(rows.count * keys.count)
        nullLinks = []
        nullLinks.reserveCapacity(rows.count * keys.count)
        for row in rows {
            for key in keys {
                let (n, v) = try key.value(row: row)
                values.append(v)
                nullLinks.append(n)
            }
        }
    }

    /// DISTINCT: the first row (in current order) of each tuple of key values, rows whose
    /// path crosses a null link dropped, survivors kept in their current order.
    func distinctRows() -> [Int] {
        values.withUnsafeBufferPointer { v in
            nullLinks.withUnsafeBufferPointer { nl in
                let w = width
                let candidates = (0..<rows.count).filter { i in
                    !(0..<w).contains { t in hasLinks[t] && nl[i &* w &+ t] }
                }
                let compare = { (i: Int, j: Int) -> Int in
                    let a = i &* w, b = j &* w
                    for t in 0..<w {
                        let c = QValue.compare(v[a &+ t], v[b &+ t])
                        if c != 0 { return c }
                    }
                    return 0
                }
                let sorted = candidates.sorted { i, j in
                    let c = compare(i, j)
                    return c != 0 ? c < 0 : i < j
                }
                var kept = [Int]()
                for i in sorted where kept.last.map({ compare($0, i) != 0 }) ?? true { kept.append(i) }
                kept.sort()
                return kept.map { rows[$0] }
            }
        }
    }

    /// The rows in sorted order; only the first `prefix` of them when it is given.
    func sortedRows(prefix: Int?) -> [Int] {
        values.withUnsafeBufferPointer { v in
            nullLinks.withUnsafeBufferPointer { nl in
                ascending.withUnsafeBufferPointer { asc in
                    hasLinks.withUnsafeBufferPointer { hl in
                        let w = width
                        let less = { (i: Int, j: Int) -> Bool in
                            var a = i &* w, b = j &* w
                            for t in 0..<w {
                                if hl[t] {
                                    let ni = nl[a], nj = nl[b]
                                    if ni && nj { a &+= 1; b &+= 1; continue }
                                    if ni || nj { return asc[t] != ni }
                                }
                                let c = QValue.compare(v[a], v[b])
                                if c != 0 { return asc[t] ? c < 0 : c > 0 }
                                a &+= 1; b &+= 1
                            }
                            return i < j
                        }
                        let order: [Int]
                        if let n = prefix, n < rows.count / 4 {
                            order = Self.smallest(n, of: rows.count, by: less)
                        } else {
                            order = Array(0..<rows.count).sorted(by: less)
                        }
                        return order.map { rows[$0] }
                    }
                }
            }
        }
    }

    /// The `n` smallest of `0..<count` in order, with a bounded max-heap: O(count·log n).
    static func smallest(_ n: Int, of count: Int, by less: (Int, Int) -> Bool) -> [Int] {
        guard n > 0 else { return [] }
        return withoutActuallyEscaping(less) { less in
            var heap = BoundedHeap<Int>(capacity: n, less: less)
            for i in 0..<count { heap.offer(i) }
            return heap.sorted()
        }
    }
}
