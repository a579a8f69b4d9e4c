import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// `Compactor`'s one-buffer copy (leaves as one memcpy, has-refs slots on a shared stack, the
/// output reserved once) writes exactly the bytes of the plain node-by-node copy it replaced
/// (`PlainCompaction` below: each node decoded, then re-encoded, cluster leaves column by
/// column as `NodeLayout` orders them; realm-format.md §13.8), on
/// every fixture it can compact, plain and encrypted; and the copy verifies and exports as the
/// original does.
final class CompactorFastPathTests: XCTestCase {
    /// Every non-legacy fixture with the key it needs.
    static func fixtures() throws -> [(name: String, path: String, key: EncryptionKey?)] {
        var out: [(String, String, EncryptionKey?)] = []
        for path in Fixtures.allRealmFiles() {
            let base = String(path.dropLast(".realm".count))
            var key: EncryptionKey?
            if FileManager.default.fileExists(atPath: base + ".key") {
                key = try EncryptionKey(file: base + ".key")
            } else if path.contains("test_shared_decrypt") {
                key = try EncryptionKey(hex: Fixtures.sharedDecryptKeyHex)
            }
            out.append((String(path.split(separator: "/").last!), path, key))
        }
        for f in Fixtures.publicFixtures() where !f.isLegacy {
            out.append((f.name, f.path, try f.keyHex.map { try EncryptionKey(hex: $0) }))
        }
        return out
    }

