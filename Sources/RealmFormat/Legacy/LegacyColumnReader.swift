/// Decodes the columns of formats 2–9 (legacy-formats.md §5–§6). Every column is a B+tree of
/// its own, indexed by row position, whose inner nodes are laid out as today's position-indexed
/// B+trees (`BPlusTree`, realm-format.md §11); most leaves are today's leaves too. What differs
/// is said where it is decoded: per-leaf null markers, the inverted null flags of medium
/// strings, timestamps as two trees, the old Mixed column, links stored as row + 1.
struct LegacyColumnReader {
    let source: Snapshot
    /// For messages: the table (and subtable column) the column belongs to.
    let table: String

    // MARK: - Trees

    /// The leaves of the column B+tree at `root`, in row order.
    func forEachLeaf(_ root: Int, _ body: (Node) throws(FormatError) -> Void) throws(FormatError) {
        try BPlusTree(snapshot: source, rootRef: root).forEachLeaf(body)
    }

    /// Rows of a column, from the root alone: the total in an inner root's last slot, or the
    /// leaf's element count (§5.1).
    func size(of column: LegacySpec.Column, root: Int) throws(FormatError) -> Int {
        // A subtable column an upgrade retyped (§9) is still a column of subtable refs.
        if column.isConvertedList { return try treeSize(root, nullMarker: false) }
        switch column.type {
        case .timestamp:
            return try treeSize(timestampTrees(root).seconds, nullMarker: true)
        case .mixed:
            return try treeSize(mixedParts(root).types, nullMarker: false)
        case .string, .binary:
            let node = try source.node(root)
            if node.isInner { return try treeSize(root, nullMarker: false) }
            if node.hasRefs && !node.context {       // [offsets, blob, nulls]: one offset per value
                guard let offsets = node.ref(0) else { throw corrupt(root, "string or binary leaf lacks its offsets") }
                return try source.node(offsets).count
            }
            return node.count
        default:
            return try treeSize(root, nullMarker: column.isNullable && [.int, .bool, .dateTime].contains(column.type))
        }
    }

    func treeSize(_ root: Int, nullMarker: Bool) throws(FormatError) -> Int {
        let node = try source.node(root)
        if node.isInner {
            guard node.count >= 3, let total = node.tagged(node.count - 1) else {
                throw corrupt(root, "B+tree inner node lacks its tagged total")
            }
            return Int(min(total, UInt64(Int.max)))
        }
        // A nullable leaf without even its null marker holds nothing (`verify` reports it).
        return nullMarker ? max(node.count - 1, 0) : node.count
    }

    // MARK: - Integers (§5.2)

    /// Integer leaves; a nullable column's leaves each start with the value that means null.
    func ints(_ root: Int, nullable: Bool) throws(FormatError) -> [Int64?] {
        try ints(root, nullable: nullable, null: nil) { $0 }
    }

    /// `ints` made straight into cells (`make` of each value, `.null` for a null): one array
    /// per column instead of an array of optionals mapped into a second one.
    func intCells(_ root: Int, nullable: Bool, _ make: (Int64) -> Value) throws(FormatError) -> [Value] {
        try ints(root, nullable: nullable, null: .null, make)
    }

    private func ints<T>(_ root: Int, nullable: Bool, null: T, _ make: (Int64) -> T) throws(FormatError) -> [T] {
        var out = [T]()
        try forEachLeaf(root) { leaf throws(FormatError) in
            guard leaf.header.widthType == .bits else { throw corrupt(leaf.ref, "integer leaf is not an integer array") }
            if nullable {
                guard leaf.count >= 1 else { return }       // no marker, no values (`verify` reports it)
                let marker = leaf.int(0)
                for i in 1..<leaf.count {
                    let v = leaf.int(i)
                    out.append(v == marker ? null : make(v))
                }
            } else {
                for i in 0..<leaf.count { out.append(make(leaf.int(i))) }
            }
        }
        return out
    }

    func plainInts(_ root: Int) throws(FormatError) -> [Int64] {
        var out = [Int64]()
        try forEachLeaf(root) { leaf throws(FormatError) in
            guard leaf.header.widthType == .bits else { throw corrupt(leaf.ref, "integer leaf is not an integer array") }
            for i in 0..<leaf.count { out.append(leaf.int(i)) }
        }
        return out
    }

    // MARK: - Floats (§5.3)

