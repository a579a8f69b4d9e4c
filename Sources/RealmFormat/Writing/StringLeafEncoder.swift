/// String and binary leaves (realm-format.md §9.4–§9.6), in the smallest form that fits.
extension LeafEncoder {
    /// `small_string_max_size`: the short form holds strings of at most 15 bytes (§9.4).
    public static let shortStringMax = 15
    /// `medium_string_max_size`: the medium form holds strings of at most 63 bytes.
    public static let mediumStringMax = 63
    /// `small_blob_max_size`: the small binary form holds values of at most 64 bytes (§9.5).
    public static let smallBinaryMax = 64

    /// An `ArrayString` leaf (nil = null): short while every string is ≤ 15 bytes, medium while
    /// ≤ 63, big beyond (§9.4).
    public static func stringLeaf(_ strings: [[UInt8]?]) -> MutableNode { stringLeaf(of: strings) }

    static func stringLeaf(of strings: some ByteStrings) -> MutableNode {
        let longest = strings.longest
        if longest <= shortStringMax { return shortStrings(strings, longest: longest) }
        if longest <= mediumStringMax { return smallBlobs(strings, terminated: true) }
        return bigBlobs(strings, terminated: true)
    }

    /// An `ArrayBinary` leaf (nil = null): small while every value is ≤ 64 bytes, big beyond (§9.5).
    public static func binaryLeaf(_ values: [[UInt8]?]) -> MutableNode {
        values.longest <= smallBinaryMax ? smallBlobs(values, terminated: false) : bigBlobs(values, terminated: false)
    }

    /// §9.4.1: w-byte blocks, w = the smallest power of two ≥ longest + 1; the last byte of a
    /// block is the number of padding zeros (w − 1 − length), or w for null. No non-null string
    /// at all: width 0 (every element null).
    private static func shortStrings(_ strings: some ByteStrings, longest: Int) -> MutableNode {
        guard longest >= 0 else { return MutableNode(bytes: [], width: 0, count: strings.count) }
        var width = 1
        while width < longest + 1 { width *= 2 }
        var payload = [UInt8]()
        payload.reserveCapacity(width * strings.count)
        strings.forEachValue { s in
            if let s {
                payload.append(contentsOf: s)
                payload.append(contentsOf: repeatElement(0, count: width - 1 - s.count))
                payload.append(UInt8(width - 1 - s.count))
            } else {
                payload.append(contentsOf: repeatElement(0, count: width - 1))
                payload.append(UInt8(width))
            }
        }
        return MutableNode(bytes: payload, width: width, count: strings.count)
    }

    /// §9.4.2 / §9.5 small form: [end offsets, one blob, null flags]. Strings end with a 0 byte
    /// (a null string is just that byte); binaries have no terminator (a null one is empty).
    private static func smallBlobs(_ values: some ByteStrings, terminated: Bool) -> MutableNode {
        var offsets = [Int64](), nulls = [Int64](), blob = [UInt8]()
        offsets.reserveCapacity(values.count)
        nulls.reserveCapacity(values.count)
        blob.reserveCapacity(values.byteCount + (terminated ? values.count : 0))
        values.forEachValue { v in
            if let v { blob.append(contentsOf: v) }
            if terminated { blob.append(0) }
            offsets.append(Int64(blob.count))
            nulls.append(v == nil ? 1 : 0)
        }
        let node = MutableNode(integers: [0, 0, 0], hasRefs: true)
        node.setChild(0, MutableNode(integers: offsets))
        node.setChild(1, MutableNode(blob: blob))
        node.setChild(2, MutableNode(integers: nulls))
        return node
    }

    /// §9.4.3 / §9.5 big form (context flag): one blob per value, 0 for null; strings end with
    /// a 0 byte inside their blob.
    private static func bigBlobs(_ values: some ByteStrings, terminated: Bool) -> MutableNode {
        let node = MutableNode(integers: [Int64](repeating: 0, count: values.count), hasRefs: true, context: true)
        var i = 0
        values.forEachValue { v in
            if let v { node.setChild(i, MutableNode(blob: Array(v) + (terminated ? [0] : []))) }
            i += 1
        }
        return node
    }
}

/// Optional byte strings as the string and binary leaf encoders read them: each value in
/// order as a buffer valid during the call (nil for null), so that values kept in one buffer
/// (`StringCells`) are copied straight from it.
protocol ByteStrings {
    var count: Int { get }
    /// The length of the longest value, −1 when every value is null.
    var longest: Int { get }
    /// The bytes of all values together.
    var byteCount: Int { get }
    func forEachValue(_ body: (UnsafeBufferPointer<UInt8>?) -> Void)
}

extension Array: ByteStrings where Element == [UInt8]? {
    var longest: Int { reduce(-1) { Swift.max($0, $1?.count ?? -1) } }
    var byteCount: Int { reduce(0) { $0 + ($1?.count ?? 0) } }
    func forEachValue(_ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        for v in self {
            if let v { v.withUnsafeBufferPointer { body($0) } } else { body(nil) }
        }
    }
}