    func testFastCopyWritesTheBytesOfThePlainCopyOnEveryFixture() throws {
        var compared = 0, encrypted = 0
        var padded = Compactor.Options()
        padded.keepVersionAndHistory = false
        padded.padForEncryption = true
        for (name, path, key) in try Self.fixtures() {
            guard let probe = try? Snapshot(path: path, key: key), probe.legacy == nil else { continue }
            for options in [Compactor.Options(), padded] {
                let fast: [UInt8]
                do {
                    fast = try Compactor.compact(try Snapshot(path: path, key: key), options: options)
                } catch {
                    // A file the compactor refuses, the plain copy refuses too.
                    XCTAssertThrowsError(try PlainCompaction.compact(try Snapshot(path: path, key: key), options: options), name)
                    continue
                }
                let plain = try PlainCompaction.compact(try Snapshot(path: path, key: key), options: options)
                XCTAssertEqual(fast.count, plain.count, "\(name): size")
                if let i = zip(fast, plain).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                    XCTFail("\(name): first different byte at \(hex(i)) (keep history: \(options.keepVersionAndHistory))")
                }
                compared += 1
                if key != nil { encrypted += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 40, "too few fixtures compacted")
        XCTAssertGreaterThan(encrypted, 2, "no encrypted fixture compacted")
    }

    func testCompactedCopyVerifiesAndExportsAsTheOriginal() throws {
        let wanted = ["basic.realm", "alltypes.realm", "churn.realm", "encrypted.realm", "large.realm", "compacted.realm",
                      "core__0.98.0-alltypes-default-encrypted.realm", "core__books.realm", "core__test_shared_decrypt_4k_page.realm"]
        var checked = 0
        for (name, path, key) in try Self.fixtures() where wanted.contains(name) {
            let original = try Snapshot(path: path, key: key)
            let bytes = try Compactor.compact(original)
            let copy = try Snapshot(image: ByteImage(bytes: bytes))
            XCTAssertEqual(Verifier.verify(copy).problems.map(\.description), [], name)
            let (a, b) = (MemorySink(), MemorySink())
            try CanonicalDump.write(try RealmFile(path: path, snapshot: try Snapshot(path: path, key: key)), to: a)
            try CanonicalDump.write(try RealmFile(path: "", snapshot: copy), to: b)
            XCTAssertFalse(a.bytes.isEmpty, name)
            XCTAssertTrue(a.bytes == b.bytes, "\(name): the copy exports differently")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 7)
    }
}

/// The compaction as it was written before the one-buffer copy: every node read, decoded and
/// encoded again on its own (leaves: a new header, the payload, zero padding; has-refs nodes:
/// their elements decoded, the children's new refs put in, packed at the minimal width of
/// §4.3), then empty free lists, the top array and the footer. Only the reference for the test.
enum PlainCompaction {
    static func compact(_ snapshot: Snapshot, options: Compactor.Options) throws -> [UInt8] {
        guard snapshot.legacy == nil else { throw FormatError.cannotWrite(reason: "legacy") }
        let format = UInt8(truncatingIfNeeded: snapshot.fileFormat)
        guard let top = snapshot.top else {
            return [UInt8](repeating: 0, count: 16) + Array("T-DB".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 4096 - 24)
        }
        var out = [UInt8](repeating: 0xFF, count: 8) + [UInt8](repeating: 0, count: 8) + Array("T-DB".utf8) + [format, 0, 0, 0]
        let names = try copy(snapshot, top.tableNamesRef, 0, &out)
        let tables = try copy(snapshot, top.tablesRef, 0, &out)
        func tagged(_ v: Int64) -> Int64 { v << 1 | 1 }
        var slots: [Int64]
        if options.keepVersionAndHistory && top.slotCount >= 7 {
            var history: Int64 = 0
            if let h = top.historyRef { history = Int64(try copy(snapshot, h, 0, &out)) }
            var free: [Int64] = []
            for _ in 0..<3 { free.append(Int64(out.count)); pack(flags: 0, [], minimumWidth: 0, &out) }
            slots = [Int64(names), Int64(tables), 0, free[0], free[1], free[2], tagged(Int64(top.version))]
            if top.slotCount >= 9 {
                slots += [tagged(Int64(top.historyType)), history, tagged(Int64(top.historySchemaVersion)),
                          tagged(Int64(bitPattern: top.syncFileIdent))]
            }
        } else {
            slots = [Int64(names), Int64(tables), 0]
        }
        let topRef = out.count
        var width = 0
        while true {
            slots[2] = tagged(Int64(topRef + 8 + (((slots.count * width + 7) / 8 + 7) & ~7)))
            let needed = minimalWidth(slots)
            if needed <= width { break }
            width = needed
        }
        pack(flags: 0x40, slots, minimumWidth: width, &out)
        if options.padForEncryption { out += [UInt8](repeating: 0, count: (4096 - (out.count + 16) % 4096) % 4096) }
        for v in [UInt64(topRef), FileHeader.footerCookie] { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        return out
    }

    static func copy(_ snapshot: Snapshot, _ ref: Int, _ depth: Int, _ out: inout [UInt8]) throws -> Int {
        guard depth < 200 else { throw FormatError.corrupt(offset: ref, reason: "too deep") }
        let node = try snapshot.node(ref)
        guard node.hasRefs else {
            let newRef = out.count
            out += [0x41, 0x41, 0x41, 0x41, node.header.flags,
                    UInt8(node.count >> 16 & 0xFF), UInt8(node.count >> 8 & 0xFF), UInt8(node.count & 0xFF)]
            out += Array(node.payloadBytes())
            while out.count % 8 != 0 { out.append(0) }
            return newRef
        }
        guard node.header.widthType == .bits else { throw FormatError.corrupt(offset: ref, reason: "not bits") }
        var values = node.ints()
        func isRef(_ v: Int64) -> Bool { v != 0 && v & 1 == 0 }
        if node.isInner {
            // Cluster leaves column by column: other children, then every leaf's slot 0, slot
            // 1, …, then the leaves (NodeLayout's order).
            var leaves: [(slot: Int, node: Node, values: [Int64])] = []
            for i in values.indices where isRef(values[i]) {
                let child = try snapshot.node(Int(values[i]))
                if child.hasRefs, !child.isInner, child.header.widthType == .bits {
                    leaves.append((i, child, child.ints()))
                } else {
                    values[i] = Int64(try copy(snapshot, Int(values[i]), depth + 1, &out))
                }
            }
            for s in 0..<(leaves.map(\.values.count).max() ?? 0) {
                for l in leaves.indices where s < leaves[l].values.count && isRef(leaves[l].values[s]) {
                    leaves[l].values[s] = Int64(try copy(snapshot, Int(leaves[l].values[s]), depth + 2, &out))
                }
            }
            for leaf in leaves {
                values[leaf.slot] = Int64(out.count)
                pack(flags: leaf.node.header.flags & 0xE0, leaf.values, minimumWidth: 0, &out)
            }
        } else {
            for i in values.indices where isRef(values[i]) {
                values[i] = Int64(try copy(snapshot, Int(values[i]), depth + 1, &out))
            }
        }
        let newRef = out.count
        pack(flags: node.header.flags & 0xE0, values, minimumWidth: 0, &out)
        return newRef
    }

    static func minimalWidth(_ values: [Int64]) -> Int {
        let (lo, hi) = (min(0, values.min() ?? 0), max(0, values.max() ?? 0))
        if lo == 0 { for w in [0, 1, 2, 4] where hi < 1 << w { return w } }
        for w in [8, 16, 32] where lo >= -(1 << (w - 1)) && hi < 1 << (w - 1) { return w }
        return 64
    }

    /// A bits-width node: header with the width code, elements little-endian (sub-byte widths
    /// from the low bits up), zero padding to 8 bytes.
    static func pack(flags: UInt8, _ values: [Int64], minimumWidth: Int, _ out: inout [UInt8]) {
        let width = max(minimalWidth(values), minimumWidth)
        let code: [Int: UInt8] = [0: 0, 1: 1, 2: 2, 4: 3, 8: 4, 16: 5, 32: 6, 64: 7]
        let n = values.count
        out += [0x41, 0x41, 0x41, 0x41, flags | code[width]!, UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        var payload = [UInt8](repeating: 0, count: (((n * width + 7) / 8) + 7) & ~7)
        for (i, v) in values.enumerated() {
            if width < 8 {
                if width > 0 { payload[i * width / 8] |= UInt8(truncatingIfNeeded: v) << UInt8(i * width % 8) }
            } else {
                for b in 0..<width / 8 { payload[i * width / 8 + b] = UInt8(truncatingIfNeeded: v >> (8 * b)) }
            }
        }
        out += payload
    }
}
