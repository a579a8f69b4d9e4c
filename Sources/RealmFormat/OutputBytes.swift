/// A growable byte buffer for text writers (the JSON emitter): a heap block it owns, appended
/// to with one capacity check and a copy per piece. `[UInt8]` costs a uniqueness check, a
/// capacity check and, for slices and generic collections, an element loop per append — at a
/// dozen appends per exported property that was a third of a large dump's time (issue #16/#18).
///
/// Non-copyable, so the block has one owner and is freed with it; nothing outside sees the
/// pointer except for the duration of `withContents`. The appends are inlinable: a call into
/// this module per byte written would cost more than the byte.
public struct OutputBytes: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used: Int

    /// Bytes written so far.
    public var count: Int { used }

    public init(capacity: Int = 1 << 12) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        used = 0
    }

    deinit { base.deallocate() }

    public var isEmpty: Bool { used == 0 }

    /// Room for `extra` more bytes; grows by doubling, so appends stay amortized O(1).
    @inlinable @inline(__always) mutating func reserve(_ extra: Int) {
        if used + extra > capacity { grow(used + extra) }
    }

    @usableFromInline mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let block = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        block.update(from: base, count: used)
        base.deallocate()
        base = block
        capacity = newCapacity
    }

    @inlinable @inline(__always) public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[used] = byte
        used += 1
    }

    @inlinable public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + used).update(from: source, count: bytes.count)
        used += bytes.count
    }

    @inlinable public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// `byte` followed by `n` copies of `repeated` (a newline and its indentation).
    @inlinable public mutating func append(_ byte: UInt8, then repeated: UInt8, count n: Int) {
        reserve(1 + n)
        base[used] = byte
        (base + used + 1).update(repeating: repeated, count: n)
        used += 1 + n
    }

    /// The decimal digits of `v`, written from the last one back into their places.
    @inlinable public mutating func appendDecimal(_ v: UInt64) {
        var digits = 1, rest = v
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        reserve(digits)
        var i = used + digits, v = v
        repeat {
            i -= 1
            base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        } while v > 0
        used += digits
    }

    /// The bytes written so far, lent for the call.
    public func withContents<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: used))
    }

    /// A copy of the bytes written so far.
    public var bytes: [UInt8] { withContents { Array($0) } }

    /// Forgets the contents, keeping the block.
    public mutating func removeAll() { used = 0 }
}
