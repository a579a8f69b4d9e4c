import RealmFormat

/// `SORT(…) LIMIT(n)` on properties of the queried class itself, as a bounded selection over
/// the rows in table order: the first key of each row is compared where it lies in the file
/// (strings as bytes in place, ints unpacked) with the largest of the `n` rows kept so far,
/// and only rows that could enter the selection have their keys materialized. The order is
/// SortTable's (realm-core's `Sorter`): key by key in Mixed order, ties by position, so the
/// result is the first `n` rows of the full sort.
struct BoundedSort {
    let table: TableData
    let keys: [SortKey]
    let limit: Int

    /// nil when the keys are not all plain properties of the class, or the first is neither
    /// an int nor a string property: the caller sorts in full.
    static func make(table: TableData, keys: [SortKey], limit: Int) -> BoundedSort? {
        guard limit > 0, let first = keys.first?.path.first?.column, first.type == .int || first.type == .string else { return nil }
        for k in keys {
            guard k.path.count == 1, k.dictionaryKey == nil, k.path[0].table === table,
                  k.path[0].column.collection == nil else { return nil }
        }
        return BoundedSort(table: table, keys: keys, limit: limit)
    }

    private struct Entry {
        let row: Int
        let values: [QValue]
    }

    /// The first `limit` of `rows` (ascending table rows) in sort order.
    func rows(_ rows: [Int]) throws -> [Int] {
        if columns[0].type == .string, let column = table.stringColumn(columns[0]) { return try selection(of: rows, byPrefixOf: column) }
        return try rowsLeafByLeaf(rows)
    }

    private var columns: [Column] { keys.map { $0.path[0].column } }

    /// Entries in sort order; `a.row < b.row` breaks ties (rows arrive in ascending order).
    private func less(_ a: Entry, _ b: Entry) -> Bool {
        for t in 0..<a.values.count {
            let c = QValue.compare(a.values[t], b.values[t])
            if c != 0 { return keys[t].ascending ? c < 0 : c > 0 }
        }
        return a.row < b.row
    }

    /// A plain string first key: each row's first 8 bytes as an integer (`StringColumn.
    /// prefixKeys`, read in place in one pass), compared with the last kept row's. Only a row
    /// whose key ties has its string read; only a row that can enter has its keys made.
    private func selection(of rows: [Int], byPrefixOf column: StringColumn) throws -> [Int] {
        let snapshot = table.snapshot
        let prefixes = try column.prefixKeys(of: rows, snapshot: snapshot)
        let ascending = keys[0].ascending, single = keys.count == 1
        var heap = BoundedHeap<Entry>(capacity: limit, less: less)
        var bar: UInt64 = 0                 // the largest kept row's key, once the heap is full
        var others = SecondaryKeys(table: table, columns: Array(columns.dropFirst()))
        for (k, row) in rows.enumerated() {
            let key = prefixes[k]
            var first: QValue?
            if heap.isFull, let largest = heap.largest {
                if ascending ? key > bar : key < bar { continue }
                if key == bar {
                    let v = try column.value(ofRow: row, snapshot: snapshot).map(QValue.string) ?? .null
                    let c = QValue.compare(v, largest.values[0])
                    if (ascending ? c > 0 : c < 0) || (c == 0 && single) { continue }
                    first = v
                }
            }
            let value = try first ?? column.value(ofRow: row, snapshot: snapshot).map(QValue.string) ?? .null
            heap.offer(Entry(row: row, values: [value] + (try others.values(row: row))))
            if heap.isFull, let largest = heap.largest {
                if case let .string(b) = largest.values[0] { bar = StringColumn.prefixKey(of: b) } else { bar = 0 }
            }
        }
        return heap.sorted().map(\.row)
    }

