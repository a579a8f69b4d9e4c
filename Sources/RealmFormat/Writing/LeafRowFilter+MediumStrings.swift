/// Medium-string leaves (realm-format.md §9.4.2) filtered at the byte level for
/// `LeafRowFilter.filtered`: a mass removal drops half the rows of two string columns at random,
/// so the passes over a leaf are branch-free per row and read the offsets and null flags at
/// widths fixed per leaf (`withElementReaders`) rather than through a switch per element. The
/// usual leaf is checked and copied in one pass (`filteredMediumInOnePass`); the others in two
/// (`filteredMedium`), which the one pass is pinned against.
extension LeafRowFilter {
    /// §9.4.2: [end offsets, blob, null flags]. Kept values' blob ranges (each with its
    /// terminating 0) are copied, a run of neighbouring kept values in one copy; a kept null
    /// becomes one 0 byte, as Realm writes it. Offsets and flags are read in place (through
    /// `withElementReaders`) and the new ones stored at their width, with no per-value array in
    /// between.
    static func mediumStrings(_ snapshot: Snapshot, _ node: Node, keep: [Bool], kept: Int, nullable: Bool,
                              copiesWholeValues: Bool) throws(FormatError) -> MutableNode? {
        guard let offsetsRef = node.ref(0), let blobRef = node.ref(1), let nullsRef = node.ref(2) else { return nil }
        let offsetsNode = try snapshot.node(offsetsRef), blob = try snapshot.node(blobRef), nullsNode = try snapshot.node(nullsRef)
        guard isPlain(offsetsNode, .bits), isPlain(nullsNode, .bits), offsetsNode.count == keep.count, nullsNode.count == keep.count,
              blob.header.widthType == .ignore || blob.count == 0, !blob.hasRefs else { return nil }
        let bytes = blob.payloadBytes()
        let offsets = PackedInts(offsetsNode), nulls = PackedInts(nullsNode)
        let leaf = MediumLeaf(keep: keep, kept: kept, nullable: nullable, copiesWholeValues: copiesWholeValues, bytes: bytes)
        return offsets.withReader(MediumLeaf.WithOffsets(leaf: leaf, nulls: nulls))
    }

    /// One medium-string leaf being filtered; `filtered(offsets:nulls:)` runs with the widths
    /// of both arrays fixed, chosen by `PackedInts.withReader` once per leaf.
    struct MediumLeaf {
        let keep: [Bool]
        let kept: Int
        let nullable: Bool
        let copiesWholeValues: Bool
        let bytes: UnsafeRawBufferPointer

        struct WithOffsets: IntegerReaderVisitor {
            let leaf: MediumLeaf
            let nulls: PackedInts
            func visit<Offsets: IntegerReader>(_ offsets: Offsets) -> MutableNode? {
                nulls.withReader(WithNulls(leaf: leaf, offsets: offsets))
            }
        }

        struct WithNulls<Offsets: IntegerReader>: IntegerReaderVisitor {
            let leaf: MediumLeaf
            let offsets: Offsets
            func visit<Nulls: IntegerReader>(_ nulls: Nulls) -> MutableNode? {
                if leaf.copiesWholeValues {
                    switch LeafRowFilter.filteredMediumInOnePass(leaf, offsets: offsets, nulls: nulls) {
                    case let .filtered(node): return node
                    case .refused: return nil
                    case .needsTwoPasses: break
                    }
                }
                return LeafRowFilter.filteredMedium(leaf, offsetAt: { Int(offsets.int($0)) }, isNullAt: { bit(nulls.int($0) != 0) })
            }
        }
    }

