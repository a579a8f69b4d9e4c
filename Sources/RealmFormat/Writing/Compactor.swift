/// Writes a compacted copy of a snapshot the way Realm's `DB::compact` does
/// (realm-format.md §13.8): a streaming-form file holding only the live nodes, each written
/// after its children (below an inner node, cluster leaves column by column, as `NodeLayout`
/// lays out new nodes), contiguously from offset 24, then empty free lists, the top array and
/// the 16-byte footer. Has-refs nodes are rebuilt with the minimal width for their new refs;
/// all other nodes are copied byte for byte, with zeroed padding (§4.4).
///
/// The copy is one pass into one buffer reserved up front for the live data: a leaf is one
/// memcpy of its header and payload, a has-refs node's slots are read onto a stack shared by
/// the whole walk and packed from there, so no node costs an array of its own.
///
/// The output is only ever appended to (every ref points back, the top ref is in the footer),
/// so it can also be streamed: `compact(_:into:)` (Compactor+File.swift) hands each finished
/// stretch of about `streamChunk` bytes to the file and reuses the buffer, which stays in the
/// CPU cache instead of faulting in tens of megabytes of fresh pages.
public struct Compactor {
    public struct Options: Sendable {
        /// Keep the version number and the history (as `DB::compact`); false writes the 3-slot
        /// top of a plain `Group::write` (as the SDKs' `writeCopy(toFile:)`).
        public var keepVersionAndHistory = true
        /// Pad so the footer ends on a 4096-byte page boundary (needed before encrypting, §14.6).
        public var padForEncryption = false
        /// Called now and then with the fraction of the live data copied so far (0…1).
        public var progress: (@Sendable (Double) -> Void)?
        public init() {}
    }

    let snapshot: Snapshot
    /// Nodes written in place of the committed ones at their refs (`StringEnumerationPlan`).
    private var replacements: [Int: MutableNode] = [:]
    /// The output not yet handed to `sink` (all of it without a sink): `out[0]` is at offset
    /// `flushed` of the file.
    private var out: [UInt8] = []
    private var flushed = 0
    /// Where finished stretches go while streaming; nil builds the whole file in `out`.
    private var sink: CompactedFileSink?
    private var chunk = Compactor.streamChunk
    /// The slots of the has-refs nodes being copied, innermost last (see `copy`).
    private var slotStack: [Int64] = []
    private var progress: (@Sendable (Double) -> Void)?
    private var estimate = 1
    private var nextReport = 0

    /// The logical bytes of the compacted file.
    /// With `enumeration`, its planned string columns are written enumerated (§9.4.4).
    public static func compact(_ snapshot: Snapshot, options: Options = Options(),
                               enumeration: StringEnumerationPlan? = nil) throws(FormatError) -> [UInt8] {
        // A file of formats 2–9 is read through its converted image (Legacy/): copying that
        // under the old format byte would make a file no Realm reads.
        if snapshot.legacy != nil {
            throw .cannotWrite(reason: "it has file format \(snapshot.fileFormat); 'realmsh upgrade -o COPY' writes a compact format-24 copy")
        }
        var c = Compactor(snapshot: snapshot)
        c.replacements = enumeration?.replacements ?? [:]
        return try c.run(options)
    }

    /// `compact` streamed into `sink` (Compactor+File.swift): the same bytes, written from
    /// offset 0 in stretches; returns the file's size.
    /// `chunk` is `streamChunk` but in tests, which make it small to flush between most nodes.
    static func compact(_ snapshot: Snapshot, options: Options, enumeration: StringEnumerationPlan?,
                        streamingTo sink: CompactedFileSink, chunk: Int = streamChunk) throws(FormatError) -> Int {
        if snapshot.legacy != nil {
            throw .cannotWrite(reason: "it has file format \(snapshot.fileFormat); 'realmsh upgrade -o COPY' writes a compact format-24 copy")
        }
        var c = Compactor(snapshot: snapshot)
        c.replacements = enumeration?.replacements ?? [:]
        c.sink = sink
        c.chunk = max(1, chunk)
        do {
            _ = try c.run(options)
            try c.flush()
            try sink.finish()
        } catch {
            sink.drain()
            throw error
        }
        return c.flushed
    }

    /// About how much output is gathered before it is written out while streaming: small
    /// enough to stay in the CPU cache, large enough that the writes are few (38 for 38 MB).
    static let streamChunk = 1 << 20

    private init(snapshot: Snapshot) { self.snapshot = snapshot }

    /// The offset in the output file of the next byte appended (the ref of the next node).
    private var position: Int { flushed + out.count }

    /// Hands what `out` holds to the sink and goes on in another buffer (streaming only).
    private mutating func flush() throws(FormatError) {
        guard let sink, !out.isEmpty else { return }
        let stretch = out
        out = sink.buffer(capacity: chunk + (64 << 10))
        try sink.submit(stretch, at: flushed)
        flushed += stretch.count
    }

