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
    public static func stringLeaf<S: RandomAccessCollection, B: Collection<UInt8>>(_ strings: S) -> MutableNode where S.Element == B? {
        let longest = strings.reduce(-1) { max($0, $1?.count ?? -1) }
        if longest <= shortStringMax { return shortStrings(strings, longest: longest) }
        if longest <= mediumStringMax { return smallBlobs(strings, terminated: true) }
        return bigBlobs(strings, terminated: true)
    }

    /// An `ArrayBinary` leaf (nil = null): small while every value is ≤ 64 bytes, big beyond (§9.5).
    public static func binaryLeaf(_ values: [[UInt8]?]) -> MutableNode {
        let longest = values.reduce(-1) { max($0, $1?.count ?? -1) }
        return longest <= smallBinaryMax ? smallBlobs(values, terminated: false) : bigBlobs(values, terminated: false)
    }

    /// §9.4.1: w-byte blocks, w = the smallest power of two ≥ longest + 1; the last byte of a
    /// block is the number of padding zeros (w − 1 − length), or w for null. No non-null string
    /// at all: width 0 (every element null).
    private static func shortStrings<S: RandomAccessCollection, B: Collection<UInt8>>(_ strings: S, longest: Int) -> MutableNode where S.Element == B? {
        guard longest >= 0 else { return MutableNode(bytes: [], width: 0, count: strings.count) }
        var width = 1
        while width < longest + 1 { width *= 2 }
        var payload = [UInt8]()
        payload.reserveCapacity(width * strings.count)
        for s in strings {
            if let s {
                payload += s
                payload += repeatElement(0, count: width - 1 - s.count)
                payload.append(UInt8(width - 1 - s.count))
            } else {
                payload += repeatElement(0, count: width - 1)
                payload.append(UInt8(width))
            }
        }
        return MutableNode(bytes: payload, width: width, count: strings.count)
    }

    /// §9.4.2 / §9.5 small form: [end offsets, one blob, null flags]. Strings end with a 0 byte
    /// (a null string is just that byte); binaries have no terminator (a null one is empty).
    private static func smallBlobs<S: RandomAccessCollection, B: Collection<UInt8>>(_ values: S, terminated: Bool) -> MutableNode where S.Element == B? {
        var offsets = [Int64](), nulls = [Int64](), blob = [UInt8]()
        offsets.reserveCapacity(values.count)
        nulls.reserveCapacity(values.count)
        for v in values {
            if let v { blob += v }
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
    private static func bigBlobs<S: RandomAccessCollection, B: Collection<UInt8>>(_ values: S, terminated: Bool) -> MutableNode where S.Element == B? {
        let node = MutableNode(integers: [Int64](repeating: 0, count: values.count), hasRefs: true, context: true)
        for (i, v) in values.enumerated() {
            guard let v else { continue }
            node.setChild(i, MutableNode(blob: terminated ? Array(v) + [0] : Array(v)))
        }
        return node
    }
}
