/// New nodes laid out in memory as in a file (realm-format.md §3.1, §4): a header with no
/// top ref, then each node after its children, whose refs are their offsets here. The
/// snapshot over it reads them with the readers of committed files — how a packed cluster
/// leaf (`TableEditor.unpack`) is decoded exactly as it will be read once written.
struct NodeScratchImage {
    private(set) var bytes: [UInt8]

    init() {
        // §3.1: top refs 0 (nothing committed), the mnemonic, format 0, flags 0.
        bytes = [UInt8](repeating: 0, count: 24)
        bytes.replaceSubrange(16..<20, with: Array("T-DB".utf8))
    }

    /// Appends `node` and what is loaded below it; returns its ref.
    mutating func append(_ node: MutableNode) -> Int {
        var slots = node.integers
        if node.hasRefs {
            for i in slots.indices {
                if let child = node.loadedChild(i) { slots[i] = Int64(append(child)) }
            }
        }
        let ref = bytes.count
        node.encode(slots: slots, into: &bytes)
        return ref
    }

    /// A snapshot of the bytes (no tables: nodes are read by ref).
    func snapshot() throws(FormatError) -> Snapshot {
        let image = ByteImage(bytes: bytes)
        return try Snapshot(image: image, header: FileHeader(image: image), legacy: nil, readsTables: false)
    }
}
