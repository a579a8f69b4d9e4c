/// The memory-bandwidth reference of the query report: how fast this machine reads memory when
/// nothing but bandwidth limits it, measured in the same run as the workloads, so the claim of
/// issue #3 ("numeric scans within a small factor of the memory-bandwidth limit for bit-packed
/// columns") is a ratio anyone can reproduce. Workloads 2 and 3a read the age column: one byte
/// per object (width 8), 1,000,000 bytes for a million objects.
struct BandwidthReference {
    /// Bytes the column scan has to read (the age column's payload).
    let bytes: Int
    /// Best streaming read rate over a buffer larger than the caches, in bytes per second.
    let readRate: Double
    /// Counting the bytes equal to 42 in one contiguous buffer of `bytes` bytes, evicted from
    /// the caches before each run: the scan with no leaves, headers or file layout around it.
    let contiguousCount: Samples

    /// The bandwidth-bound time of the column scan: `bytes` at `readRate`.
    var bound: Double { Double(bytes) / readRate }

    /// Streams a 512 MiB buffer (twice this machine's 260 MB L3; far past most) five times and
    /// keeps the best rate, then times `runs` contiguous counts of `bytes` bytes.
    static func measure(bytes: Int, runs: Int) -> BandwidthReference {
        let big = [UInt64](repeating: 0x0101_0101_0101_0101, count: (512 << 20) / 8)
        var sink: UInt64 = 0
        var best = Double.infinity
        for _ in 0..<5 {
            let start = now()
            sink &+= sum(big)
            best = Swift.min(best, now() - start)
        }
        let column = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 37 % 100) }
        var count = Samples()
        for _ in 0..<Swift.max(runs, 1) {
            sink &+= sum(big)                           // evicts the column from the caches
            let start = now()
            sink &+= UInt64(countEqual(column, 42))
            count.seconds.append(now() - start)
        }
        // The sums are used, so neither loop can be dropped by the optimizer.
        if sink == 42 { print("") }
        return BandwidthReference(bytes: bytes, readRate: Double(big.count * 8) / best, contiguousCount: count)
    }

    /// Sum of the words, four independent accumulators so the loads, not the adds, set the pace.
    static func sum(_ words: [UInt64]) -> UInt64 {
        words.withUnsafeBufferPointer { w in
            var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0
            var i = 0
            while i + 4 <= w.count {
                a &+= w[i]; b &+= w[i + 1]; c &+= w[i + 2]; d &+= w[i + 3]
                i += 4
            }
            return a &+ b &+ c &+ d
        }
    }

    /// Number of bytes equal to `value`, 16 compared at once.
    static func countEqual(_ bytes: [UInt8], _ value: UInt8) -> Int {
        bytes.withUnsafeBytes { b in
            let k = SIMD16<UInt8>(repeating: value), one = SIMD16<UInt8>(repeating: 1)
            var total = 0, i = 0
            while i + 16 <= b.count {
                // At most 255 blocks per byte lane before the lane counts are added up.
                var lanes = SIMD16<UInt8>()
                let end = Swift.min(b.count - 15, i + 255 * 16)
                while i < end {
                    let v = b.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                    lanes &+= SIMD16<UInt8>().replacing(with: one, where: v .== k)
                    i += 16
                }
                total += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
            }
            while i < b.count {
                if b[i] == value { total += 1 }
                i += 1
            }
            return total
        }
    }
}
