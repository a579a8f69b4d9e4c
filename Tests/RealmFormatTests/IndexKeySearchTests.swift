@testable import RealmFormat
import XCTest

/// The key search inside a kept search-index node (realm-format.md §12;
/// `SearchIndexReader.IndexNode.lowerBound`) against a plain first-not-less search. Out of
/// SearchIndexTests to keep that file one concept and under 600 lines.
final class IndexKeySearchTests: XCTestCase {
    /// The kept levels' key search (`IndexNode.lowerBound(_:in:count:scale:)`: interpolation,
    /// a branch-free search of the 32 keys around the guess, the gallop when the answer is not
    /// there) gives the plain search's position on key arrays of every size up to a full node,
    /// spread as the keys of consecutive ints are (byte-swapped, in clusters), evenly at random,
    /// and skewed (so that the guess misses and the gallop runs).
    func testInterpolatedLowerBoundAgreesWithAPlainSearchOnSyntheticKeys() {
        var random = SplitMix64(seed: 16)
        var arrays: [[Int32]] = []
        for n in [1, 2, 3, 17, 33, 34, 50, 64, 200, 999, 1000] {
            let start = Int(random.next() % 1_000_000)
            arrays.append((start..<start + n).map { Int32(bitPattern: UInt32(truncatingIfNeeded: $0).byteSwapped) }.sorted())
            arrays.append(Array(Set((0..<n).map { _ in Int32(truncatingIfNeeded: random.next()) })).sorted())
            arrays.append(Array(Set((0..<n).map { i in Int32(clamping: Int64(i) * Int64(i) * Int64(i)) })).sorted())
            arrays.append(Array(Set((0..<n).map { i in i < n - 3 ? Int32(i) : Int32.max - Int32(n - i) })).sorted())
        }
        var probes = 0
        for keys in arrays {
            let scale = SearchIndexReader.IndexNode.interpolationScale(count: keys.count, low: Int64(keys.first!), high: Int64(keys.last!))
            var tries: [Int32] = [.min, .max, 0]
            for k in keys { tries += [k, k &- 1, k &+ 1] }
            for _ in 0..<50 { tries.append(Int32(truncatingIfNeeded: random.next())) }
            keys.withUnsafeBytes { bytes in
                for key in tries {
                    let expected = keys.firstIndex { $0 >= key } ?? keys.count
                    XCTAssertEqual(SearchIndexReader.IndexNode.lowerBound(key, in: bytes.baseAddress!, count: keys.count, scale: scale),
                                   expected, "\(keys.count) keys from \(keys.first!), key \(key)")
                    probes += 1
                }
            }
        }
        XCTAssertGreaterThan(probes, 10_000)
    }
}
