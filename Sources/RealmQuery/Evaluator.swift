import RealmFormat

/// Runs a compiled predicate over the objects of one class, a set of rows at a time: AND
/// narrows the candidates child by child, OR tries each child on the rows not matched yet, NOT
/// takes the complement within the candidates. A comparison of an int, bool, float, double,
/// timestamp or string property with a constant scans the column's leaves in place (no value
/// is decoded per object); equality on an indexed property asks the search index first
/// (IndexLookup.swift); everything else tests candidate rows one by one.
struct Evaluator {
    let table: TableData

    func evaluate(_ predicate: CompiledPredicate, candidates: Bitset) throws -> Bitset {
        switch predicate {
        case let .and(children):
            var rows = candidates
            for c in children {
                if rows.isEmpty { break }
                rows = try evaluate(c, candidates: rows)
            }
            return rows
        case let .or(children):
            var matched = Bitset(count: candidates.count)
            var remaining = candidates
            for c in children {
                if remaining.isEmpty { break }
                let m = try evaluate(c, candidates: remaining)
                matched.formUnion(m)
                remaining.subtract(m)
            }
            return matched
        case let .not(child):
            var rows = candidates
            rows.subtract(try evaluate(child, candidates: candidates))
            return rows
        case let .constant(value):
            return value ? candidates : Bitset(count: candidates.count)
        case let .compare(c):
            return try filter(candidates) { try c.matches(row: $0) }
        case let .direct(d):
            if let found = try indexLookup(d, candidates) { return found }
            if let scanned = try scan(d, candidates) { return scanned }
            let values = try table.values(d.column)
            return try filter(candidates) { d.matches(values[$0]) }
        case let .directIn(d):
            let values = try table.values(d.column)
            return try filter(candidates) { d.matches(values[$0]) }
        case let .between(b):
            let values = try table.values(b.column)
            return try filter(candidates) { b.matches(values[$0]) }
        case let .linksTo(l):
            let values = try table.values(l.column)
            return try filter(candidates) { l.matches(values[$0]) }
        case let .fullText(f):
            return try f.evaluate(table, candidates)
        }
    }

    func filter(_ candidates: Bitset, _ test: (Int) throws -> Bool) throws -> Bitset {
        var out = Bitset(count: candidates.count)
        try candidates.forEach { row in if try test(row) { out.insert(row) } }
        return out
    }

