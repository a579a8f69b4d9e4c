/// Column leaves read element by element in place, without decoding a `Value` per object
/// (realm-format.md §9.1–§9.3, §9.7): the fast paths of query evaluation scan these. Each
/// reader checks once, when made, that the leaf holds `count` elements of the expected layout;
/// reads within `0..<count` are then unchecked.
public struct IntegerLeaf {
    let node: Node
    let offset: Int
    /// Number of values (a nullable leaf's null marker excluded).
    public let count: Int
    /// The value that means null in a nullable leaf.
    public let nullMarker: Int64?
    /// Bits per element: 0, 1, 2, 4, 8, 16, 32 or 64.
    public var width: Int { node.width }

    public init(_ snapshot: Snapshot, ref: Int, nullable: Bool) throws(FormatError) {
        let node = try snapshot.plainInts(ref)
        if nullable {
            guard node.count >= 1 else { throw .corrupt(offset: ref, reason: "nullable int leaf lacks its null marker") }
            nullMarker = node.int(0)
            offset = 1
            count = node.count - 1
        } else {
            nullMarker = nil
            offset = 0
            count = node.count
        }
        self.node = node
    }

    @inline(__always) public subscript(i: Int) -> Int64 { node.int(i + offset) }
    @inline(__always) public func isNull(_ i: Int) -> Bool { nullMarker.map { node.int(i + offset) == $0 } ?? false }

    /// Calls `body` with the index of every element `e` for which `test(e)` holds, reading the
    /// packed elements with a loop specialised for the leaf's width.
    @inline(__always)
    public func forEach(in range: Range<Int>, where test: (Int64) -> Bool, _ body: (Int) -> Void) {
        let lower = max(0, range.lowerBound), upper = min(count, range.upperBound)
        guard lower < upper else { return }
        let bytes = node.payloadBytes()
        let o = offset
        switch node.width {
        case 8:
            for i in lower..<upper where test(Int64(bytes.load(fromByteOffset: i + o, as: Int8.self))) { body(i) }
        case 16:
            for i in lower..<upper where test(Int64(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * (i + o), as: Int16.self)))) { body(i) }
        case 32:
            for i in lower..<upper where test(Int64(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * (i + o), as: Int32.self)))) { body(i) }
        case 64:
            for i in lower..<upper where test(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * (i + o), as: Int64.self))) { body(i) }
        default:
            for i in lower..<upper where test(node.int(i + o)) { body(i) }
        }
    }
}

/// A leaf of doubles (width 8) or floats (width 4), nulls stored as Realm's NaN patterns.
public struct FloatingLeaf {
    let node: Node
    public let count: Int
    public let isFloat: Bool

    public init(_ snapshot: Snapshot, ref: Int, float: Bool) throws(FormatError) {
        let node = try snapshot.node(ref)
        let width = float ? 4 : 8
        guard node.header.widthType == .multiply, node.width == width || node.count == 0 else {
            throw .corrupt(offset: ref, reason: "\(float ? "float" : "double") leaf has width \(node.width)")
        }
        self.node = node
        count = node.count
        isFloat = float
    }

    /// The value at `i`, nil for null.
    @inline(__always) public subscript(i: Int) -> Double? {
        if isFloat {
            let bits = node.u32(at: 4 * i)
            return bits == Snapshot.floatNull ? nil : Double(Float(bitPattern: bits))
        }
        let bits = node.u64(at: 8 * i)
        return bits == Snapshot.doubleNull ? nil : Double(bitPattern: bits)
    }
}

/// A timestamp leaf (§9.7): nullable seconds and nanoseconds.
public struct TimestampLeaf {
    public let seconds: IntegerLeaf
    let nanos: Node
    public var count: Int { seconds.count }

    public init(_ snapshot: Snapshot, ref: Int) throws(FormatError) {
        let node = try snapshot.refsNode(ref, minimum: 2, what: "timestamp leaf")
        guard let secondsRef = node.ref(0), let nanosRef = node.ref(1) else {
            throw .corrupt(offset: ref, reason: "timestamp leaf lacks its arrays")
        }
        seconds = try IntegerLeaf(snapshot, ref: secondsRef, nullable: true)
        nanos = try snapshot.plainInts(nanosRef)
        guard nanos.count >= seconds.count else {
            throw .corrupt(offset: ref, reason: "timestamp seconds and nanoseconds differ in length")
        }
    }

    /// The value at `i`, nil for null.
    @inline(__always) public subscript(i: Int) -> Timestamp? {
        if seconds.isNull(i) { return nil }
        return Timestamp(seconds: seconds[i], nanoseconds: Int32(truncatingIfNeeded: nanos.int(i)))
    }
}
