/// Writes a compacted copy of a snapshot the way Realm's `DB::compact` does
/// (realm-format.md §13.8): a streaming-form file holding only the live nodes, each written
/// after its children, contiguously from offset 24, then empty free lists, the top array and
/// the 16-byte footer. Has-refs nodes are rebuilt with the minimal width for their new refs;
/// all other nodes are copied byte for byte, with zeroed padding (§4.4).
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
    private var out: [UInt8] = []
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

    private init(snapshot: Snapshot) { self.snapshot = snapshot }

    private mutating func run(_ options: Options) throws(FormatError) -> [UInt8] {
        progress = options.progress
        // The live data is at most the logical size minus the free space.
        if let top = snapshot.top { estimate = max(1, top.logicalSize - ((try? snapshot.freeSpace().totalBytes) ?? 0)) }
        let format = UInt8(truncatingIfNeeded: snapshot.fileFormat)
        // Streaming header (§3.5): marker in slot 0, the format byte of slot 0, flags 0.
        out = [UInt8](repeating: 0xFF, count: 8) + [UInt8](repeating: 0, count: 8) + Array("T-DB".utf8) + [format, 0, 0, 0]
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
        let topRef = out.count
        var width = 0
        while true {
            slots[2] = tagged(Int64(topRef + NodeWriting.byteSize(count: slots.count, width: width)))
            let needed = NodeWriting.minimalWidth(slots)
            if needed <= width { break }
            width = needed
        }
        NodeWriting.append(flags: 0x40, values: slots, width: width, to: &out)
        let logicalEnd = out.count
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
        if let progress, out.count >= nextReport {
            progress(min(1, Double(out.count) / Double(estimate)))
            nextReport = out.count + estimate / 100 + 1
        }
        if let replacement = replacements[ref] { return try write(replacement, depth: depth) }
        let node = try snapshot.node(ref)
        guard node.hasRefs else {
            let newRef = out.count
            out += [0x41, 0x41, 0x41, 0x41, node.header.flags]
            out += [UInt8(node.count >> 16 & 0xFF), UInt8(node.count >> 8 & 0xFF), UInt8(node.count & 0xFF)]
            out += node.payloadBytes()
            padTo8()
            return newRef
        }
        guard node.header.widthType == .bits else {
            throw .corrupt(offset: ref, reason: "has-refs node with a non-bits width type")
        }
        var values = node.ints()
        for i in 0..<values.count where values[i] != 0 && values[i] & 1 == 0 {
            values[i] = Int64(try copy(Int(values[i]), depth: depth + 1))
        }
        return writeNode(flags: node.header.flags & 0xE0, values: values)
    }

    /// Writes a replacement node, children first: its new children, and the committed subtrees
    /// it still refers to, copied; returns its ref.
    private mutating func write(_ node: MutableNode, depth: Int) throws(FormatError) -> Int {
        guard depth < 200 else { throw .corrupt(offset: node.originalRef ?? 0, reason: "node tree is nested too deep to copy") }
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
        let ref = out.count
        node.encode(slots: slots, into: &out)
        return ref
    }

    /// Appends a bits-width node with the minimal width for `values`; returns its ref.
    private mutating func writeNode(flags: UInt8, values: [Int64]) -> Int {
        let ref = out.count
        NodeWriting.append(flags: flags, values: values, to: &out)
        return ref
    }

    private mutating func padTo8() {
        while out.count % 8 != 0 { out.append(0) }
    }

    private mutating func append64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { out += $0 }
    }
}
