/// The strings of one leaf column under edit, in one byte buffer with end offsets: a
/// leaf of 256 strings is three arrays, not 256 heap arrays (realm-format.md §9.4 leaves are
/// encoded from it directly).
struct StringCells: RandomAccessCollection, ByteStrings {
    private(set) var bytes: [UInt8] = []
    /// End of value `i` in `bytes` (its start is the end of value `i − 1`).
    private(set) var ends: [Int] = []
    private(set) var nulls: [Bool] = []

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count }

    /// Value `i`'s bytes, nil for null.
    subscript(i: Int) -> ArraySlice<UInt8>? {
        nulls[i] ? nil : bytes[start(i)..<ends[i]]
    }

    private func start(_ i: Int) -> Int { i == 0 ? 0 : ends[i - 1] }

    var longest: Int {
        var longest = -1
        for i in indices where !nulls[i] { longest = Swift.max(longest, ends[i] - start(i)) }
        return longest
    }

    var byteCount: Int { bytes.count }

    /// Value `i`'s bytes (nil for null) for the time of `body`, without copying them.
    func withValue<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        if nulls[i] { return body(nil) }
        let start = start(i), end = ends[i]
        return bytes.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[start..<end])) }
    }

    func forEachValue(_ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for i in indices {
                body(nulls[i] ? nil : UnsafeBufferPointer(rebasing: all[start..<ends[i]]))
                start = ends[i]
            }
        }
    }

    mutating func reserve(_ count: Int, bytes byteCount: Int) {
        ends.reserveCapacity(count)
        nulls.reserveCapacity(count)
        bytes.reserveCapacity(byteCount)
    }

    mutating func append<C: Collection<UInt8>>(_ value: C?) {
        if let value { bytes.append(contentsOf: value) }
        ends.append(bytes.count)
        nulls.append(value == nil)
    }

    /// Appends values stored back to back in `blob`, each followed by a zero byte (a medium
    /// string leaf, §5.4): value i is `blob[ends[i − 1] ..< ends[i] − 1]`, or null where
    /// `nulls[i]` — the empty string instead unless `nullable`, and no bytes either way.
    /// `ends` must increase strictly and stay within `blob` (the caller checked them against
    /// the file).
    mutating func appendTerminated(_ blob: UnsafeRawBufferPointer, ends valueEnds: [Int], nulls valueNulls: [Bool], nullable: Bool) {
        guard let last = valueEnds.last else { return }
        precondition(last <= blob.count && valueEnds.count == valueNulls.count, "medium strings outside their blob")
        appendSpans(of: UnsafeRawBufferPointer(rebasing: blob[0..<last]), count: valueEnds.count) { i in
            let start = i == 0 ? 0 : valueEnds[i - 1]
            precondition(valueEnds[i] > start, "medium string ends do not increase")
            return (start, valueEnds[i] - 1 - start, valueNulls[i] ? nullable : nil)
        }
    }

    /// Appends the values of a short string leaf's payload (§5.4): `count` blocks of `width`
    /// bytes, each value at the start of its block, its last byte the padding; more padding
    /// than the block holds is null (the empty string unless `nullable`).
    mutating func appendPadded(_ payload: UnsafeRawBufferPointer, width: Int, count: Int, nullable: Bool) {
        guard count > 0 else { return }
        precondition(width > 0 && payload.count >= width * count, "short strings outside their leaf")
        appendSpans(of: UnsafeRawBufferPointer(rebasing: payload[0..<(width * count)]), count: count) { i in
            let length = width - 1 - Int(payload[i * width + width - 1])
            return (i * width, Swift.max(length, 0), length < 0 ? nullable : nil)
        }
    }

    /// The two bulk appends: `source` copied once, then closed up in place over what lies
    /// between the values (a dump of a large old file spent a tenth of its time appending its
    /// strings one at a time). `span(i)`: where value i starts in `source`, its length, and
    /// nil for a value, true for null, false for a null that reads as the empty string.
    @inline(__always)
    private mutating func appendSpans(of source: UnsafeRawBufferPointer, count: Int,
                                      _ span: (Int) -> (start: Int, length: Int, null: Bool?)) {
        // The byte buffer is taken out while it is closed up, so that `ends` and `nulls`
        // can grow meanwhile (no overlapping access to `self`); swapping moves no bytes.
        var buffer: [UInt8] = []
        swap(&buffer, &bytes)
        defer { swap(&buffer, &bytes) }
        let base = buffer.count
        buffer.append(contentsOf: source)
        var write = base
        buffer.withUnsafeMutableBytes { all in
            let p = all.baseAddress!
            for i in 0..<count {
                let (start, length, null) = span(i)
                if null == nil {
                    if write != base + start { (p + write).copyMemory(from: p + base + start, byteCount: length) }
                    write += length
                }
                ends.append(write)
                nulls.append(null == true)
            }
        }
        buffer.removeLast(buffer.count - write)
    }

    mutating func insert(_ value: [UInt8]?, at i: Int) {
        guard i < count else { return append(value) }
        let length = value?.count ?? 0
        bytes.insert(contentsOf: value ?? [], at: start(i))
        for j in i..<ends.count { ends[j] += length }
        ends.insert(start(i) + length, at: i)
        nulls.insert(value == nil, at: i)
    }

    mutating func set(_ i: Int, _ value: [UInt8]?) {
        let (s, e) = (start(i), ends[i])
        let delta = (value?.count ?? 0) - (e - s)
        bytes.replaceSubrange(s..<e, with: value ?? [])
        if delta != 0 { for j in i..<ends.count { ends[j] += delta } }
        nulls[i] = value == nil
    }

    /// Removes values `i...` and returns them.
    mutating func removeSuffix(from i: Int) -> StringCells {
        var tail = StringCells()
        for j in i..<count { tail.append(self[j]) }
        bytes.removeSubrange(start(i)...)
        ends.removeSubrange(i...)
        nulls.removeSubrange(i...)
        return tail
    }

    /// Values `range` as cells of their own: one copy of their bytes, ends shifted.
    func copy(_ range: Range<Int>) -> StringCells {
        var out = StringCells()
        guard !range.isEmpty else { return out }
        let first = start(range.lowerBound)
        out.bytes = Array(bytes[first..<ends[range.upperBound - 1]])
        out.ends = ends[range].map { $0 - first }
        out.nulls = Array(nulls[range])
        return out
    }

    mutating func append(contentsOf other: StringCells) {
        for j in other.indices { append(other[j]) }
    }

    /// Keeps the values whose flag is set.
    func filtered(_ keep: [Bool]) -> StringCells {
        var out = StringCells()
        out.reserve(keep.count, bytes: bytes.count)
        var i = 0
        forEachValue { value in
            if keep[i] { out.append(value) }
            i += 1
        }
        return out
    }
}
