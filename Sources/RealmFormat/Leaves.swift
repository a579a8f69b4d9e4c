/// Decoding of every other leaf kind into values (realm-format.md §9.1–§9.12).
extension Snapshot {
    @usableFromInline static let floatNull: UInt32 = 0x7FC0_00AA
    @usableFromInline static let doubleNull: UInt64 = 0x7FF8_0000_0000_00AA

    /// Where a leaf sits changes how links are stored (§9.10 vs §10.1).
    public enum LeafContext: Sendable { case cluster, collection }

    /// Decodes one leaf of elements of `type` into values.
    public func decodeLeaf(_ ref: Int, type: ColumnType, nullable: Bool, context: LeafContext,
                           enumValues: Int? = nil) throws(FormatError) -> [Value] {
        switch type {
        case .int:
            let node = try plainInts(ref)
            if nullable {
                guard node.count >= 1 else { throw .corrupt(offset: ref, reason: "nullable int leaf lacks its null marker") }
                let marker = node.int(0)
                return (1..<max(node.count, 1)).map { i in
                    let v = node.int(i)
                    return v == marker ? .null : .int(v)
                }
            }
            return (0..<node.count).map { .int(node.int($0)) }
        case .bool:
            let node = try plainInts(ref)
            return (0..<node.count).map { i in
                switch node.int(i) {
                case 0: return .bool(false)
                case 1: return .bool(true)
                default: return .null
                }
            }
        case .float:
            let node = try fixedWidth(ref, width: 4, what: "float")
            return (0..<node.count).map { i in
                let bits = node.u32(at: 4 * i)
                return bits == Snapshot.floatNull ? .null : .float(Float(bitPattern: bits))
            }
        case .double:
            let node = try fixedWidth(ref, width: 8, what: "double")
            return (0..<node.count).map { i in
                let bits = node.u64(at: 8 * i)
                return bits == Snapshot.doubleNull ? .null : .double(Double(bitPattern: bits))
            }
        case .string:
            return try decodeStrings(ref, nullable: true, enumValues: enumValues).map { $0.map(Value.string) ?? .null }
        case .binary:
            return try decodeBinaries(ref).map { $0.map(Value.binary) ?? .null }
        case .timestamp:
            return try decodeTimestamps(ref).map { $0.map(Value.timestamp) ?? .null }
        case .decimal:
            return try decodeDecimals(ref).map { $0.map(Value.decimal) ?? .null }
        case .objectId:
            return try decodeFixedBytes(ref, size: 12).map { $0.map { .objectId(ObjectId(bytes: $0)) } ?? .null }
        case .uuid:
            return try decodeFixedBytes(ref, size: 16).map { $0.map { .uuid(UUID(bytes: $0)) } ?? .null }
        case .link, .linkList:
            let node = try plainInts(ref)
            if context == .cluster {
                return (0..<node.count).map { i in
                    let v = node.int(i)
                    return v == 0 ? .null : .link(v &- 1)       // §9.10: ObjKey + 1
                }
            }
            return (0..<node.count).map { .link(node.int($0)) }  // §10.1: raw ObjKeys
        case .typedLink:
            let node = try plainInts(ref)
            guard node.count % 2 == 0 else { throw .corrupt(offset: ref, reason: "typed-link leaf has an odd element count") }
            return stride(from: 0, to: node.count, by: 2).map { i in
                let t = node.int(i), k = node.int(i + 1)
                if t == 0 && k == 0 { return .null }
                return .typedLink(table: TableKey(value: UInt32(truncatingIfNeeded: t &- 1) & 0x7FFF_FFFF), key: k &- 1)
            }
        case .mixed:
            return try decodeMixed(ref)
        case .backlink:
            throw .corrupt(offset: ref, reason: "backlink columns hold no values")
        }
    }

    /// Backlink cells (§10.6) as origin ObjKeys per row.
    public func decodeBacklinks(_ ref: Int) throws(FormatError) -> [[Int64]] {
        let node = try self.node(ref)
        var out = [[Int64]]()
        out.reserveCapacity(node.count)
        for i in 0..<node.count {
            let v = node.int(i)
            if v == 0 {
                out.append([])
            } else if v & 1 == 1 {
                out.append([Int64(bitPattern: UInt64(bitPattern: v) >> 1)])
            } else {
                var keys = [Int64]()
                try BPlusTree(snapshot: self, rootRef: Int(v)).forEachLeaf { leaf throws(FormatError) in keys += leaf.ints() }
                out.append(keys)
            }
        }
        return out
    }