    /// The leaf scan for numeric, bool, timestamp and string properties; nil for other types.
    /// Ints, bools, floats and doubles are compared a whole leaf at a time in place
    /// (`IntegerLeaf.markRange`, `FloatingLeaf.mark`), strings value by value where they lie in
    /// the file (`StringLeafReader`); the marks are then narrowed to the candidates.
    func scan(_ d: DirectCondition, _ candidates: Bitset) throws -> Bitset? {
        guard d.column.collection == nil, [.int, .bool, .float, .double, .timestamp, .string].contains(d.type) else { return nil }
        let snapshot = table.snapshot
        var out = Bitset(count: candidates.count)
        let intRange = d.type == .int ? Self.intRange(d) : nil
        let leaves = try table.leaves()
        let refs = try table.columnRefs(d.column)
        func ref(_ l: Int) throws -> Int {
            guard l < refs.count, refs[l] != 0 else {
                throw FormatError.corrupt(offset: leaves[l].leaf.node.ref, reason: "class '\(table.className)': no data for property '\(d.column.name)'")
            }
            return refs[l]
        }
        func check(_ count: Int, _ l: Int) throws {
            guard count == leaves[l].leaf.count else {
                throw FormatError.corrupt(offset: refs[l], reason: "class '\(table.className)': property '\(d.column.name)' holds \(count) values for \(leaves[l].leaf.count) objects")
            }
        }
        func integers(_ l: Int, nullable: Bool) throws -> IntegerLeaf {
            let values = try IntegerLeaf(snapshot, ref: ref(l), nullable: nullable)
            try check(values.count, l)
            return values
        }
        // Ints and bools against a range: the column checked whole, every leaf marked in one
        // loop (`IntegerColumn`); a column that fails its checks goes leaf by leaf below.
        if let r = Self.integerRange(d), let column = table.integerColumn(d.column, nullable: r.nullable) {
            out.withWords { words in
                column.markRange(r.lower, r.upper, outside: r.outside, nullMatches: r.nullMatches, into: &words) { start, count in
                    candidates.any(in: start, start + count)
                }
            }
            out.formIntersection(candidates)
            return out
        }
        switch d.type {
        case .int:
            try forEachLeaf(leaves, candidates, open: { l throws in try integers(l, nullable: d.column.isNullable) }) { l, values in
                let start = leaves[l].start
                if let r = intRange {
                    out.withWords { values.markRange(r.lower, r.upper, outside: r.outside, nullMatches: r.nullMatches, into: &$0, first: start) }
                } else {
                    for i in 0..<values.count where d.matchesInt(values.isNull(i) ? nil : values[i]) { out.insert(start + i) }
                }
            }
        case .bool:
            // Raw 0 is false, 1 true, anything else null (§9.2): only == and != on a bool
            // constant can match, and a null matches != (realm-core's `x != v`).
            guard case let .bool(b) = d.value, d.op == .equal || d.op == .notEqual else { break }
            let raw: Int64 = b ? 1 : 0
            try forEachLeaf(leaves, candidates, open: { l throws in try integers(l, nullable: false) }) { l, values in
                out.withWords { values.markRange(raw, raw, outside: d.op == .notEqual, nullMatches: false, into: &$0, first: leaves[l].start) }
            }
        case .float, .double:
            guard let (op, v) = Self.floatingComparison(d) else { break }
            try forEachLeaf(leaves, candidates, open: { l throws -> FloatingLeaf in
                let values = try FloatingLeaf(snapshot, ref: ref(l), float: d.type == .float)
                try check(values.count, l)
                return values
            }) { l, values in
                out.withWords { values.mark(op, v, nullMatches: op == .notEqual, into: &$0, first: leaves[l].start) }
            }
        case .timestamp:
            try forEachLeaf(leaves, candidates, open: { l throws -> TimestampLeaf in
                let values = try TimestampLeaf(snapshot, ref: ref(l))
                try check(values.count, l)
                return values
            }) { l, values in
                let start = leaves[l].start
                // A timestamp constant: marked a leaf at a time in place (`ordered`: null
                // matches only `!=`). Anything else (matching nothing) value by value.
                if case let .timestamp(v) = d.value, let op = Self.elementComparison(d.op) {
                    out.withWords { values.mark(op, v, nullMatches: d.op == .notEqual, into: &$0, first: start) }
                    return
                }
                candidates.forEach(in: start, start + values.count) { row in
                    if d.matches(values[row - start].map(Value.timestamp) ?? .null) { out.insert(row) }
                }
            }
        default:
            // A plain column checked whole: the condition as a byte test over its leaves in
            // place (StringScanPlan.swift, StringColumn).
            if let test = d.scanTest, let column = table.stringColumn(d.column) {
                var failure: FormatError?
                out.withWords { words in
                    do throws(FormatError) { try column.mark(test, candidates: candidates.words, into: &words, snapshot: snapshot) } catch { failure = error }
                }
                if let failure { throw failure }
                return out
            }
            let enumValues = table.table.enumValuesRef(for: d.column)
            // An enumerated column (§9.4.4): the condition is decided once for each value of
            // its list, and each object's position then picks that verdict, as realm-core
            // decides a condition on the key list first.
            let verdicts = try enumValues.map { r in
                try snapshot.enumValueList(r).values.map { v in v.map { d.matchesBytes($0.span) } ?? d.matchesBytes(nil) }
            }
            // Other leaves (a column that failed a check reports it here): the byte test leaf
            // by leaf, or value by value for the conditions it does not cover.
            let test = d.scanTest
            try forEachLeaf(leaves, candidates, open: { l throws -> StringLeafReader in
                let values = try StringLeafReader(snapshot, ref: ref(l), enumValues: enumValues)
                try check(values.count, l)
                return values
            }) { l, values in
                let start = leaves[l].start
                if let verdicts, values.isEnumerated {
                    try candidates.forEach(in: start, start + values.count) { row in
                        if verdicts[try values.position(row - start)] { out.insert(row) }
                    }
                    return
                }
                if let test {
                    var failure: FormatError?
                    out.withWords { words in
                        do throws(FormatError) { try values.mark(test, candidates: candidates.words, into: &words, first: start) } catch { failure = error }
                    }
                    if let failure { throw failure }
                    return
                }
                try candidates.forEach(in: start, start + values.count) { row in
                    if try values.matches(row - start, { d.matchesBytes($0) }) { out.insert(row) }
                }
            }
        }
        out.formIntersection(candidates)
        return out
    }