    /// `flush` once a stretch is gathered. Called only between nodes, where `out` holds
    /// nothing that is still to be patched.
    @inline(__always)
    private mutating func flushIfFull() throws(FormatError) {
        if sink != nil, out.count >= chunk { try flush() }
    }

    private mutating func run(_ options: Options) throws(FormatError) -> [UInt8] {
        progress = options.progress
        // The live data is at most the logical size minus the free space (for the progress,
        // and for the buffer when it is the whole file).
        if let top = snapshot.top, sink == nil || progress != nil { estimate = max(1, top.logicalSize - ((try? snapshot.freeSpace().totalBytes) ?? 0)) }
        let format = UInt8(truncatingIfNeeded: snapshot.fileFormat)
        // Streaming header (§3.5): marker in slot 0, the format byte of slot 0, flags 0.
        out = [UInt8](repeating: 0xFF, count: 8) + [UInt8](repeating: 0, count: 8) + Array("T-DB".utf8) + [format, 0, 0, 0]
        // The copy is about the live data (has-refs nodes may widen a little): reserving it once
        // spares the doublings' copies and their freshly faulted pages.
        out.reserveCapacity(sink != nil ? chunk + (64 << 10) : 24 + estimate + estimate / 16 + 4096)
        slotStack.reserveCapacity(1024)
        guard let top = snapshot.top else {
            // Nothing committed: an empty file stays empty (header only, as Realm creates it).
            out = [UInt8](repeating: 0, count: 16) + Array("T-DB".utf8) + [0, 0, 0, 0]
            out += [UInt8](repeating: 0, count: 4096 - 24)
            return out
        }
        let names = try copy(top.tableNamesRef, depth: 0)
        let tables = try copy(top.tablesRef, depth: 0)
        var slots: [Int64]
        if options.keepVersionAndHistory && top.slotCount >= 7 {
            var history: Int64 = 0
            if let h = top.historyRef { history = Int64(try copy(h, depth: 0)) }
            let empty = [Int64]()
            let freePositions = Int64(writeNode(flags: 0, values: empty))
            let freeLengths = Int64(writeNode(flags: 0, values: empty))
            let freeVersions = Int64(writeNode(flags: 0, values: empty))
            slots = [Int64(names), Int64(tables), 0, freePositions, freeLengths, freeVersions, tagged(Int64(top.version))]
            if top.slotCount >= 9 {
                slots += [tagged(Int64(top.historyType)), history, tagged(Int64(top.historySchemaVersion)),
                          tagged(Int64(bitPattern: top.syncFileIdent))]
            }
        } else {
            slots = [Int64(names), Int64(tables), 0]
        }
        // The logical size is the offset just past the top array, which holds it: widen until
        // the size fits the width it implies (the needed width only grows with the size).
        let topRef = position
        var width = 0
        while true {
            slots[2] = tagged(Int64(topRef + NodeWriting.byteSize(count: slots.count, width: width)))
            let needed = NodeWriting.minimalWidth(slots)
            if needed <= width { break }
            width = needed
        }
        NodeWriting.append(flags: 0x40, values: slots, width: width, to: &out)
        let logicalEnd = position
        if options.padForEncryption {
            let pad = (4096 - (logicalEnd + 16) % 4096) % 4096
            out += [UInt8](repeating: 0, count: pad)
        }
        append64(UInt64(topRef))
        append64(FileHeader.footerCookie)
        return out
    }

    private func tagged(_ v: Int64) -> Int64 { v << 1 | 1 }

    /// Copies the subtree at `ref`, children first; returns the new ref.
    private mutating func copy(_ ref: Int, depth: Int) throws(FormatError) -> Int {
        guard depth < 200 else { throw .corrupt(offset: ref, reason: "node tree is nested too deep to copy") }
        try flushIfFull()
        if let progress, position >= nextReport {
            progress(min(1, Double(position) / Double(estimate)))
            nextReport = position + estimate / 100 + 1
        }
        if !replacements.isEmpty, let replacement = replacements[ref] { return try write(replacement, depth: depth) }
        let node = try snapshot.node(ref)
        guard node.hasRefs else { return copyLeaf(node) }
        guard node.header.widthType == .bits else {
            throw .corrupt(offset: ref, reason: "has-refs node with a non-bits width type")
        }
        // The slots go on the shared stack; children copied deeper push above them and pop
        // before returning, so this node's slots stay at base..<base + n.
        let n = node.count
        let base = slotStack.count
        pushSlots(of: node)
        if node.isInner {
            try copyChildrenColumnMajor(slots: base..<base + n, depth: depth)
        } else {
            for i in base..<base + n {
                let v = slotStack[i]
                if v != 0 && v & 1 == 0 {
                    let newChild = try copy(Int(v), depth: depth + 1)
                    slotStack[i] = Int64(newChild)
                }
            }
        }
        let newRef = position
        let flags = node.header.flags & 0xE0
        var out = self.out
        self.out = []
        slotStack.withUnsafeBufferPointer { stack in
            NodeWriting.append(flags: flags, values: UnsafeBufferPointer(rebasing: stack[base..<base + n]), to: &out)
        }
        self.out = out
        slotStack.removeLast(n)
        return newRef
    }

