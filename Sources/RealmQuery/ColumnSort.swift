import RealmFormat

/// SORT by plain string and int properties of the queried class, the keys read in place from
/// the columns checked whole (`StringColumn`, `IntegerColumn`) into flat arrays: a string as
/// its 8-byte prefix key plus its bytes in one buffer for the ties, an int as itself. The rows
/// are sorted as (first 16 bytes of the first key as two integers, position) pairs, so most
/// comparisons are two integer compares; only pairs that tie there compare the keys in full.
/// The order is SortTable's (Mixed order per key — null first — ties by position), so either
/// gives the same rows.
struct ColumnSort {
    private enum Key {
        case string(prefixes: [UInt64], bytes: [UInt8], ends: [Int], nulls: [Bool])
        case int(values: [Int64], nulls: [Bool])
    }
    private let keys: [(key: Key, ascending: Bool)]
    /// For each row, the first key's order as two integers (equal for equal values, and in
    /// the key's direction): a string's bytes 0–7 and 8–15, an int and 0; a null shares them
    /// with the smallest value ("", Int64.min) and is told apart by the full comparison.
    private let primary: [(UInt64, UInt64)]

    /// nil unless every key is a plain string or int property of `table` whose column reads
    /// whole (the caller sorts with SortTable then).
    static func make(table: TableData, keys: [SortKey], rows: [Int]) throws -> ColumnSort? {
        var plain = [(column: Column, ascending: Bool)]()
        for k in keys {
            guard k.path.count == 1, k.dictionaryKey == nil, k.path[0].table === table, k.path[0].column.collection == nil,
                  [.string, .int].contains(k.path[0].column.type) else { return nil }
            plain.append((k.path[0].column, k.ascending))
        }
        var out = [(key: Key, ascending: Bool)]()
        var primary = [(UInt64, UInt64)]()
        for (column, ascending) in plain {
            if column.type == .string {
                guard let strings = table.stringColumn(column) else { return nil }
                let prefixes = try strings.prefixKeys(of: rows, snapshot: table.snapshot)
                let (bytes, ends, nulls) = try strings.values(of: rows, snapshot: table.snapshot)
                if out.isEmpty {
                    let second = try strings.prefixKeys(of: rows, offset: 8, snapshot: table.snapshot)
                    primary = ascending ? Array(zip(prefixes, second)) : zip(prefixes, second).map { (~$0, ~$1) }
                }
                out.append((.string(prefixes: prefixes, bytes: bytes, ends: ends, nulls: nulls), ascending))
            } else {
                guard let ints = table.keptIntegerColumn(column) else { return nil }
                let positions = try table.leafKeyIndex()
                var values = [Int64](), nulls = [Bool]()
                values.reserveCapacity(rows.count)
                nulls.reserveCapacity(rows.count)
                for row in rows {
                    guard let l = positions.leaf(ofRow: row) else { return nil }
                    let v = ints.value(leaf: l, at: row - positions.starts[l])
                    values.append(v ?? 0)
                    nulls.append(v == nil)
                }
                if out.isEmpty {
                    // Sign bit flipped: unsigned order of the bits is the ints' order; null
                    // below all of them (with Int64.min, told apart by the full comparison).
                    primary = zip(values, nulls).map { v, null in
                        let u = null ? 0 : UInt64(bitPattern: v) ^ (1 << 63)
                        return (ascending ? u : ~u, 0)
                    }
                }
                out.append((.int(values: values, nulls: nulls), ascending))
            }
        }
        return ColumnSort(keys: out, primary: primary)
    }

    /// `rows` (the ones `make` was given) in sort order; only the first `prefix` when given.
    func sorted(_ rows: [Int], prefix: Int?) -> [Int] {
        // The full comparison, for rows whose first 16 bytes (or int) tie.
        let tied = { (i: Int, j: Int) -> Bool in
            for (key, ascending) in keys {
                let c = Self.compare(key, i, j)
                if c != 0 { return ascending ? c < 0 : c > 0 }
            }
            return i < j
        }
        if let n = prefix, n < rows.count / 4 {
            let less = { (i: Int, j: Int) -> Bool in primary[i] != primary[j] ? primary[i] < primary[j] : tied(i, j) }
            return SortTable.smallest(n, of: rows.count, by: less).map { rows[$0] }
        }
        var pairs = primary.enumerated().map { (key: $0.element, position: $0.offset) }
        pairs.sort { a, b in a.key != b.key ? a.key < b.key : tied(a.position, b.position) }
        return pairs.map { rows[$0.position] }
    }

    /// Mixed order of one key's values at positions i and j: null first, then by value; for
    /// strings the prefix keys first and the bytes only when those tie.
    private static func compare(_ key: Key, _ i: Int, _ j: Int) -> Int {
        switch key {
        case let .int(values, nulls):
            if nulls[i] || nulls[j] { return nulls[i] == nulls[j] ? 0 : (nulls[i] ? -1 : 1) }
            return values[i] == values[j] ? 0 : (values[i] < values[j] ? -1 : 1)
        case let .string(prefixes, bytes, ends, nulls):
            if nulls[i] || nulls[j] { return nulls[i] == nulls[j] ? 0 : (nulls[i] ? -1 : 1) }
            if prefixes[i] != prefixes[j] { return prefixes[i] < prefixes[j] ? -1 : 1 }
            let a = i == 0 ? 0 : ends[i - 1], b = j == 0 ? 0 : ends[j - 1]
            let la = ends[i] - a, lb = ends[j] - b
            return bytes.withUnsafeBufferPointer { p in
                // Equal prefix keys: the first min(8, lengths) bytes are equal.
                var k = Swift.min(8, la, lb)
                let n = Swift.min(la, lb)
                while k < n {
                    let x = p[a + k], y = p[b + k]
                    if x != y { return x < y ? -1 : 1 }
                    k += 1
                }
                return la == lb ? 0 : (la < lb ? -1 : 1)
            }
        }
    }
}
