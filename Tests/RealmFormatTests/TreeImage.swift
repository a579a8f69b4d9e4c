@testable import RealmFormat

/// A `MutableNode` tree laid out in a byte image the way the Compactor writes nodes: after a
/// 24-byte header (top ref 0), each node after its children, contiguously. The image opens as a
/// `Snapshot`, so the ordinary decoders read the tree back from `rootRef`.
///
/// While laying out, it checks what a commit relies on: every node is new, inner nodes have
/// refs, and a has-refs slot without a child holds 0 or a tagged value (never a stray ref).
struct TreeImage {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    let snapshot: Snapshot
    let rootRef: Int
    let nodeCount: Int
    /// The image's bytes: equal for two trees exactly when they are node for node the same.
    let bytes: [UInt8]

    init(_ root: MutableNode) throws {
        var out = [UInt8](repeating: 0, count: 24)
        out.replaceSubrange(16..<20, with: Array("T-DB".utf8))
        out[20] = 24
        out[21] = 24
        var count = 0
        func write(_ node: MutableNode) throws -> Int64 {
            guard node.originalRef == nil else { throw Malformed(description: "a node loaded from a file in a new tree") }
            guard !node.isInner || node.hasRefs else { throw Malformed(description: "an inner node without has-refs") }
            var slots = node.integers
            if node.hasRefs {
                for i in 0..<slots.count {
                    if let child = node.loadedChild(i) {
                        slots[i] = try write(child)
                    } else if slots[i] != 0 && slots[i] & 1 == 0 {
                        throw Malformed(description: "has-refs slot \(i) holds \(slots[i]) without a child")
                    }
                }
            } else if (0..<node.count).contains(where: { node.loadedChild($0) != nil }) {
                throw Malformed(description: "a node without has-refs has children")
            }
            let ref = out.count
            out += node.encoded(slots: slots)
            count += 1
            return Int64(ref)
        }
        rootRef = Int(try write(root))
        nodeCount = count
        bytes = out
        snapshot = try Snapshot(image: ByteImage(bytes: out))
    }

    /// The node at `ref` as stored.
    func node(_ ref: Int) throws -> Node { try snapshot.node(ref) }
    var root: Node { get throws { try snapshot.node(rootRef) } }
}