    /// The children of an inner node in `NodeLayout`'s order: children that are not leaves
    /// holding refs first, then the leaves' subtrees slot by slot (every cluster leaf's column 1,
    /// then column 2, …), then the leaves, so that each column of a table is one stretch of the
    /// compacted file. The leaves' slots go on the stack above the parent's.
    private mutating func copyChildrenColumnMajor(slots parent: Range<Int>, depth: Int) throws(FormatError) {
        var leaves: [(slot: Int, base: Int, count: Int, flags: UInt8)] = []
        for i in parent {
            let v = slotStack[i]
            guard v != 0 && v & 1 == 0 else { continue }
            let ref = Int(v)
            if replacements[ref] == nil, depth + 1 < 200 {
                let child = try snapshot.node(ref)
                if child.hasRefs, !child.isInner, child.header.widthType == .bits {
                    let base = slotStack.count
                    pushSlots(of: child)
                    leaves.append((i, base, child.count, child.header.flags & 0xE0))
                    continue
                }
            }
            slotStack[i] = Int64(try copy(ref, depth: depth + 1))
        }
        guard !leaves.isEmpty else { return }
        let width = leaves.map(\.count).max() ?? 0
        for s in 0..<width {
            for leaf in leaves where s < leaf.count {
                let v = slotStack[leaf.base + s]
                if v != 0 && v & 1 == 0 { slotStack[leaf.base + s] = Int64(try copy(Int(v), depth: depth + 2)) }
            }
        }
        var out = self.out
        self.out = []
        for leaf in leaves {
            let newRef = flushed + out.count
            slotStack.withUnsafeBufferPointer { stack in
                NodeWriting.append(flags: leaf.flags, values: UnsafeBufferPointer(rebasing: stack[leaf.base..<leaf.base + leaf.count]), to: &out)
            }
            slotStack[leaf.slot] = Int64(newRef)
        }
        self.out = out
        slotStack.removeLast(slotStack.count - leaves[0].base)
    }

    /// A node without refs, copied as it is: its header and payload in one memcpy, then the
    /// checksum bytes set to "AAAA" (§4.1) and the padding zeroed (§4.4), as the source's may
    /// hold anything. `Node` checked that header and payload lie inside the image.
    private mutating func copyLeaf(_ node: Node) -> Int {
        let newRef = position, start = out.count
        let size = 8 + node.header.payloadSize
        out.append(contentsOf: node.image.rawSlice(node.ref, size))
        for i in start..<start + 4 { out[i] = 0x41 }
        NodeWriting.appendZeros(node.header.byteSize - size, to: &out)
        return newRef
    }

    /// Pushes the slots of has-refs node `node` (bits width type) onto `slotStack`, read at
    /// the node's width (one reader per node, `PackedInts.withReader`, not a switch per slot).
    private mutating func pushSlots(of node: Node) {
        let n = node.count, base = slotStack.count
        NodeWriting.appendZeros(n, to: &slotStack)
        slotStack.withUnsafeMutableBufferPointer { stack in
            PackedInts(node).withReader(SlotCopy(into: stack.baseAddress! + base, count: n))
        }
    }

    /// Copies a node's elements out at a width fixed for the node.
    private struct SlotCopy: IntegerReaderVisitor {
        let into: UnsafeMutablePointer<Int64>
        let count: Int
        func visit<Reader: IntegerReader>(_ reader: Reader) {
            for i in 0..<count { into[i] = reader.int(i) }
        }
    }

    /// Writes a replacement node, children first: its new children, and the committed subtrees
    /// it still refers to, copied; returns its ref.
    private mutating func write(_ node: MutableNode, depth: Int) throws(FormatError) -> Int {
        guard depth < 200 else { throw .corrupt(offset: node.originalRef ?? 0, reason: "node tree is nested too deep to copy") }
        try flushIfFull()
        var slots = node.integers
        if node.hasRefs {
            for i in 0..<slots.count {
                if let child = node.loadedChild(i) {
                    slots[i] = Int64(try write(child, depth: depth + 1))
                } else if slots[i] != 0 && slots[i] & 1 == 0 {
                    slots[i] = Int64(try copy(Int(slots[i]), depth: depth + 1))
                }
            }
        }
        let ref = position
        node.encode(slots: slots, into: &out)
        return ref
    }

    /// Appends a bits-width node with the minimal width for `values`; returns its ref.
    private mutating func writeNode(flags: UInt8, values: [Int64]) -> Int {
        let ref = position
        NodeWriting.append(flags: flags, values: values, to: &out)
        return ref
    }

    private mutating func append64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { out += $0 }
    }
}
