import Foundation
@testable import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// The two ways to enumerate string properties (realm-format.md §9.4.4) give the same tree:
/// in one pass while compacting (`EnumeratedCopy`, `StringEnumerationPlan`, what
/// `compact --enumerate-strings` does) and by a write transaction then a compaction
/// (`RealmWriter.enumerateStrings`, realm-core's `realm-enumerate` order of steps). Node for
/// node, except each changed table's content-version counter, which only a transaction bumps.
final class EnumeratedCopyTests: XCTestCase {
    /// The first difference between the trees below `a` and `b`, nil when there is none.
    func difference(_ a: Snapshot, _ ra: Int, _ b: Snapshot, _ rb: Int, _ path: String) throws -> String? {
        let (na, nb) = (try a.node(ra), try b.node(rb))
        guard na.header.flags == nb.header.flags, na.count == nb.count, na.width == nb.width else {
            return "\(path): header \(na.header.flags)/\(na.count)/\(na.width) against \(nb.header.flags)/\(nb.count)/\(nb.width)"
        }
        guard na.hasRefs else {
            return Array(na.payloadBytes()) == Array(nb.payloadBytes()) ? nil : "\(path): payload"
        }
        for i in 0..<na.count {
            let (x, y) = (na.int(i), nb.int(i))
            if x != 0 && x & 1 == 0 && y != 0 && y & 1 == 0 {
                if let d = try difference(a, Int(x), b, Int(y), "\(path).\(i)") { return d }
            } else if x != y && !(path.hasSuffix("tables.table") && i == 6) {
                return "\(path).\(i): \(x) against \(y)"
            }
        }
        return nil
    }

    func testOnePassAndTransactionGiveTheSameTree() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["basic", "alltypes", "large"] {
            for percent in [100.0, 10] {
                let source = try Snapshot(path: Fixtures.path("realm-core/\(name).realm"))
                let (bytes, properties) = try EnumeratedCopy.make(of: source, maxDistinctPercent: percent)
                let path = try Fixtures.copy("realm-core/\(name).realm", into: dir)
                let writer = try RealmWriter(path: path)
                XCTAssertEqual(try writer.enumerateStrings(maxDistinctPercent: percent), properties, "\(name) at \(percent) %")
                try writer.commit()
                let onePass = try Snapshot(image: ByteImage(bytes: bytes))
                let viaWrite = try Snapshot(image: ByteImage(bytes: Compactor.compact(try Snapshot(path: path))))
                XCTAssertEqual(Verifier.verify(onePass).problems.map(\.description), [], name)
                let (ta, tb) = (try XCTUnwrap(onePass.top?.tablesRef), try XCTUnwrap(viaWrite.top?.tablesRef))
                let tables = try onePass.node(ta)
                for t in 0..<tables.count {
                    guard let ra = tables.ref(t), let rb = try viaWrite.node(tb).ref(t) else { continue }
                    XCTAssertNil(try difference(onePass, ra, viaWrite, rb, "tables.table"), "\(name) at \(percent) %, table \(t)")
                }
                try FileManager.default.removeItem(atPath: path)
                try? FileManager.default.removeItem(atPath: path + ".lock")
            }
        }
    }

    /// A column counted on two threads (`DistinctStringCount`, each half of the leaves into a
    /// table of its own, then merged) plans exactly what one pass plans: the same report and,
    /// compacted, the same bytes — with every column split (threshold 0), including small
    /// ones, at percentages that enumerate all, some or none of the columns.
    func testTwoThreadCensusGivesTheOnePassFile() throws {
        for name in ["basic", "alltypes", "large"] {
            let source = try Snapshot(path: Fixtures.path("realm-core/\(name).realm"))
            let file = try RealmFile(path: "", snapshot: source)
            for percent in [100.0, 10, 1, 0.01] {
                var split = StringEnumerationPlan(), whole = StringEnumerationPlan()
                try split.add(file.classes.map(\.table), in: source, maxDistinctPercent: percent, twoThreadsFrom: 0)
                try whole.add(file.classes.map(\.table), in: source, maxDistinctPercent: percent, twoThreadsFrom: .max)
                XCTAssertEqual(split.columns, whole.columns, "\(name) at \(percent) %")
                XCTAssertEqual(try Compactor.compact(source, enumeration: split), try Compactor.compact(source, enumeration: whole),
                               "\(name) at \(percent) %: the compacted bytes differ")
            }
        }
    }

    /// A leaf the two threads do not read in place (a big leaf, §9.4.3: one value over 63
    /// bytes) sends the whole column back to the one pass: the plan is still the one-pass plan.
    func testTwoThreadCensusFallsBackForABigLeaf() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Fixtures.copy("realm-core/basic.realm", into: dir)
        let writer = try RealmWriter(path: path)
        let person = try XCTUnwrap(writer.file.objectClass(named: "Person"))
        var keys: [Int64] = []
        try writer.file.forEachObject(of: person, properties: []) { key, _ in keys.append(key) }
        let email = try XCTUnwrap(person.property(named: "email"))
        try writer.set(person, key: try XCTUnwrap(keys.last), email, .string(Array(String(repeating: "long address ", count: 8).utf8)))
        try writer.commit()
        let source = try Snapshot(path: path)
        let file = try RealmFile(path: "", snapshot: source)
        var split = StringEnumerationPlan(), whole = StringEnumerationPlan()
        try split.add(file.classes.map(\.table), in: source, maxDistinctPercent: 100, twoThreadsFrom: 0)
        try whole.add(file.classes.map(\.table), in: source, maxDistinctPercent: 100, twoThreadsFrom: .max)
        XCTAssertEqual(split.columns, whole.columns)
        XCTAssertTrue(split.columns.contains { $0.column == "email" && $0.enumerated }, "\(split.columns)")
        XCTAssertEqual(try Compactor.compact(source, enumeration: split), try Compactor.compact(source, enumeration: whole))
    }
}
