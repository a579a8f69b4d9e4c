import Foundation
import XCTest
import RealmFormat
import RealmObjects
import RealmTestSupport

/// Damaged files of formats 2–9 (Docs/legacy-formats.md §10): truncated, with flipped bytes,
/// with refs that loop. Each must open, dump and verify, or fail with one `FormatError` —
/// never trap or hang (the harness of `HostileInputTests`).
final class LegacyHostileInputTests: XCTestCase {
    /// Small old fixtures that between them have every old structure: format 2 with DateTime
    /// and links (default-before-migration), subtables as lists, every column type and
    /// node-size-4 B+trees with inner nodes (4_9_to_10), the old Mixed column and a subtable of
    /// two columns (viewTest), enumerated strings and a half-done Core 10 upgrade (progress_6),
    /// format 5 string indexes (5_to_6_stringindex), backlinks of many classes (asset_file).
    static let fixtures = [
        "public/java__default-before-migration", "public/core__test_upgrade_database_1000_9_to_10",
        "public/core__test_upgrade_database_4_9_to_10", "public/java__viewTest",
        "public/core__test_upgrade_progress_6", "public/core__test_test_upgrade_database_4_5_to_6_stringindex",
        "public/java__asset_file", "public/core__test_upgrade_database_9_to_10_pk_table",
    ]

    /// Opens, dumps and (when it opens) verifies `bytes`.
    @discardableResult
    static func exercise(_ bytes: [UInt8], _ label: String, _ tally: inout HostileInputTests.Tally,
                         file: StaticString = #filePath, line: UInt = #line) -> HostileInputTests.Outcome {
        let outcome = HostileInputTests.exercise(bytes, label, &tally, file: file, line: line)
        if outcome == .opened, let snapshot = try? Snapshot(image: ByteImage(bytes: bytes)) {
            _ = Verifier.verify(snapshot)           // problems are expected; a trap is not
        }
        return outcome
    }

    func testOldFixturesTruncated() throws {
        var tally = HostileInputTests.Tally()
        for name in Self.fixtures {
            let bytes = try HostileInputTests.fixture(name)
            var lengths = Set<Int>()
            for k in 1..<12 { lengths.insert((bytes.count * k / 12) & ~7) }
            for n in lengths.sorted() {
                Self.exercise(Array(bytes.prefix(n)), "\(name) truncated to \(n)/\(bytes.count)", &tally)
            }
        }
        print("LegacyHostileInputTests.truncated: \(tally)")
    }

    func testOldFixturesWithFlippedBytes() throws {
        var total = HostileInputTests.Tally()
        for (index, name) in Self.fixtures.enumerated() {
            let original = try HostileInputTests.fixture(name)
            XCTAssertEqual(Self.exercise(original, "\(name) unmodified", &total), .opened)
            var rng = SeededRandom(seed: 0x01D_F11B + UInt64(index))
            for v in 0..<50 {
                let (bytes, positions) = HostileInputTests.flip(original, count: 1 + v % 6, &rng)
                Self.exercise(bytes, "\(name) variant \(v) flips \(positions)", &total)
            }
        }
        print("LegacyHostileInputTests.flips: \(total)")
    }

    /// An old header (formats 2–9) over random bytes gets past the header into the old group.
    func testOldHeaderOverRandomBytes() {
        var rng = SeededRandom(seed: 0x01D_0001)
        var tally = HostileInputTests.Tally()
        for size in [32, 256, 4096, 32768] {
            for format: UInt8 in [2, 3, 5, 6, 7, 8, 9] {
                var bytes = rng.bytes(size)
                let top = UInt64(Int.random(in: 3..<(size / 8), using: &rng) * 8)
                bytes.replaceSubrange(0..<24, with: HostileInputTests.header(top: top, format: format))
                Self.exercise(bytes, "format \(format) header + garbage \(size)", &tally)
            }
        }
        XCTAssertEqual(tally.opened, 0)
        print("LegacyHostileInputTests.random: \(tally)")
    }

    // MARK: - Refs that loop or are shared

    /// The first column root of the first non-empty table of `name`, and the bytes.
    private func firstColumnRoot(_ name: String) throws -> (bytes: [UInt8], table: LegacyTable, root: Int) {
        let bytes = try HostileInputTests.fixture(name)
        let group = try XCTUnwrap(try Snapshot(image: ByteImage(bytes: bytes)).legacy)
        let table = try XCTUnwrap(group.tables.first { $0.rowCount > 1 && $0.upgraded == nil })
        let root = try XCTUnwrap(table.root(of: table.spec.columns[0]))
        return (bytes, table, root)
    }

    /// A B+tree inner node whose child is the node itself: the depth limit stops the walk.
    func testBPlusTreeChildPointingToItsParent() throws {
        let bytes = try HostileInputTests.fixture("public/core__test_upgrade_database_4_9_to_10")
        let group = try XCTUnwrap(try Snapshot(image: ByteImage(bytes: bytes)).legacy)
        var inner: Int?
        for table in group.tables {
            for c in table.spec.columns {
                guard inner == nil, let root = table.root(of: c), let node = try? Node(image: ByteImage(bytes: bytes), ref: root), node.isInner else { continue }
                inner = root
            }
        }
        let ref = try XCTUnwrap(inner, "4_9_to_10 has inner B+tree nodes (node size 4)")
        var looped = bytes
        try HostileInputTests.patchElement(&looped, node: ref, index: 1, value: Int64(ref))
        HostileInputTests.expectCleanFailure(looped, "B+tree inner node \(hex(ref)) whose first child is itself")
    }

