import Foundation
import XCTest
@testable import RealmFormat

/// The conversion keeps plain old columns by type and encodes their cluster leaves from that
/// (`LegacyTypedColumn`); the image must be byte for byte the one reading every column into
/// `Value`s gives, and a damaged file must fail with the same error on both paths.
final class LegacyTypedColumnTests: XCTestCase {
    static let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/fixtures/public").standardized.path

    /// The image of an old file through one path, or its error as text; nil for a file that
    /// is not of formats 2–9.
    static func image(_ bytes: [UInt8], typed: Bool) -> (bytes: [UInt8]?, error: String?, typedColumns: Int)? {
        let image = ByteImage(bytes: bytes)
        guard let header = try? FileHeader(image: image), header.topRef != 0,
              FileFormat.legacy.contains(header.fileFormat) else { return nil }
        do throws(FormatError) {
            let group = try LegacyGroup(source: Snapshot(image: image, header: header, legacy: nil, readsTables: false))
            let conversion = try LegacyConversion.convert(group, keepingTypedColumns: typed)
            return (try conversion.fileBytes(), nil, conversion.typedColumns.values.reduce(0) { $0 + $1.count })
        } catch {
            return (nil, "\(error)", 0)
        }
    }

    static func oldFixtures() throws -> [(name: String, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".realm") }.sorted().compactMap { name in
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
            return image(bytes, typed: false) == nil ? nil : (name, bytes)
        }
    }

    func testTypedColumnsGiveTheValuePathsImageOnEveryOldFixture() throws {
        var files = 0, typedColumns = 0
        var kinds = Set<String>()
        for (name, bytes) in try Self.oldFixtures() {
            let plain = try XCTUnwrap(Self.image(bytes, typed: false)), typed = try XCTUnwrap(Self.image(bytes, typed: true))
            XCTAssertEqual(plain.error, typed.error, name)
            XCTAssertEqual(plain.typedColumns, 0, name)
            XCTAssertTrue(plain.bytes == typed.bytes, "\(name): the typed columns change the image")
            files += 1
            typedColumns += typed.typedColumns
            // Which kinds of cells the fixtures exercise.
            let image = ByteImage(bytes: bytes)
            if let header = try? FileHeader(image: image),
               let group = try? LegacyGroup(source: Snapshot(image: image, header: header, legacy: nil, readsTables: false)),
               let conversion = try? LegacyConversion.convert(group) {
                for column in conversion.typedColumns.values.flatMap(\.values) {
                    switch column.cells {
                    case .integers: kinds.insert("integers")
                    case .nullableIntegers: kinds.insert("nullable integers")
                    case let .bytes(_, width): kinds.insert("bytes \(width)")
                    case .strings: kinds.insert("strings")
                    case .timestamps: kinds.insert("timestamps")
                    }
                }
            }
        }
        XCTAssertGreaterThan(files, 50, "the public fixtures have many files of formats 2–9")
        XCTAssertGreaterThan(typedColumns, 200, "most old columns are plain")
        XCTAssertEqual(kinds, ["integers", "nullable integers", "bytes 4", "bytes 8", "strings", "timestamps"])
    }

    /// A leaf's strings cut from a whole column's buffer are those values, in order.
    func testStringCellsCopyOfARangeHoldsThoseValues() {
        var all = StringCells()
        let values: [[UInt8]?] = (0..<600).map { i in i % 7 == 3 ? nil : Array(repeating: UInt8(65 + i % 26), count: i % 5) }
        for v in values { all.append(v) }
        for range in [0..<0, 0..<256, 256..<512, 512..<600, 3..<4, 599..<600] {
            let part = all.copy(range)
            XCTAssertEqual(part.count, range.count, "\(range)")
            XCTAssertEqual(part.map { $0.map(Array.init) }, Array(values[range]), "\(range)")
            var oneByOne = StringCells()
            for v in values[range] { oneByOne.append(v) }
            XCTAssertEqual(part.byteCount, oneByOne.byteCount, "\(range)")
            XCTAssertEqual(part.longest, oneByOne.longest, "\(range)")
            var copied = [UInt8](), appended = [UInt8]()
            _ = NewFile.serialize(LeafEncoder.stringLeaf(of: part), into: &copied)
            _ = NewFile.serialize(LeafEncoder.stringLeaf(of: oneByOne), into: &appended)
            XCTAssertEqual(copied, appended, "\(range): the leaf written from the copy")
        }
    }

    /// Flipped bytes in old fixtures: both paths give the same image or the same error.
    func testDamagedOldFilesFailAlikeOnBothPaths() throws {
        let names = ["java__default-before-migration.realm", "core__test_upgrade_database_4_9_to_10.realm",
                     "core__test_upgrade_database_1000_9_to_10.realm", "java__viewTest.realm",
                     "core__test_upgrade_progress_6.realm", "java__asset_file.realm"]
        var state: UInt64 = 0x5EED_1E6A_C1
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var compared = 0, failed = 0
        for name in names {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.dir + "/" + name)))
            for variant in 0..<40 {
                var bytes = original
                for _ in 0..<(1 + variant % 4) {
                    let at = 24 + Int(next() % UInt64(bytes.count - 24))
                    bytes[at] ^= UInt8(1 + next() % 255)
                }
                guard let plain = Self.image(bytes, typed: false), let typed = Self.image(bytes, typed: true) else { continue }
                XCTAssertEqual(plain.error, typed.error, "\(name) variant \(variant)")
                XCTAssertTrue(plain.bytes == typed.bytes, "\(name) variant \(variant): images differ")
                compared += 1
                if plain.error != nil { failed += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 150)
        XCTAssertGreaterThan(failed, 10, "some damage is caught")
    }
}
