/// Medium-string leaves (realm-format.md §9.4.2) filtered at the byte level for
/// `LeafRowFilter.filtered`: a mass removal drops half the rows of two string columns at random,
/// so both passes over a leaf are branch-free per row and read the offsets and null flags at
/// widths fixed per leaf (`withElementReaders`) rather than through a switch per element.
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
                LeafRowFilter.filteredMedium(leaf, offsetAt: { Int(offsets.int($0)) }, isNullAt: { bit(nulls.int($0) != 0) })
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
        while r <= last, at &+ wholeCopy <= total, previousEnd >= 0, previousEnd &+ wholeCopy <= size {
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
