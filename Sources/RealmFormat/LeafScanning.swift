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
    /// Sets bit `first + i` of `words` for every element `i` whose value lies in
    /// `lower ... upper` (outside it when `outside`); a null element of a nullable leaf sets its
    /// bit exactly when `nullMatches` (`IntegerElements.markRange`, which does the work).
    public func markRange(_ lower: Int64, _ upper: Int64, outside: Bool, nullMatches: Bool,
                          into words: inout [UInt64], first: Int) {
        withExtendedLifetime(node) {
            elements.markRange(lower, upper, outside: outside, nullMatches: nullMatches, into: &words, first: first)
        }
    }

    /// The elements as the scan kernels read them; valid while `node` is alive.
    var elements: IntegerElements {
        IntegerElements(bytes: node.payloadBytes(), offset: offset, count: count, width: node.width, nullMarker: nullMarker)
    }
}

/// ORs bit `first + i` into `words` for each `i` in `0 ..< count` with `test(i)`; the caller
/// keeps `first + count` within the words. Elements are tested 64 at a time into one word, so
/// the loop that does the work has no branch and no store per element (it unrolls); only the
/// elements before the first word boundary and after the last whole word go one by one.
@inline(__always)
func markBits(count n: Int, first: Int, into words: inout [UInt64], _ test: (Int) -> Bool) {
    markBits(count: n, first: first, into: &words, test) { i in
        var m: UInt64 = 0
        for j in 0..<64 { m |= (test(i &+ j) ? 1 : 0) << UInt64(j) }
        return m
    }
}

/// The same with the 64-element blocks computed by `block(i)` (bit j for element i + j),
/// which must agree with `test`: the vector loops of the common widths.
@inline(__always)
func markBits(count n: Int, first: Int, into words: inout [UInt64], _ test: (Int) -> Bool, block: (Int) -> UInt64) {
    var i = 0, p = first
    while i < n && p & 63 != 0 {
        if test(i) { words[p >> 6] |= 1 << UInt64(p & 63) }
        i &+= 1
        p &+= 1
    }
    while n &- i >= 64 {
        words[p >> 6] |= block(i)
        i &+= 64
        p &+= 64
    }
    var m: UInt64 = 0
    let tail = p
    while i < n {
        if test(i) { m |= 1 << UInt64(p &- tail) }
        i &+= 1
        p &+= 1
    }
    if m != 0 { words[tail >> 6] |= m }
}

/// ORs bit `first + i` into `words` for each `i` in `0 ..< count` whose bit is set in
/// `candidates` (the same numbering) and for which `test(i)` holds: the candidates a word at
/// a time, their set bits in order, one store per word. For scans whose test costs more than
/// a bit (strings), which test only the candidates.
@inline(__always)
func markCandidates(count: Int, first: Int, _ candidates: [UInt64], into words: inout [UInt64], _ test: (Int) -> Bool) {
    guard count > 0 else { return }
    let end = first &+ count
    let firstWord = first >> 6, lastWord = (end &- 1) >> 6
    var w = firstWord
    while w <= lastWord {
        var bits = candidates[w]
        if w == firstWord { bits &= ~0 << UInt64(first & 63) }
        if w == lastWord, end & 63 != 0 { bits &= (1 << UInt64(end & 63)) &- 1 }
        var out: UInt64 = 0
        while bits != 0 {
            let b = bits.trailingZeroBitCount
            if test((w << 6 | b) &- first) { out |= 1 << UInt64(b) }
            bits &= bits &- 1
        }
        if out != 0 { words[w] |= out }
        w &+= 1
    }
}

/// Bit j set for each lane j of a comparison's mask (16 lanes). Each lane becomes a byte 0 or
/// 1; a multiply then gathers the eight low bits of each half into its top byte (byte i's bit
/// lands at 8i + 56 − 7i = 56 + i, and no other partial product reaches bits 56–63 or carries
/// into them): two multiplies, where a sum across lanes is a chain of shuffles, or byte by byte.
@inline(__always)
func laneBits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
    let ones = SIMD16<Int8>(repeating: 0).replacing(with: 1, where: mask)
    let halves = unsafeBitCast(ones, to: SIMD2<UInt64>.self)
    let gather: UInt64 = 0x0102_0408_1020_4080
    return (halves[0] &* gather) >> 56 | ((halves[1] &* gather) >> 56) << 8
}

