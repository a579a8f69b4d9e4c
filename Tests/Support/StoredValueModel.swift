import RealmFormat

/// What tests expect a write to store, worked out plainly and apart from the writer: value
/// identity to the bit, and the orders Realm Core 14 gives sets and dictionaries
/// (realm-format.md §10.2, §10.3; realm-core `Set<T>::insert`, `Dictionary::insert`).
public enum StoredValueModel {
    /// Equal to the bit: floats, doubles and decimals by their bits (NaN payloads, −0.0),
    /// collections element by element in order.
    public static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case let (.float(x), .float(y)): return x.bitPattern == y.bitPattern
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.decimal(x), .decimal(y)):
            guard let bx = try? x.bidBits(), let by = try? y.bidBits() else { return false }
            return bx == by
        case let (.list(x), .list(y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case let (.dictionary(x), .dictionary(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
        default: return a == b
        }
    }

    /// Realm Core's `Set<float/double>::insert` of each element in turn: `std::lower_bound`
    /// under IEEE `<` (null below everything), then insert unless the element is in the set
    /// already (−0.0 = 0.0; as realmsh keeps sets, any NaN for a NaN — Realm would insert a
    /// second one, and a number its search misses beyond a NaN).
    public static func realmInsertion(_ elements: [Value]) -> [Value] {
        var out: [Value] = []
        for v in elements {
            let x = number(v)
            if out.contains(where: { u in
                let y = number(u)
                return (x == nil && y == nil) || (x != nil && y != nil && (x! == y! || (x!.isNaN && y!.isNaN)))
            }) { continue }
            var first = 0, count = out.count
            while count > 0 {
                let step = count / 2, middle = first + step
                let less: Bool = x.map { x in number(out[middle]).map { $0 < x } ?? true } ?? false
                if less {
                    first = middle + 1
                    count -= step + 1
                } else {
                    count = step
                }
            }
            out.insert(v, at: first)
        }
        return out
    }

    /// A new set as realmsh stores it: a float or double set with a NaN as given when it is
    /// ascending with one NaN after the nulls (an order Realm makes), else Realm's insertion
    /// order; any other set sorted by Realm's element order, the first of equal ones kept.
    public static func expectedSet(_ elements: [Value], type: ColumnType) -> [Value] {
        if type == .float || type == .double, elements.contains(where: { number($0)?.isNaN ?? false }) {
            let nans = elements.indices.filter { number(elements[$0])?.isNaN ?? false }
            let others = elements.filter { !(number($0)?.isNaN ?? false) }
            let ascending = zip(others, others.dropFirst()).allSatisfy { a, b in
                guard let y = number(b) else { return false }
                guard let x = number(a) else { return true }
                return x < y
            }
            if nans.count == 1, ascending, !elements[(nans[0] + 1)...].contains(where: \.isNull) { return elements }
            return realmInsertion(elements)
        }
        var out: [Value] = []
        for v in elements.enumerated().sorted(by: { a, b in
            let c = LeafEncoder.setCompare(a.element, b.element, type: type)
            return c != 0 ? c < 0 : a.offset < b.offset
        }).map(\.element) where out.last.map({ LeafEncoder.setCompare($0, v, type: type) != 0 }) ?? true {
            out.append(v)
        }
        return out
    }

    /// Entries sorted by key (string keys byte-wise on UTF-8), the last of equal keys kept.
    public static func expectedDictionary(_ entries: [DictionaryEntry]) -> [DictionaryEntry] {
        func bytes(_ key: Value) -> [UInt8] { if case let .string(s) = key { return s } else { return [] } }
        var byKey: [[UInt8]: DictionaryEntry] = [:]
        for e in entries { byKey[bytes(e.key)] = e }
        return byKey.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { byKey[$0]! }
    }

    static func number(_ v: Value) -> Double? {
        switch v {
        case let .float(f): return Double(f)
        case let .double(d): return d
        default: return nil
        }
    }
}
