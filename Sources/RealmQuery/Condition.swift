/// The comparison functors of realm-core's expression path (query_conditions.hpp, the
/// `QueryValue` overloads) and its quantified list comparison (`ValueBase::compare`,
/// query-language.md §5.2, §5.3).
enum Condition: Sendable, Equatable {
    case equal, notEqual, less, lessEqual, greater, greaterEqual
    case equalIns, notEqualIns
    case beginsWith, beginsWithIns, endsWith, endsWithIns, contains, containsIns, like, likeIns

    /// String operators take the pattern as their first argument (realm-core builds them as
    /// `Compare<Op>(pattern, property)`).
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .beginsWithIns, .endsWith, .endsWithIns, .contains, .containsIns, .like, .likeIns: return true
        default: return false
        }
    }

    var isRelational: Bool { [.less, .lessEqual, .greater, .greaterEqual].contains(self) }

    /// `cond(m1, m2)`. For string operators m1 is the pattern and m2 the property value.
    func evaluate(_ m1: QValue, _ m2: QValue) -> Bool {
        switch self {
        case .equal:
            return (m1.isNull && m2.isNull) || (QValue.typesAreComparable(m1, m2) && QValue.compare(m1, m2) == 0)
        case .notEqual:
            return !Condition.equal.evaluate(m1, m2)
        case .greater:
            return QValue.typesAreComparable(m1, m2) && QValue.compare(m1, m2) > 0
        case .less:
            return QValue.typesAreComparable(m1, m2) && QValue.compare(m1, m2) < 0
        case .greaterEqual:
            return (m1.isNull && m2.isNull) || (QValue.typesAreComparable(m1, m2) && QValue.compare(m1, m2) >= 0)
        case .lessEqual:
            return (m1.isNull && m2.isNull) || (QValue.typesAreComparable(m1, m2) && QValue.compare(m1, m2) <= 0)
        case .equalIns:
            if m1.isNull && m2.isNull { return true }
            guard QValue.typesAreComparable(m1, m2) else { return false }
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)):
                guard p.count == t.count else { return false }
                guard let folded = StringMatching.Folded(p) else { return p == t }
                return StringMatching.equalIns(t, folded)
            default:
                return QValue.compare(m1, m2) == 0
            }
        case .notEqualIns:
            return !Condition.equalIns.evaluate(m1, m2)
        case .contains:
            if m1.isNull { return !m2.isNull }
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)): return StringMatching.contains(t, p)
            default: return false
            }
        case .containsIns:
            if m1.isNull { return !m2.isNull }
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)):
                if p.isEmpty { return true }
                guard let folded = StringMatching.Folded(p) else { return StringMatching.contains(t, p) }
                return StringMatching.containsIns(t, folded)
            default: return false
            }
        case .like:
            if m1.isNull && m2.isNull { return true }
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)): return StringMatching.like(t, p)
            default: return false
            }
        case .likeIns:
            if m1.isNull && m2.isNull { return true }
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)):
                guard let folded = StringMatching.Folded(p) else { return StringMatching.like(t, p) }
                return StringMatching.likeIns(t, folded)
            default: return false
            }
        case .beginsWith:
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)): return StringMatching.beginsWith(t, p)
            default: return false
            }
        case .beginsWithIns:
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)):
                guard p.count <= t.count else { return false }
                guard let folded = StringMatching.Folded(p) else { return StringMatching.beginsWith(t, p) }
                return StringMatching.beginsWithIns(t, folded)
            default: return false
            }
        case .endsWith:
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)): return StringMatching.endsWith(t, p)
            default: return false
            }
        case .endsWithIns:
            switch (m1, m2) {
            case let (.string(p), .string(t)), let (.binary(p), .binary(t)):
                guard p.count <= t.count else { return false }
                guard let folded = StringMatching.Folded(p) else { return StringMatching.endsWith(t, p) }
                return StringMatching.endsWithIns(t, folded)
            default: return false
            }
        }
    }

    /// Whether one evaluation of the left and right operands matches (`ValueBase::compare`):
    /// single values are compared directly; two unquantified lists element by element in order;
    /// otherwise each side is quantified (ANY by default) and ANY over nothing is false, ALL and
    /// NONE over nothing true.
    func matches(_ left: Values, _ right: Values, leftQuantifier: Quantifier?, rightQuantifier: Quantifier?) -> Bool {
        if !left.fromList && !right.fromList {
            for i in 0..<min(left.items.count, right.items.count) where evaluate(left.items[i], right.items[i]) {
                return true
            }
            return false
        }
        if left.fromList && right.fromList && leftQuantifier == nil && rightQuantifier == nil {
            if left.items.count != right.items.count { return self == .notEqual }
            for i in 0..<left.items.count where !evaluate(left.items[i], right.items[i]) { return false }
            return true
        }
        let ql = leftQuantifier ?? .any, qr = rightQuantifier ?? .any
        var l = left.fromList ? left.items : Array(left.items.prefix(1))
        var r = right.fromList ? right.items : Array(right.items.prefix(1))
        if l.count > 2 && r.count > 2 {
            // realm-core sorts both sides and takes shortcuts; the equality merge below is
            // reproduced as it is, including its behaviour with duplicates under ALL.
            l.sort { QValue.compare($0, $1) < 0 }
            r.sort { QValue.compare($0, $1) < 0 }
            if self == .equal {
                if ql != .none && qr == .any {
                    let any = ql == .any
                    var li = 0, ri = 0
                    while ri < r.count {
                        if evaluate(l[li], r[ri]) {
                            li += 1
                            ri += 1
                            if any || li == l.count { return true }
                        } else if QValue.compare(l[li], r[ri]) < 0 {
                            if any && li < l.count - 1 { li += 1 } else { return false }
                        } else {
                            ri += 1
                        }
                    }
                    return false
                }
            } else if isRelational {
                l = [l[0], l[l.count - 1]]
                r = [r[0], r[r.count - 1]]
            } else {
                l = Condition.unique(l)
                r = Condition.unique(r)
            }
        }
        if isStringOperator {
            // Quantify over the property values (right), then the patterns (left).
            return Condition.quantify(qr, r) { rv in Condition.quantify(ql, l) { lv in evaluate(lv, rv) } }
        }
        return Condition.quantify(ql, l) { lv in Condition.quantify(qr, r) { rv in evaluate(lv, rv) } }
    }

    static func quantify(_ q: Quantifier, _ items: [QValue], _ test: (QValue) -> Bool) -> Bool {
        switch q {
        case .any: return items.contains(where: test)
        case .all: return items.allSatisfy(test)
        case .none: return !items.contains(where: test)
        }
    }

    /// Adjacent duplicates removed (`std::unique` with Mixed equality).
    static func unique(_ items: [QValue]) -> [QValue] {
        var out = [QValue]()
        for v in items where out.last.map({ QValue.compare($0, v) != 0 }) ?? true { out.append(v) }
        return out
    }
}

/// One evaluation of an operand for one object: its values, and whether they form a list
/// (realm-core's `m_from_list`) rather than a single value (which may be absent: no items).
struct Values: Sendable {
    var items: [QValue]
    var fromList: Bool

    static func single(_ v: QValue) -> Values { Values(items: [v], fromList: false) }
    static func list(_ v: [QValue]) -> Values { Values(items: v, fromList: true) }
    static let emptyList = Values(items: [], fromList: true)
}
