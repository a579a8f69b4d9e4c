import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// Writes into damaged files: seeded byte flips in format-24 fixtures (and in an enumerated
/// copy of one), then a transaction that
/// deletes half of every class's objects, updates the rest and commits. Each variant must
/// either commit or fail with a thrown error (FormatError or InputError) — never trap — and a
/// committed file must open again. A trap ends the test process (`HOSTILE_VERBOSE=1` names
/// each variant first).
final class HostileWriteTests: XCTestCase {
    static let fixtures = ["realm-core/basic", "realm-core/alltypes", "realm-core/schema_v3"]
    /// `HOSTILE_WRITE_VARIANTS=N` runs more (a deeper search than CI's).
    static let variantsPerFixture = Int(ProcessInfo.processInfo.environment["HOSTILE_WRITE_VARIANTS"] ?? "") ?? 30

    func testWritesIntoDamagedFilesFailCleanlyOrCommit() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var random = SeededRandom(seed: 4_2026_1130)
        var committed = 0, failed = 0
        var kinds: [String: Int] = [:]
        let verbose = ProcessInfo.processInfo.environment["HOSTILE_VERBOSE"] != nil
        var originals: [(String, [UInt8])] = try Self.fixtures.map { name in
            (name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name + ".realm")))))
        }
        // basic with every string property enumerated (§9.4.4): damaged value lists, Spec
        // slot 4 arrays and position leaves as well.
        originals.append(("basic, enumerated", try EnumeratedCopy.make(of: try Snapshot(path: Fixtures.path("realm-core/basic.realm")),
                                                                       maxDistinctPercent: 100).bytes))
        for (name, original) in originals {
            for v in 0..<Self.variantsPerFixture {
                var bytes = original
                let flips = Int.random(in: 1...4, using: &random)
                for _ in 0..<flips {
                    let at = Int.random(in: 24..<bytes.count, using: &random)
                    bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
                }
                let path = dir + "/variant-\(v).realm"
                try? FileManager.default.removeItem(atPath: path)
                try? FileManager.default.removeItem(atPath: path + ".lock")
                XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
                if verbose { print("hostile write: \(name) variant \(v)") }
                do {
                    try changeEverything(path)
                    committed += 1
                    // A committed file opens again (its content may still be damaged elsewhere).
                    _ = Verifier.verify(try Snapshot(path: path))
                } catch let error as FormatError {
                    failed += 1
                    kinds["\(error)".prefix { $0 != "(" }.description, default: 0] += 1
                } catch let error as InputError {
                    failed += 1
                    kinds["input: " + error.message.prefix(30), default: 0] += 1
                }
            }
        }
        print("HostileWriteTests: \(committed) variants committed, \(failed) failed cleanly: \(kinds.sorted { $0.key < $1.key })")
        XCTAssertEqual(committed + failed, originals.count * Self.variantsPerFixture)
        XCTAssertGreaterThan(committed, 0, "some variants are damaged only where the writes do not look")
    }

    /// Deletes the first half of each top-level class's objects and sets one scalar property
    /// of the others, in one transaction.
    func changeEverything(_ path: String) throws {
        let writer = try RealmWriter(path: path)
        for c in writer.file.classes where !c.isEmbedded {
            var keys: [Int64] = []
            try writer.file.forEachObject(of: c, properties: []) { key, _ in keys.append(key) }
            let half = keys.count / 2
            try writer.delete(className: c.name, keys: Array(keys[..<half]))
            let scalar = c.properties.first { !$0.isPrimaryKey && $0.collection == nil && ["int", "string", "bool", "double"].contains($0.type) }
            if let p = scalar {
                let value: JSONValue
                switch p.type {
                case "int": value = .number("7")
                case "string": value = .text("changed")
                case "bool": value = .bool(true)
                default: value = .number("1.5")
                }
                try writer.update(className: c.name, keys: Array(keys[half...]), values: .object([(p.name, value)]))
            }
        }
        try writer.commit()
    }
}