    /// Calls `body` for each leaf holding a candidate, with that leaf's column reader. The
    /// reader of the next such leaf is opened before `body` runs on the current one: opening
    /// reads the column leaf's header, which lies in another part of the file (a cache and TLB
    /// miss), and issued one leaf ahead that wait overlaps the current leaf's work.
    func forEachLeaf<Reader>(_ leaves: [(leaf: ClusterLeaf, start: Int)], _ candidates: Bitset,
                             open: (Int) throws -> Reader, _ body: (Int, Reader) throws -> Void) throws {
        func next(from l: Int) -> Int {
            var l = l
            while l < leaves.count, !candidates.any(in: leaves[l].start, leaves[l].start + leaves[l].leaf.count) { l += 1 }
            return l
        }
        var l = next(from: 0)
        guard l < leaves.count else { return }
        var current = try open(l)
        while true {
            let following = next(from: l + 1)
            let upcoming = following < leaves.count ? try open(following) : nil
            try body(l, current)
            guard let upcoming else { return }
            current = upcoming
            l = following
        }
    }

    /// The number of objects matching `d` over the whole table when an int or bool property is
    /// compared with a range and its column reads whole (`IntegerColumn.countRange`): the count
    /// of `scan` with every row a candidate, without a bit set over the table; nil otherwise.
    func scanCount(_ d: DirectCondition) -> Int? {
        guard let r = Self.integerRange(d), let column = table.integerColumn(d.column, nullable: r.nullable) else { return nil }
        return column.countRange(r.lower, r.upper, outside: r.outside, nullMatches: r.nullMatches)
    }

    /// The stored-value range an int or bool condition marks, with whether the leaves are read
    /// as nullable: ints as `intRange`; a bool `==`/`!=` a bool constant as the raw value 0 or 1
    /// (§9.2: anything else is null, which matches only `!=`). nil for other conditions.
    static func integerRange(_ d: DirectCondition) -> (lower: Int64, upper: Int64, outside: Bool, nullMatches: Bool, nullable: Bool)? {
        guard d.column.collection == nil else { return nil }
        switch d.type {
        case .int:
            guard let r = intRange(d) else { return nil }
            return (r.lower, r.upper, r.outside, r.nullMatches, d.column.isNullable)
        case .bool:
            guard case let .bool(b) = d.value, d.op == .equal || d.op == .notEqual else { return nil }
            let raw: Int64 = b ? 1 : 0
            return (raw, raw, d.op == .notEqual, false, false)
        default:
            return nil
        }
    }

    /// `IntegerNode` on a non-null int constant as a range of stored values (`markRange`):
    /// `>=` and `<=` at the ends of the range match every object, null included; otherwise null
    /// matches only `!=`. nil when the constant is not an int (then each value is tested).
    static func intRange(_ d: DirectCondition) -> (lower: Int64, upper: Int64, outside: Bool, nullMatches: Bool)? {
        guard case let .int(v) = d.value else { return nil }
        switch d.op {
        case .greaterEqual where v == .min, .lessEqual where v == .max: return (.min, .max, false, true)
        case .equal: return (v, v, false, false)
        case .notEqual: return (v, v, true, true)
        case .less: return v == .min ? (1, 0, false, false) : (.min, v - 1, false, false)
        case .lessEqual: return (.min, v, false, false)
        case .greater: return v == .max ? (1, 0, false, false) : (v + 1, .max, false, false)
        case .greaterEqual: return (v, .max, false, false)
        default: return nil
        }
    }

    /// The element comparison of a relational or equality operator; nil for the others.
    static func elementComparison(_ op: DirectCondition.Operator) -> ElementComparison? {
        switch op {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        default: return nil
        }
    }

    /// `FloatDoubleNode`'s comparison and constant; nil when nothing can match (the constant
    /// is not a float or double, or the operator is not a comparison).
    static func floatingComparison(_ d: DirectCondition) -> (ElementComparison, Double)? {
        let v: Double
        switch d.value {
        case let .float(f): v = Double(f)
        case let .double(x): v = x
        default: return nil
        }
        switch d.op {
        case .equal: return (.equal, v)
        case .notEqual: return (.notEqual, v)
        case .less: return (.less, v)
        case .lessEqual: return (.lessEqual, v)
        case .greater: return (.greater, v)
        case .greaterEqual: return (.greaterEqual, v)
        default: return nil
        }
    }
}
