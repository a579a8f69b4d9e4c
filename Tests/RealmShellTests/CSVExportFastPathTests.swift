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

    /// The direct path's quoting (`appendQuotingIfNeeded`) against the general path's
    /// (`append`) on every field of up to five bytes over a, comma, quote, LF, CR and a
    /// two-byte é: the fixtures' strings with a newline hold a quote too, so this pins each
    /// special byte alone, at each place, and the empty field.
    func testQuotingIsTheGeneralPathsForEveryShortField() throws {
        let file = try Self.open(Fixtures.directory + "/realm-core/alltypes.realm")
        let writer = CSVWriter(file: file, objectClass: try XCTUnwrap(file.classes.first))
        let alphabet: [[UInt8]] = [[UInt8(ascii: "a")], [UInt8(ascii: ",")], [UInt8(ascii: "\"")], [10], [13], [0xC3, 0xA9]]
        var fields: [[UInt8]] = [[]]
        var layer: [[UInt8]] = [[]]
        for _ in 0..<5 {
            layer = layer.flatMap { f in alphabet.map { f + $0 } }
            fields += layer
        }
        var quoted = 0
        for f in fields {
            var general = [UInt8](), direct = [UInt8]()
            writer.append([f], to: &general)
            CSVWriter.appendQuotingIfNeeded(f, to: &direct)
            direct += [13, 10]
            XCTAssertEqual(direct, general, "\(f)")
            if general.first == UInt8(ascii: "\"") { quoted += 1 }
        }
        XCTAssertGreaterThan(quoted, fields.count / 2, "fields that needed quotes")
    }
}
