import RealmFormat

/// Runs a compiled predicate over the objects of one class, a set of rows at a time: AND
/// narrows the candidates child by child, OR tries each child on the rows not matched yet, NOT
/// takes the complement within the candidates. A comparison of an int, bool, float, double or
/// timestamp property with a constant scans the column's leaves in place (no value is decoded
/// per object); equality on an indexed string, ObjectId or UUID property asks the search index
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
            if let scanned = try scan(d, candidates) { return scanned }
            if let found = try indexLookup(d, candidates) { return found }
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

    /// The leaf scan for numeric, bool and timestamp properties; nil for other types.
    func scan(_ d: DirectCondition, _ candidates: Bitset) throws -> Bitset? {
        guard [.int, .bool, .float, .double, .timestamp].contains(d.type) else { return nil }
        let snapshot = table.snapshot
        var out = Bitset(count: candidates.count)
        for (leaf, start) in try table.leaves() {
            let n = leaf.count
            guard candidates.any(in: start, start + n) else { continue }
            guard let ref = leaf.columnRef(d.column.leafIndex) else {
                throw FormatError.corrupt(offset: leaf.node.ref, reason: "class '\(table.className)': no data for property '\(d.column.name)'")
            }
            func check(_ count: Int) throws {
                guard count == n else {
                    throw FormatError.corrupt(offset: ref, reason: "class '\(table.className)': property '\(d.column.name)' holds \(count) values for \(n) objects")
                }
            }
            func add(_ i: Int) { if candidates.contains(start + i) { out.insert(start + i) } }
            switch d.type {
            case .int:
                let values = try IntegerLeaf(snapshot, ref: ref, nullable: d.column.isNullable)
                try check(values.count)
                if values.nullMarker == nil, case let .int(v) = d.value {
                    switch d.op {
                    case .equal: values.forEach(in: 0..<n, where: { $0 == v }, add)
                    case .notEqual: values.forEach(in: 0..<n, where: { $0 != v }, add)
                    case .less: values.forEach(in: 0..<n, where: { $0 < v }, add)
                    case .lessEqual: values.forEach(in: 0..<n, where: { $0 <= v }, add)
                    case .greater: values.forEach(in: 0..<n, where: { $0 > v }, add)
                    case .greaterEqual: values.forEach(in: 0..<n, where: { $0 >= v }, add)
                    default: break
                    }
                } else {
                    for i in 0..<n where d.matchesInt(values.isNull(i) ? nil : values[i]) { add(i) }
                }
            case .bool:
                let values = try IntegerLeaf(snapshot, ref: ref, nullable: false)
                try check(values.count)
                for i in 0..<n {
                    let raw = values[i]
                    if d.matches(raw == 0 ? .bool(false) : (raw == 1 ? .bool(true) : .null)) { add(i) }
                }
            case .float, .double:
                let values = try FloatingLeaf(snapshot, ref: ref, float: d.type == .float)
                try check(values.count)
                for i in 0..<n where d.matchesDouble(values[i]) { add(i) }
            case .timestamp:
                let values = try TimestampLeaf(snapshot, ref: ref)
                try check(values.count)
                for i in 0..<n where d.matches(values[i].map(Value.timestamp) ?? .null) { add(i) }
            default:
                return nil
            }
        }
        return out
    }
}