    func floats(_ root: Int, type: ColumnType) throws(FormatError) -> [Value] {
        var out = [Value]()
        try forEachLeaf(root) { leaf throws(FormatError) in
            out += try source.decodeLeaf(leaf.ref, type: type, nullable: true, context: .cluster)
        }
        return out
    }

    // MARK: - Strings and binaries (§5.4, §5.5)

    /// String leaves in their three forms: short (a block per string), medium (offsets, blob and,
    /// from format 3, null flags where 1 means "not null" — the reverse of today's), big (a
    /// blob per string). A null in a column that is not nullable reads as "" (Core 13 does so).
    func strings(_ root: Int, nullable: Bool) throws(FormatError) -> [[UInt8]?] {
        var out = [[UInt8]?]()
        try forEachLeaf(root) { leaf throws(FormatError) in
            if leaf.hasRefs && !leaf.context {
                out += try mediumStrings(leaf)
            } else if !leaf.hasRefs && leaf.header.widthType != .multiply {
                throw corrupt(leaf.ref, "string leaf is neither a short, a medium nor a big string array")
            } else {
                out += try source.decodeStrings(leaf.ref, nullable: true)
            }
        }
        if !nullable {
            for i in out.indices where out[i] == nil { out[i] = [] }
        }
        return out
    }

    /// `strings` made straight into cells, leaf by leaf (a null in a column that is not
    /// nullable reads as "", as there).
    func stringCells(_ root: Int, nullable: Bool) throws(FormatError) -> [Value] {
        var out = [Value]()
        let missing: Value = nullable ? .null : .string([])
        try forEachLeaf(root) { leaf throws(FormatError) in
            let strings: [[UInt8]?]
            if leaf.hasRefs && !leaf.context {
                strings = try mediumStrings(leaf)
            } else if !leaf.hasRefs && leaf.header.widthType != .multiply {
                throw corrupt(leaf.ref, "string leaf is neither a short, a medium nor a big string array")
            } else {
                strings = try source.decodeStrings(leaf.ref, nullable: true)
            }
            for s in strings { out.append(s.map(Value.string) ?? missing) }
        }
        return out
    }

    private func mediumStrings(_ leaf: Node) throws(FormatError) -> [[UInt8]?] {
        var out = [[UInt8]?]()
        try forEachMediumString(leaf) { s in out.append(s.map { Array($0) }) }
        return out
    }

    /// A medium string leaf's values as one blob and each value's end after its zero
    /// terminator (§5.4), with whether it is null (the leaf's third array, format 3+): checked
    /// once here for both readers below.
    private func mediumStringLayout(_ leaf: Node) throws(FormatError) -> (blob: UnsafeRawBufferPointer, ends: [Int], nulls: [Bool]) {
        guard leaf.count == 2 || leaf.count == 3, let offsetsRef = leaf.ref(0), let blobRef = leaf.ref(1) else {
            throw corrupt(leaf.ref, "medium string leaf is not [offsets, blob, nulls]")
        }
        let offsets = try source.plainInts(offsetsRef)
        let blob = try source.node(blobRef)
        let bytes = blob.payloadBytes()
        let present = try leaf.ref(2).map { r throws(FormatError) in try source.plainInts(r) }
        if let present, present.count < offsets.count {
            throw corrupt(present.ref, "null flags shorter than the offsets")
        }
        var ends = [Int](), nulls = [Bool]()
        ends.reserveCapacity(offsets.count)
        nulls.reserveCapacity(offsets.count)
        var start = 0
        for i in 0..<offsets.count {
            let end = Int(offsets.int(i))
            guard end > start, end <= bytes.count else {
                throw corrupt(offsetsRef, "string end \(end) is outside a blob of \(bytes.count) bytes or before its start \(start)")
            }
            ends.append(end)
            nulls.append(present.map { $0.int(i) == 0 } ?? false)
            start = end
        }
        return (bytes, ends, nulls)
    }

    /// The values of a medium string leaf in order, in place (nil for null).
    private func forEachMediumString(_ leaf: Node, _ body: (UnsafeRawBufferPointer?) -> Void) throws(FormatError) {
        let (bytes, ends, nulls) = try mediumStringLayout(leaf)
        var start = 0
        for i in ends.indices {
            body(nulls[i] ? nil : UnsafeRawBufferPointer(rebasing: bytes[start..<(ends[i] - 1)]))
            start = ends[i]
        }
    }