    func plainInts(_ ref: Int) throws(FormatError) -> Node {
        let node = try self.node(ref)
        guard node.header.widthType == .bits else {
            throw .corrupt(offset: ref, reason: "expected an integer array")
        }
        return node
    }

    func fixedWidth(_ ref: Int, width: Int, what: String) throws(FormatError) -> Node {
        let node = try self.node(ref)
        guard node.header.widthType == .multiply, node.width == width || node.count == 0 else {
            throw .corrupt(offset: ref, reason: "\(what) leaf has width \(node.width)")
        }
        return node
    }

    /// §9.7: [seconds ArrayIntNull, nanoseconds].
    func decodeTimestamps(_ ref: Int) throws(FormatError) -> [Timestamp?] {
        let node = try refsNode(ref, minimum: 2, what: "timestamp leaf")
        guard let secondsRef = node.ref(0), let nanosRef = node.ref(1) else {
            throw .corrupt(offset: ref, reason: "timestamp leaf lacks its arrays")
        }
        let seconds = try plainInts(secondsRef)
        let nanos = try plainInts(nanosRef)
        guard seconds.count >= 1, nanos.count >= seconds.count - 1 else {
            throw .corrupt(offset: ref, reason: "timestamp seconds and nanoseconds differ in length")
        }
        let marker = seconds.int(0)
        return (1..<seconds.count).map { i in
            let s = seconds.int(i)
            if s == marker { return nil }
            return Timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: nanos.int(i - 1)))
        }
    }

    /// §9.8: blocks of 8 elements behind one null-bit byte.
    func decodeFixedBytes(_ ref: Int, size: Int) throws(FormatError) -> [[UInt8]?] {
        let node = try self.node(ref)
        guard node.header.widthType == .multiply, node.width <= 1 else {
            throw .corrupt(offset: ref, reason: "fixed-bytes leaf has width \(node.width)")
        }
        let bytes = node.width == 0 ? 0 : node.count
        let block = 1 + 8 * size
        let count = (bytes - (bytes + block - 1) / block) / size
        guard count >= 0, count * size + (count + 7) / 8 <= bytes else {
            throw .corrupt(offset: ref, reason: "fixed-bytes leaf of \(bytes) bytes has no whole elements")
        }
        var out = [[UInt8]?]()
        out.reserveCapacity(count)
        for i in 0..<count {
            let base = (i / 8) * block
            if node.byte(base) & (1 << UInt8(i % 8)) != 0 {
                out.append(nil)
            } else {
                let start = base + 1 + (i % 8) * size
                out.append(Array(node.image.rawSlice(node.payload + start, size)))
            }
        }
        return out
    }

    /// §9.9: widths 0/4/8/16; width 0 means all null, or all zero with the context flag.
    func decodeDecimals(_ ref: Int) throws(FormatError) -> [Decimal128?] {
        let node = try self.node(ref)
        guard node.header.widthType == .multiply else { throw .corrupt(offset: ref, reason: "decimal leaf is not a multiply-width array") }
        switch node.width {
        case 0:
            let zero = Decimal128(negative: false, coefficient: 0, exponent: 0)
            return Array(repeating: node.context ? zero : nil, count: node.count)
        case 4:
            return (0..<node.count).map { i in
                let v = node.u32(at: 4 * i)
                return v == 0x7C00_00AA ? nil : Decimal128(narrow: UInt64(v), bits: 32)
            }
        case 8:
            return (0..<node.count).map { i in
                let v = node.u64(at: 8 * i)
                return v == 0x7C00_0000_0000_00AA ? nil : Decimal128(narrow: v, bits: 64)
            }
        case 16:
            return (0..<node.count).map { i in
                let low = node.u64(at: 16 * i), high = node.u64(at: 16 * i + 8)
                if low == 0xAA && high == 0x7C00_0000_0000_0000 { return nil }
                return Decimal128(low: low, high: high)
            }
        default:
            throw .corrupt(offset: ref, reason: "decimal leaf has width \(node.width)")
        }
    }
}
