/// A string leaf read in place (realm-format.md §9.4), for scans that test each value without
/// decoding the leaf into arrays: a value is handed out as a `Span` over the file's bytes (short
/// strings: their slot; medium: their stretch of the blob; big: their own blob node), or nil for
/// null; enumerated leaves (§9.4.4) through their column's value list, decoded once per
/// snapshot. Only chunked big blobs are decoded (rare: §9.6).
///
/// Everything read from disk is checked before it is used: the node extents when the reader is
/// made (`Node`), each medium value's offsets and each big value's blob when that value is read
/// (a damaged value throws `FormatError.corrupt`, as `decodeStrings` does).
public struct StringLeafReader {
    private enum Form {
        /// §9.4.1: w-byte slots whose last byte is w − 1 − length; width 0 is all null.
        case short
        /// §9.4.2: [offsets (ends), blob, nulls?]; each value carries a terminating 0 byte.
        case medium
        /// §9.4.3: one blob ref per value, 0 = null.
        case big
        /// §9.4.4: positions in the column's value list, read in place.
        case enumerated
        /// Anything decoded: the values themselves.
        case decoded
    }

    // The hot forms (short, medium) read through plain views of the mapped bytes, which the
    // `snapshot` reference keeps alive: no reference counting per value.
    private let form: Form
    /// Short: the slots; medium: the blob.
    private let bytes: UnsafeRawBufferPointer
    /// Short: the slot width.
    private let width: Int
    /// Medium: the end offsets and the null flags (count 0 when absent).
    private let offsets: PackedInts
    private let nulls: PackedInts
    private let offsetsRef: Int
    private let bigNode: Node?
    private let decoded: [[UInt8]?]
    /// Enumerated: the column's value list (`offsets` holds the positions).
    private let list: EnumValueList?
    private let snapshot: Snapshot
    public let count: Int

    /// As `Snapshot.decodeStrings(ref, nullable: true, enumValues:)`.
    public init(_ snapshot: Snapshot, ref: Int, enumValues: Int? = nil) throws(FormatError) {
        self.snapshot = snapshot
        let node = try snapshot.node(ref)
        var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        var width = 0, offsets = PackedInts(), nulls = PackedInts()
        var bigNode: Node?, decoded = [[UInt8]?](), list: EnumValueList?
        if !node.hasRefs, node.header.widthType == .multiply {
            form = .short
            bytes = node.payloadBytes()
            width = node.width
            count = node.count
        } else if !node.hasRefs, node.header.widthType == .bits {
            guard let enumValues else {
                throw .corrupt(offset: ref, reason: "enumerated string leaf without a value list")
            }
            list = try snapshot.enumValueList(enumValues)
            offsets = PackedInts(node)
            form = .enumerated
            count = node.count
        } else if !node.hasRefs {
            decoded = try snapshot.decodeStrings(ref, nullable: true, enumValues: enumValues)
            form = .decoded
            count = decoded.count
        } else if node.context {
            form = .big
            bigNode = node
            count = node.count
        } else {
            guard node.count >= 2, let r = node.ref(0) else {
                throw .corrupt(offset: node.ref, reason: "small-blob leaf lacks its offsets")
            }
            let o = try snapshot.node(r)
            let blob = try node.ref(1).map { r throws(FormatError) in try snapshot.node(r) }
            let n = try node.ref(2).map { r throws(FormatError) in try snapshot.node(r) }
            if let n, n.count < o.count {
                throw .corrupt(offset: n.ref, reason: "null flags shorter than the offsets")
            }
            form = .medium
            bytes = blob?.payloadBytes() ?? UnsafeRawBufferPointer(start: nil, count: 0)
            offsets = PackedInts(o)
            nulls = n.map(PackedInts.init) ?? PackedInts()
            count = o.count
        }
        offsetsRef = node.ref
        self.bytes = bytes
        self.width = width
        self.offsets = offsets
        self.nulls = nulls
        self.bigNode = bigNode
        self.decoded = decoded
        self.list = list
    }

    /// `test` applied to value `i` (0 ..< count): its bytes without the terminator, or nil for
    /// null. The span is valid only during the call.
    @inline(__always)
    public func matches(_ i: Int, _ test: (Span<UInt8>?) -> Bool) throws(FormatError) -> Bool {
        switch form {
        case .short:
            let w = width
            guard w > 0 else { return test(nil) }
            let base = i &* w
            let length = w &- 1 &- Int(bytes[base &+ w &- 1])
            if length < 0 { return test(nil) }
            let value = UnsafeRawBufferPointer(rebasing: bytes[base..<(base &+ length)]).assumingMemoryBound(to: UInt8.self)
            return test(Span(_unsafeElements: value))
        case .medium:
            let start = i == 0 ? 0 : Int(offsets.int(i &- 1))
            let end = Int(offsets.int(i))
            guard start >= 0, end >= start, end <= bytes.count else {
                throw .corrupt(offset: offsetsRef, reason: "blob offset \(end) is outside a blob of \(bytes.count) bytes")
            }
            if i < nulls.count, nulls.int(i) != 0 { return test(nil) }
            guard end &- 1 >= start else {
                throw .corrupt(offset: offsetsRef, reason: "string without its terminating byte")
            }
            let value = UnsafeRawBufferPointer(rebasing: bytes[start..<(end &- 1)]).assumingMemoryBound(to: UInt8.self)
            return test(Span(_unsafeElements: value))
        case .big:
            guard let node = bigNode, let r = node.ref(i) else { return test(nil) }
            let blob = try snapshot.node(r)
            if blob.hasRefs {
                var bytes = try snapshot.decodeBlob(r)
                guard !bytes.isEmpty else { throw .corrupt(offset: r, reason: "string blob without its terminating byte") }
                bytes.removeLast()
                return test(bytes.span)
            }
            guard blob.header.widthType == .ignore || blob.count == 0 else {
                throw .corrupt(offset: r, reason: "blob node does not have width type 'ignore'")
            }
            let payload = blob.payloadBytes()
            guard payload.count >= 1 else { throw .corrupt(offset: r, reason: "string blob without its terminating byte") }
            let value = UnsafeRawBufferPointer(rebasing: payload[0..<(payload.count &- 1)]).assumingMemoryBound(to: UInt8.self)
            return test(Span(_unsafeElements: value))
        case .enumerated:
            guard let v = list!.bytes(at: try position(i)) else { return test(nil) }
            return test(Span(_unsafeElements: v.assumingMemoryBound(to: UInt8.self)))
        case .decoded:
            guard let v = decoded[i] else { return test(nil) }
            return test(v.span)
        }
    }

