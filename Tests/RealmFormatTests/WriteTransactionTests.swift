import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

/// Copy-on-write commits (realm-format.md §13): the new version verifies, the old one stays
/// intact until the header flips, free space is reused, the lock is honoured.
final class WriteTransactionTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func copy(_ name: String) throws -> String { try Fixtures.copy(name, into: dir) }

    func testEmptyCommitBumpsTheVersionAndKeepsEveryTable() throws {
        for name in ["realm-core/basic.realm", "realm-core/churn.realm", "realm-core/large.realm", "realm-core/exported.realm"] {
            let path = try copy(name)
            let before = try Snapshot(path: path)
            let txn = try WriteTransaction(path: path)
            try txn.commit()
            let after = try Snapshot(path: path)
            XCTAssertEqual(after.top?.version, txn.newVersion, name)
            XCTAssertEqual(after.tables.map(\.name), before.tables.map(\.name), name)
            XCTAssertFalse(after.header.isStreaming, "\(name): converted to normal form")
            let report = Verifier.verify(after)
            XCTAssertTrue(report.isOK, "\(name): \(report.problems.prefix(5).map(\.description))")
            XCTAssertEqual(after.top?.historyRef, nil, "\(name): in-realm history dropped (§6.4)")
        }
    }

    func testChangedNodesGoToFreeSpaceAndTheOldOnesAreReleased() throws {
        let path = try copy("realm-core/churn.realm")
        let before = try Snapshot(path: path)
        let freeBefore = try before.freeSpace().totalBytes
        let txn = try WriteTransaction(path: path)
        // Rewrite the first table's top array (same content, marked changed).
        let tables = try XCTUnwrap(txn.child(txn.top, 1))
        let table = try XCTUnwrap(txn.child(tables, 0))
        table[6] = table[6]
        try txn.commit()
        let after = try Snapshot(path: path)
        XCTAssertTrue(Verifier.verify(after).isOK, Verifier.verify(after).problems.prefix(5).map(\.description).joined(separator: "\n"))
        XCTAssertEqual(after.top?.logicalSize, before.top?.logicalSize, "reused free space instead of growing")
        XCTAssertGreaterThan(try after.freeSpace().totalBytes, 0)
        XCTAssertNotEqual(try after.freeSpace().totalBytes, freeBefore)
    }

    func testAHeldLockStopsAWriter() throws {
        let path = try copy("realm-core/basic.realm")
        XCTAssertTrue(FileManager.default.createFile(atPath: path + ".lock", contents: Data()))
        let fd = open(path + ".lock", O_RDWR)
        XCTAssertEqual(flock(fd, LOCK_SH), 0)
        defer { close(fd) }
        XCTAssertThrowsError(try WriteTransaction(path: path)) { XCTAssertEqual($0 as? FormatError, .locked(path: path)) }
    }

    func testOldFormatsAreNotWrittenInPlace() throws {
        let path = try copy("realm-core-tests/test_upgrade_database_20.realm")
        XCTAssertThrowsError(try WriteTransaction(path: path)) {
            guard case .cannotWrite? = $0 as? FormatError else { return XCTFail("\($0)") }
        }
    }

    func testRollbackLeavesTheFileUntouched() throws {
        let path = try copy("realm-core/basic.realm")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let txn = try WriteTransaction(path: path)
            txn.top.setTagged(6, 99)
            txn.rollback()
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    /// The commit's sort-and-skip dedup of released space keeps, for each position, its first
    /// release, in position order: what a set probed per release kept (the plain model here).
    func testDistinctReleasesKeepTheFirstReleaseOfEachPosition() {
        var state: UInt64 = 7
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        for size in [0, 1, 2, 50, 2000] {
            let releases = (0..<size).map { _ in (position: 24 + 8 * next(max(size / 2, 1)), length: 8 * (1 + next(4))) }
            var seen = Set<Int>()
            let plain = releases.filter { seen.insert($0.position).inserted }.sorted { $0.position < $1.position }
            let distinct = WriteTransaction.distinctReleases(releases)
            XCTAssertEqual(distinct.map(\.position), plain.map(\.position), "\(size) releases")
            XCTAssertEqual(distinct.map(\.length), plain.map(\.length), "\(size) releases")
        }
    }

    /// A node released twice in one transaction becomes one free-list entry, and the file verifies.
    func testANodeReleasedTwiceIsFreedOnce() throws {
        let path = try copy("realm-core/basic.realm")
        let txn = try WriteTransaction(path: path)
        guard let table = try txn.child(txn.top, 1), let ref = table.originalRef else { return XCTFail("no table list") }
        _ = try txn.child(table, 0)
        try txn.releaseNode(ref: ref)
        try txn.releaseNode(ref: ref)
        table.append(0)
        table.remove(at: table.count - 1)
        try txn.commit()
        let after = try Snapshot(path: path)
        let positions = try after.freeSpace().entries.map(\.position)
        XCTAssertEqual(positions.count, Set(positions).count, "a position listed twice in the free list")
        XCTAssertTrue(positions.contains(ref), "the released node is free in the new version")
        let report = Verifier.verify(after)
        XCTAssertTrue(report.isOK, report.problems.prefix(5).map(\.description).joined(separator: "\n"))
    }
}
