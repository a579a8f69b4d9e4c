/// What a string scan asks of each stored value, answered where the value lies in the file
/// (`StringColumn.mark`, `StringLeafReader.mark`): its bytes against `BytePattern`s in one of a few shapes. The
/// query layer builds one from a condition and states the rest of its semantics: the verdict
/// for null, whether the answer is inverted (`!=`), and a confirmation for the values the
/// byte test accepts when the bytes alone are not the whole rule (a case-insensitive pattern
/// with non-ASCII characters, whose characters must also match as wholes).
public struct StringScanTest {
    public enum Shape: Sendable {
        /// Every non-null value gives this answer.
        case constant(Bool)
        case equal(BytePattern)
        case prefix(BytePattern)
        case suffix(BytePattern)
        case contains(BytePattern)
        /// A value that starts with `prefix` (if any), ends with `suffix` (if any), and holds
        /// each of `middles` in order between them without overlaps: a LIKE pattern with
        /// single `*`s between its parts.
        case segments(prefix: BytePattern?, middles: [BytePattern], suffix: BytePattern?)
    }

    public let shape: Shape
    public let nullMatches: Bool
    /// The answer for a non-null value is the byte test's (and confirmation's) negation.
    public let inverted: Bool
    /// Run on each value the byte test accepts; the value is accepted only if this agrees.
    public let confirm: ((Span<UInt8>) -> Bool)?

    public init(_ shape: Shape, nullMatches: Bool, inverted: Bool = false, confirm: ((Span<UInt8>) -> Bool)? = nil) {
        self.shape = shape
        self.nullMatches = nullMatches
        self.inverted = inverted
        self.confirm = confirm
    }

    /// The answer for one value held in memory (nil: null), by the same code the leaf scans
    /// run.
    public func matches(_ value: [UInt8]?) -> Bool {
        guard let value else { return nullMatches }
        return value.withUnsafeBytes { b in
            withUnsafeBytes(of: UInt64(0)) { empty in
                let p = b.baseAddress ?? empty.baseAddress!
                switch shape {
                case let .constant(c): return decide(ConstantTest(result: c), p, b.count, b.count)
                case let .equal(pattern): return decide(EqualTest(pattern: pattern), p, b.count, b.count)
                case let .prefix(pattern): return decide(PrefixTest(pattern: pattern), p, b.count, b.count)
                case let .suffix(pattern): return decide(SuffixTest(pattern: pattern), p, b.count, b.count)
                case let .contains(pattern): return decide(ContainsTest(pattern: pattern), p, b.count, b.count)
                case let .segments(prefix, middles, suffix):
                    return decide(SegmentsTest(prefix: prefix, middles: middles, suffix: suffix), p, b.count, b.count)
                }
            }
        }
    }

    private func decide<T: InPlaceTest>(_ t: T, _ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        t.decide(p, n, readable, inverted: inverted, confirm: confirm)
    }
}

/// One shape of `StringScanTest.Shape` as a type of its own, so that a leaf's loop is compiled
/// once per shape with the test inlined (`StringColumn.mark`, `StringLeafReader.mark`).
protocol InPlaceTest {
    /// Whether the `n` bytes at `p` pass; `readable` (≥ n) bytes may be read at `p`.
    func matches(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool
}

extension InPlaceTest {
    /// The answer for the non-null value of `n` bytes at `p` under a test's `inverted` and
    /// `confirm` (passed as values: the loops keep them in locals, not the whole test).
    @inline(__always)
    func decide(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int, inverted: Bool, confirm: ((Span<UInt8>) -> Bool)?) -> Bool {
        var hit = matches(p, n, readable)
        if hit, let confirm {
            hit = confirm(Span(_unsafeElements: UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: n)))
        }
        return hit != inverted
    }
}

struct ConstantTest: InPlaceTest {
    let result: Bool
    @inline(__always) func matches(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool { result }
}

struct EqualTest: InPlaceTest {
    let pattern: BytePattern
    @inline(__always) func matches(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        n == pattern.count && pattern.matches(at: p, readable: readable)
    }
}

struct PrefixTest: InPlaceTest {
    let pattern: BytePattern
    @inline(__always) func matches(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        n >= pattern.count && pattern.matches(at: p, readable: readable)
    }
}

struct SuffixTest: InPlaceTest {
    let pattern: BytePattern
    @inline(__always) func matches(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        let s = n &- pattern.count
        return s >= 0 && pattern.matches(at: p + s, readable: readable &- s)
    }
}

struct ContainsTest: InPlaceTest {
    let pattern: BytePattern
    @inline(__always) func matches(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        pattern.firstMatch(in: p, from: 0, to: n, readable: readable) != nil
    }
}

struct SegmentsTest: InPlaceTest {
    let prefix: BytePattern?
    let middles: [BytePattern]
    let suffix: BytePattern?

