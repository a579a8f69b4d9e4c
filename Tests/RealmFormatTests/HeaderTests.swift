@testable import RealmFormat
import RealmTestSupport
import XCTest

/// The file header and how it selects the current snapshot (realm-format.md §3).
final class HeaderTests: XCTestCase {
    func header(_ name: String) throws -> FileHeader {
        try Snapshot(path: Fixtures.path(name)).header
    }

    func testNormalStreamingAndCompactedHeaders() throws {
        let basic = try header("realm-core/basic.realm")
        XCTAssertFalse(basic.isStreaming)
        XCTAssertEqual(basic.fileFormat, 24)
        let exported = try header("realm-core/exported.realm")
        XCTAssertTrue(exported.isStreaming)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("realm-core/exported.realm")))
        let footer = bytes.suffix(16).prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        XCTAssertEqual(exported.topRef, footer, "the top ref comes from the footer")
        let compacted = try header("realm-core/compacted.realm")
        XCTAssertFalse(compacted.isStreaming, "slot 1 is selected even though slot 0 holds the marker")
        XCTAssertEqual(compacted.slot, 1)
    }

    func testEmptyFileHasNoTopArrayAndFormatZero() throws {
        let s = try Snapshot(path: Fixtures.path("realm-core-tests/vacuum_no_history_type.realm"))
        XCTAssertNil(s.top)
        XCTAssertEqual(s.fileFormat, 0)
        XCTAssertTrue(s.tables.isEmpty)
    }

    func testDistinctErrorsForEncryptedForeignAndOldFiles() throws {
        XCTAssertThrowsError(try Snapshot(path: Fixtures.path("realm-core/encrypted.realm"))) {
            XCTAssertEqual($0 as? FormatError, .encrypted)
        }
        XCTAssertThrowsError(try Snapshot(path: Fixtures.path("README.md"))) {
            guard case .notARealmFile? = $0 as? FormatError else { return XCTFail("\($0)") }
        }
        // Formats 2–9 open (converted, Legacy/); a format no Realm wrote does not.
        let old = try Snapshot(path: Fixtures.path("realm-core-tests/test_upgrade_database_1000_1.realm"))
        XCTAssertEqual(old.fileFormat, 2)
        XCTAssertNotNil(old.legacy)
        var unknown = [UInt8](repeating: 0, count: 4096)
        unknown[0] = 64
        unknown.replaceSubrange(16..<24, with: Array("T-DB".utf8) + [25, 25, 0, 0])
        XCTAssertThrowsError(try Snapshot(image: ByteImage(bytes: unknown))) {
            XCTAssertEqual($0 as? FormatError, .unsupportedFormat(version: 25))
        }
        // A 0-byte file is a Realm with nothing committed (Realm writes the header on first open).
        let empty = try Snapshot(image: ByteImage(bytes: []))
        XCTAssertEqual(empty.fileFormat, 0)
        XCTAssertNil(empty.top)
    }

    func testStreamingFooterCookieIsChecked() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("realm-core/exported.realm"))))
        bytes[bytes.count - 1] ^= 0xFF
        XCTAssertThrowsError(try Snapshot(image: ByteImage(bytes: bytes))) {
            guard case let .corrupt(_, reason)? = $0 as? FormatError else { return XCTFail("\($0)") }
            XCTAssertTrue(reason.contains("footer cookie"))
        }
    }
}
