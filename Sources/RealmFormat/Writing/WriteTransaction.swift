/// A copy-on-write transaction on a format-24 file (realm-format.md §13): changed nodes are
/// written into free space or past the end, never over anything the committed version uses;
/// then the free lists and a new top array; then, after fsync, the header's other slot gets
/// the new top ref and the select bit flips (§13.5). Until that last flip the previous version
/// stays the file's current, intact version, so a crash at any point loses nothing committed.
///
/// The transaction holds Realm's session lock (`NAME.realm.lock`, exclusive) from start to
/// end, so no Realm process (or other realmsh) reads or writes meanwhile (§15.3).
public final class WriteTransaction {
    public let path: String
    /// The committed version the transaction starts from.
    public let snapshot: Snapshot
    /// The top array, loaded; tables hang below it.
    public let top: MutableNode
    public let baseVersion: UInt64
    public var newVersion: UInt64 { baseVersion + 1 }

    private let fd: Int32
    private var lockFD: Int32?
    private var currentSlot: Int
    private var flags: UInt8
    /// Space this transaction releases: recorded with the new version, never reused by it.
    /// A node released twice is recorded once, at commit (`distinctReleases`).
    private var freed: [(position: Int, length: Int)] = []

    public init(path: String) throws(FormatError) {
        self.path = path
        guard case let .success(lock) = Platform.lockExclusively(lockPath: path + ".lock") else {
            throw .io(path: path + ".lock", errno: Platform.lastErrno(), action: "open")
        }
        guard let lock else { throw .locked(path: path) }
        lockFD = lock
        do throws(FormatError) {
            snapshot = try Snapshot(path: path)
            guard let committedTop = snapshot.top else {
                throw FormatError.cannotWrite(reason: "nothing has been committed to it yet; create it with 'realmsh create'")
            }
            guard snapshot.fileFormat == 24 else {
                // Committing 24 into the header would skip the upgrade steps of §16.3.
                throw FormatError.cannotWrite(reason: "it has file format \(snapshot.fileFormat); only format 24 is written in place (upgrade a copy first)")
            }
            guard committedTop.historyType == 0 || committedTop.historyType == 2 else {
                throw FormatError.cannotWrite(reason: "it is a synced Realm (history type \(committedTop.historyType)); changes must go through sync")
            }
            baseVersion = max(committedTop.version, try snapshot.freeSpace().entries.map { UInt64(max($0.version ?? 0, 0)) }.max() ?? 0)
            top = MutableNode(loading: try snapshot.node(committedTop.ref))
            switch Platform.openReadWrite(path) {
            case let .success(fd): self.fd = fd
            case let .failure(error): throw error
            }
            currentSlot = snapshot.header.slot
            flags = snapshot.header.flags
        } catch {
            Platform.unlock(lock)
            lockFD = nil
            throw error
        }
    }

    deinit { rollback() }

    /// Ends the transaction without committing: the file is as it was.
    public func rollback() {
        if let lockFD {
            _ = Platform.closeFile(fd)
            Platform.unlock(lockFD)
        }
        lockFD = nil
    }

    // MARK: nodes

    /// The child in slot `i` of `parent`, loaded from the committed file on first use.
    public func child(_ parent: MutableNode, _ i: Int, unsigned: Bool = false) throws(FormatError) -> MutableNode? {
        if let loaded = parent.loadedChild(i) { return loaded }
        guard parent.hasRefs, i < parent.count else { return nil }
        let v = parent.integers[i]
        guard v != 0, v & 1 == 0 else { return nil }
        let node = MutableNode(loading: try snapshot.node(Int(v)), unsigned: unsigned)
        parent.attachLoaded(i, node)
        return node
    }

    /// Releases the committed space of `node` and of everything below it that is still on
    /// disk or loaded: for subtrees that leave the tree (a deleted object's list, a dropped
    /// index). Nodes created in this transaction have no committed space.
    public func releaseSubtree(_ node: MutableNode) throws(FormatError) {
        if let ref = node.originalRef { release(ref, node.originalSize) }
        guard node.hasRefs, case let .integers(values, _) = node.storage else { return }
        for (i, v) in values.enumerated() {
            if let child = node.loadedChild(i) {
                try releaseSubtree(child)
            } else if v != 0 && v & 1 == 0, node.originalRef != nil {
                try releaseSubtree(ref: Int(v))
            }
        }
    }