    /// ORs into `words` the bit `first + i` of each value `i` that passes `test`, testing only
    /// the values whose bit is set in `candidates` (the same numbering): short values where
    /// they lie (word loads may reach into the following slots, never past the node), others
    /// as `matches` hands them out. The column scan (`StringColumn`) reads the leaves it has
    /// checked itself; this serves the others: big values, and columns that failed a check,
    /// whose damage is reported here as `matches` reports it.
    public func mark(_ test: StringScanTest, candidates: [UInt64], into words: inout [UInt64], first: Int) throws(FormatError) {
        switch test.shape {
        case let .constant(c): try mark(ConstantTest(result: c), test, candidates, &words, first)
        case let .equal(p): try mark(EqualTest(pattern: p), test, candidates, &words, first)
        case let .prefix(p): try mark(PrefixTest(pattern: p), test, candidates, &words, first)
        case let .suffix(p): try mark(SuffixTest(pattern: p), test, candidates, &words, first)
        case let .contains(p): try mark(ContainsTest(pattern: p), test, candidates, &words, first)
        case let .segments(prefix, middles, suffix):
            try mark(SegmentsTest(prefix: prefix, middles: middles, suffix: suffix), test, candidates, &words, first)
        }
    }

    private func mark<T: InPlaceTest>(_ t: T, _ test: StringScanTest, _ candidates: [UInt64],
                                      _ words: inout [UInt64], _ first: Int) throws(FormatError) {
        let nullMatches = test.nullMatches, inverted = test.inverted, confirm = test.confirm
        if form == .short {
            let n = count
            guard first >= 0, first + n <= words.count * 64, first + n <= candidates.count * 64 else { return }
            let values = ShortSlots(bytes, width: width)
            candidates.withUnsafeBufferPointer { candidates in
                words.withUnsafeMutableBufferPointer { words in
                    if let values {
                        markValues(values, t, (nullMatches, inverted, confirm), (first, n), candidates, words)
                    } else {
                        markValues(NullValues(), t, (nullMatches, inverted, confirm), (first, n), candidates, words)
                    }
                }
            }
            return
        }
        var failure: FormatError?
        markCandidates(count: count, first: first, candidates, into: &words) { i in
            do throws(FormatError) {
                return try matches(i) { span in
                    guard let span else { return nullMatches }
                    return span.withUnsafeBufferPointer { b in
                        withUnsafeBytes(of: UInt64(0)) { empty in
                            t.decide(b.baseAddress.map(UnsafeRawPointer.init) ?? empty.baseAddress!, b.count, b.count,
                                     inverted: inverted, confirm: confirm)
                        }
                    }
                }
            } catch {
                failure = failure ?? error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// Calls `body` with each value's bytes in order (nil for null), only for the rows whose
    /// `keep` flag is set when given. The buffer is valid only during the call.
    public func forEachValue(keeping keep: [Bool]? = nil,
                             _ body: (UnsafeBufferPointer<UInt8>?) throws(FormatError) -> Void) throws(FormatError) {
        var failure: FormatError?
        for i in 0..<count where keep?[i] ?? true {
            _ = try matches(i) { span in
                do throws(FormatError) {
                    if let span { try span.withUnsafeBufferPointer { b throws(FormatError) in try body(b) } } else { try body(nil) }
                } catch { failure = error }
                return true
            }
            if let failure { throw failure }
        }
    }

    /// Whether the leaf is enumerated (§9.4.4): its values are positions in a value list.
    public var isEnumerated: Bool { form == .enumerated }

    /// An enumerated leaf's value `i` as its position in the column's value list, checked
    /// against the list (a scan that decided each listed value once looks its verdict up).
    @inline(__always)
    public func position(_ i: Int) throws(FormatError) -> Int {
        let p = offsets.int(i)
        guard let list, p >= 0, p < Int64(list.count) else {
            throw .corrupt(offset: offsetsRef, reason: "enumerated string index \(p) is outside its value list")
        }
        return Int(p)
    }

    /// Value `i` copied out (nil for null).
    public func value(_ i: Int) throws(FormatError) -> [UInt8]? {
        var out: [UInt8]?
        _ = try matches(i) { s in
            guard let s else { return false }
            var a = [UInt8]()
            a.reserveCapacity(s.count)
            for k in s.indices { a.append(s[k]) }
            out = a
            return true
        }
        return out
    }
}