    func matches(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        var lo = 0, hi = n
        if let prefix {
            guard n >= prefix.count, prefix.matches(at: p, readable: readable) else { return false }
            lo = prefix.count
        }
        if let suffix {
            guard hi &- lo >= suffix.count else { return false }
            hi = n &- suffix.count
            guard suffix.matches(at: p + hi, readable: readable &- hi) else { return false }
        }
        // Each middle part at its first place after the previous one: a later place only
        // leaves less room for the rest, so the first is as good as any.
        for m in middles {
            guard let at = m.firstMatch(in: p, from: lo, to: hi, readable: readable) else { return false }
            lo = at &+ m.count
        }
        return true
    }
}

/// A leaf's string values as a scan loop reads them (`markValues`).
protocol LeafStrings {
    /// Value `i`: where its bytes start, how many there are, and how many may be read from
    /// there (at least as many); nil for null.
    func value(_ i: Int) -> (UnsafeRawPointer, Int, Int)?
}

/// ORs into `words` bit `rows.first + i` for each value `i` of `values` (`0 ..< rows.count`)
/// whose bit is set in `candidates` and which passes `t` under `rules`; the caller keeps the
/// rows within `words` and `candidates`.
@inline(__always)
func markValues<V: LeafStrings, T: InPlaceTest>(_ values: V, _ t: T,
                                                _ rules: (nullMatches: Bool, inverted: Bool, confirm: ((Span<UInt8>) -> Bool)?),
                                                _ rows: (first: Int, count: Int),
                                                _ candidates: UnsafeBufferPointer<UInt64>, _ words: UnsafeMutableBufferPointer<UInt64>) {
    if let confirm = rules.confirm {
        markRows(values, Confirmed(test: t, inverted: rules.inverted, confirm: confirm), rules.nullMatches, rows, candidates, words)
    } else {
        markRows(values, Plain(test: t, inverted: rules.inverted), rules.nullMatches, rows, candidates, words)
    }
}

/// A test with the rest of a `StringScanTest`'s rules, for one value that is not null.
protocol ValueDecision {
    func decide(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool
}

/// Without a confirmation the scan loop calls nothing, so the test's fields stay in
/// registers (a call could change memory, and each value would load them again).
private struct Plain<T: InPlaceTest>: ValueDecision {
    let test: T
    let inverted: Bool
    @inline(__always) func decide(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        test.matches(p, n, readable) != inverted
    }
}

private struct Confirmed<T: InPlaceTest>: ValueDecision {
    let test: T
    let inverted: Bool
    let confirm: (Span<UInt8>) -> Bool
    @inline(__always) func decide(_ p: UnsafeRawPointer, _ n: Int, _ readable: Int) -> Bool {
        test.decide(p, n, readable, inverted: inverted, confirm: confirm)
    }
}

/// The loop of `markValues`, compiled once per leaf layout and decision: the candidates a word
/// at a time (a full word as a plain loop of 64), one store per word.
private func markRows<V: LeafStrings, D: ValueDecision>(_ values: V, _ decision: D, _ nullMatches: Bool,
                                                        _ rows: (first: Int, count: Int),
                                                        _ candidates: UnsafeBufferPointer<UInt64>, _ words: UnsafeMutableBufferPointer<UInt64>) {
    let null: UInt64 = nullMatches ? 1 : 0
    @inline(__always) func test(_ i: Int) -> UInt64 {
        guard let (p, n, readable) = values.value(i) else { return null }
        return decision.decide(p, n, readable) ? 1 : 0
    }
    let first = rows.first, end = first &+ rows.count
    guard rows.count > 0 else { return }
    let firstWord = first >> 6, lastWord = (end &- 1) >> 6
    var w = firstWord
    while w <= lastWord {
        var bits = candidates[w]
        if w == firstWord { bits &= ~0 << UInt64(first & 63) }
        if w == lastWord, end & 63 != 0 { bits &= (1 << UInt64(end & 63)) &- 1 }
        var out: UInt64 = 0
        let base = (w << 6) &- first
        if bits == ~0 {
            for j in 0..<64 { out |= test(base &+ j) << UInt64(j) }
        } else {
            while bits != 0 {
                let b = bits.trailingZeroBitCount
                out |= test(base &+ b) << UInt64(b)
                bits &= bits &- 1
            }
        }
        words[w] |= out
        w &+= 1
    }
}