    /// Releases a committed subtree by ref.
    public func releaseSubtree(ref: Int) throws(FormatError) {
        let node = try snapshot.node(ref)
        release(ref, node.header.byteSize)
        guard node.hasRefs, node.header.widthType == .bits else { return }
        try node.forEachRef { (r) throws(FormatError) in try releaseSubtree(ref: r) }
    }

    /// Releases one committed node, not its children (they stay in the tree or are released
    /// on their own).
    public func releaseNode(ref: Int) throws(FormatError) {
        release(ref, try snapshot.node(ref).header.byteSize)
    }

    private func release(_ position: Int, _ length: Int) {
        freed.append((position, length))
    }

    /// `releases` sorted by position, each position once (its first release kept). A node is
    /// referenced from one place only (§3.4), so a second release would be a bug; it must
    /// not become a second free-list entry. Sorting once at commit replaces a hash set
    /// probed per release (a million-object delete releases tens of thousands of nodes).
    static func distinctReleases(_ releases: [(position: Int, length: Int)]) -> [(position: Int, length: Int)] {
        // Swift's sort is stable: of equal positions the first released stays first.
        let sorted = releases.sorted { $0.position < $1.position }
        var out: [(position: Int, length: Int)] = []
        out.reserveCapacity(sorted.count)
        for r in sorted where out.last?.position != r.position { out.append(r) }
        return out
    }

    // MARK: commit

    /// Writes every changed node, the free lists and the top array, makes them durable, then
    /// switches the header to the new version (§13.5).
    public func commit() throws(FormatError) {
        guard lockFD != nil else { throw .cannotWrite(reason: "the transaction has ended") }
        defer { rollback() }
        var allocator = try SpaceAllocator(snapshot: snapshot, baseVersion: baseVersion)
        // Old free-list arrays and the in-realm history are rebuilt / dropped (§6.4: ref 0).
        for slot in 3...5 where slot < top.count {
            let v = top.integers[slot]
            if v != 0 && v & 1 == 0 { try releaseSubtree(ref: Int(v)) }
        }
        if top.count > 8, top.integers[8] != 0, top.integers[8] & 1 == 0 {
            try releaseSubtree(ref: Int(top.integers[8]))
            top[8] = 0
        }
        while top.count < 7 { top.append(0) }
        top.setTagged(6, Int64(newVersion))

        // §3.5: a streaming file's footer may lie where the first node goes.
        if snapshot.header.isStreaming { try convertFromStreamingForm() }
        Failpoint.beforeWrite.hit()
        // Nodes go out as they are laid out: those placed side by side (space past the end,
        // large free blocks) in one vectored write per run of up to 1 MB, so a million-object
        // commit (tens of thousands of small nodes) holds one run of encoded bytes at a time,
        // not a second copy of everything it writes (issue #16).
        var run = NodeRun()
        var runsWritten = 0
        func flush() throws(FormatError) {
            guard !run.buffers.isEmpty else { return }
            guard Platform.writeAll(fd, buffers: run.buffers, at: run.offset) else {
                throw .io(path: path, errno: Platform.lastErrno(), action: "write")
            }
            // Each run on its way to the disk while the next is encoded, so the fsync below
            // waits for the last stretch rather than the whole commit (tens of MB for a mass
            // removal); as the compactor's streamed file does (Compactor+File.swift).
            Platform.startWriteback(fd, offset: run.offset, count: run.length)
            run = NodeRun()
            runsWritten += 1
            if runsWritten == 1 { Failpoint.midWrite.hit() }
        }
        func put(_ bytes: [UInt8], at offset: Int) throws(FormatError) {
            if !run.extend(bytes, at: offset) {
                try flush()
                _ = run.extend(bytes, at: offset)
            }
        }
        // Children first, in `NodeLayout`'s order, each into reusable space or past the end;
        // unchanged subtrees keep their refs.
        func write(_ node: MutableNode) throws(FormatError) -> Int64 {
            try NodeLayout.lay(node, existing: { n in n.needsWrite ? nil : n.originalRef.map(Int64.init) }) { n, slots throws(FormatError) in
                let bytes = n.encoded(slots: slots)
                let ref = allocator.allocate(bytes.count)
                try put(bytes, at: ref)
                if let original = n.originalRef { release(original, n.originalSize) }
                return Int64(ref)
            }
        }
        // The top array itself is written last, with the free lists (below).
        var topSlots = top.integers
        for i in 0..<topSlots.count where i != 3 && i != 4 && i != 5 {
            if let child = top.loadedChild(i) { topSlots[i] = try write(child) }
        }
        if let original = top.originalRef { release(original, top.originalSize) }

        // One chunk for the three free-list arrays and the top array, 64-bit wide so their
        // size depends only on the number of entries (§13.3 step 3).
        freed = Self.distinctReleases(freed)
        let entries = allocator.reserveFinalChunk(topSlots: max(topSlots.count, 7), freedCount: freed.count)
        var list = allocator.remainingEntries(version: 0) + allocator.lockedEntries
        list += freed.map { (position: $0.position, length: $0.length, version: Int64(newVersion)) }
        list.sort { $0.position < $1.position }
        guard list.count == entries.count else {
            throw .corrupt(offset: entries.position, reason: "free-list size changed while it was being written (\(list.count) ≠ \(entries.count))")
        }
        let n = list.count
        let arraySize = 8 + 8 * n
        let positions = entries.position, lengths = positions + arraySize, versions = lengths + arraySize
        let topRef = versions + arraySize
        topSlots[2] = Int64(allocator.logicalEnd) << 1 | 1
        topSlots[3] = Int64(positions)
        topSlots[4] = Int64(lengths)
        topSlots[5] = Int64(versions)
        var chunk = [UInt8]()
        NodeWriting.append(flags: 0, values: list.map { Int64($0.position) }, width: 64, to: &chunk)
        NodeWriting.append(flags: 0, values: list.map { Int64($0.length) }, width: 64, to: &chunk)
        NodeWriting.append(flags: 0, values: list.map { $0.version }, width: 64, to: &chunk)
        NodeWriting.append(flags: 0x40, values: topSlots, width: 64, to: &chunk)
        guard chunk.count == entries.length else {
            throw .corrupt(offset: positions, reason: "top chunk of \(chunk.count) bytes does not fill its \(entries.length)-byte reservation")
        }
        try put(chunk, at: positions)
        try flush()

        // Room to the page end, sync; then the header, synced; then the select bit, synced.
        let physical = (allocator.logicalEnd + 4095) / 4096 * 4096
        if (Platform.fileSize(path) ?? 0) < physical {
            guard Platform.resize(fd, to: physical) else { throw .io(path: path, errno: Platform.lastErrno(), action: "grow") }
        }
        try sync()
        Failpoint.afterNodes.hit()
        let newSlot = 1 - currentSlot
        try writeHeader(UInt64(topRef).littleEndianBytes, at: 8 * newSlot)
        try writeHeader([24], at: 20 + newSlot)
        try sync()
        Failpoint.afterHeaderSlot.hit()
        flags = (flags & ~1) | UInt8(newSlot)
        try writeHeader([flags], at: 23)
        try sync()
        Failpoint.afterFlip.hit()
    }

