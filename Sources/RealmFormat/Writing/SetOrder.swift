/// Realm's element order of sets and key order of dictionaries in format 24
/// (realm-format.md §10.2, §10.3): Realm finds elements and keys by binary search, so a writer
/// must store them in the order Realm Core would have made.
extension LeafEncoder {
    /// A new set of `type` in an order Realm Core 14 stores: `elements` as they are when they
    /// already are such an order, else the set Realm builds from them inserted one at a time,
    /// in this order, as an SDK assigns a set (`Set<T>::insert`: `std::lower_bound` with the
    /// element type's `<`; the element goes there unless the one found equals it).
    ///
    /// For most types `<` is a total order, so that is the elements sorted, the first of equal
    /// ones kept: null first, then by value; decimals NaN, then null, then by value (1.5 =
    /// 1.50); Mixed by `ValueOrder` (numbers across types). Floats and doubles compare with
    /// IEEE `<` and `==` (null below every number): −0.0 equals 0.0, and a NaN is neither less
    /// nor greater than anything, so where a NaN lands — and where later elements land around
    /// it — depends on the order of insertion (§10.2). Any ascending order with one NaN
    /// after the nulls is one Realm makes (insert the numbers above the NaN's place, then the
    /// NaN, then the rest, each ascending), so such an order is kept: a set exported with a
    /// NaN comes back as it was, and with the NaN last Realm's binary search finds every
    /// number. One thing differs from Realm: its search can miss an equal element on the far
    /// side of a NaN, and `==` never holds for NaN, so Realm would then store an element
    /// twice; here a set keeps one of each (one NaN).
    public static func setOrder(_ elements: [Value], type: ColumnType) -> [Value] {
        if type == .float || type == .double, elements.contains(where: \.isNaN),
           elements.allSatisfy({ $0.isNullOrIEEENumber }) {
            return isAscending(withOneNaN: elements) ? elements : insertionOrder(elements)
        }
        return needsSetOrder(elements, type: type) ? sortedSetOrder(elements, type: type) : elements
    }

    /// Whether a stored set of `type` must be put in Realm's order before it is written again
    /// (a set of a file of format < 24, a value not made by `setOrder`): the elements of a
    /// totally ordered type must be strictly ascending. A float or double set holding a NaN is
    /// written as it is: Realm can have stored it in any order.
    public static func needsSetOrder(_ elements: [Value], type: ColumnType) -> Bool {
        if type == .float || type == .double, elements.contains(where: \.isNaN) { return false }
        for i in elements.indices.dropFirst() where setCompare(elements[i - 1], elements[i], type: type) >= 0 { return true }
        return false
    }

    /// Float/double elements with exactly one NaN, after every null, the others strictly
    /// ascending.
    private static func isAscending(withOneNaN elements: [Value]) -> Bool {
        guard let nan = elements.firstIndex(where: \.isNaN),
              !elements[(nan + 1)...].contains(where: { $0.isNaN || $0.isNull }) else { return false }
        var others = elements
        others.remove(at: nan)
        return !needsSetOrder(others, type: .double)
    }

    /// The elements sorted by `setCompare`, the first of equal ones kept.
    private static func sortedSetOrder(_ elements: [Value], type: ColumnType) -> [Value] {
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

    /// Realm's insertion of float/double elements (nulls, numbers, NaNs) one by one: each
    /// goes where `std::lower_bound` (the standard halving search, which probes the same
    /// positions in every C++ library) puts it under IEEE `<`, unless it is in the set
    /// already. The set is held in chunks so that large sets do not cost a quadratic copy.
    private static func insertionOrder(_ elements: [Value]) -> [Value] {
        func number(_ v: Value) -> Double? {
            switch v {
            case let .float(f): return Double(f)
            case let .double(d): return d
            default: return nil
            }
        }
        // `std::optional<T>`'s `<`: null below everything, never above; values by IEEE `<`.
        func less(_ a: Value, _ b: Value) -> Bool {
            guard let y = number(b) else { return false }
            guard let x = number(a) else { return true }
            return x < y
        }
        var set = ChunkedSequence()
        // Elements in the set by value (every NaN as one, −0.0 as 0.0, nil for null).
        var present = Set<UInt64?>()
        for v in elements {
            let identity = number(v).map { $0.isNaN ? Double.nan.bitPattern : ($0 == 0 ? 0 : $0.bitPattern) }
            guard present.insert(identity).inserted else { continue }
            var first = 0, length = set.count
            while length > 0 {
                let half = length >> 1
                if less(set[first + half], v) {
                    first += half + 1
                    length -= half + 1
                } else {
                    length = half
                }
            }
            set.insert(v, at: first)
        }
        return set.elements
    }

    /// Dictionary entries in key order (§10.3: string keys byte-wise on UTF-8, int keys by
    /// value), one entry per key: a later entry replaces an earlier one with the same key.
    public static func dictionaryOrder(_ entries: [DictionaryEntry]) -> [DictionaryEntry] {
        if zip(entries, entries.dropFirst()).allSatisfy({ ValueOrder.compare($0.key, $1.key) < 0 }) { return entries }
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
    /// element. A total order: for floats and doubles null, then NaN, then by value (−0.0 =
    /// 0.0), which is Realm's order for sets without a NaN (`setOrder` places NaNs as Realm
    /// does).
    public static func setCompare(_ a: Value, _ b: Value, type: ColumnType) -> Int {
        switch type {
        case .float, .double:
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

/// A sequence with positional insert in chunks of at most 512 elements: `setOrder`'s model of
/// a set that grows by insertion.
private struct ChunkedSequence {
    private var chunks: [[Value]] = [[]]
    private var starts: [Int] = [0]
    private(set) var count = 0

    subscript(i: Int) -> Value {
        let c = chunk(holding: i)
        return chunks[c][i - starts[c]]
    }

    mutating func insert(_ v: Value, at i: Int) {
        let c = i == count ? chunks.count - 1 : chunk(holding: i)
        chunks[c].insert(v, at: i - starts[c])
        count += 1
        for j in (c + 1)..<chunks.count { starts[j] += 1 }
        if chunks[c].count > 512 {
            let tail = Array(chunks[c][256...])
            chunks[c].removeSubrange(256...)
            chunks.insert(tail, at: c + 1)
            starts.insert(starts[c] + 256, at: c + 1)
        }
    }

    var elements: [Value] { chunks.flatMap { $0 } }

    /// The last chunk starting at or before `i`.
    private func chunk(holding i: Int) -> Int {
        var lo = 0, hi = starts.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if starts[mid] <= i { lo = mid } else { hi = mid }
        }
        return lo
    }
}

extension Value {
    /// A float or double NaN.
    var isNaN: Bool {
        switch self {
        case let .float(f): return f.isNaN
        case let .double(d): return d.isNaN
        default: return false
        }
    }

    /// Null, a float or a double: what a float or double set holds.
    var isNullOrIEEENumber: Bool {
        switch self {
        case .null, .float, .double: return true
        default: return false
        }
    }
}