    /// `strings` into one buffer (`StringCells`), for the conversion's typed columns: no array
    /// per value. The same leaves, values and errors as `strings` (`LegacyTypedColumnTests`).
    func stringBuffer(_ root: Int, nullable: Bool) throws(FormatError) -> StringCells {
        var out = StringCells()
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        func add(_ s: UnsafeRawBufferPointer?) { out.append(s ?? (nullable ? nil : empty)) }
        try forEachLeaf(root) { leaf throws(FormatError) in
            if leaf.hasRefs && !leaf.context {
                let (blob, ends, nulls) = try mediumStringLayout(leaf)
                out.appendTerminated(blob, ends: ends, nulls: nulls, nullable: nullable)
            } else if !leaf.hasRefs && leaf.header.widthType != .multiply {
                throw corrupt(leaf.ref, "string leaf is neither a short, a medium nor a big string array")
            } else if !leaf.hasRefs && leaf.width > 0 && leaf.payloadBytes().count >= leaf.width * leaf.count {
                // Short strings (§5.4): a block of `width` bytes per value, whose last byte
                // counts the padding; more padding than the block holds means null.
                out.appendPadded(leaf.payloadBytes(), width: leaf.width, count: leaf.count, nullable: nullable)
            } else {
                for s in try source.decodeStrings(leaf.ref, nullable: true) {
                    if let s { s.withUnsafeBytes { add($0) } } else { add(nil) }
                }
            }
        }
        return out
    }

    /// Binary leaves: small (offsets, blob, and — from format 3 — null flags where 1 means
    /// null) or big; both as today's (§5.5).
    func binaries(_ root: Int, nullable: Bool) throws(FormatError) -> [[UInt8]?] {
        var out = [[UInt8]?]()
        try forEachLeaf(root) { leaf throws(FormatError) in out += try source.decodeBinaries(leaf.ref) }
        if !nullable {
            for i in out.indices where out[i] == nil { out[i] = [] }
        }
        return out
    }

    /// An enumerated string column: positions (an integer tree) into a string column of the
    /// distinct values (§5.6).
    func enumeratedStrings(_ root: Int, keys: Int, nullable: Bool) throws(FormatError) -> [[UInt8]?] {
        let values = try strings(keys, nullable: true)
        return try plainInts(root).map { i throws(FormatError) in
            guard i >= 0, i < values.count else {
                throw corrupt(root, "enumerated string position \(i) is outside its \(values.count) values")
            }
            return values[Int(i)] ?? (nullable ? nil : [])
        }
    }

    // MARK: - Dates (§5.7)

    /// `[seconds, nanoseconds]`: a nullable integer tree and an integer tree of equal size.
    func timestampTrees(_ root: Int) throws(FormatError) -> (seconds: Int, nanoseconds: Int) {
        let top = try source.refsNode(root, minimum: 2, what: "timestamp column")
        guard top.count == 2, let s = top.ref(0), let n = top.ref(1) else {
            throw corrupt(root, "timestamp column is not [seconds, nanoseconds]")
        }
        return (s, n)
    }

    func timestamps(_ root: Int) throws(FormatError) -> [Timestamp?] {
        let (s, n) = try timestampTrees(root)
        let seconds = try ints(s, nullable: true)
        let nanos = try plainInts(n)
        guard seconds.count == nanos.count else {
            throw corrupt(root, "timestamp column has \(seconds.count) seconds for \(nanos.count) nanoseconds")
        }
        return zip(seconds, nanos).map { s, n in
            s.map { Timestamp(seconds: $0, nanoseconds: Int32(truncatingIfNeeded: n)) }
        }
    }

    // MARK: - Links (§6)

    /// Link columns store the target row + 1, 0 for null.
    func links(_ root: Int) throws(FormatError) -> [Int64?] {
        try plainInts(root).map { $0 == 0 ? nil : $0 &- 1 }
    }

    /// Link lists: per row 0 (empty) or the root of an integer tree of target rows.
    func linkLists(_ root: Int) throws(FormatError) -> [[Int64]] {
        try plainInts(root).map { v throws(FormatError) in
            if v == 0 { return [] }
            guard v & 1 == 0, v > 0 else { throw corrupt(root, "link list cell \(v) is not a ref") }
            return try plainInts(Int(v))
        }
    }

