@testable import RealmFormat
import XCTest

/// `PendingIndexEntries` keeps ints as plain arrays until another kind of value arrives, and
/// hands out the same entries, in order, either way.
final class PendingIndexEntriesTests: XCTestCase {
    func testIntsStayPlainUntilAnotherValueArrivesAndOrderIsKept() {
        var entries = PendingIndexEntries()
        for k in 0..<5 { entries.append(.int(Int64(10 - k)), key: Int64(k)) }
        XCTAssertNil(entries.values, "ints only: no boxed values")
        XCTAssertEqual(entries.ints, [10, 9, 8, 7, 6])
        entries.append(.null, key: 5)
        entries.append(.int(1), key: 6)
        XCTAssertEqual(entries.values, [.int(10), .int(9), .int(8), .int(7), .int(6), .null, .int(1)])
        XCTAssertEqual(entries.keys, [0, 1, 2, 3, 4, 5, 6])
        XCTAssertEqual(entries.pairs.map(\.value), entries.values)
        var rebuilt = PendingIndexEntries(ints: [7, 2], keys: [3, 1])
        XCTAssertEqual(rebuilt.pairs.map(\.value), [.int(7), .int(2)])
        rebuilt.append(.string(Array("a".utf8)), key: 9)
        XCTAssertEqual(rebuilt.values, [.int(7), .int(2), .string(Array("a".utf8))])
        XCTAssertEqual(rebuilt.keys, [3, 1, 9])
    }
}
