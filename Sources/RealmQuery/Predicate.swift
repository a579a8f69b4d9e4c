import RealmFormat

/// A type-checked predicate, ready to run against the objects of one class. Comparisons that
/// realm-core runs as single-column conditions on the queried class (its "direct path",
/// query_engine.hpp) stay `direct`/`directIn`/`between`/`linksTo`: their null and string rules
/// differ slightly from the general expression comparison (`compare`), as query-language.md §5.0
/// describes.
indirect enum CompiledPredicate {
    case and([CompiledPredicate])
    case or([CompiledPredicate])
    case not(CompiledPredicate)
    case constant(Bool)
    case compare(Comparison)
    case direct(DirectCondition)
    case directIn(DirectIn)
    case between(DirectBetween)
    case linksTo(LinksTo)
    case fullText(FullTextCondition)
}

/// An expression comparison (`Compare<Cond>`): true when some evaluation of the left operand
/// and some evaluation of the right match under the quantifier rules.
struct Comparison {
    let condition: Condition
    let left: Operand
    let right: Operand

    func matches(row: Int) throws -> Bool {
        let rights = try right.evaluate(row: row)
        let lefts = try left.evaluate(row: row)
        let ql = left.quantifier, qr = right.quantifier
        for r in rights {
            for l in lefts where condition.matches(l, r, leftQuantifier: ql, rightQuantifier: qr) { return true }
        }
        return false
    }
}

/// A single-column condition on the queried class against one constant, with the semantics of
/// realm-core's typed condition nodes.
struct DirectCondition {
    enum Operator: Equatable {
        case equal, notEqual, less, lessEqual, greater, greaterEqual
        case equalIns, notEqualIns
        case beginsWith, beginsWithIns, endsWith, endsWithIns, contains, containsIns, like, likeIns
    }
    let column: Column
    let type: DataType
    let op: Operator
    let value: QValue
    /// The `[c]` forms of a string or binary constant.
    let folded: StringMatching.Folded?
    /// The bytes of a string or binary constant (nil: null or another type).
    let pattern: [UInt8]?

    init(column: Column, type: DataType, op: Operator, value: QValue) {
        self.column = column
        self.type = type
        self.op = op
        self.value = value
        pattern = value.bytesValue
        folded = pattern.flatMap(StringMatching.Folded.init)
    }

    /// The matching functor for one stored value.
    func matches(_ stored: Value) -> Bool {
        switch type {
        case .int: return matchesInt(stored.intValue)
        case .bool:
            guard case let .bool(v) = value else { return false }
            let x: Bool?
            if case let .bool(b) = stored { x = b } else { x = nil }
            switch op {
            case .equal: return x == v
            case .notEqual: return x != v
            default: return false
            }
        case .float, .double:
            let x: Double?
            switch stored {
            case let .float(f): x = Double(f)
            case let .double(d): x = d
            default: x = nil
            }
            return matchesDouble(x)
        case .timestamp:
            var x: Timestamp?
            if case let .timestamp(t) = stored { x = t }
            guard case let .timestamp(v) = value else { return false }
            return ordered(x.map { $0 == v ? 0 : ($0 < v ? -1 : 1) })
        case .decimal:
            guard case let .decimal(v) = value else { return false }
            var x: Decimal128?
            if case let .decimal(d) = stored { x = d }
            guard let x else { return op == .notEqual }
            let c = DecimalMath.compare(x, v)
            switch op {
            case .equal: return c == 0
            case .notEqual: return c != 0
            case .less: return c < 0
            case .lessEqual: return c <= 0
            case .greater: return c > 0
            case .greaterEqual: return c >= 0
            default: return false
            }
        case .objectId, .uuid:
            let x = QValue(stored)
            if x.isNull { return op == .notEqual }
            return ordered(QValue.compare(x, value))
        case .string, .binary:
            return matchesBytes(stored)
        case .mixed:
            let x = QValue(stored)
            let c = condition
            if op == .equal && value.isNull { return x.isNull }
            return c.isStringOperator || op == .notEqualIns ? c.evaluate(value, x) : c.evaluate(x, value)
        default:
            return false
        }
    }

