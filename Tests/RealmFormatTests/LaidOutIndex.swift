@testable import RealmFormat
import XCTest

/// A tree of `MutableNode`s laid out after a 24-byte header (top ref 0), children first.
struct LaidOutIndex {
    let bytes: [UInt8]
    let snapshot: Snapshot
    let rootRef: Int
    var reader: SearchIndexReader { SearchIndexReader(snapshot: snapshot, rootRef: rootRef) }

    init(_ root: MutableNode) throws {
        var bytes = [UInt8](repeating: 0, count: 24)
        bytes.replaceSubrange(16..<20, with: Array("T-DB".utf8))
        bytes[20] = 24
        bytes[21] = 24
        func write(_ node: MutableNode) -> Int64 {
            var slots = node.integers
            if node.hasRefs {
                for i in 0..<slots.count {
                    if let child = node.loadedChild(i) {
                        slots[i] = write(child)
                    } else {
                        precondition(slots[i] == 0 || slots[i] & 1 == 1, "an in-memory tree holds a ref to nowhere")
                    }
                }
            }
            let ref = bytes.count
            bytes += node.encoded(slots: slots)
            return Int64(ref)
        }
        rootRef = Int(write(root))
        self.bytes = bytes
        snapshot = try Snapshot(image: ByteImage(bytes: bytes))
    }
}

/// Node-for-node comparison of two index trees: node kinds, key arrays, entry kinds, single
/// ObjKeys, duplicate-list B+tree shapes (form, offsets, leaves) and sub-indexes.
enum IndexTreeComparison {
    static func difference(_ a: SearchIndexReader, _ b: SearchIndexReader) throws -> String? {
        try difference(a, a.rootRef, b, b.rootRef, path: "root")
    }

    static func difference(_ a: SearchIndexReader, _ ra: Int, _ b: SearchIndexReader, _ rb: Int, path: String) throws -> String? {
        let na = try a.indexNode(ra), nb = try b.indexNode(rb)
        if na.isInner != nb.isInner { return "\(path): inner \(na.isInner) vs \(nb.isInner)" }
        if na.context != nb.context { return "\(path): context flag differs" }
        let ka = (0..<na.keyCount).map(na.key), kb = (0..<nb.keyCount).map(nb.key)
        if ka != kb {
            let first = (0..<min(ka.count, kb.count)).first { ka[$0] != kb[$0] } ?? min(ka.count, kb.count)
            return "\(path): \(ka.count) vs \(kb.count) keys, first difference at \(first)"
        }
        for i in 0..<ka.count {
            let here = "\(path)/\(i)"
            if na.isInner {
                if let d = try difference(a, try na.childRef(i), b, try nb.childRef(i), path: here) { return d }
                continue
            }
            switch (try a.leafEntry(na, i), try b.leafEntry(nb, i)) {
            case let (.single(x), .single(y)):
                if x != y { return "\(here): T(\(x)) vs T(\(y))" }
            case let (.list(x), .list(y)):
                let sx = try listShape(a, x), sy = try listShape(b, y)
                if sx != sy { return "\(here): duplicate lists differ: \(sx.summary) vs \(sy.summary)" }
            case let (.subIndex(x), .subIndex(y)):
                if let d = try difference(a, x, b, y, path: here + ">") { return d }
            case let (x, y):
                return "\(here): entry kinds differ: \(x) vs \(y)"
            }
        }
        return nil
    }

    indirect enum ListShape: Equatable {
        case leaf([Int64])
        case inner(compact: UInt64?, offsets: [UInt64], children: [ListShape], size: UInt64?)

        var summary: String {
            switch self {
            case let .leaf(v): return "leaf(\(v.count): \(v.prefix(4))…)"
            case let .inner(e, offsets, children, size):
                return "inner(E \(e.map(String.init) ?? "-"), \(offsets.count) offsets, \(children.count) children, size \(size ?? 0))"
            }
        }
    }

    static func listShape(_ r: SearchIndexReader, _ ref: Int) throws -> ListShape {
        let node = try r.snapshot.node(ref)
        guard node.isInner else { return .leaf(node.ints()) }
        var offsets = [UInt64]()
        if let o = node.ref(0) {
            let n = try r.snapshot.node(o)
            offsets = (0..<n.count).map { n.unsigned($0) }
        }
        let children = try (1..<(node.count - 1)).map { j in try listShape(r, node.ref(j) ?? 0) }
        return .inner(compact: node.tagged(0), offsets: offsets, children: children, size: node.tagged(node.count - 1))
    }
}
