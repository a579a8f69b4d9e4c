/// Removes rows from a committed column leaf at the byte level: the kept elements are copied
/// from the mapped node straight into the new node's bytes, at the node's own width (realm-core's
/// `Array::erase` keeps a leaf's width as well; any width that holds the values is valid,
/// realm-format.md §4.3). A mass removal (`TableEditor.remove`) then neither decodes the cells
/// of the objects that stay nor encodes them again.
///
/// Handled: plain int and bool arrays (§9.1, §9.2), doubles (§9.3), short and medium strings
/// (§9.4.1, §9.4.2; the latter in `LeafRowFilter+MediumStrings.swift`), timestamps (§9.7),
/// enumerated strings' positions (§9.4.4). A leaf is filtered here only when every kept value
/// reads back exactly as `ColumnCells.decode` then `encode` would write it; for any other leaf
/// (another form, a null in a required column, a value the general path would normalise, a
/// damaged offset) `filtered` returns nil and the caller takes the general path, which reads
/// the leaf and reports damage with its own errors. Every offset read from disk is checked
/// before it is used; node extents are checked by `Node`.
enum LeafRowFilter {
    /// The leaf at `ref` holding only the rows whose `keep` flag is set (`kept` of them, > 0),
    /// or nil when this leaf needs the general path.
    /// `copiesWholeValues` off: medium strings are copied run by run only (the path the
    /// branch-free copy is pinned against).
    static func filtered(_ snapshot: Snapshot, ref: Int, kind: ColumnCells.Kind, keep: [Bool], kept: Int,
                         copiesWholeValues: Bool = true) throws(FormatError) -> MutableNode? {
        // `kept` sizes the new nodes, which the copies below fill without further checks.
        guard kept > 0, kept <= keep.count, trueCount(keep) == kept else { return nil }
        let node = try snapshot.node(ref)
        switch kind {
        case .int:
            guard isPlain(node, .bits), node.count == keep.count else { return nil }
            return ints(node, keep: keep, leading: 0, kept: kept)
        case let .bool(nullable):
            guard isPlain(node, .bits), node.count == keep.count else { return nil }
            // The general path reads anything but 0 and 1 as null (3); only 0, 1 and a
            // permitted 3 are copied as they are.
            if node.width >= 2 {
                for r in 0..<keep.count where keep[r] {
                    let v = node.int(r)
                    guard v == 0 || v == 1 || (v == 3 && nullable) else { return nil }
                }
            }
            return ints(node, keep: keep, leading: 0, kept: kept)
        case let .double(nullable):
            guard isPlain(node, .multiply), node.width == 8, node.count == keep.count else { return nil }
            return doubles(node, keep: keep, kept: kept, nullable: nullable)
        case let .string(nullable):
            if isPlain(node, .multiply) {
                guard node.count == keep.count else { return nil }
                return shortStrings(node, keep: keep, kept: kept, nullable: nullable)
            }
            guard node.hasRefs, !node.isInner, !node.context, node.header.widthType == .bits, node.count == 3 else { return nil }
            return try mediumStrings(snapshot, node, keep: keep, kept: kept, nullable: nullable, copiesWholeValues: copiesWholeValues)
        case let .timestamp(nullable):
            return try timestamps(snapshot, node, keep: keep, kept: kept, nullable: nullable)
        case let .enumerated(list, nullable):
            // Positions in the committed value list, copied as they are when each is one the
            // general path would accept (in the list; not null in a required column).
            guard isPlain(node, .bits), node.count == keep.count else { return nil }
            let positions = PackedInts(node)
            for r in 0..<keep.count where keep[r] {
                let p = positions.int(r)
                guard p >= 0, p < Int64(list.committedCount), nullable || p != list.nullPosition else { return nil }
            }
            return ints(node, keep: keep, leading: 0, kept: kept)
        case .values, .collection:
            return nil
        }
    }

    /// 1 for true, 0 for false: the flags the branch-free loops combine.
    @inline(__always)
    static func bit(_ b: Bool) -> UInt8 { unsafeBitCast(b, to: UInt8.self) }

