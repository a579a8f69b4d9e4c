import Foundation
@testable import RealmFormat
import RealmQuery
import RealmTestSupport
import XCTest

/// Issue #16: realmsh lays the new cluster leaves of a commit out column by column
/// (`NodeLayout`), so a scan of one column reads one contiguous stretch of the file. On an
/// encrypted copy that is what keeps a count scan close to the plain file's cost: it decrypts
/// the pages of that column, not a page or two of every leaf's stretch of the file (§14).
final class ColumnLayoutTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let objects = 20_000

    /// `Item {id: int (pk), n: int, s: string}`, 20,000 objects, written by `create` + `import`
    /// (one commit of new leaves), and its encrypted copy.
    func makeFiles() throws -> (plain: String, encrypted: String, key: String) {
        let schema = """
        [{"name": "Item", "primaryKey": "id", "embedded": false, "properties": [
          {"name": "id", "type": "int", "optional": false, "indexed": true, "primaryKey": true},
          {"name": "n", "type": "int", "optional": false},
          {"name": "s", "type": "string", "optional": false}]}]
        """
        try schema.write(toFile: dir + "/schema.json", atomically: true, encoding: .utf8)
        var lines = ""
        for i in 0..<Self.objects {
            lines += "{\"_class\": \"Item\", \"id\": \(i), \"n\": \(i % 100), \"s\": \"item number \(i) with some padding text\"}\n"
        }
        try lines.write(toFile: dir + "/items.jsonl", atomically: true, encoding: .utf8)
        let plain = dir + "/items.realm", encrypted = dir + "/items-encrypted.realm", key = dir + "/items.key"
        for run in [realmsh("create", "--schema", dir + "/schema.json", plain),
                    realmsh("import", plain, dir + "/items.jsonl"),
                    realmsh("keygen", "-o", key),
                    realmsh("encrypt", "--key-file", key, "-o", encrypted, plain)] {
            XCTAssertEqual(run.code, 0, run.stderr)
        }
        return (plain, encrypted, key)
    }

    func testEachColumnsLeavesLieSideBySide() throws {
        let files = try makeFiles()
        let snapshot = try Snapshot(path: files.plain)
        let table = try XCTUnwrap(snapshot.table(named: "class_Item"))
        let root = try XCTUnwrap(table.clusterRef)
        let leaves = try snapshot.clusterLeaves(rootRef: root)
        XCTAssertGreaterThan(leaves.count, 70, "enough leaves to see the layout")
        // Each column's leaves (with their own children: a long-string leaf's offsets and
        // blob) fill one stretch of the file with nothing of another column in between.
        for (leafIndex, name) in [(1, "n"), (2, "s")] {
            var extents: [(start: Int, end: Int)] = []
            func collect(_ ref: Int) throws {
                let node = try snapshot.node(ref)
                extents.append((ref, ref + node.header.byteSize))
                if node.hasRefs { for i in 0..<node.count { if let child = node.ref(i) { try collect(child) } } }
            }
            for ref in try snapshot.columnRefs(rootRef: root, leafIndex: leafIndex) { try collect(ref) }
            let span = extents.map(\.end).max()! - extents.map(\.start).min()!
            XCTAssertEqual(span, extents.reduce(0) { $0 + $1.end - $1.start },
                           "column \(name): its \(extents.count) nodes do not lie side by side")
        }
    }

    func testACountScanOfAnEncryptedCopyDecryptsOnlyItsColumnsPages() throws {
        let files = try makeFiles()
        let snapshot = try Snapshot(path: files.encrypted, key: EncryptionKey(file: files.key))
        let total = (snapshot.image.count + 4095) / 4096
        let store = ObjectStore(snapshot: snapshot)
        XCTAssertEqual(try Query(store: store, className: "Item", "n > 30").count(), Self.objects * 69 / 100)
        let decrypted = try XCTUnwrap(snapshot.image.decryptedPageCount)
        // Laid out leaf by leaf (before issue #16's change), this scan decrypted 95 of the 512
        // pages: the cluster leaf's page and the `n` leaf's page of every leaf's stretch.
        print("count scan of the encrypted copy decrypted \(decrypted) of \(total) pages")
        XCTAssertLessThan(decrypted, total / 8, "\(decrypted) of \(total) pages decrypted by a count of one int column")
        let plain = realmsh("export", files.plain), encrypted = realmsh("export", "--key-file", files.key, files.encrypted)
        XCTAssertEqual(encrypted.code, 0, encrypted.stderr)
        XCTAssertEqual(encrypted.stdout, plain.stdout)
    }

    /// The scan's two-thread decryption of a column (`DecryptedPages.prefetch`) skips a page
    /// that fails its HMAC; the scan's own read then stops with the corrupt-page error naming
    /// it (exit 65), as without the prefetch. The CLI's count of this small file decrypts as
    /// it reads (below `parallelMinimumBytes`), so the two-thread path is taken by hand.
    func testADamagedPageInAScannedColumnFailsTheScanCleanly() throws {
        let files = try makeFiles()
        let plain = try Snapshot(path: files.plain)
        let root = try XCTUnwrap(plain.table(named: "class_Item")?.clusterRef)
        let refs = try plain.columnRefs(rootRef: root, leafIndex: 1)
        XCTAssertGreaterThanOrEqual(refs.count, DecryptedPages.prefetchMinimum, "enough leaves for the two-thread prefetch")
        let page = refs[refs.count / 2] / 4096
        var bytes = try Data(contentsOf: URL(fileURLWithPath: files.encrypted))
        bytes[page * 4096 + (page / 64 + 1) * 4096 + 100] ^= 0x5A
        let damaged = dir + "/damaged.realm"
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let run = realmsh("query", damaged, "Item", "n > 30", "--format", "count", "--key-file", files.key)
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("encrypted page \(page) fails its HMAC check"), run.stderr)

        let snapshot = try Snapshot(path: damaged, key: EncryptionKey(file: files.key))
        snapshot.image.prefetchDecrypted(nodes: refs, minimumBytes: 0)
        let prefetched = try XCTUnwrap(snapshot.image.decryptedPageCount)
        XCTAssertGreaterThan(prefetched, 5, "the two threads decrypted the column's other pages")
        let store = ObjectStore(snapshot: snapshot)
        XCTAssertThrowsError(try Query(store: store, className: "Item", "n > 30").count()) { error in
            guard case let FormatError.corrupt(_, reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "encrypted page \(page) fails its HMAC check (damaged page)")
        }
    }

    /// A column's leaves are decrypted ahead of the scan, on two threads, only when there are
    /// enough bytes of them to pay for a thread (`DecryptedPages.parallelMinimumBytes`); below
    /// that, nothing is decrypted until the scan reads it.
    func testOnlyALargeColumnIsDecryptedAheadOfItsScan() throws {
        let files = try makeFiles()
        let plain = try Snapshot(path: files.plain)
        let root = try XCTUnwrap(plain.table(named: "class_Item")?.clusterRef)
        let refs = try plain.columnRefs(rootRef: root, leafIndex: 1)
        let small = try Snapshot(path: files.encrypted, key: EncryptionKey(file: files.key))
        let before = try XCTUnwrap(small.image.decryptedPageCount)
        small.image.prefetchDecrypted(nodes: refs)
        XCTAssertLessThanOrEqual(try XCTUnwrap(small.image.decryptedPageCount), before + 1,
                                 "a column of \(refs.count) small leaves: only the first leaf's page, to size it")
        let forced = try Snapshot(path: files.encrypted, key: EncryptionKey(file: files.key))
        forced.image.prefetchDecrypted(nodes: refs, minimumBytes: 0)
        let leafPages = Set(refs.map { $0 / 4096 })
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(forced.image.decryptedPageCount), leafPages.count,
                                    "every page holding one of the column's leaves")
    }
}
