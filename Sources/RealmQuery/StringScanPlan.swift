import RealmFormat

/// A string condition on a plain column as the byte test a leaf scan runs in place
/// (`StringLeafReader.mark`), with exactly `DirectCondition.matchesBytes`'s answers: the same
/// null rules, `[c]` as Realm's case table (both case forms of the pattern accepted byte by
/// byte, and for a pattern with non-ASCII characters every hit confirmed by `StringMatching`,
/// which also compares those characters as wholes), LIKE split at its `*`s. Conditions it
/// does not cover (ordering, LIKE with `?` or `**`, patterns longer than `BytePattern.maxCount`)
/// have no plan and are tested value by value.
extension DirectCondition {
    var scanTest: StringScanTest? {
        let p = pattern
        switch op {
        case .equal:
            guard let p else { return StringScanTest(.constant(false), nullMatches: true) }
            return BytePattern(exact: p).map { StringScanTest(.equal($0), nullMatches: false) }
        case .notEqual:
            guard let p else { return StringScanTest(.constant(true), nullMatches: false) }
            return BytePattern(exact: p).map { StringScanTest(.equal($0), nullMatches: true, inverted: true) }
        case .beginsWith, .endsWith, .contains:
            guard let p else { return StringScanTest(.constant(true), nullMatches: true) }
            return BytePattern(exact: p).map { StringScanTest(Self.exactShape(op, $0), nullMatches: false) }
        case .like:
            guard let p else { return StringScanTest(.constant(false), nullMatches: true) }
            return Self.likeShape(p, p).map { StringScanTest($0, nullMatches: false) }
        case .equalIns, .notEqualIns:
            let inverted = op == .notEqualIns
            guard let p else { return StringScanTest(.constant(inverted), nullMatches: !inverted) }
            guard let f = folded else {
                return BytePattern(exact: p).map { StringScanTest(.equal($0), nullMatches: inverted, inverted: inverted) }
            }
            guard let bytes = BytePattern(either: f.lower, or: f.upper) else { return nil }
            return StringScanTest(.equal(bytes), nullMatches: inverted, inverted: inverted,
                                  confirm: f.isASCII ? nil : { StringMatching.equalIns($0, f) })
        case .beginsWithIns, .endsWithIns, .containsIns:
            guard p != nil else {
                // A null pattern begins, ends and is contained in every value; a null binary
                // does not contain it (query-language.md §5.6), a null string does.
                return StringScanTest(.constant(true), nullMatches: op != .containsIns || type == .string)
            }
            // A pattern that is not UTF-8 matches nothing (matchesBytes).
            guard let f = folded else { return StringScanTest(.constant(false), nullMatches: false) }
            guard let bytes = BytePattern(either: f.lower, or: f.upper) else { return nil }
            let confirm: ((Span<UInt8>) -> Bool)?
            switch op {
            case _ where f.isASCII: confirm = nil
            case .beginsWithIns: confirm = { StringMatching.beginsWithIns($0, f) }
            case .endsWithIns: confirm = { StringMatching.endsWithIns($0, f) }
            default: confirm = { StringMatching.containsIns($0, f) }
            }
            return StringScanTest(Self.exactShape(op, bytes), nullMatches: false, confirm: confirm)
        case .likeIns:
            guard let p else { return StringScanTest(.constant(false), nullMatches: true) }
            // LIKE[c] compares byte by byte with the other case's byte as the alternative
            // (StringMatching.likeIns): no character-level confirmation.
            let shape = folded.map { Self.likeShape($0.lower, $0.upper) } ?? Self.likeShape(p, p)
            return shape.map { StringScanTest($0, nullMatches: false) }
        case .less, .lessEqual, .greater, .greaterEqual:
            return nil
        }
    }

    private static func exactShape(_ op: Operator, _ p: BytePattern) -> StringScanTest.Shape {
        switch op {
        case .beginsWith, .beginsWithIns: return .prefix(p)
        case .endsWith, .endsWithIns: return .suffix(p)
        default: return .contains(p)
        }
    }

    /// A LIKE pattern (its two case forms; the same bytes twice when exact) as parts between
    /// its `*`s: a pattern without `*` is an equality, one with `*` at either end is not
    /// anchored there. nil when it has a `?` (one UTF-8 character, not one byte) or two `*`s in
    /// a row (realm-core's match then treats the end of the text specially: StringMatching.like).
    static func likeShape(_ lower: [UInt8], _ upper: [UInt8]) -> StringScanTest.Shape? {
        let star = UInt8(ascii: "*"), question = UInt8(ascii: "?")
        guard lower.count == upper.count, !lower.contains(question), !upper.contains(question) else { return nil }
        var parts = [(Int, Int)]()      // ranges between stars
        var start = 0
        for i in 0...lower.count where i == lower.count || lower[i] == star {
            guard i == lower.count || upper[i] == star else { return nil }
            parts.append((start, i))
            start = i + 1
        }
        func pattern(_ r: (Int, Int)) -> BytePattern? { BytePattern(either: Array(lower[r.0..<r.1]), or: Array(upper[r.0..<r.1])) }
        if parts.count == 1 { return pattern(parts[0]).map { .equal($0) } }
        // No empty part between two stars.
        for r in parts.dropFirst().dropLast() where r.0 == r.1 { return nil }
        var middles = [BytePattern]()
        for r in parts.dropFirst().dropLast() {
            guard let m = pattern(r) else { return nil }
            middles.append(m)
        }
        let first = parts[0], last = parts[parts.count - 1]
        var prefix: BytePattern?, suffix: BytePattern?
        if first.0 < first.1 {
            guard let p = pattern(first) else { return nil }
            prefix = p
        }
        if last.0 < last.1 {
            guard let s = pattern(last) else { return nil }
            suffix = s
        }
        // One part with stars around it is the simpler test of that shape.
        switch (prefix, middles.count, suffix) {
        case (nil, 1, nil): return .contains(middles[0])
        case let (p?, 0, nil): return .prefix(p)
        case let (nil, 0, s?): return .suffix(s)
        default: return .segments(prefix: prefix, middles: middles, suffix: suffix)
        }
    }
}
