@testable import RealmFormat
import RealmTestSupport
import XCTest

/// The primary keys of objects a transaction made: ascending ints found in the column's own
/// pending index entries, everything else in the dictionary; every key inserted is found,
/// nothing else is — also once a value that is not an int turns the entries into `Value`s.
final class PendingPrimaryKeysTests: XCTestCase {
    func testEveryInsertedKeyIsFoundWhateverTheOrder() {
        var random = SeededRandom(seed: 7)
        var pending = PendingPrimaryKeys()
        // The primary-key column's pending entries, appended to after each insert as
        // `TableEditor.insert` appends them.
        var entries = PendingIndexEntries()
        var sawAscending = 0
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
                XCTAssertEqual(pending.objectKey(value, entries: entries), expected[value], "\(value) was inserted before")
                continue
            }
            XCTAssertNil(pending.objectKey(value, entries: entries), "\(value) was never inserted")
            pending.insert(value, objectKey: Int64(step), entries: entries)
            entries.append(Self.value(value), key: Int64(step))
            expected[value] = Int64(step)
            sawAscending = max(sawAscending, entries.ascendingInts)
        }
        XCTAssertGreaterThan(sawAscending, 1, "the first ints ascended: some keys were found in the entries")
        for (value, key) in expected { XCTAssertEqual(pending.objectKey(value, entries: entries), key, "\(value)") }
        XCTAssertNil(pending.objectKey(.int(next + 10), entries: entries))
        XCTAssertNil(pending.objectKey(.bytes(kind: 2, Array("absent".utf8)), entries: entries))
    }

    /// A bulk load of ascending ints: every one found through the entries, none in a copy.
    func testAscendingIntsAreFoundInTheEntries() {
        var pending = PendingPrimaryKeys()
        var entries = PendingIndexEntries()
        for i in 0..<3000 {
            let v = Int64(i * 3 - 4000)
            XCTAssertNil(pending.objectKey(.int(v), entries: entries))
            pending.insert(.int(v), objectKey: Int64(i + 100), entries: entries)
            entries.append(.int(v), key: Int64(i + 100))
        }
        XCTAssertEqual(entries.ascendingInts, 3000)
        for i in stride(from: 0, to: 3000, by: 7) { XCTAssertEqual(pending.objectKey(.int(Int64(i * 3 - 4000)), entries: entries), Int64(i + 100)) }
        XCTAssertNil(pending.objectKey(.int(-3999), entries: entries), "between two values")
        // A value that is not an int: the entries become `Value`s, the ascending ones still found.
        pending.insert(.null, objectKey: 7, entries: entries)
        entries.append(.null, key: 7)
        XCTAssertNotNil(entries.values)
        XCTAssertEqual(pending.objectKey(.int(-4000), entries: entries), 100)
        XCTAssertEqual(pending.objectKey(.int(4997), entries: entries), 3099)
        XCTAssertEqual(pending.objectKey(.null, entries: entries), 7)
        pending.insert(.int(5000), objectKey: 8, entries: entries)
        entries.append(.int(5000), key: 8)
        XCTAssertEqual(pending.objectKey(.int(5000), entries: entries), 8, "after the entries became values: the dictionary")
    }

    static func value(_ key: PrimaryKeyValue) -> Value {
        switch key {
        case .null: return .null
        case let .int(i): return .int(i)
        case let .bytes(_, b): return .string(b)
        }
    }
}
