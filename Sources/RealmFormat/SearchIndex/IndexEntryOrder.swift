/// The order in which a batch of new entries goes into a search index (realm-format.md §12.3):
/// by level-0 key, then level-1 key (both signed 32-bit), then ObjKey. Entries usually arrive
/// in ObjKey order (objects are created with rising keys, rebuilds read the table in key
/// order); then a stable radix sort on the two level keys gives the whole order in a few
/// linear passes, where a comparison sort of a million entries costs tens of milliseconds.
enum IndexEntryOrder {
    /// Batches from this size on are radix-sorted (each pass clears a 65,536-entry table).
    static let radixFrom = 4096

    /// The entry positions in index order; `levelKeys[i]` and `objKeys[i]` describe entry `i`.
    static func permutation(levelKeys: [(Int32, Int32)], objKeys: [Int64]) -> [Int] {
        let n = levelKeys.count
        // Flipping the sign bits makes the unsigned order of the 64-bit word the signed order
        // of (level 0, level 1).
        var words = [UInt64]()
        words.reserveCapacity(n)
        for (k0, k1) in levelKeys {
            words.append(UInt64(UInt32(bitPattern: k0) ^ 0x8000_0000) << 32 | UInt64(UInt32(bitPattern: k1) ^ 0x8000_0000))
        }
        // Small batches (an index flushed for one update) are not worth the radix tables.
        let inKeyOrder = zip(objKeys, objKeys.dropFirst()).allSatisfy { $0 < $1 }
        guard inKeyOrder && n >= radixFrom else {
            return (0..<n).sorted { words[$0] != words[$1] ? words[$0] < words[$1] : objKeys[$0] < objKeys[$1] }
        }
        var order = Array(0..<n)
        var scratch = [Int](repeating: 0, count: n)
        // The four 16-bit digits' counts in one pass over the words (one table per digit).
        var counts = [Int](repeating: 0, count: 4 << 16)
        counts.withUnsafeMutableBufferPointer { counts in
            for w in words {
                counts[Int(w & 0xFFFF)] &+= 1
                counts[1 << 16 | Int(w >> 16 & 0xFFFF)] &+= 1
                counts[2 << 16 | Int(w >> 32 & 0xFFFF)] &+= 1
                counts[3 << 16 | Int(w >> 48)] &+= 1
            }
        }
        // Least significant digit first; each pass is stable, so ties keep ObjKey order.
        for digit in 0..<4 {
            let base = digit << 16, shift = UInt64(16 * digit)
            // One digit value for all: nothing moves.
            if counts[base + Int(words[0] >> shift & 0xFFFF)] == n { continue }
            counts.withUnsafeMutableBufferPointer { counts in
                // Each digit value's first position in the pass's output.
                var sum = 0
                for d in base..<(base + 1 << 16) {
                    let c = counts[d]
                    counts[d] = sum
                    sum &+= c
                }
                scratch.withUnsafeMutableBufferPointer { scratch in
                    for i in order {
                        let d = base | Int(words[i] >> shift & 0xFFFF)
                        scratch[counts[d]] = i
                        counts[d] &+= 1
                    }
                }
            }
            swap(&order, &scratch)
        }
        return order
    }

    /// Entries whose level-0 keys all differ (distinct ints within 2^32 of each other, as a
    /// bulk load's primary keys are), in index order — what `permutation` orders, since no two
    /// entries tie on level 0 — as one word per entry: its level-0 key (sign bit flipped, so
    /// that the unsigned order of the words is the signed order of the keys) above its
    /// position in `ints` (`levelKey(ofWord:)`, `position(ofWord:)`). Nil when two entries
    /// share a level-0 key. Two 16-bit radix passes and no permutation array: the ordering of
    /// a million entries holds two arrays of a million words at most (issue #16).
    static func distinctLevelOrder(ints: ConsecutiveInts) -> [UInt64]? {
        let n = ints.count
        guard n > 0, n < 1 << 32 else { return nil }
        var words = [UInt64]()
        words.reserveCapacity(n)
        for i in 0..<n {
            words.append(UInt64(UInt32(bitPattern: IndexKey.key(int: ints[i], offset: 0)) ^ 0x8000_0000) << 32 | UInt64(i))
        }
        var scratch = [UInt64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 1 << 16)
        for shift: UInt64 in [32, 48] {
            for d in counts.indices { counts[d] = 0 }
            for w in words { counts[Int(w >> shift & 0xFFFF)] &+= 1 }
            // One digit value for all: nothing moves.
            if counts[Int(words[0] >> shift & 0xFFFF)] == n { continue }
            var sum = 0
            for d in counts.indices {
                let c = counts[d]
                counts[d] = sum
                sum &+= c
            }
            // Stable: equal digits keep their order, so each pass keeps the previous one's.
            scratch.withUnsafeMutableBufferPointer { out in
                for w in words {
                    let d = Int(w >> shift & 0xFFFF)
                    out[counts[d]] = w
                    counts[d] &+= 1
                }
            }
            swap(&words, &scratch)
        }
        for i in 1..<n where words[i] >> 32 == words[i - 1] >> 32 { return nil }
        return words
    }

    /// The level-0 key in a `distinctLevelOrder` word.
    @inline(__always)
    static func levelKey(ofWord w: UInt64) -> Int64 {
        Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: w >> 32) ^ 0x8000_0000))
    }

    /// The entry's position in a `distinctLevelOrder` word.
    @inline(__always)
    static func position(ofWord w: UInt64) -> Int { Int(w & 0xFFFF_FFFF) }
}
