import Foundation
@testable import RealmFormat
import RealmTestSupport
import XCTest

final class VerifierTests: XCTestCase {
    static let fixturesDirectory = Fixtures.directory

    /// Written by a REALM_MAX_BPNODE_SIZE=4 test build; realm-core's own verify fails on them.
    static let nodeSize4Files: Set<String> = ["test_upgrade_database_4_10_to_11.realm", "test_upgrade_database_4_23.realm"]

    static func fixture(_ name: String) -> String { fixturesDirectory + "/realm-core/" + name }

    static func allFixturePaths() throws -> [String] { Fixtures.allRealmFiles() }

    static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func open(_ bytes: [UInt8]) throws -> Snapshot {
        try Snapshot(image: ByteImage(bytes: bytes))
    }

    /// Overwrites element `index` of the integer array at `ref` (width ≥ 8) in `bytes`.
    static func setElement(_ bytes: inout [UInt8], node ref: Int, index: Int, to value: Int64) throws {
        let node = try Node(image: ByteImage(bytes: bytes), ref: ref)
        let width = node.width / 8
        guard node.header.widthType == .bits, width >= 1, index < node.count else {
            throw FormatError.corrupt(offset: ref, reason: "test helper needs a byte-wide integer array")
        }
        let stored = UInt64(bitPattern: value)
        for b in 0..<width { bytes[ref + 8 + index * width + b] = UInt8(truncatingIfNeeded: stored >> (8 * UInt64(b))) }
        XCTAssertEqual(try Node(image: ByteImage(bytes: bytes), ref: ref).int(index), value, "value does not fit the width")
    }

    func describe(_ report: VerificationReport) -> String {
        report.problems.prefix(20).map(\.description).joined(separator: "\n")
    }

    // MARK: - Fixtures

    func testEveryReadablePlainFixtureVerifiesOK() throws {
        var verified = [String]()
        for path in try Self.allFixturePaths() {
            let name = (path as NSString).lastPathComponent
            guard !Self.nodeSize4Files.contains(name) else { continue }
            let snapshot: Snapshot
            do {
                snapshot = try Snapshot(path: path)
            } catch .encrypted, .unsupportedFormat {
                continue                             // encrypted, or format 2 / 9
            } catch {
                XCTFail("\(name) does not open: \(error.message)")
                continue
            }
            let report = Verifier.verify(snapshot)
            XCTAssertTrue(report.isOK, "\(name):\n\(describe(report))")
            verified.append(name)
        }
        // 9 object-store fixtures and 16 realm-core-tests files (besides the two node-size-4
        // ones) open; guard against a directory mix-up silently verifying nothing.
        XCTAssertGreaterThanOrEqual(verified.count, 25, "verified only \(verified)")
        XCTAssertTrue(verified.contains("large.realm") && verified.contains("exported.realm"))
    }

    func testNodeSize4FixturesVerifyWithoutTrapping() throws {
        for name in Self.nodeSize4Files.sorted() {
            let snapshot = try Snapshot(path: Self.fixturesDirectory + "/realm-core-tests/" + name)
            let report = Verifier.verify(snapshot)
            XCTAssertGreaterThan(report.nodeCount, 0, name)
        }
    }

    /// Counts from the Python reference tool (`realm_inspect.py verify`) on the same files.
    func testWalkCountsMatchTheReferenceTool() throws {
        let expected: [(String, Int, Int, Int)] = [
            ("basic.realm", 76, 8, 4096),
            ("exported.realm", 2083, 0, 228_936),     // streaming form, 3-slot top
            ("compacted.realm", 10416, 0, 844_872),
            ("churn.realm", 10416, 10, 1_048_576),
            ("large.realm", 70938, 1093, 15_728_640),
        ]
        for (name, nodes, free, logical) in expected {
            let report = Verifier.verify(try Snapshot(path: Self.fixture(name)))
            XCTAssertEqual(report.nodeCount, nodes, name)
            XCTAssertEqual(report.freeEntryCount, free, name)
            XCTAssertEqual(report.logicalSize, logical, name)
            XCTAssertTrue(report.isOK, name)
        }
    }

