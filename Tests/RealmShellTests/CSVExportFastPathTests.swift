import Foundation
import RealmFormat
import RealmObjects
@testable import RealmShell
import RealmTestSupport
import XCTest

/// The CSV export's direct path (`CSVWriter.appendRow` over a leaf's columns, each field written
/// in place; issue #16) against its general path (a byte array per field through `field`, then
/// quoted by `append`): every class of every fixture file gives the same bytes both ways — all
/// property types, nulls, Mixed values, links, collections, quoting, unicode, newlines in
/// strings, NaN and infinite doubles, dates before 1970 and with nanoseconds.
final class CSVExportFastPathTests: XCTestCase {
    static func open(_ path: String) throws -> RealmFile {
        let keyPath = String(path.dropLast(".realm".count)) + ".key"
        let key = FileManager.default.fileExists(atPath: keyPath) ? try EncryptionKey(file: keyPath) : nil
        return try RealmFile(path: path, snapshot: Snapshot(path: path, key: key))
    }

    static func csv(_ file: RealmFile, _ c: ObjectClass, general: Bool) throws -> [UInt8] {
        let sink = MemorySink()
        try CSVWriter(file: file, objectClass: c).write(to: sink, general: general) {}
        return sink.bytes
    }

    func testEveryFixtureClassGivesTheBytesOfTheGeneralPath() throws {
        var classes = 0, objects = 0
        var all = [UInt8]()
        for path in Fixtures.allRealmFiles() {
            guard let file = try? Self.open(path) else { continue }
            for c in file.classes where !c.isEmbedded {
                let name = "\((path as NSString).lastPathComponent): \(c.name)"
                let general = try Self.csv(file, c, general: true)
                let direct = try Self.csv(file, c, general: false)
                XCTAssertEqual(direct.count, general.count, name)
                if direct != general {
                    let at = (0..<min(direct.count, general.count)).first { direct[$0] != general[$0] } ?? min(direct.count, general.count)
                    XCTFail("\(name): differs at byte \(at): \(String(decoding: direct[max(0, at - 40)..<min(direct.count, at + 40)], as: UTF8.self)) vs \(String(decoding: general[max(0, at - 40)..<min(general.count, at + 40)], as: UTF8.self))")
                }
                classes += 1
                objects += try file.objectCount(of: c)
                if all.count < 50_000_000 { all += general }
            }
        }
        XCTAssertGreaterThanOrEqual(classes, 20, "classes compared")
        XCTAssertGreaterThan(objects, 1000, "objects compared")
        // The fixtures do hold the edge cases the direct path writes itself.
        let text = String(decoding: all, as: UTF8.self)
        for needle in ["NaN", "Infinity", ",1969-", ".5Z", "\"\"", "\",\"", ",\"\","] {
            XCTAssertTrue(text.contains(needle), "fixtures' CSV holds \(needle)")
        }
        XCTAssertTrue(text.unicodeScalars.contains { $0.value > 0x7f }, "non-ASCII text")
    }
}