    /// §3.5: a streaming file gets its footer's top ref into slot 1 before the commit writes
    /// any node, because a node may overwrite the footer, which lies beyond the logical size.
    /// Only a commit does this: a transaction that is rolled back (a refused write, a dry run)
    /// leaves every byte of the file as it was.
    private func convertFromStreamingForm() throws(FormatError) {
        try writeHeader(UInt64(snapshot.header.topRef).littleEndianBytes, at: 8)
        try writeHeader([UInt8(snapshot.fileFormat)], at: 21)
        try sync()
        flags |= 1
        try writeHeader([flags], at: 23)
        try sync()
        currentSlot = 1
    }

    private func writeHeader(_ bytes: [UInt8], at offset: Int) throws(FormatError) {
        guard Platform.writeAll(fd, bytes, at: offset) else { throw .io(path: path, errno: Platform.lastErrno(), action: "write the header of") }
    }

    private func sync() throws(FormatError) {
        guard Platform.sync(fd) else { throw .io(path: path, errno: Platform.lastErrno(), action: "sync") }
    }
}

/// Encoded nodes that lie side by side in the file, written together (one `pwritev`).
private struct NodeRun {
    var offset = 0, length = 0
    var buffers: [[UInt8]] = []

    /// Adds `bytes` at `offset` if they continue the run and it is under 1 MB.
    mutating func extend(_ bytes: [UInt8], at offset: Int) -> Bool {
        if buffers.isEmpty {
            self.offset = offset
        } else if self.offset + length != offset || length >= 1 << 20 {
            return false
        }
        buffers.append(bytes)
        length += bytes.count
        return true
    }
}

extension UInt64 {
    var littleEndianBytes: [UInt8] { withUnsafeBytes(of: littleEndian, Array.init) }
}