    /// Non-null stored values compared with `c` (-1, 0, 1); null never matches except `!=`.
    private func ordered(_ c: Int?) -> Bool {
        guard let c else { return op == .notEqual }
        switch op {
        case .equal: return c == 0
        case .notEqual: return c != 0
        case .less: return c < 0
        case .lessEqual: return c <= 0
        case .greater: return c > 0
        case .greaterEqual: return c >= 0
        default: return false
        }
    }

    /// `IntegerNode`: `>=` and `<=` are `>` and `<` shifted by one, and vanish at the ends of
    /// the range (then every object matches, null included).
    func matchesInt(_ x: Int64?) -> Bool {
        guard case let .int(v) = value else { return false }
        switch op {
        case .greaterEqual where v == Int64.min, .lessEqual where v == Int64.max: return true
        default: break
        }
        guard let x else { return op == .notEqual }
        switch op {
        case .equal: return x == v
        case .notEqual: return x != v
        case .less: return x < v
        case .lessEqual: return x <= v
        case .greater: return x > v
        case .greaterEqual: return x >= v
        default: return false
        }
    }

    /// `FloatDoubleNode`: IEEE comparisons (NaN matches only `!=`), null only `!=`.
    func matchesDouble(_ x: Double?) -> Bool {
        let v: Double
        switch value {
        case let .float(f): v = Double(f)
        case let .double(d): v = d
        default: return false
        }
        guard let x else { return op == .notEqual }
        switch op {
        case .equal: return x == v
        case .notEqual: return x != v
        case .less: return x < v
        case .lessEqual: return x <= v
        case .greater: return x > v
        case .greaterEqual: return x >= v
        default: return false
        }
    }

    /// `StringNode` / `BinaryNode`: null is a value below every string (also below ""),
    /// equal only to null; a null pattern is contained in and begins every value, null
    /// included.
    func matchesBytes(_ stored: Value) -> Bool {
        switch stored {
        case let .string(s), let .binary(s): return matchesBytes(s.span)
        default: return matchesBytes(nil)
        }
    }

    /// The same for a value read in place (StringLeafReader); nil is null.
    func matchesBytes(_ t: Span<UInt8>?) -> Bool {
        let p = pattern
        switch op {
        case .equal, .notEqual:
            let equal: Bool
            if let t, let p { equal = StringMatching.equal(t, p) } else { equal = t == nil && p == nil }
            return equal == (op == .equal)
        case .less, .lessEqual, .greater, .greaterEqual:
            let c: Int
            if let t {
                if let p { c = StringMatching.compare(t, p) } else { c = 1 }
            } else {
                c = p == nil ? 0 : -1
            }
            switch op {
            case .less: return c < 0
            case .lessEqual: return c <= 0
            case .greater: return c > 0
            default: return c >= 0
            }
        case .beginsWith:
            guard let p else { return true }
            guard let t else { return false }
            return StringMatching.beginsWith(t, p)
        case .endsWith:
            guard let p else { return true }
            guard let t else { return false }
            return StringMatching.endsWith(t, p)
        case .contains:
            guard let p else { return true }
            guard let t else { return false }
            return StringMatching.contains(t, p)
        case .like:
            guard let t, let p else { return t == nil && p == nil }
            return StringMatching.like(StringMatching.array(t), p)
        case .equalIns:
            guard let t, let p else { return t == nil && p == nil }
            guard let f = folded else { return StringMatching.equal(t, p) }
            return StringMatching.equalIns(t, f)
        case .notEqualIns:
            guard let t, let p else { return !(t == nil && p == nil) }
            guard let f = folded else { return !StringMatching.equal(t, p) }
            return !StringMatching.equalIns(t, f)
        case .beginsWithIns:
            guard p != nil else { return true }
            guard let t, let f = folded else { return false }
            return StringMatching.beginsWithIns(t, f)
        case .endsWithIns:
            guard p != nil else { return true }
            guard let t, let f = folded else { return false }
            return StringMatching.endsWithIns(t, f)
        case .containsIns:
            guard let p else {
                // realm-core: every string contains a null pattern, but a binary contains it
                // only when not null (query-language.md §5.6).
                return type == .string || t != nil
            }
            guard let t else { return false }
            if p.isEmpty { return true }
            guard let f = folded else { return false }
            return StringMatching.containsIns(t, f)
        case .likeIns:
            guard let t, let p else { return t == nil && p == nil }
            guard let f = folded else { return StringMatching.like(StringMatching.array(t), p) }
            return StringMatching.likeIns(StringMatching.array(t), f)
        }
    }