    /// How many of `flags` are true, eight at a time: a `Bool` is stored as one byte, 0 or 1,
    /// so the bytes of a word add up (by the multiply, into its top byte) to its true flags.
    /// Every column of a leaf checks its removal mask with it.
    static func trueCount(_ flags: [Bool]) -> Int {
        flags.withUnsafeBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            var count = 0, i = 0
            while i &+ 8 <= bytes.count {
                count &+= Int((base.loadUnaligned(fromByteOffset: i, as: UInt64.self) &* 0x0101_0101_0101_0101) >> 56)
                i &+= 8
            }
            while i < bytes.count {
                count &+= Int(base.load(fromByteOffset: i, as: UInt8.self))
                i &+= 1
            }
            return count
        }
    }

    /// A leaf without refs, inner or context flags, of width type `type`: what the general
    /// path writes again with flags 0.
    static func isPlain(_ node: Node, _ type: WidthType) -> Bool {
        !node.hasRefs && !node.isInner && !node.context && node.header.widthType == type
    }

    // MARK: integer arrays

    /// The first `leading` elements, then the kept rows (element `leading + r` is row r), at
    /// the node's width.
    static func ints(_ node: Node, keep: [Bool], leading: Int, kept: Int) -> MutableNode {
        let w = node.width, n = leading + kept
        var image = NodeImage(flags: 0, width: w, count: n, payloadCount: (n * w + 7) / 8)
        // `Node` guarantees count × width bits of payload.
        let source = node.image.rawSlice(node.payload, (node.count * w + 7) / 8)
        image.withPayload { out in
            func copy<T: FixedWidthInteger>(_: T.Type) {
                let size = MemoryLayout<T>.size
                for i in 0..<leading {
                    out.storeBytes(of: source.loadUnaligned(fromByteOffset: i * size, as: T.self), toByteOffset: i * size, as: T.self)
                }
                // Without a branch per row (half the rows of a mass removal go, at random):
                // every row up to the last kept one is stored at `k`, which moves on only past
                // a kept row, so it stays below `n` until then.
                guard let last = keep.lastIndex(of: true) else { return }
                keep.withUnsafeBufferPointer { keep in
                    var k = leading
                    for r in 0...last {
                        out.storeBytes(of: source.loadUnaligned(fromByteOffset: (leading + r) * size, as: T.self), toByteOffset: k * size, as: T.self)
                        k &+= Int(unsafeBitCast(keep[r], to: UInt8.self))
                    }
                }
            }
            switch w {
            case 0: break
            case 1, 2, 4:
                // Element i is bits (i·w) & 7 up of byte (i·w) >> 3 (§4.3), read here without
                // `PackedInts`' switch per element.
                let mask = UInt8(1 << w - 1)
                @inline(__always) func element(_ i: Int) -> UInt8 { source[(i &* w) >> 3] >> UInt8((i &* w) & 7) & mask }
                for i in 0..<leading { out[(i * w) >> 3] |= element(i) << UInt8((i * w) & 7) }
                // Branch-free as for wider elements: a row that goes adds no bits (its value is
                // masked to 0) and does not move `k` on.
                guard let last = keep.lastIndex(of: true) else { break }
                keep.withUnsafeBufferPointer { keep in
                    var k = leading
                    for r in 0...last {
                        let kept = Int(unsafeBitCast(keep[r], to: UInt8.self))
                        let v = element(leading &+ r) & UInt8(truncatingIfNeeded: 0 &- kept)
                        out[(k &* w) >> 3] |= v << UInt8((k &* w) & 7)
                        k &+= kept
                    }
                }
            case 8: copy(UInt8.self)
            case 16: copy(UInt16.self)
            case 32: copy(UInt32.self)
            default: copy(UInt64.self)
            }
        }
        return image.node
    }

    // MARK: doubles

    private static func doubles(_ node: Node, keep: [Bool], kept: Int, nullable: Bool) -> MutableNode? {
        let source = node.image.rawSlice(node.payload, 8 * node.count)
        var image = NodeImage(flags: 0x08, width: 8, count: kept, payloadCount: 8 * kept)
        // Branch-free (see `ints`): every row up to the last kept one is stored at `k`.
        guard let last = keep.lastIndex(of: true) else { return nil }
        let ok = image.withPayload { out -> Bool in
            keep.withUnsafeBufferPointer { keep -> Bool in
                var k = 0
                var refused: UInt8 = 0
                let required = bit(!nullable)
                for r in 0...last {
                    let bits = source.loadUnaligned(fromByteOffset: 8 * r, as: UInt64.self)
                    let kept = bit(keep[r])
                    // A null kept in a required column: the general path refuses it.
                    refused |= kept & required & bit(UInt64(littleEndian: bits) == Snapshot.doubleNull)
                    out.storeBytes(of: bits, toByteOffset: 8 * k, as: UInt64.self)
                    k &+= Int(kept)
                }
                return refused == 0
            }
        }
        return ok ? image.node : nil
    }

    // MARK: strings

    /// §9.4.1: w-byte blocks copied as they are; the last byte (w − 1 − length, w for null)
    /// is checked, as a reader would read it.
    private static func shortStrings(_ node: Node, keep: [Bool], kept: Int, nullable: Bool) -> MutableNode? {
        let w = node.width
        guard w > 0 else {
            // Width 0: every value null.
            return nullable ? NodeImage(flags: 0x08, width: 0, count: kept, payloadCount: 0).node : nil
        }
        let source = node.image.rawSlice(node.payload, w * node.count)
        var image = NodeImage(flags: 0x08, width: w, count: kept, payloadCount: w * kept)
        // Branch-free (see `ints`): every row up to the last kept one is copied to block `k`.
        guard let last = keep.lastIndex(of: true), let from = source.baseAddress else { return nil }
        let ok = image.withPayload { out -> Bool in
            guard let to = out.baseAddress else { return false }
            return keep.withUnsafeBufferPointer { keep -> Bool in
                var k = 0
                var refused: UInt8 = 0
                let permitsNull = bit(nullable)
                for r in 0...last {
                    let pad = Int(from.load(fromByteOffset: r * w + w - 1, as: UInt8.self))
                    let kept = bit(keep[r])
                    // A value's length byte, or w for a null where nulls are permitted.
                    refused |= kept & ~(bit(pad < w) | (bit(pad == w) & permitsNull)) & 1
                    (to + k * w).copyMemory(from: from + r * w, byteCount: w)
                    k &+= Int(kept)
                }
                return refused == 0
            }
        }
        return ok ? image.node : nil
    }

    // MARK: timestamps

    /// §9.7: [seconds (ArrayIntNull: element 0 is the null marker), nanoseconds]. Both are
    /// filtered at their width, so the marker stays the width's maximum (§9.1).
    private static func timestamps(_ snapshot: Snapshot, _ node: Node, keep: [Bool], kept: Int, nullable: Bool) throws(FormatError) -> MutableNode? {
        guard node.hasRefs, !node.isInner, !node.context, node.header.widthType == .bits, node.count == 2,
              let secondsRef = node.ref(0), let nanosRef = node.ref(1) else { return nil }
        let seconds = try snapshot.node(secondsRef), nanos = try snapshot.node(nanosRef)
        // Nanoseconds wider than 32 bits would be truncated by the general path.
        guard isPlain(seconds, .bits), isPlain(nanos, .bits), seconds.count == keep.count + 1, nanos.count == keep.count,
              nanos.width <= 32 else { return nil }
        let secondsInts = PackedInts(seconds)
        let marker = secondsInts.int(0)
        // Kept nulls found without a branch per row; only a leaf that keeps one is looked at
        // row by row.
        var keepsNull: UInt8 = 0
        keep.withUnsafeBufferPointer { keep in
            for r in 0..<keep.count { keepsNull |= bit(keep[r]) & bit(secondsInts.int(r + 1) == marker) }
        }
        if keepsNull != 0 {
            for r in keep.indices where keep[r] && secondsInts.int(r + 1) == marker {
                // A null: refused in a required column; its nanoseconds must be 0, as written anew.
                guard nullable, nanos.int(r) == 0 else { return nil }
            }
        }
        let leaf = MutableNode(integers: [0, 0], hasRefs: true)
        leaf.setChild(0, ints(seconds, keep: keep, leading: 1, kept: kept))
        leaf.setChild(1, ints(nanos, keep: keep, leading: 0, kept: kept))
        return leaf
    }
}
