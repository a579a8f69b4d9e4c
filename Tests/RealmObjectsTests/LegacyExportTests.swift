import Foundation
import XCTest
import RealmFormat
@testable import RealmObjects
import RealmTestSupport

/// The dump of a file of formats 2–9 opened by `RealmFile(dumping:)` writes the
/// classes without links from the conversion's cells (`LegacyExportRows`), the image having
/// them empty; it must be byte for byte the dump of the full converted image, and a damaged
/// file must fail on it whenever it fails on the full image.
final class LegacyExportTests: XCTestCase {
    static let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/fixtures/public").standardized.path

    enum Path { case fullImage, direct }

    /// The dump of `bytes` through one path, or its error as text.
    static func dump(_ bytes: [UInt8], _ path: Path, classNames: Set<String>? = nil) -> (bytes: [UInt8]?, error: String?, objects: Int) {
        let sink = MemorySink()
        var objects = 0
        do {
            let image = ByteImage(bytes: bytes)
            switch path {
            case .fullImage:
                try CanonicalDump.write(RealmFile(path: "test.realm", snapshot: Snapshot(image: image)), to: sink,
                                        classNames: classNames) { objects += 1 }
            case .direct:
                try CanonicalDump.write(RealmFile(dumping: image, path: "test.realm"), to: sink, classNames: classNames) { objects += 1 }
            }
            return (sink.bytes, nil, objects)
        } catch {
            return (nil, "\(error)", objects)
        }
    }

    static func isOld(_ bytes: [UInt8]) -> Bool {
        guard let header = try? FileHeader(image: ByteImage(bytes: bytes)) else { return false }
        return header.topRef != 0 && FileFormat.legacy.contains(header.fileFormat)
    }

