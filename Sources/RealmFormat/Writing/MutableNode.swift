/// A node being built or changed by a write transaction (realm-format.md §13.1): the in-memory
/// form of one array. A node loaded from the committed file remembers where it came from, so
/// the commit can release that space when it rewrites or drops it; until it is changed, it is
/// written back by ref, untouched.
///
/// Integer arrays (width type bits) keep their elements as `Int64`; in has-refs arrays a slot
/// may instead hold a child `MutableNode` (loaded lazily, or new). Other width types keep their
/// payload bytes.
public final class MutableNode {
    public enum Storage {
        /// Width type bits. `unsigned`: ArrayUnsigned (keys, offsets: width ≥ 8, unsigned).
        case integers([Int64], unsigned: Bool)
        /// Width type multiply: `count` elements of `width` bytes (fixed-bytes arrays: the byte count).
        case bytes(width: Int, count: Int, payload: [UInt8])
        /// Width type ignore: blob bytes.
        case blob([UInt8])
        /// A leaf already in its file form, header included (`NodeImage`): written as it is.
        case image([UInt8])
    }

    /// Where the node lives in the committed file; nil for a new node.
    public let originalRef: Int?
    /// Its byte size there (released when it is rewritten or dropped).
    public let originalSize: Int
    // The stored properties marked `@exclusivity(unchecked)` are only read and assigned whole,
    // never passed inout to a closure (unlike `elements`, which `withIntegers` lends out), so
    // the runtime's access check cannot fire on them; it cost about 9 % of the instructions of
    // a mass removal (callgrind, workload 11a), mostly in `loadedChild`.
    @exclusivity(unchecked) public var isInner: Bool { didSet { dirty = true } }
    @exclusivity(unchecked) public var hasRefs: Bool { didSet { dirty = true } }
    @exclusivity(unchecked) public var context: Bool { didSet { dirty = true } }
    /// The node's contents. Integer elements live in `elements` (a stored array, so that
    /// in-place changes do not copy it); `payload` says which kind of array this is.
    public var storage: Storage {
        get {
            switch payload {
            case let .integers(unsigned): return .integers(elements, unsigned: unsigned)
            case let .bytes(width, count, bytes): return .bytes(width: width, count: count, payload: bytes)
            case let .blob(bytes): return .blob(bytes)
            case let .image(bytes): return .image(bytes)
            }
        }
        set {
            dirty = true
            switch newValue {
            case let .integers(values, unsigned):
                elements = values
                payload = .integers(unsigned: unsigned)
            case let .bytes(width, count, bytes):
                elements = []
                payload = .bytes(width: width, count: count, payload: bytes)
            case let .blob(bytes):
                elements = []
                payload = .blob(bytes)
            case let .image(bytes):
                elements = []
                payload = .image(bytes)
            }
        }
    }
    private enum Payload {
        case integers(unsigned: Bool)
        case bytes(width: Int, count: Int, payload: [UInt8])
        case blob([UInt8])
        case image([UInt8])
    }
    @exclusivity(unchecked) private var payload: Payload
    private var elements: [Int64]
    /// At least this width when encoded (Realm creates search-index keys with width 32).
    public var minimumWidth = 0
    /// Loaded or new children of a has-refs node, by slot (shorter than `count` when the
    /// last slots have none).
    @exclusivity(unchecked) private var children: [MutableNode?] = []
    /// Changed since loaded (or new): must be written by the commit.
    @exclusivity(unchecked) public private(set) var dirty: Bool

    public init(integers: [Int64], hasRefs: Bool = false, isInner: Bool = false, context: Bool = false, unsigned: Bool = false) {
        originalRef = nil
        originalSize = 0
        self.isInner = isInner
        self.hasRefs = hasRefs || isInner
        self.context = context
        payload = .integers(unsigned: unsigned)
        elements = integers
        dirty = true
    }

    public init(bytes payload: [UInt8], width: Int, count: Int, context: Bool = false) {
        originalRef = nil
        originalSize = 0
        isInner = false
        hasRefs = false
        self.context = context
        self.payload = .bytes(width: width, count: count, payload: payload)
        elements = []
        dirty = true
    }

    public init(blob: [UInt8]) {
        originalRef = nil
        originalSize = 0
        isInner = false
        hasRefs = false
        context = false
        payload = .blob(blob)
        elements = []
        dirty = true
    }

    /// A leaf node given in its file form (header and padded payload, no refs), as
    /// `NodeImage` builds it; the commit writes these bytes unchanged.
    init(image: [UInt8]) {
        originalRef = nil
        originalSize = 0
        isInner = false
        hasRefs = false
        context = false
        payload = .image(image)
        elements = []
        dirty = true
    }

