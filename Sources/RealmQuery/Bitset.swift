/// A set of row numbers of one table, one bit per object.
struct Bitset: Sendable, Equatable {
    private(set) var words: [UInt64]
    let count: Int

    init(count: Int, filled: Bool = false) {
        self.count = count
        words = Array(repeating: filled ? ~0 : 0, count: (count + 63) / 64)
        if filled, count % 64 != 0, !words.isEmpty { words[words.count - 1] = (1 << UInt64(count % 64)) - 1 }
    }

    /// Bit `i` of raw words (as `contains`).
    @inline(__always) static func test(_ words: [UInt64], _ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }
    @inline(__always) func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }
    @inline(__always) mutating func insert(_ i: Int) { words[i >> 6] |= 1 << UInt64(i & 63) }
    @inline(__always) mutating func remove(_ i: Int) { words[i >> 6] &= ~(1 << UInt64(i & 63)) }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }
    var cardinality: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    mutating func formUnion(_ o: Bitset) { for i in words.indices { words[i] |= o.words[i] } }
    mutating func formIntersection(_ o: Bitset) { for i in words.indices { words[i] &= o.words[i] } }
    mutating func subtract(_ o: Bitset) { for i in words.indices { words[i] &= ~o.words[i] } }

    /// The members in ascending order.
    func forEach(_ body: (Int) throws -> Void) rethrows {
        for (w, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let b = bits.trailingZeroBitCount
                try body(w << 6 | b)
                bits &= bits - 1
            }
        }
    }

    /// Whether any member lies within `start..<end` (a cluster leaf's rows).
    func any(in start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        let first = start >> 6, last = (end - 1) >> 6
        for w in first...last {
            var word = words[w]
            if w == first { word &= ~0 << UInt64(start & 63) }
            if w == last, end & 63 != 0 { word &= (1 << UInt64(end & 63)) - 1 }
            if word != 0 { return true }
        }
        return false
    }

    /// Whether every row of `start..<end` is a member.
    func all(in start: Int, _ end: Int) -> Bool {
        guard start < end else { return true }
        let first = start >> 6, last = (end - 1) >> 6
        for w in first...last {
            var mask: UInt64 = ~0
            if w == first { mask &= ~0 << UInt64(start & 63) }
            if w == last, end & 63 != 0 { mask &= (1 << UInt64(end & 63)) - 1 }
            if words[w] & mask != mask { return false }
        }
        return true
    }

    /// The members within `start..<end`, ascending.
    func forEach(in start: Int, _ end: Int, _ body: (Int) throws -> Void) rethrows {
        guard start < end else { return }
        let first = start >> 6, last = (end - 1) >> 6
        for w in first...last {
            var bits = words[w]
            if w == first { bits &= ~0 << UInt64(start & 63) }
            if w == last, end & 63 != 0 { bits &= (1 << UInt64(end & 63)) - 1 }
            while bits != 0 {
                try body(w << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }

    /// Direct access to the words, for the leaf scans that set a leaf's bits at once
    /// (`IntegerLeaf.markRange`, `FloatingLeaf.mark`).
    mutating func withWords<R>(_ body: (inout [UInt64]) throws -> R) rethrows -> R { try body(&words) }

    var members: [Int] {
        var out = [Int]()
        out.reserveCapacity(cardinality)
        forEach { out.append($0) }
        return out
    }
}