    static func oldFixtures() throws -> [(name: String, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".realm") }.sorted().compactMap { name in
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
            return isOld(bytes) ? (name, bytes) : nil
        }
    }

    func testDirectDumpIsTheFullImagesOnEveryOldFixture() throws {
        var files = 0, dumped = 0, directTables = 0, directObjects = 0, stringColumns = 0
        for (name, bytes) in try Self.oldFixtures() {
            let full = Self.dump(bytes, .fullImage), direct = Self.dump(bytes, .direct)
            XCTAssertEqual(full.error, direct.error, name)
            XCTAssertTrue(full.bytes == direct.bytes, "\(name): the direct dump differs from the full image's")
            XCTAssertEqual(full.objects, direct.objects, "\(name): eachObject calls")
            files += 1
            if full.bytes != nil { dumped += 1 }
            if let rows = try? LegacyExportRows.open(image: ByteImage(bytes: bytes), direct: RealmFile.dumpedTables) {
                directTables += rows.tables.count
                directObjects += rows.tables.values.reduce(0) { $0 + $1.objectKeys.count }
                let file = try RealmFile(path: name, snapshot: rows.snapshot)
                for c in file.classes {
                    guard let table = rows.tables[c.table.key] else { continue }
                    // The image has the direct tables' columns but none of their objects.
                    XCTAssertEqual(try file.objectCount(of: c), 0, "\(name): \(c.name)")
                    for p in c.properties where !table.objectKeys.isEmpty && table.column(p.column.key)?.withString(0, { _ in }) == true {
                        stringColumns += 1
                    }
                }
            }
        }
        print("LegacyExportTests: \(files) old fixtures (\(dumped) dump), \(directTables) tables with \(directObjects) objects written from cells, \(stringColumns) string columns from buffers")
        XCTAssertGreaterThan(files, 50, "the public fixtures have many files of formats 2–9")
        XCTAssertGreaterThan(dumped, 50)
        XCTAssertGreaterThan(directTables, 50, "most old classes have no links")
        XCTAssertGreaterThan(directObjects, 1000)
        XCTAssertGreaterThan(stringColumns, 10)
    }

    /// `classNames` and `eachObject` behave as on the full image (the progress count is the
    /// objects written, direct or not).
    func testSelectedClassesDumpAlike() throws {
        var checked = 0
        for (name, bytes) in try Self.oldFixtures() {
            guard let file = try? RealmFile(path: name, snapshot: Snapshot(image: ByteImage(bytes: bytes))), file.classes.count >= 2 else { continue }
            let selected = Set(file.classes.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.name))
            let full = Self.dump(bytes, .fullImage, classNames: selected), direct = Self.dump(bytes, .direct, classNames: selected)
            XCTAssertNil(full.error, name)
            XCTAssertTrue(full.bytes == direct.bytes, "\(name): classes \(selected.sorted())")
            XCTAssertEqual(full.objects, direct.objects, name)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20)
    }

    /// A file opened for the dump serves every object read through `RealmFile` from the
    /// cells (another export format, a progress count): the same keys and values as the
    /// full image, leaf by leaf and by position.
    func testObjectReadsOfADumpFileAreTheFullImages() throws {
        var classes = 0
        for (name, bytes) in try Self.oldFixtures() {
            guard let full = try? RealmFile(path: name, snapshot: Snapshot(image: ByteImage(bytes: bytes))) else { continue }
            let dumping = try RealmFile(dumping: ByteImage(bytes: bytes), path: name)
            XCTAssertEqual(full.classes.map(\.name), dumping.classes.map(\.name), name)
            for (a, b) in zip(full.classes, dumping.classes) where !a.isEmbedded {
                XCTAssertEqual(try full.objectCount(of: a), try dumping.objectCount(of: b), "\(name): \(a.name)")
                var left = [(Int64, [Value])](), right = [(Int64, [Value])]()
                try full.forEachObject(of: a) { k, v in left.append((k, Array(v))) }
                try dumping.forEachObject(of: b) { k, v in right.append((k, Array(v))) }
                XCTAssertEqual(left.map(\.0), right.map(\.0), "\(name): \(a.name) keys")
                XCTAssertTrue(left.map(\.1) == right.map(\.1), "\(name): \(a.name) values")
                let positions = Array(stride(from: 0, to: left.count, by: 3))
                var l = [(Int, Int64, [Value])](), r = [(Int, Int64, [Value])]()
                try full.forEachObject(of: a, atPositions: positions) { p, k, v in l.append((p, k, Array(v))) }
                try dumping.forEachObject(of: b, atPositions: positions) { p, k, v in r.append((p, k, Array(v))) }
                XCTAssertEqual(l.map(\.0), r.map(\.0), name)
                XCTAssertEqual(l.map(\.1), r.map(\.1), name)
                XCTAssertTrue(l.map(\.2) == r.map(\.2), "\(name): \(a.name) by position")
                if dumping.legacyRows[b.table.key] != nil { classes += 1 }
            }
        }
        XCTAssertGreaterThan(classes, 50, "classes read from cells")
    }

    /// Damaged old files (the fixtures of `LegacyHostileInputTests`, bytes flipped): the
    /// direct dump fails whenever the full image's does, and otherwise writes its bytes.
    func testDamagedOldFilesDumpAlikeOnBothPaths() throws {
        var same = 0, bothFail = 0
        for (index, name) in LegacyHostileInputTests.fixtures.enumerated() {
            let original = try HostileInputTests.fixture(name)
            var rng = SeededRandom(seed: 0xD1_7EC7 + UInt64(index))
            for v in 0..<40 {
                let (bytes, positions) = HostileInputTests.flip(original, count: 1 + v % 6, &rng)
                let full = Self.dump(bytes, .fullImage), direct = Self.dump(bytes, .direct)
                let label = "\(name) variant \(v) flips \(positions)"
                XCTAssertEqual(full.error == nil, direct.error == nil, "\(label): \(full.error ?? "full ok") / \(direct.error ?? "direct ok")")
                if full.error == nil {
                    XCTAssertTrue(full.bytes == direct.bytes, label)
                    same += 1
                } else if direct.error != nil {
                    bothFail += 1
                }
            }
        }
        print("LegacyExportTests.damaged: \(same) dump alike, \(bothFail) fail on both")
        XCTAssertGreaterThan(same + bothFail, 200)
    }
}