    /// Loads the committed node at `node.ref` (its children stay on disk until asked for).
    /// `unsigned`: the node is an `ArrayUnsigned` (B+tree and cluster offsets, cluster keys,
    /// §4.3), whose elements of width 8–32 Realm reads unsigned: at width 16 an offset of
    /// 40,000 is legal and must not come back negative.
    public init(loading node: Node, unsigned: Bool = false) {
        originalRef = node.ref
        originalSize = node.header.byteSize
        isInner = node.isInner
        hasRefs = node.hasRefs
        context = node.context
        switch node.header.widthType {
        case .bits?:
            payload = .integers(unsigned: unsigned)
            if unsigned {
                elements = (0..<node.count).map { Int64(bitPattern: node.unsigned($0)) }
            } else {
                elements = node.ints()
            }
        case .multiply?:
            payload = .bytes(width: node.width, count: node.count, payload: Array(node.payloadBytes()))
            elements = []
        default:
            payload = .blob(Array(node.payloadBytes()))
            elements = []
        }
        dirty = false
    }

    // MARK: integer arrays

    public var count: Int {
        switch payload {
        case .integers: return elements.count
        case let .bytes(_, count, _): return count
        case let .blob(b): return b.count
        case let .image(b): return b.count < 8 ? 0 : Int(b[5]) << 16 | Int(b[6]) << 8 | Int(b[7])
        }
    }

    public var integers: [Int64] {
        get { elements }
        set {
            guard case .integers = payload else { return }
            elements = newValue
            dirty = true
        }
    }

    /// Changes the integer elements in place (no copy of the array: a node of 1000 keys
    /// changes once per index insert); nil for byte and blob arrays.
    @discardableResult
    public func withIntegers<R, E: Error>(_ body: (inout [Int64]) throws(E) -> R) throws(E) -> R? {
        guard case .integers = payload else { return nil }
        dirty = true
        return try body(&elements)
    }

    public subscript(i: Int) -> Int64 {
        get { i < elements.count ? elements[i] : 0 }
        set {
            withIntegers { v in v[i] = newValue }
            if i < children.count { children[i] = nil }
        }
    }

    /// Slot `i` as a tagged integer (§3.4).
    public func tagged(_ i: Int) -> Int64? {
        guard i < count, loadedChild(i) == nil else { return nil }
        let v = self[i]
        return v & 1 == 1 ? Int64(bitPattern: UInt64(bitPattern: v) >> 1) : nil
    }

    public func setTagged(_ i: Int, _ value: Int64) { self[i] = value << 1 | 1 }

    public func append(_ value: Int64) {
        withIntegers { v in v.append(value) }
    }

    /// Inserts a plain value at `i`, shifting later slots and their children.
    public func insert(_ value: Int64, at i: Int) {
        withIntegers { v in v.insert(value, at: i) }
        if i < children.count { children.insert(nil, at: i) }
    }

    /// Removes slot `i` (the caller releases a child it held).
    public func remove(at i: Int) {
        withIntegers { v in v.remove(at: i) }
        if i < children.count { children.remove(at: i) }
    }

    /// Removes slots `i...` (the caller releases children they held).
    public func removeSuffix(from i: Int) {
        withIntegers { v in v.removeSubrange(i...) }
        if i < children.count { children.removeSubrange(i...) }
    }

    // MARK: children

    /// The child in slot `i` if it was loaded or set.
    public func loadedChild(_ i: Int) -> MutableNode? { i >= 0 && i < children.count ? children[i] : nil }

    /// Puts `child` in slot `i` (a new or loaded node); the commit writes it and stores its ref.
    public func setChild(_ i: Int, _ child: MutableNode?) {
        withIntegers { v in
            while v.count <= i { v.append(0) }
            if child == nil { v[i] = 0 }
        }
        attachLoaded(i, child)
    }

    /// Records a child loaded from disk without marking this node dirty.
    func attachLoaded(_ i: Int, _ child: MutableNode?) {
        if child == nil && i >= children.count { return }
        while children.count <= i { children.append(nil) }
        children[i] = child
    }

    /// Inserts a child at slot `i`, shifting later slots.
    public func insertChild(_ child: MutableNode, at i: Int) {
        insert(0, at: i)
        attachLoaded(i, child)
    }

    /// Whether this node or anything loaded below it must be written.
    public var needsWrite: Bool { dirty || children.contains { $0?.needsWrite ?? false } }

    func markClean() { dirty = false }
}