    /// Backlinks: per row 0 (none), a tagged origin row (one), or the root of an integer tree
    /// of origin rows (several).
    func backlinks(_ root: Int) throws(FormatError) -> [[Int64]] {
        try plainInts(root).map { v throws(FormatError) in
            if v == 0 { return [] }
            if v & 1 == 1 { return [Int64(bitPattern: UInt64(bitPattern: v) >> 1)] }
            guard v > 0 else { throw corrupt(root, "backlink cell \(v) is not a ref") }
            return try plainInts(Int(v))
        }
    }

    // MARK: - Mixed (§5.8)

    /// `[types, data, strings and binaries?, timestamps?]`.
    func mixedParts(_ root: Int) throws(FormatError) -> (types: Int, data: Int, blobs: Int?, timestamps: Int?) {
        let top = try source.refsNode(root, minimum: 2, what: "Mixed column")
        guard top.count <= 4, let types = top.ref(0), let data = top.ref(1) else {
            throw corrupt(root, "Mixed column is not [types, data, blobs, timestamps]")
        }
        return (types, data, top.ref(2), top.ref(3))
    }

    /// The old Mixed column's values as they were stored. A subtable in a Mixed cell (which no
    /// SDK wrote) reads as null.
    func mixed(_ root: Int) throws(FormatError) -> [Value] {
        let parts = try mixedParts(root)
        let types = try plainInts(parts.types)
        let data = try plainInts(parts.data)
        guard types.count == data.count else {
            throw corrupt(root, "Mixed column has \(types.count) types for \(data.count) values")
        }
        // The side columns, read when some value is stored in them.
        var blobs = [[UInt8]?](), timestamps = [Timestamp?]()
        if types.contains(where: { $0 == 2 || $0 == 4 }) {
            guard let r = parts.blobs else { throw corrupt(root, "Mixed string or binary without a blob column") }
            blobs = try binaries(r, nullable: true)
        }
        if types.contains(8) {
            guard let r = parts.timestamps else { throw corrupt(root, "Mixed timestamp without a timestamp column") }
            timestamps = try self.timestamps(r)
        }
        let signBit = UInt64(1) << 63
        var out = [Value]()
        out.reserveCapacity(types.count)
        for (type, raw) in zip(types, data) {
            let v = UInt64(bitPattern: raw) >> 1       // 63 bits; the sign sits in the type
            switch type {
            case 0: out.append(.int(Int64(bitPattern: v)))
            case 12: out.append(.int(Int64(bitPattern: v | signBit)))
            case 1: out.append(.bool(v != 0))
            case 2, 4:
                guard v < UInt64(blobs.count), var b = blobs[Int(v)] else {
                    throw corrupt(root, "Mixed value refers to a missing blob \(v)")
                }
                if type == 4 {
                    out.append(.binary(b))
                } else {
                    guard b.popLast() == 0 else { throw corrupt(root, "Mixed string without its terminating byte") }
                    out.append(.string(b))
                }
            case 5: out.append(.null)
            case 7: out.append(.timestamp(Timestamp(seconds: Int64(bitPattern: v), nanoseconds: 0)))
            case 8:
                guard v < UInt64(timestamps.count) else { throw corrupt(root, "Mixed value refers to a missing timestamp \(v)") }
                out.append(timestamps[Int(v)].map(Value.timestamp) ?? .null)
            case 9: out.append(.float(Float(bitPattern: UInt32(truncatingIfNeeded: v))))
            case 10: out.append(.double(Double(bitPattern: v)))
            case 11: out.append(.double(Double(bitPattern: v | signBit)))
            default: throw corrupt(root, "Mixed value of unknown type \(type)")
            }
        }
        return out
    }

    // MARK: - Subtables (§6.4)

    /// Subtable columns: per row 0 (an empty subtable) or the subtable's columns array, laid
    /// out like a table's (one root per column of the subspec, search indexes after theirs).
    func subtables(_ root: Int, spec: LegacySpec) throws(FormatError) -> [Node?] {
        try plainInts(root).map { v throws(FormatError) in
            if v == 0 { return nil }
            guard v & 1 == 0, v > 0 else { throw corrupt(root, "subtable cell \(v) is not a ref") }
            let columns = try source.refsNode(Int(v), minimum: 0, what: "\(table): subtable")
            guard columns.count == spec.slotCount else {
                throw corrupt(Int(v), "subtable has \(columns.count) column slots for its \(spec.columns.count) columns")
            }
            return columns
        }
    }

    func corrupt(_ offset: Int, _ reason: String) -> FormatError {
        .corrupt(offset: offset, reason: "table '\(table)': \(reason)")
    }
}