/// The same for 8 lanes of 64 bits.
@inline(__always)
func laneBits(_ mask: SIMDMask<SIMD8<Int64>>) -> UInt64 {
    let weights = SIMD8<UInt64>(1, 2, 4, 8, 16, 32, 64, 128)
    return SIMD8<UInt64>(repeating: 0).replacing(with: weights, where: mask).wrappedSum()
}

/// How each element of a floating-point leaf is compared with a constant
/// (`FloatingLeaf.mark`): IEEE comparisons, so NaN satisfies only `notEqual`.
public enum ElementComparison: Sendable {
    case equal, notEqual, less, lessEqual, greater, greaterEqual
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

    /// Sets bit `first + i` of `words` for every element `i` with `element op value` (IEEE);
    /// a null element sets its bit exactly when `nullMatches`. As `IntegerLeaf.markRange`: ORed
    /// in, elements past the end of `words` not marked, one loop per comparison.
    public func mark(_ op: ElementComparison, _ value: Double, nullMatches: Bool,
                     into words: inout [UInt64], first: Int) {
        let n = min(count, words.count * 64 - first)
        guard n > 0, first >= 0 else { return }
        let bytes = node.payloadBytes()
        // Separate loops for floats and doubles, each with the comparison inlined.
        @inline(__always)
        func run(_ test: (Double) -> Bool) {
            if isFloat {
                markBits(count: n, first: first, into: &words) { i in
                    let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self))
                    return bits == Snapshot.floatNull ? nullMatches : test(Double(Float(bitPattern: bits)))
                }
            } else {
                markBits(count: n, first: first, into: &words) { i in
                    let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self))
                    return bits == Snapshot.doubleNull ? nullMatches : test(Double(bitPattern: bits))
                }
            }
        }
        if !isFloat && nullMatches == (op == .notEqual) {
            // Eight doubles compared at once. Realm's null is a NaN (§9.4), for which every
            // IEEE comparison but `!=` is false: exactly `nullMatches` here, so null needs no
            // test of its own.
            let c = SIMD8<Double>(repeating: value)
            @inline(__always)
            func vector(_ compare: (SIMD8<Double>) -> SIMDMask<SIMD8<Int64>>) {
                let test = { (i: Int) -> Bool in
                    let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self))
                    return bits == Snapshot.doubleNull ? nullMatches : compare(SIMD8<Double>(repeating: Double(bitPattern: bits)))[0]
                }
                markBits(count: n, first: first, into: &words, test) { i in
                    var m: UInt64 = 0
                    for q in 0..<8 {
                        let v = bytes.loadUnaligned(fromByteOffset: 8 &* (i &+ 8 &* q), as: SIMD8<Double>.self)
                        m |= laneBits(compare(v)) << UInt64(8 * q)
                    }
                    return m
                }
            }
            switch op {
            case .equal: vector { $0 .== c }
            case .notEqual: vector { $0 .!= c }
            case .less: vector { $0 .< c }
            case .lessEqual: vector { $0 .<= c }
            case .greater: vector { $0 .> c }
            case .greaterEqual: vector { $0 .>= c }
            }
            return
        }
        switch op {
        case .equal: run { $0 == value }
        case .notEqual: run { $0 != value }
        case .less: run { $0 < value }
        case .lessEqual: run { $0 <= value }
        case .greater: run { $0 > value }
        case .greaterEqual: run { $0 >= value }
        }
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