    /// The body of `mediumStrings`, for one pair of element readers.
    @inline(__always)
    private static func filteredMedium(_ leaf: MediumLeaf, offsetAt: (Int) -> Int, isNullAt: (Int) -> UInt8) -> MutableNode? {
        let keep = leaf.keep, kept = leaf.kept, nullable = leaf.nullable, copiesWholeValues = leaf.copiesWholeValues, bytes = leaf.bytes
        // First pass: every kept value's range checked (a kept null only needs its previous
        // end in range); the new blob's size found.
        var total = 0, nullsKept = 0, longest = 0
        let valid = keep.withUnsafeBufferPointer { keep -> Bool in
            // Branch-free over rows kept at random: each row's checks become flags that count
            // only for a kept row (`refused`), and its size counts only when kept.
            let size = bytes.count, permitsNull = bit(nullable)
            let base = bytes.baseAddress
            var refused: UInt8 = 0, previousEnd = 0
            for r in 0..<keep.count {
                let end = offsetAt(r), start = previousEnd
                let kept = bit(keep[r]), isNull = isNullAt(r)
                let length = end &- start
                let inRange = bit(start >= 0) & bit(end >= start) & bit(end <= size)
                // The terminator must be there and be 0; the general path would write it so.
                // (Read at a clamped place; a value whose range is wrong is refused anyway.)
                let terminator = size > 0 ? base.unsafelyUnwrapped.load(fromByteOffset: Swift.min(Swift.max(end &- 1, 0), size &- 1), as: UInt8.self) : 1
                let terminated = bit(length > 0) & bit(terminator == 0) & bit(length &- 1 <= LeafEncoder.maxStringSize)
                let ok = inRange & ((isNull & permitsNull) | (~isNull & 1 & terminated))
                refused |= kept & ~ok & 1
                let copied = Int(kept) &* (isNull != 0 ? 1 : length)
                total &+= copied
                longest = Swift.max(longest, copied)
                nullsKept &+= Int(kept & isNull)
                previousEnd = end
            }
            return refused == 0
        }
        guard valid, total <= 0xFF_FFFF else { return nil }
        let endsWidth = NodeImage.width(upTo: total)
        var ends = NodeImage(integers: kept, width: endsWidth)
        var flags = NodeImage(integers: kept, width: nullsKept > 0 ? 1 : 0)
        var image = NodeImage(flags: 0x10, width: total == 0 ? 0 : 1, count: total, payloadCount: total)
        // Second pass, over ranges checked by the first. Where every kept value fits one
        // whole copy, rows go first through the branch-free copy (`wholeValues`); the rows
        // after it stopped, run by run: `at` is where the next kept value starts in the new
        // blob; the pending run [runStart, runEnd) of the old blob goes to `runTarget` when a
        // value that does not follow it (or a null) comes.
        let wholeCopies = copiesWholeValues && longest <= wholeCopy && endsWidth >= 8
        keep.withUnsafeBufferPointer { keep in
            image.withPayload { out in
                ends.withPayload { endsOut in
                    flags.withPayload { flagsOut in
                        var (first, at, k, previousEnd) = (0, 0, 0, 0)
                        if wholeCopies, let from = bytes.baseAddress, let to = out.baseAddress, let last = keep.lastIndex(of: true) {
                            (first, at, k, previousEnd) = wholeValues(keep, last: last, offsetAt: offsetAt, isNullAt: isNullAt, from: from, size: bytes.count,
                                                                      to: to, total: total, ends: endsOut, endsWidth: endsWidth,
                                                                      flags: nullsKept > 0 ? flagsOut : nil)
                        }
                        var runStart = 0, runEnd = 0, runTarget = 0
                        func flush() {
                            if runEnd > runStart {
                                UnsafeMutableRawBufferPointer(rebasing: out[runTarget..<(runTarget + runEnd - runStart)])
                                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[runStart..<runEnd]))
                            }
                            runStart = 0
                            runEnd = 0
                        }
                        for r in first..<keep.count {
                            let end = offsetAt(r)
                            if keep[r] {
                                if isNullAt(r) != 0 {
                                    flush()
                                    out[at] = 0
                                    at += 1
                                    flagsOut[k >> 3] |= 1 << UInt8(k & 7)
                                } else {
                                    if runEnd != previousEnd || runEnd == runStart {
                                        flush()
                                        runStart = previousEnd
                                        runTarget = at
                                    }
                                    runEnd = end
                                    at += end - previousEnd
                                }
                                store(endsOut, width: endsWidth, k, at)
                                k += 1
                            }
                            previousEnd = end
                        }
                        flush()
                    }
                }
            }
        }
        let leaf = MutableNode(integers: [0, 0, 0], hasRefs: true)
        leaf.setChild(0, ends.node)
        leaf.setChild(1, image.node)
        leaf.setChild(2, flags.node)
        return leaf
    }

    /// Bytes the branch-free copy moves per row: a medium string's longest value, 63 bytes,
    /// and its terminator (§9.4.2).
    static let wholeCopy = 64

    /// Medium strings' second pass without a branch per row (a mass removal keeps rows at
    /// random): from row 0 on, each row's `wholeCopy` bytes from its start are copied to `at`
    /// whatever the row, its end stored as element `k` of `ends` and its null flag or'ed in;
    /// `at` and `k` move on only past a kept row, so what a removed row wrote is overwritten
    /// by the next kept one, and the bytes a kept value's copy wrote past its end by the
    /// values after it. A kept null becomes one 0 byte. For `ends` of width ≥ 8 (stores that
    /// overwrite) and kept values of at most `wholeCopy` bytes, as the first pass found them.
    /// Stops after the last kept row, or where a copy would read past the old blob (or from
    /// before it: a removed row's offsets are not checked) or write past the new one, and
    /// returns the row it stopped at with `at`, `k` and that row's start, for the run-by-run
    /// copy to go on from.
    @inline(__always)
    private static func wholeValues(_ keep: UnsafeBufferPointer<Bool>, last: Int, offsetAt: (Int) -> Int, isNullAt: (Int) -> UInt8,
                                    from: UnsafeRawPointer, size: Int, to: UnsafeMutableRawPointer, total: Int,
                                    ends: UnsafeMutableRawBufferPointer, endsWidth: Int,
                                    flags: UnsafeMutableRawBufferPointer?) -> (row: Int, at: Int, k: Int, previousEnd: Int) {
        var r = 0, at = 0, k = 0, previousEnd = 0
        // `previousEnd <= size - wholeCopy`, not `previousEnd + wholeCopy <= size`: a removed
        // row's end may be near Int.max, where the sum would wrap.
        while r <= last, at &+ wholeCopy <= total, previousEnd >= 0, previousEnd <= size &- wholeCopy {
            let end = offsetAt(r)
            let kept = Int(bit(keep[r])), isNull = Int(isNullAt(r))
            (to + at).copyMemory(from: from + previousEnd, byteCount: wholeCopy)
            // A null's byte is 0 (the mask is 0 for a null, 0xFF otherwise).
            to.storeBytes(of: to.load(fromByteOffset: at, as: UInt8.self) & UInt8(truncatingIfNeeded: isNull &- 1), toByteOffset: at, as: UInt8.self)
            at &+= kept &* (isNull != 0 ? 1 : end &- previousEnd)
            store(ends, width: endsWidth, k, at)
            if let flags { flags[k >> 3] |= UInt8(truncatingIfNeeded: kept & isNull) << UInt8(k & 7) }
            k &+= kept
            previousEnd = end
            r &+= 1
        }
        return (r, at, k, previousEnd)
    }

    /// What the one-pass filter of a medium leaf came to.
    enum OnePass {
        case filtered(MutableNode)
        /// A kept value the general path must read (`filteredMedium` refuses it too).
        case refused
        /// A leaf this pass does not handle (a value longer than `wholeCopy`, a blob shorter,
        /// more rows than `onePassRows`): `filteredMedium` filters it.
        case needsTwoPasses
    }

    /// The most rows a leaf filtered in one pass has (its scratch takes `wholeCopy` bytes a
    /// row); Realm's cluster leaves hold at most 256 objects (§8.3).
    static let onePassRows = 1024

    /// `filteredMedium`'s checks and copies in one pass over the rows, for the usual leaf of a
    /// mass removal (values of at most `wholeCopy` bytes, a blob of at least that): since the
    /// new blob's size (and so the width of its end offsets) is only known at the end, the
    /// kept bytes go to a scratch blob and each new end, with the kept value's null flag in
    /// its top bit, to a 32-bit scratch slot, both copied into the nodes once the pass is
    /// through. Rows go branch-free as in `wholeValues` (every row's `wholeCopy` bytes copied
    /// to `at`, which moves on only past a kept row), checked as the first pass of
    /// `filteredMedium` checks them, the verdict taken after the loop: each row moves `at` on
    /// by at most `wholeCopy` whatever its offsets, so a scratch of `wholeCopy` bytes a row
    /// holds every copy without a check per row. The last rows, whose whole copy would read
    /// past the old blob, go one by one. Gives the very nodes `filteredMedium` gives, or
    /// refuses where it does.
    /// The readers come as values, not closures: their base pointers then stay in registers
    /// rather than being read again through a closure context after every store.
    @inline(__always)
    static func filteredMediumInOnePass<Offsets: IntegerReader, Nulls: IntegerReader>(_ leaf: MediumLeaf, offsets: Offsets, nulls: Nulls) -> OnePass {
        @inline(__always) func offsetAt(_ r: Int) -> Int { Int(truncatingIfNeeded: offsets.int(r)) }
        @inline(__always) func isNullAt(_ r: Int) -> UInt8 { bit(nulls.int(r) != 0) }
        let keep = leaf.keep, kept = leaf.kept, nullable = leaf.nullable, bytes = leaf.bytes
        let size = bytes.count
        guard size >= wholeCopy, keep.count <= onePassRows, let from = bytes.baseAddress, let last = keep.lastIndex(of: true) else {
            return .needsTwoPasses
        }
        let capacity = wholeCopy &* (keep.count &+ 1)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: capacity + 4 * kept, alignment: 8)
        defer { scratch.deallocate() }
        let to = scratch, ends = scratch + capacity
        // Both filters over the rows specialized for the column's nullability (one register
        // fewer in the loop).
        let pass = keep.withUnsafeBufferPointer { keep in
            nullable ? onePassLoop(keep, last: last, offsets: offsets, nulls: nulls, from: from, size: size, to: to, ends: ends, permitsNull: 1)
                     : onePassLoop(keep, last: last, offsets: offsets, nulls: nulls, from: from, size: size, to: to, ends: ends, permitsNull: 0)
        }
        if pass.verdict & 2 != 0 { return .needsTwoPasses }
        if pass.verdict != 0 { return .refused }
        var (r, at, k, previousEnd) = (pass.row, pass.at, pass.k, pass.previousEnd)
        // The last rows, whose whole copy would read past the old blob: each kept one checked,
        // then copied exactly.
        while r <= last {
            let end = offsetAt(r)
            if keep[r] {
                let start = previousEnd
                guard start >= 0, end >= start, end <= size else { return .refused }
                var flag: UInt32 = 0
                if isNullAt(r) != 0 {
                    guard nullable else { return .refused }
                    guard at < capacity else { return .needsTwoPasses }
                    to.storeBytes(of: 0, toByteOffset: at, as: UInt8.self)
                    at += 1
                    flag = Self.nullFlag
                } else {
                    let length = end - start
                    guard length > 0, from.load(fromByteOffset: end - 1, as: UInt8.self) == 0, length - 1 <= LeafEncoder.maxStringSize else { return .refused }
                    guard length <= capacity - at else { return .needsTwoPasses }
                    (to + at).copyMemory(from: from + start, byteCount: length)
                    at += length
                }
                ends.storeBytes(of: UInt32(truncatingIfNeeded: at) | flag, toByteOffset: 4 * k, as: UInt32.self)
                k += 1
            }
            previousEnd = end
            r += 1
        }
        let total = at
        guard total <= 0xFF_FFFF else { return .refused }
        guard k == kept else { return .needsTwoPasses }
        let endsWidth = NodeImage.width(upTo: total)
        var endsImage = NodeImage(integers: kept, width: endsWidth)
        endsImage.withPayload { out in
            switch endsWidth {
            case 16:
                for i in 0..<kept {
                    out.storeBytes(of: UInt16(truncatingIfNeeded: ends.load(fromByteOffset: 4 &* i, as: UInt32.self)).littleEndian,
                                   toByteOffset: 2 &* i, as: UInt16.self)
                }
            case 32:
                for i in 0..<kept {
                    out.storeBytes(of: (ends.load(fromByteOffset: 4 &* i, as: UInt32.self) & ~Self.nullFlag).littleEndian,
                                   toByteOffset: 4 &* i, as: UInt32.self)
                }
            default:
                for i in 0..<kept { store(out, width: endsWidth, i, Int(ends.load(fromByteOffset: 4 &* i, as: UInt32.self) & ~Self.nullFlag)) }
            }
        }
        // Null flags only where a kept null is possible; none kept: the width-0 array.
        var flagsImage = NodeImage(integers: kept, width: 0)
        if nullable {
            var withNulls = NodeImage(integers: kept, width: 1)
            var anyNull: UInt32 = 0
            withNulls.withPayload { out in
                for i in 0..<kept {
                    let flag = ends.load(fromByteOffset: 4 &* i, as: UInt32.self) >> 31
                    out[i >> 3] |= UInt8(truncatingIfNeeded: flag) << UInt8(i & 7)
                    anyNull |= flag
                }
            }
            if anyNull != 0 { flagsImage = withNulls }
        }
        var image = NodeImage(flags: 0x10, width: total == 0 ? 0 : 1, count: total, payloadCount: total)
        image.withPayload { $0.copyMemory(from: UnsafeRawBufferPointer(start: to, count: total)) }
        let node = MutableNode(integers: [0, 0, 0], hasRefs: true)
        node.setChild(0, endsImage.node)
        node.setChild(1, image.node)
        node.setChild(2, flagsImage.node)
        return .filtered(node)
    }

    /// The top bit of a one-pass end slot: the kept value is null.
    static let nullFlag = UInt32(1) << 31

    /// The rows of `filteredMediumInOnePass` up to the first whose whole copy would read past
    /// the old blob (or the last kept one): returns where it stopped (that row, `at`, `k`,
    /// the row's start) and the verdict (bit 0: a kept value refused; bit 1: a kept value of
    /// more than `wholeCopy` bytes or of none, which the two-pass filter tells apart). Its
    /// state in locals of its own, so that they stay in registers.
    @inline(__always)
    private static func onePassLoop<Offsets: IntegerReader, Nulls: IntegerReader>(
        _ keep: UnsafeBufferPointer<Bool>, last: Int, offsets: Offsets, nulls: Nulls, from: UnsafeRawPointer, size: Int,
        to: UnsafeMutableRawPointer, ends: UnsafeMutableRawPointer, permitsNull: UInt8
    ) -> (row: Int, at: Int, k: Int, previousEnd: Int, verdict: UInt8) {
        var r = 0, at = 0, k = 0, previousEnd = 0
        var verdict: UInt8 = 0
        // `previousEnd` in 0...size − wholeCopy (the whole copy reads within the old blob) in
        // one unsigned comparison.
        let lastStart = UInt(size &- wholeCopy)
        while r <= last, UInt(bitPattern: previousEnd) <= lastStart {
            let end = Int(truncatingIfNeeded: offsets.int(r))
            let kept = bit(keep[r]), isNull = bit(nulls.int(r) != 0)
            let length = end &- previousEnd
            // `filteredMedium`'s checks. With `previousEnd` in the blob, `end` is in
            // previousEnd...size exactly when the (wrapping) length is, taken unsigned, at
            // most size − previousEnd.
            let inRange = bit(UInt(bitPattern: length) <= UInt(size &- previousEnd))
            // A kept value of 1...wholeCopy bytes, or a null: others go to `filteredMedium`
            // (bit 1 outranks bit 0), so the terminator, read within the whole copy, is
            // exactly the value's last byte wherever it counts.
            let step = (length &- 1) & (wholeCopy &- 1)
            let fits = bit(UInt(bitPattern: length &- 1) < UInt(wholeCopy))
            let terminator = from.load(fromByteOffset: previousEnd &+ step, as: UInt8.self)
            let ok = inRange & ((isNull & permitsNull) | (~isNull & 1 & bit(terminator == 0)))
            verdict |= (0 &- kept) & (~ok & 1 | (~isNull & ~fits & 1) << 1)
            (to + at).copyMemory(from: from + previousEnd, byteCount: wholeCopy)
            // A null's byte is 0 (the mask is 0 for a null, 0xFF otherwise).
            to.storeBytes(of: to.load(fromByteOffset: at, as: UInt8.self) & (isNull &- 1), toByteOffset: at, as: UInt8.self)
            // 1...wholeCopy bytes whatever the offsets (the exact length where it counts).
            at &+= Int(kept) &* (isNull != 0 ? 1 : step &+ 1)
            ends.storeBytes(of: UInt32(truncatingIfNeeded: at) | UInt32(kept & isNull) << 31, toByteOffset: 4 &* k, as: UInt32.self)
            k &+= Int(kept)
            previousEnd = end
            r &+= 1
        }
        return (r, at, k, previousEnd, verdict)
    }

    /// Stores `v` (≥ 0, fits `width`) as element `i` of a zeroed integer payload (§4.3).
    @inline(__always)
    private static func store(_ out: UnsafeMutableRawBufferPointer, width: Int, _ i: Int, _ v: Int) {
        switch width {
        case 0: break
        case 1, 2, 4:
            let perByte = 8 / width
            out[i / perByte] |= UInt8(truncatingIfNeeded: v) << UInt8((i % perByte) * width)
        case 8: out.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i, as: UInt8.self)
        case 16: out.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, toByteOffset: 2 * i, as: UInt16.self)
        case 32: out.storeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, toByteOffset: 4 * i, as: UInt32.self)
        default: out.storeBytes(of: UInt64(truncatingIfNeeded: v).littleEndian, toByteOffset: 8 * i, as: UInt64.self)
        }
    }
}