    /// Every column of a table pointing at one column's tree (shared subtrees): the sizes or
    /// the work budget stop the read, and verify reports it when it opens.
    func testColumnsSharingOneTree() throws {
        let (bytes, table, root) = try firstColumnRoot("public/java__default-before-migration")
        var shared = bytes
        let columns = try XCTUnwrap(table.columns)
        for i in 0..<columns.count { try HostileInputTests.patchElement(&shared, node: columns.ref, index: i, value: Int64(root)) }
        var tally = HostileInputTests.Tally()
        Self.exercise(shared, "table '\(table.name)': every column slot → \(hex(root))", &tally)
        XCTAssertEqual(tally.total, 1)
    }

    /// A link list cell that points at the column's own root: its "list" is the column.
    func testLinkListCellPointingToItsColumn() throws {
        let bytes = try HostileInputTests.fixture("public/core__test_upgrade_database_1000_9_to_10")
        let image = ByteImage(bytes: bytes)
        let group = try XCTUnwrap(try Snapshot(image: image).legacy)
        var found: (root: Int, row: Int)?
        for table in group.tables {
            for c in table.spec.columns where c.type == .linkList && found == nil {
                let root = try XCTUnwrap(table.root(of: c))
                let node = try Node(image: image, ref: root)
                if !node.isInner, let row = (0..<node.count).first(where: { node.ref($0) != nil }) { found = (root, row) }
            }
        }
        let (root, row) = try XCTUnwrap(found, "a leaf link-list column with a non-empty list")
        var looped = bytes
        try HostileInputTests.patchElement(&looped, node: root, index: row, value: Int64(root))
        var tally = HostileInputTests.Tally()
        Self.exercise(looped, "link list cell \(row) of \(hex(root)) → its own column", &tally)
    }

    /// A column retyped as a subtable takes the subspec entry of the next one, which then has
    /// none: refused by name.
    func testColumnRetypedAsASubtable() throws {
        let bytes = try HostileInputTests.fixture("public/java__viewTest")
        let group = try XCTUnwrap(try Snapshot(image: ByteImage(bytes: bytes)).legacy)
        let table = try XCTUnwrap(group.tables.first)
        let types = try XCTUnwrap(try Node(image: ByteImage(bytes: bytes), ref: table.spec.ref).ref(0))
        var retyped = bytes
        try HostileInputTests.patchElement(&retyped, node: types, index: 0, value: 5)
        HostileInputTests.expectCleanFailure(retyped, "column 0 of '\(table.name)' retyped as a subtable",
                                             .corrupt(offset: table.spec.ref, reason: "table 'TestEmployeeTable': subspecs array lacks entry 1"))
    }

    // MARK: - verify

    /// Damage the conversion reads past — a link to a row that does not exist (dropped), a
    /// backlink that no link mirrors, a B+tree total that disagrees with its leaves — is what
    /// `verify` reports.
    func testVerifyReportsDanglingLinksUnmirroredBacklinksAndWrongTotals() throws {
        let bytes = try HostileInputTests.fixture("public/core__test_upgrade_database_4_9_to_10")
        let image = ByteImage(bytes: bytes)
        let group = try XCTUnwrap(try Snapshot(image: image).legacy)
        let table = try XCTUnwrap(group.table(named: "table"))
        let link = try XCTUnwrap(table.spec.columns.first { $0.name == "link" })

        // A leaf of the link column wide enough for 100 (row 99 + 1): a row far past the end.
        var leaves = [Node]()
        try BPlusTree(snapshot: group.source, rootRef: XCTUnwrap(table.root(of: link))).forEachLeaf { leaves.append($0) }
        let leaf = try XCTUnwrap(leaves.first { $0.width >= 8 })
        var dangling = bytes
        try HostileInputTests.patchElement(&dangling, node: leaf.ref, index: 0, value: 100)
        let report = Verifier.verify(try Snapshot(image: ByteImage(bytes: dangling)))
        XCTAssertTrue(report.problems.contains { $0.message.contains("links to row 99 of 'table'") }, "\(report.problems)")

        // An inner node of a column after the first: its total no longer matches its leaves.
        let later = try XCTUnwrap(table.spec.columns.dropFirst().first { c in
            (try? Node(image: image, ref: table.root(of: c)!))?.isInner == true && c.type == .int
        })
        let inner = try Node(image: image, ref: XCTUnwrap(table.root(of: later)))
        var wrongTotal = bytes
        let total = try XCTUnwrap(inner.tagged(inner.count - 1))
        try HostileInputTests.patchElement(&wrongTotal, node: inner.ref, index: inner.count - 1, value: Int64(2 * (total - 1) + 1))
        let totals = Verifier.verify(try Snapshot(image: ByteImage(bytes: wrongTotal)))
        XCTAssertTrue(totals.problems.contains { $0.offset == inner.ref && $0.message.contains("B+tree total \(total - 1) but its children hold \(total)") },
                      "\(totals.problems)")
        XCTAssertTrue(Verifier.verify(try Snapshot(image: image)).isOK)
    }
}