    func testFileWithNothingCommittedVerifiesWithoutNodes() throws {
        let snapshot = try Snapshot(path: Self.fixturesDirectory + "/realm-core-tests/vacuum_no_history_type.realm")
        let report = Verifier.verify(snapshot)
        XCTAssertTrue(report.isOK)
        XCTAssertEqual(report.nodeCount, 0)
        XCTAssertEqual(report.logicalSize, 0)
    }

    // MARK: - Hand-built files

    /// A 7-slot file (realm-format.md §5.1): names, tables, three free-list arrays and the top,
    /// every integer array at width 64. `free` entries are (position, length, version);
    /// `extra` bytes of zeros are appended before the top and left unaccounted.
    static func tinyFile(free: [(Int64, Int64, Int64)] = [], extra: Int = 0, logicalSlack: Int = 0) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 24)
        func u64(_ v: UInt64) { for b in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(b)))) } }
        func node(flags: UInt8, _ values: [Int64]) -> Int {
            let ref = out.count
            out += [0x41, 0x41, 0x41, 0x41, flags, UInt8(values.count >> 16), UInt8((values.count >> 8) & 0xFF), UInt8(values.count & 0xFF)]
            for v in values { u64(UInt64(bitPattern: v)) }
            return ref
        }
        let names = node(flags: 0x08, [])                    // ArrayStringShort, width 0, empty
        let tables = node(flags: 0x40, [])
        let positions = node(flags: 0x07, free.map(\.0))
        let lengths = node(flags: 0x07, free.map(\.1))
        let versions = node(flags: 0x07, free.map(\.2))
        out += [UInt8](repeating: 0, count: extra)
        let topRef = out.count
        let logical = topRef + 8 + 7 * 8 + logicalSlack
        _ = node(flags: 0x47, [Int64(names), Int64(tables), Int64(2 * logical + 1),
                               Int64(positions), Int64(lengths), Int64(versions), 2 * 1 + 1])
        out += [UInt8](repeating: 0, count: (4096 - out.count % 4096) % 4096)
        for b in 0..<8 { out[8 + b] = UInt8(truncatingIfNeeded: topRef >> (8 * b)) }
        out[16...23] = [0x54, 0x2D, 0x44, 0x42, 24, 24, 0, 1]
        return out
    }

    /// Offset just past the top array of `tinyFile(free:)` with `entries` free entries.
    static func tinyTopEnd(entries: Int) -> Int { 24 + 8 + 8 + 3 * (8 + 8 * entries) + 8 + 7 * 8 }

    func testMinimalHandBuiltFileVerifies() throws {
        let report = Verifier.verify(try Self.open(Self.tinyFile()))
        XCTAssertTrue(report.isOK, describe(report))
        XCTAssertEqual(report.nodeCount, 6)
        XCTAssertEqual(report.logicalSize, 24 + 5 * 8 + 64)
    }

    func testFreeEntryCoveringTrailingSpaceVerifies() throws {
        let end = Int64(Self.tinyTopEnd(entries: 1))
        let report = Verifier.verify(try Self.open(Self.tinyFile(free: [(end, 64, 1)], logicalSlack: 64)))
        XCTAssertTrue(report.isOK, describe(report))
        XCTAssertEqual(report.freeEntryCount, 1)
    }

    func testLeakedBytesAreReportedAsAGapAtTheirOffset() throws {
        // 16 zero bytes between the versions array and the top: neither a node nor free.
        let file = Self.tinyFile(extra: 16)
        let report = Verifier.verify(try Self.open(file))
        let gapStart = 24 + 8 + 8 + 3 * 8
        XCTAssertEqual(report.problems.map(\.offset), [gapStart], describe(report))
        XCTAssertTrue(report.problems.first?.message.contains("neither reachable nor free") == true)
    }

    func testBadFreeEntriesAreReportedEach() throws {
        // After the top (ending at 200) and 80 bytes of slack (logical size 280): a valid entry
        // [200, 216); a misaligned one starting inside it; one reaching past the logical end
        // with a version above the top version (1). [216, 224) is left uncovered.
        let end = Int64(Self.tinyTopEnd(entries: 3))
        XCTAssertEqual(end, 200)
        let file = Self.tinyFile(free: [(200, 16, 1), (212, 4, 0), (224, 64, 5)], logicalSlack: 80)
        let report = Verifier.verify(try Self.open(file))
        let messages = report.problems.map(\.description).joined(separator: "\n")
        XCTAssertTrue(report.problems.contains { $0.offset == 212 && $0.message.contains("not 8-aligned") }, messages)
        XCTAssertTrue(report.problems.contains { $0.offset == 212 && $0.message.contains("not sorted") }, messages)
        XCTAssertTrue(report.problems.contains { $0.offset == 212 && $0.message.contains("overlaps free entry 0") }, messages)
        XCTAssertTrue(report.problems.contains { $0.offset == 216 && $0.message.contains("neither reachable nor free") }, messages)
        XCTAssertTrue(report.problems.contains { $0.offset == 224 && $0.message.contains("version 5 > top version 1") }, messages)
        XCTAssertTrue(report.problems.contains { $0.offset == 224 && $0.message.contains("outside") }, messages)
        XCTAssertFalse(report.problems.contains { $0.offset == 200 }, messages)
    }

    func testProblemListIsCappedWithACountOfTheRest() throws {
        // 3000 misaligned one-byte-long entries: each is misaligned and out of order or outside.
        let entries = (0..<3000).map { i in (Int64(3 + i), Int64(1), Int64(0)) }
        let report = Verifier.verify(try Self.open(Self.tinyFile(free: entries)))
        XCTAssertEqual(report.problems.count, Verifier.maxReportedProblems + 1)
        XCTAssertTrue(report.problems.last?.message.hasSuffix("more problems not listed") == true)
        XCTAssertEqual(report.freeEntryCount, 3000)
    }

    // MARK: - Corrupted copies of basic.realm

    func testBasicFixtureIsTheBaseline() throws {
        XCTAssertTrue(Verifier.verify(try Self.open(try Self.bytes(of: Self.fixture("basic.realm")))).isOK)
    }

    func testFlippedFlagsByteOfAnyReachableNodeIsReportedAtThatNode() throws {
        let original = try Self.bytes(of: Self.fixture("basic.realm"))
        let refs = Verifier.reachableNodeRefs(try Self.open(original))
        XCTAssertEqual(refs.count, 76)
        var opened = 0
        for ref in refs {
            var bytes = original
            bytes[ref + 4] ^= 0xFF      // wtype 0 → 3, or has-refs on a non-bits node: invalid either way
            guard let snapshot = try? Self.open(bytes) else { continue }   // the table catalogue broke
            opened += 1
            let report = Verifier.verify(snapshot)
            XCTAssertTrue(report.problems.contains { $0.offset == ref }, "flags of \(hex(ref)):\n\(describe(report))")
        }
        XCTAssertGreaterThan(opened, 40, "most nodes are not read when the file opens")
    }

    /// Flips every byte of basic.realm in turn. None may trap; and a changed node header
    /// (flags or element count) is always caught unless the node has width 0, whose byte size
    /// does not depend on its count. Data bytes, padding, checksums and free space may change
    /// without a structural trace.
    func testFlippingAnyByteNeverTrapsAndNodeHeadersAreCaught() throws {
        let original = try Self.bytes(of: Self.fixture("basic.realm"))
        let base = try Self.open(original)
        var headerBytes = Set<Int>()
        for ref in Verifier.reachableNodeRefs(base) {
            let node = try Node(image: base.image, ref: ref)
            headerBytes.insert(ref + 4)
            if node.width > 0 { headerBytes.formUnion(ref + 5...ref + 7) }
        }
        XCTAssertEqual(headerBytes.count, 76 + 3 * 71)       // 5 of the 76 nodes have width 0
        var missed = [Int]()
        for offset in 0..<original.count {
            var bytes = original
            bytes[offset] ^= 0xFF
            guard let snapshot = try? Self.open(bytes) else { continue }
            if Verifier.verify(snapshot).isOK && headerBytes.contains(offset) { missed.append(offset) }
        }
        XCTAssertEqual(missed, [], "undetected header flips at \(missed.map(hex))")
    }

    func testFreeEntryMovedOntoANodeIsReportedAsOverlap() throws {
        var bytes = try Self.bytes(of: Self.fixture("basic.realm"))
        let top = try XCTUnwrap(try Self.open(bytes).top)
        let positions = try XCTUnwrap(top.freePositionsRef)
        let target = top.tablesRef
        try Self.setElement(&bytes, node: positions, index: 0, to: Int64(target))
        let report = Verifier.verify(try Self.open(bytes))
        XCTAssertTrue(report.problems.contains { $0.offset == target && $0.message.contains("overlaps") }, describe(report))
    }

    func testTruncatedFileFailsToOpen() throws {
        let original = try Self.bytes(of: Self.fixture("basic.realm"))
        // (Length 0 is an empty Realm, not a truncated one: Realm writes the header on open.)
        for length in [7, 23, 24, 40, 1000, 2048, 3072, 4088] {
            XCTAssertThrowsError(try Self.open(Array(original.prefix(length))), "length \(length)")
        }
    }

    func testTruncatedFileWithLoweredLogicalSizeReportsWhatNoLongerFits() throws {
        var bytes = try Self.bytes(of: Self.fixture("basic.realm"))
        let snapshot = try Self.open(bytes)
        let top = try XCTUnwrap(snapshot.top)
        let end = top.ref + 8 + 8 * 11                  // just past the 11-slot, width-32 top array
        try Self.setElement(&bytes, node: top.ref, index: 2, to: Int64(2 * end + 1))
        let truncated = Array(bytes.prefix((end + 7) & ~7))
        let report = Verifier.verify(try Self.open(truncated))
        XCTAssertFalse(report.isOK)
        XCTAssertEqual(report.logicalSize, end)
        XCTAssertTrue(report.problems.contains { $0.message.contains("outside") }, describe(report))
    }

    func testColumnLeafWithAnExtraElementIsReported() throws {
        var bytes = try Self.bytes(of: Self.fixture("basic.realm"))
        let snapshot = try Self.open(bytes)
        let person = try XCTUnwrap(snapshot.table(named: "class_Person"))
        let age = try XCTUnwrap(person.column(named: "age"))
        var leafRef: Int?
        try ClusterTree(snapshot: snapshot, rootRef: try XCTUnwrap(person.clusterRef)).forEachLeaf { leaf in
            leafRef = leaf.columnRef(age.leafIndex)
        }
        let ref = try XCTUnwrap(leafRef)
        XCTAssertEqual(bytes[ref + 7], 10)              // 10 persons
        bytes[ref + 7] = 11
        let report = Verifier.verify(try Self.open(bytes))
        XCTAssertTrue(report.problems.contains { $0.offset == ref && $0.message.contains("holds 11 values for 10 objects") },
                      describe(report))
    }

    func testNodeReferencedTwiceIsReported() throws {
        var bytes = try Self.bytes(of: Self.fixture("basic.realm"))
        let snapshot = try Self.open(bytes)
        let person = try XCTUnwrap(snapshot.table(named: "class_Person"))
        let name = try XCTUnwrap(person.column(named: "name"))
        let age = try XCTUnwrap(person.column(named: "age"))
        var cluster: ClusterLeaf?
        try ClusterTree(snapshot: snapshot, rootRef: try XCTUnwrap(person.clusterRef)).forEachLeaf { cluster = $0 }
        let leaf = try XCTUnwrap(cluster)
        let nameLeaf = try XCTUnwrap(leaf.columnRef(name.leafIndex))
        let ageLeaf = try XCTUnwrap(leaf.columnRef(age.leafIndex))
        try Self.setElement(&bytes, node: leaf.node.ref, index: age.leafIndex + 1, to: Int64(nameLeaf))
        let report = Verifier.verify(try Self.open(bytes))
        XCTAssertTrue(report.problems.contains { $0.offset == nameLeaf && $0.message.contains("referenced twice") },
                      describe(report))
        XCTAssertTrue(report.problems.contains { $0.offset == ageLeaf && $0.message.contains("neither reachable nor free") },
                      describe(report))
    }

    func testCyclicRefIsReportedAndTerminates() throws {
        var bytes = try Self.bytes(of: Self.fixture("basic.realm"))
        let snapshot = try Self.open(bytes)
        let person = try XCTUnwrap(snapshot.table(named: "class_Person"))
        let root = try XCTUnwrap(person.clusterRef)
        let age = try XCTUnwrap(person.column(named: "age"))
        // The cluster leaf's 'age' slot points back at the leaf itself.
        try Self.setElement(&bytes, node: root, index: age.leafIndex + 1, to: Int64(root))
        let report = Verifier.verify(try Self.open(bytes))
        XCTAssertTrue(report.problems.contains { $0.offset == root && $0.message.contains("referenced twice") },
                      describe(report))
    }
}