extension TimestampLeaf {
    /// Sets bit `first + i` of `words` for every element `i` with `element op value` in
    /// Realm's order of timestamps (seconds, then nanoseconds; §9.7); a null element sets its
    /// bit exactly when `nullMatches`. As `IntegerLeaf.markRange`: ORed in, elements past the
    /// end of `words` not marked; no value is built per element.
    public func mark(_ op: ElementComparison, _ value: Timestamp, nullMatches: Bool, into words: inout [UInt64], first: Int) {
        let n = Swift.min(count, words.count * 64 - first)
        guard n > 0, first >= 0 else { return }
        let s = value.seconds, ns = value.nanoseconds
        @inline(__always)
        func run(_ test: (Int64, Int32) -> Bool) {
            markBits(count: n, first: first, into: &words) { i in
                seconds.isNull(i) ? nullMatches : test(seconds[i], Int32(truncatingIfNeeded: nanos.int(i)))
            }
        }
        switch op {
        case .equal: run { $0 == s && $1 == ns }
        case .notEqual: run { $0 != s || $1 != ns }
        case .less: run { $0 < s || ($0 == s && $1 < ns) }
        case .lessEqual: run { $0 < s || ($0 == s && $1 <= ns) }
        case .greater: run { $0 > s || ($0 == s && $1 > ns) }
        case .greaterEqual: run { $0 > s || ($0 == s && $1 >= ns) }
        }
    }
}

/// Non-null count, wrapping sum, smallest and largest of some elements of integer leaves
/// (`IntegerLeaf.summarize`), for table aggregates.
public struct IntegerSummary: Sendable, Equatable {
    public var count = 0
    public var sum: Int64 = 0
    public var min = Int64.max
    public var max = Int64.min
    public init() {}
}

/// Non-null count and sum of some elements of floating-point leaves (`FloatingLeaf.summarize`).
public struct FloatingSummary: Sendable, Equatable {
    public var count = 0
    public var sum = 0.0
    public init() {}
}

extension IntegerLeaf {
    /// Adds every non-null element `i` whose bit `first + i` is set in `selected` (every
    /// element when `selected` is nil) to `summary`, reading the packed bytes with a loop per
    /// width (§4.3). Bits past the end of `selected` count as clear.
    public func summarize(into summary: inout IntegerSummary, selected: [UInt64]?, first: Int) {
        let bytes = node.payloadBytes()
        let o = offset, marker = nullMarker, n = count
        var s = summary
        @inline(__always)
        func add(_ e: Int64) {
            if let marker, e == marker { return }
            s.count &+= 1
            s.sum &+= e
            if e < s.min { s.min = e }
            if e > s.max { s.max = e }
        }
        @inline(__always)
        func run(_ read: (Int) -> Int64) {
            if let selected {
                for w in (first >> 6)..<Swift.min(selected.count, (first + n + 63) >> 6) {
                    var bits = selected[w]
                    while bits != 0 {
                        let i = (w << 6 | bits.trailingZeroBitCount) - first
                        bits &= bits - 1
                        if i >= 0 && i < n { add(read(i &+ o)) }
                    }
                }
            } else {
                for i in 0..<n { add(read(i &+ o)) }
            }
        }
        switch node.width {
        case 8: run { Int64(bytes.load(fromByteOffset: $0, as: Int8.self)) }
        case 16: run { Int64(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 &* $0, as: Int16.self))) }
        case 32: run { Int64(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 &* $0, as: Int32.self))) }
        case 64: run { Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 &* $0, as: Int64.self)) }
        default: run { node.int($0) }
        }
        summary = s
    }
}

extension FloatingLeaf {
    /// As `IntegerLeaf.summarize`: the non-null selected elements' count and sum, in order.
    public func summarize(into summary: inout FloatingSummary, selected: [UInt64]?, first: Int) {
        let bytes = node.payloadBytes()
        let n = count, float = isFloat
        var s = summary
        @inline(__always)
        func add(_ i: Int) {
            if float {
                let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self))
                if bits == Snapshot.floatNull { return }
                s.sum += Double(Float(bitPattern: bits))
            } else {
                let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self))
                if bits == Snapshot.doubleNull { return }
                s.sum += Double(bitPattern: bits)
            }
            s.count &+= 1
        }
        if let selected {
            for w in (first >> 6)..<Swift.min(selected.count, (first + n + 63) >> 6) {
                var bits = selected[w]
                while bits != 0 {
                    let i = (w << 6 | bits.trailingZeroBitCount) - first
                    bits &= bits - 1
                    if i >= 0 && i < n { add(i) }
                }
            }
        } else {
            for i in 0..<n { add(i) }
        }
        summary = s
    }
}