    /// The expression-path functor for Mixed columns.
    var condition: Condition {
        switch op {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        case .equalIns: return .equalIns
        case .notEqualIns: return .notEqualIns
        case .beginsWith: return .beginsWith
        case .beginsWithIns: return .beginsWithIns
        case .endsWith: return .endsWith
        case .endsWithIns: return .endsWithIns
        case .contains: return .contains
        case .containsIns: return .containsIns
        case .like: return .like
        case .likeIns: return .likeIns
        }
    }
}

/// `prop IN {…}` on a plain property of the queried class (`Query::in`): a set of needles,
/// always compared case-sensitively.
struct DirectIn {
    enum Needles {
        /// Strings, ids, ints: exact membership; ints match `fallbackInt` when no element was
        /// an integer (realm-core then searches for its placeholder, -1).
        case exact([QValue], fallbackInt: Int64?)
        /// Other types: an OR of equality conditions; no matching element at all matches every
        /// object (realm-core adds an empty condition).
        case equalities([DirectCondition])
        case nothing
        case everything
    }
    let column: Column
    let needles: Needles

    func matches(_ stored: Value) -> Bool {
        switch needles {
        case .nothing: return false
        case .everything: return true
        case let .equalities(conditions): return conditions.contains { $0.matches(stored) }
        case let .exact(values, fallback):
            let x = QValue(stored)
            if let fallback {
                if case let .int(i) = x { return i == fallback }
                return false
            }
            return values.contains { $0 == x || ($0.isNull && x.isNull) }
        }
    }
}

/// `prop BETWEEN {a, b}` on a plain int or timestamp property (`BetweenNode`).
struct DirectBetween {
    let column: Column
    let from: QValue
    let to: QValue

    func matches(_ stored: Value) -> Bool {
        let x = QValue(stored)
        if x.isNull { return false }
        return QValue.compare(x, from) >= 0 && QValue.compare(x, to) <= 0
    }
}

/// `link == O0`, `list != obj(…)` on a link property of the queried class (`LinksToNode`).
struct LinksTo {
    let column: Column
    /// nil is a null link.
    let keys: [Int64?]
    let equal: Bool

    func matches(_ stored: Value) -> Bool {
        switch stored {
        case let .list(elements):
            let links = elements.compactMap { e -> Int64? in if case let .link(k) = e { return k } else { return nil } }
            if equal { return keys.contains { k in k.map { links.contains($0) } ?? false } }
            let k = keys.first ?? nil
            return links.contains { $0 != k }
        case let .dictionary(entries):
            let links = entries.map { e -> Int64? in
                switch e.value {
                case let .typedLink(_, k), let .link(k): return k
                default: return nil
                }
            }
            if equal { return keys.contains { k in k.map { links.contains($0) } ?? false } }
            let k = keys.first ?? nil
            return links.contains { $0 == nil || $0 != k }
        default:
            var x: Int64?
            if case let .link(k) = stored { x = k }
            if equal { return keys.contains { $0 == x } }
            return x != (keys.first ?? nil)
        }
    }
}

extension Value {
    var intValue: Int64? { if case let .int(i) = self { return i } else { return nil } }
}
