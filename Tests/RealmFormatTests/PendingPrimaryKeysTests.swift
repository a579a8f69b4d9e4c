@testable import RealmFormat
import RealmTestSupport
import XCTest

/// The primary keys of objects a transaction made: ascending ints in the sorted fast path,
/// everything else in the dictionary; every key inserted is found, nothing else is.
final class PendingPrimaryKeysTests: XCTestCase {
    func testEveryInsertedKeyIsFoundWhateverTheOrder() {
        var random = SeededRandom(seed: 7)
        var pending = PendingPrimaryKeys()
        var expected: [PrimaryKeyValue: Int64] = [:]
        var next: Int64 = 0
        for step in 0..<5000 {
            // Mostly ascending ints (a bulk load), with out-of-order ints, strings and null mixed in.
            let value: PrimaryKeyValue
            switch Int.random(in: 0..<10, using: &random) {
            case 0: value = .int(Int64.random(in: -100...Int64(step * 3), using: &random))
            case 1: value = .bytes(kind: 2, Array("s\(Int.random(in: 0..<500, using: &random))".utf8))
            case 2: value = .null
            default: value = .int(next); next += Int64.random(in: 1...3, using: &random)
            }
            guard expected[value] == nil else {
                XCTAssertEqual(pending.objectKey(value), expected[value], "\(value) was inserted before")
                continue
            }
            XCTAssertNil(pending.objectKey(value), "\(value) was never inserted")
            pending.insert(value, objectKey: Int64(step))
            expected[value] = Int64(step)
        }
        for (value, key) in expected { XCTAssertEqual(pending.objectKey(value), key, "\(value)") }
        XCTAssertNil(pending.objectKey(.int(next + 10)))
        XCTAssertNil(pending.objectKey(.bytes(kind: 2, Array("absent".utf8))))
    }
}
