/// The encoding half of the leaf codecs (realm-format.md §9–§11): values in, a tree of new
/// `MutableNode`s out, in the form Realm itself would choose for the same content (minimal
/// widths, the smallest string form), except Decimal128, which is always written with 16-byte
/// elements (§9.9 allows it). The trees are ready for `WriteTransaction.commit()`: every node is
/// new, children hang in their slots via `setChild`, and tagged values are stored tagged.
///
/// Strings, binaries and Mixed live in `StringLeafEncoder.swift` and `MixedLeafEncoder.swift`;
/// B+trees, lists, sets, dictionaries and backlinks in `CollectionEncoder.swift`; Realm's set
/// order in `SetOrder.swift`.
///
/// Values that a leaf cannot hold (a string in an int column, null in a non-nullable column or in
/// a list of links, a float whose bits are the null pattern, …) throw `.cannotWrite`.
public enum LeafEncoder {
    /// MAX_BPNODE: elements per B+tree leaf and children per inner node (§11).
    public static let maxNodeSize = 1000

    static let objectIdNull: [UInt8] = [0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD]
    static let uuidNull: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF]
    static let decimalNull: (low: UInt64, high: UInt64) = (0xAA, 0x7C00_0000_0000_0000)

    /// A cluster column leaf (context `.cluster`) or a collection B+tree leaf (`.collection`)
    /// holding `values`, one per row or element. Links are stored as ObjKey + 1 in a cluster
    /// (§9.10) and as raw ObjKeys in a collection (§10.1). Backlink columns: `encodeBacklinks`.
    /// A Mixed leaf numbers its nested collections from 1; a B+tree of several Mixed leaves
    /// needs ids unique over the whole tree, so build those with `encodeCollection`.
    public static func encode(_ values: [Value], type: ColumnType, nullable: Bool,
                              context: Snapshot.LeafContext) throws(FormatError) -> MutableNode {
        try encode(values[...], type: type, nullable: nullable, context: context)
    }

    /// `encode` of a run of a longer column (a cluster leaf's rows of a whole table, as
    /// `TableEncoder` cuts them), read in place rather than copied into an array first.
    static func encode(_ values: ArraySlice<Value>, type: ColumnType, nullable: Bool,
                       context: Snapshot.LeafContext) throws(FormatError) -> MutableNode {
        switch type {
        case .int:
            if nullable { return nullableIntLeaf(try values.map { v throws(FormatError) in try optional(v, type) { $0.int } }) }
            return MutableNode(integers: try values.map { v throws(FormatError) in try required(v, type) { $0.int } })
        case .bool:
            return MutableNode(integers: try values.map { v throws(FormatError) in
                if v.isNull, nullable { return 3 }
                return try required(v, type) { $0.bool } ? 1 : 0
            })
        case .float:
            return try numberLeaf(values, type: type, nullable: nullable, width: 4, null: UInt64(Snapshot.floatNull)) { v in
                v.float.map { UInt64($0.bitPattern) }
            }
        case .double:
            return try numberLeaf(values, type: type, nullable: nullable, width: 8, null: Snapshot.doubleNull) { v in
                v.double.map { $0.bitPattern }
            }
        case .string:
            return stringLeaf(try values.map { v throws(FormatError) in
                try checkedSize(try optionalOrThrow(v, type, nullable) { $0.string }, limit: maxStringSize)
            })
        case .binary:
            return binaryLeaf(try values.map { v throws(FormatError) in
                try checkedSize(try optionalOrThrow(v, type, nullable) { $0.binary }, limit: maxBinarySize)
            })
        case .timestamp:
            return timestampLeaf(try values.map { v throws(FormatError) in try optionalOrThrow(v, type, nullable) { $0.timestamp } })
        case .decimal:
            return decimalLeaf(try values.map { v throws(FormatError) in
                try optionalOrThrow(v, type, nullable) { $0.decimal }.map { d throws(FormatError) in try d.bidBits() }
            })
        case .objectId:
            let ids = try values.map { v throws(FormatError) in try optionalOrThrow(v, type, nullable) { $0.objectId?.bytes } }
            return try fixedBytesLeaf(ids, size: 12, null: objectIdNull)
        case .uuid:
            let ids = try values.map { v throws(FormatError) in try optionalOrThrow(v, type, nullable) { $0.uuid?.bytes } }
            return try fixedBytesLeaf(ids, size: 16, null: uuidNull)
        case .link, .linkList:
            return MutableNode(integers: try values.map { v throws(FormatError) in try linkElement(v, context: context) })
        case .typedLink:
            var elements = [Int64]()
            elements.reserveCapacity(2 * values.count)
            for v in values {
                guard let (table, key) = try optional(v, type, { $0.typedLinkParts }) else {
                    elements += [0, 0]
                    continue
                }
                // §9.11: (TableKey + 1) & 0x7FFFFFFF, ObjKey + 1; both 0 = null.
                elements += [Int64((table.value &+ 1) & 0x7FFF_FFFF), key &+ 1]
            }
            return MutableNode(integers: elements)
        case .mixed:
            var ids = NestedCollectionIDs()
            return try mixedLeaf(Array(values), ids: &ids, nesting: 0)
        case .backlink:
            throw .cannotWrite(reason: "backlink columns hold origin keys, not values (use encodeBacklinks)")
        }
    }

    // MARK: integers (§9.1)

    /// The largest value an array of `width` bits holds (unsigned below 8 bits, §4.3).
    static func upperBound(width: Int) -> Int64 {
        width < 8 ? (1 << Int64(width)) - 1 : Int64.max >> Int64(64 - width)
    }

    /// `ArrayIntNull`: element 0 is the null marker, the largest value of the leaf's width, and
    /// no real value may equal it, so a leaf holding that value is one width wider (§9.1). At
    /// width 64 the marker is the largest value not in use.
    static func nullableIntLeaf(_ values: [Int64?]) -> MutableNode {
        let real = values.compactMap { $0 }
        var width = NodeWriting.minimalWidth(real)
        while width < 64, real.contains(upperBound(width: width)) { width = width == 0 ? 1 : 2 * width }
        var marker = upperBound(width: width)
        if width == 64 {
            let used = Set(real)
            while used.contains(marker) { marker -= 1 }
        }
        let node = MutableNode(integers: [marker] + values.map { $0 ?? marker })
        node.minimumWidth = width
        return node
    }

    // MARK: floats, doubles, decimals (§9.3, §9.9)

    /// Width-4 or width-8 IEEE values; null is one NaN pattern, which a real value may not use.
    private static func numberLeaf(_ values: ArraySlice<Value>, type: ColumnType, nullable: Bool, width: Int, null: UInt64,
                                   bits: (Value) -> UInt64?) throws(FormatError) -> MutableNode {
        var payload = [UInt8]()
        payload.reserveCapacity(width * values.count)
        for v in values {
            guard let pattern = try optionalOrThrow(v, type, nullable, bits) else {
                payload.appendLittleEndian(null, bytes: width)
                continue
            }
            guard pattern != null else {
                throw .cannotWrite(reason: "a \(type.propertyTypeName) value has the bit pattern Realm reserves for null (\(hex(pattern)))")
            }
            payload.appendLittleEndian(pattern, bytes: width)
        }
        return MutableNode(bytes: payload, width: values.isEmpty ? 0 : width, count: values.count)
    }

    /// Always width 16 with the context flag clear (§9.9): two little-endian words, low first.
    static func decimalLeaf(_ values: [(low: UInt64, high: UInt64)?]) -> MutableNode {
        var payload = [UInt8]()
        payload.reserveCapacity(16 * values.count)
        for v in values {
            let (low, high) = v ?? decimalNull
            payload.appendLittleEndian(low, bytes: 8)
            payload.appendLittleEndian(high, bytes: 8)
        }
        return MutableNode(bytes: payload, width: values.isEmpty ? 0 : 16, count: values.count)
    }

    // MARK: timestamps (§9.7)

    /// [seconds as ArrayIntNull, nanoseconds]; a null row has null seconds and 0 nanoseconds.
    static func timestampLeaf(_ values: [Timestamp?]) -> MutableNode {
        let node = MutableNode(integers: [0, 0], hasRefs: true)
        node.setChild(0, nullableIntLeaf(values.map { $0?.seconds }))
        node.setChild(1, MutableNode(integers: values.map { Int64($0?.nanoseconds ?? 0) }))
        return node
    }

    // MARK: ObjectId, UUID (§9.8)

    /// Blocks of up to 8 elements behind one null-bit byte; null slots hold the sentinel. The
    /// header size is the byte count (width 1; 0 while empty).
    static func fixedBytesLeaf(_ values: [[UInt8]?], size: Int, null: [UInt8]) throws(FormatError) -> MutableNode {
        var payload = [UInt8]()
        payload.reserveCapacity(size * values.count + (values.count + 7) / 8)
        for start in stride(from: 0, to: values.count, by: 8) {
            let block = values[start..<min(start + 8, values.count)]
            var nullBits: UInt8 = 0
            for (j, v) in block.enumerated() where v == nil { nullBits |= 1 << UInt8(j) }
            payload.append(nullBits)
            for v in block {
                guard let v else {
                    payload += null
                    continue
                }
                guard v.count == size else { throw .cannotWrite(reason: "a \(size)-byte identifier has \(v.count) bytes") }
                payload += v
            }
        }
        return MutableNode(bytes: payload, width: payload.isEmpty ? 0 : 1, count: payload.count)
    }

    // MARK: links (§9.10, §10.1)

    private static func linkElement(_ v: Value, context: Snapshot.LeafContext) throws(FormatError) -> Int64 {
        switch (v, context) {
        case (.null, .cluster):
            return 0
        case let (.link(key), .cluster):
            guard key != -1 else { throw .cannotWrite(reason: "a link to ObjKey -1, which is the null key") }
            return key &+ 1
        case let (.link(key), .collection):
            return key
        case (.null, .collection):
            throw .cannotWrite(reason: "lists and sets of links cannot hold null")
        default:
            throw mismatch(v, .link)
        }
    }

    // MARK: value access

    static let maxStringSize = 16_777_199
    static let maxBinarySize = 16_777_200

    /// The payload of `v`, or nil for null.
    static func optional<T>(_ v: Value, _ type: ColumnType, _ get: (Value) -> T?) throws(FormatError) -> T? {
        if v.isNull { return nil }
        guard let x = get(v) else { throw mismatch(v, type) }
        return x
    }

    /// As `optional`, but null is an error unless the column is nullable.
    static func optionalOrThrow<T>(_ v: Value, _ type: ColumnType, _ nullable: Bool, _ get: (Value) -> T?) throws(FormatError) -> T? {
        if v.isNull && !nullable { throw nullInRequired(type) }
        return try optional(v, type, get)
    }

    static func required<T>(_ v: Value, _ type: ColumnType, _ get: (Value) -> T?) throws(FormatError) -> T {
        guard let x = try optional(v, type, get) else { throw nullInRequired(type) }
        return x
    }

    private static func checkedSize(_ bytes: [UInt8]?, limit: Int) throws(FormatError) -> [UInt8]? {
        if let bytes, bytes.count > limit {
            throw .cannotWrite(reason: "a value of \(bytes.count) bytes exceeds Realm's limit of \(limit) bytes")
        }
        return bytes
    }

    static func mismatch(_ v: Value, _ type: ColumnType) -> FormatError {
        .cannotWrite(reason: "a \(type.propertyTypeName) leaf cannot hold \(v.kindName)")
    }

    static func nullInRequired(_ type: ColumnType) -> FormatError {
        .cannotWrite(reason: "a non-nullable \(type.propertyTypeName) leaf cannot hold null")
    }

    static func tagged(_ v: Int) -> Int64 { Int64(v) << 1 | 1 }
}