    /// The first key read per leaf in place, the others decoded per leaf when needed.
    private func rowsLeafByLeaf(_ rows: [Int]) throws -> [Int] {
        let snapshot = table.snapshot
        let leaves = try table.leaves()
        let firstAscending = keys[0].ascending
        let columns = self.columns
        var heap = BoundedHeap<Entry>(capacity: limit, less: less)   // largest: the last of the rows kept

        var k = 0      // position in `rows`
        for (leaf, start) in leaves {
            let end = start + leaf.count
            guard k < rows.count else { break }
            guard rows[k] < end else { continue }
            // The first key in place; the others decoded for this leaf only when needed.
            guard let ref = leaf.columnRef(columns[0].leafIndex) else {
                throw FormatError.corrupt(offset: leaf.node.ref, reason: "class '\(table.className)': no data for property '\(columns[0].name)'")
            }
            var strings: StringLeafReader?
            var ints: IntegerLeaf?
            if columns[0].type == .string {
                strings = try StringLeafReader(snapshot, ref: ref, enumValues: table.table.enumValuesRef(for: columns[0]))
            } else {
                ints = try IntegerLeaf(snapshot, ref: ref, nullable: columns[0].isNullable)
            }
            guard (strings?.count ?? ints?.count) == leaf.count else {
                throw FormatError.corrupt(offset: ref, reason: "class '\(table.className)': property '\(columns[0].name)' holds a different number of values than objects")
            }
            var decoded = [[Value]?](repeating: nil, count: columns.count)

            func firstValue(_ i: Int) throws -> QValue {
                if let strings { return try strings.value(i).map(QValue.string) ?? .null }
                if let ints { return ints.isNull(i) ? .null : .int(ints[i]) }
                return .null
            }
            func entry(_ row: Int) throws -> Entry {
                let i = row - start
                var values = [try firstValue(i)]
                values.reserveCapacity(columns.count)
                for t in 1..<max(columns.count, 1) {
                    if decoded[t] == nil { decoded[t] = try table.decode(columns[t], in: leaf) }
                    values.append(QValue(decoded[t]![i]))
                }
                return Entry(row: row, values: values)
            }
            // The first key of row `i` against the last kept row's: < 0 when it sorts before.
            func compareFirst(_ i: Int, _ kept: QValue) throws -> Int {
                var c: Int
                if let strings {
                    c = 0
                    _ = try strings.matches(i) { s in
                        guard let s else {
                            c = kept.isNull ? 0 : -1        // null sorts first (Mixed order)
                            return true
                        }
                        if case let .string(b) = kept {
                            c = StringMatching.compare(s, b)
                        } else {
                            c = QValue.compare(.string(StringMatching.array(s)), kept)
                        }
                        return true
                    }
                } else if let ints {
                    c = QValue.compare(ints.isNull(i) ? .null : .int(ints[i]), kept)
                } else {
                    c = 0
                }
                return firstAscending ? c : -c
            }

            while k < rows.count, rows[k] < end {
                let row = rows[k]
                k += 1
                guard row >= start else { continue }
                if let largest = heap.largest, heap.isFull {
                    let c = try compareFirst(row - start, largest.values[0])
                    // After the last kept row on the first key, or tied on the only key (a
                    // later row loses ties): it cannot enter.
                    if c > 0 || (c == 0 && columns.count == 1) { continue }
                }
                heap.offer(try entry(row))
            }
        }
        return heap.sorted().map(\.row)
    }
}

/// The values of the sort keys after the first for single rows: ints read in place
/// (`TableData.value(of:atRow:)`), others from their leaf decoded once while rows stay in it.
private struct SecondaryKeys {
    let table: TableData
    let columns: [Column]
    private var decoded: [(leaf: Int, values: [Value])?]

    init(table: TableData, columns: [Column]) {
        self.table = table
        self.columns = columns
        decoded = Array(repeating: nil, count: columns.count)
    }

    mutating func values(row: Int) throws -> [QValue] {
        var out = [QValue]()
        out.reserveCapacity(columns.count)
        for (t, c) in columns.enumerated() {
            if c.type == .int {
                out.append(QValue(try table.value(of: c, atRow: row)))
                continue
            }
            let positions = try table.leafKeyIndex()
            guard let l = positions.leaf(ofRow: row) else { throw QueryError.illegalOperation(message: "Row \(row) is outside class '\(table.className)'", at: nil) }
            if decoded[t]?.leaf != l { decoded[t] = (l, try table.decode(c, in: table.leaves()[l].leaf)) }
            out.append(QValue(decoded[t]!.values[row - positions.starts[l]]))
        }
        return out
    }
}
