import CPrefetch

/// Asks the CPU to bring the first `limit` bytes of `bytes` into cache ahead of a read, one hint
/// per 64-byte line. The column scans (IntegerColumn) issue it for the leaf a few ahead of the
/// one they read: column leaves lie all over the file, one cache and TLB miss each, and asked
/// for early those waits overlap instead of adding up. `bytes` is a checked node payload, and a
/// prefetch reads nothing anyway (it cannot fault); past the first lines the hardware's own
/// prefetcher follows the stream.
@inline(__always)
func prefetch(_ bytes: UnsafeRawBufferPointer, limit: Int = 512) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    // Every line the bytes touch, from the one holding the first byte.
    var line = UInt(bitPattern: base) & ~63
    let last = UInt(bitPattern: base + (min(bytes.count, limit) - 1))
    while line <= last {
        realmsh_prefetch(UnsafeRawPointer(bitPattern: line))
        line &+= 64
    }
}