/// Payload accessors for the encoders (nil when the value is of another kind).
extension Value {
    fileprivate var int: Int64? { if case let .int(x) = self { return x } else { return nil } }
    fileprivate var bool: Bool? { if case let .bool(x) = self { return x } else { return nil } }
    fileprivate var float: Float? { if case let .float(x) = self { return x } else { return nil } }
    fileprivate var double: Double? { if case let .double(x) = self { return x } else { return nil } }
    fileprivate var string: [UInt8]? { if case let .string(x) = self { return x } else { return nil } }
    fileprivate var binary: [UInt8]? { if case let .binary(x) = self { return x } else { return nil } }
    fileprivate var timestamp: Timestamp? { if case let .timestamp(x) = self { return x } else { return nil } }
    fileprivate var decimal: Decimal128? { if case let .decimal(x) = self { return x } else { return nil } }
    fileprivate var objectId: ObjectId? { if case let .objectId(x) = self { return x } else { return nil } }
    fileprivate var uuid: UUID? { if case let .uuid(x) = self { return x } else { return nil } }
    fileprivate var typedLinkParts: (TableKey, Int64)? { if case let .typedLink(t, k) = self { return (t, k) } else { return nil } }
}

extension Value {
    /// "a string", "null", … for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .int: return "an int"
        case .bool: return "a bool"
        case .float: return "a float"
        case .double: return "a double"
        case .string: return "a string"
        case .binary: return "a binary"
        case .timestamp: return "a timestamp"
        case .decimal: return "a decimal"
        case .objectId: return "an ObjectId"
        case .uuid: return "a UUID"
        case .link: return "a link"
        case .typedLink: return "a typed link"
        case .list: return "a list"
        case .dictionary: return "a dictionary"
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends the low `bytes` bytes of `value`, least significant first.
    mutating func appendLittleEndian(_ value: UInt64, bytes: Int) {
        var x = value
        for _ in 0..<bytes {
            append(UInt8(truncatingIfNeeded: x))
            x >>= 8
        }
    }
}
