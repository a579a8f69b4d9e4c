/// A set of row numbers of one table, one bit per object.
struct Bitset: Sendable, Equatable {
    private(set) var words: [UInt64]
    let count: Int

    init(count: Int, filled: Bool = false) {
        self.count = count
        words = Array(repeating: filled ? ~0 : 0, count: (count + 63) / 64)
        if filled, count % 64 != 0, !words.isEmpty { words[words.count - 1] = (1 << UInt64(count % 64)) - 1 }
    }

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

    /// The members within `start..<end` (a cluster leaf's rows).
    func any(in start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            if i & 63 == 0, i + 64 <= end {
                if words[i >> 6] != 0 { return true }
                i += 64
            } else {
                if contains(i) { return true }
                i += 1
            }
        }
        return false
    }

    var members: [Int] {
        var out = [Int]()
        out.reserveCapacity(cardinality)
        forEach { out.append($0) }
        return out
    }
}
