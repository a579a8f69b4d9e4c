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
        // Least significant 16 bits first; each pass is stable, so ties keep ObjKey order.
        for shift in stride(from: 0, to: 64, by: 16) {
            var counts = [Int](repeating: 0, count: 1 << 16 + 1)
            for w in words { counts[Int(w >> UInt64(shift) & 0xFFFF) + 1] += 1 }
            if counts.contains(n) { continue }          // one digit value for all: nothing moves
            for d in 1..<counts.count { counts[d] += counts[d - 1] }
            for i in order {
                let d = Int(words[i] >> UInt64(shift) & 0xFFFF)
                scratch[counts[d]] = i
                counts[d] += 1
            }
            swap(&order, &scratch)
        }
        return order
    }
}
