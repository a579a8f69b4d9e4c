/// A checked string leaf's values one after the other, for work that wants every value once
/// rather than a verdict per row (`DistinctStringCount`). Only the bytes the leaf checked when
/// it was made are read, so any thread may walk it.
extension StringColumn.Leaf {
    /// `body` on each of the leaf's `count` values in order: its bytes, nil for null. False
    /// for a big leaf (§9.4.3, which only `StringLeafReader` reads): nothing is called.
    /// `ends` holds at least `count + 1` elements (a medium leaf's ends are decoded there).
    func forEachValue(count: Int, ends: inout [Int32], _ body: (UnsafeBufferPointer<UInt8>?) -> Void) -> Bool {
        switch self {
        case let .short(slots, w):
            if let values = ShortSlots(slots, width: w) { Self.each(values, count, body) } else { Self.each(NullValues(), count, body) }
            return true
        case let .medium(blob, packedEnds, nulls):
            guard ends.count > count else { return false }
            return ends.withUnsafeMutableBufferPointer { e in
                let e = e.baseAddress!
                e[0] = 0
                packedEnds.decode(into: e, at: 1)
                guard let values = MediumValues(blob, ends: e) else {
                    Self.each(NullValues(), count, body)
                    return true
                }
                if let nulls {
                    Self.each(NullableMediumValues(values: values, nulls: nulls), count, body)
                } else {
                    Self.each(values, count, body)
                }
                return true
            }
        case .general:
            return false
        }
    }

    @inline(__always)
    private static func each<V: LeafStrings>(_ values: V, _ count: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        for i in 0..<count {
            if let (p, n, _) = values.value(i) {
                body(UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: n))
            } else {
                body(nil)
            }
        }
    }
}
