/// Owner of the logical bytes of a Realm file: a read-only memory map of a plain file, a
/// reserved mapping whose pages are decrypted on first read (an encrypted file,
/// `DecryptedPages`), or a heap buffer (a converted legacy file, bytes built in a test). Nodes borrow from it; it lives as
/// long as any `ByteImage` refers to it.
public final class ByteStorage: @unchecked Sendable {
    // @unchecked: the buffer is immutable after init and freed only in deinit.
    let buffer: UnsafeRawBufferPointer
    private let isMapped: Bool
    /// For an encrypted file: the page table that fills `buffer` as it is read.
    let pages: DecryptedPages?

    init(mapped: UnsafeRawBufferPointer) {
        buffer = mapped
        isMapped = true
        pages = nil
    }

    init(pages: DecryptedPages) {
        buffer = pages.bytes
        isMapped = true
        self.pages = pages
    }

    /// Copies `bytes` into storage owned by this object.
    public init(bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
        buffer = UnsafeRawBufferPointer(start: memory.baseAddress, count: bytes.count)
        isMapped = false
        pages = nil
    }

    deinit {
        if isMapped {
            Platform.unmap(buffer)
        } else {
            buffer.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
        }
    }
}

/// A bounds-checked view of the logical file. Every read of an offset that came from disk goes
/// through here (or through a `Node`, which checks its whole extent once when it is made).
/// For an encrypted file, the same places make sure the pages they read are decrypted
/// (`ensure`) before any byte or view of them is handed out.
public struct ByteImage: @unchecked Sendable {
    let storage: ByteStorage
    let bytes: UnsafeRawBufferPointer
    /// `storage.pages`, held without a count of its own: `storage` (a `let` here) keeps it
    /// alive, and every `Node` copies an image, so a second strong reference would double the
    /// retains and releases of each node read from an encrypted file.
    unowned(unsafe) let pages: DecryptedPages?

    public init(storage: ByteStorage) {
        self.storage = storage
        self.bytes = storage.buffer
        self.pages = storage.pages
    }

    init(pages: DecryptedPages) { self.init(storage: ByteStorage(pages: pages)) }

    /// Decrypts the pages of a checked range of an encrypted image not yet read (no-op for a
    /// plain one). Fails with `.corrupt` on a damaged page.
    @inline(__always)
    func ensure(_ offset: Int, _ length: Int) throws(FormatError) {
        if let pages { try pages.ensure(offset, length) }
    }

    /// Before a scan of one column: decrypts the pages of the nodes at `refs` (and their small
    /// subtrees) on two threads, for an encrypted image when they are many (`DecryptedPages.prefetch`;
    /// `minimumBytes` lets tests take the two-thread path on a small file); nothing for a plain one.
    func prefetchDecrypted(nodes refs: [Int], minimumBytes: Int = DecryptedPages.parallelMinimumBytes) {
        pages?.prefetch(nodes: refs, of: self, minimumBytes: minimumBytes)
    }

    /// Pages of an encrypted image decrypted so far; nil for a plain image.
    public var decryptedPageCount: Int? { pages?.decryptedPages }

    public init(bytes: [UInt8]) { self.init(storage: ByteStorage(bytes: bytes)) }

    public static func mapping(path: String) throws(FormatError) -> ByteImage {
        ByteImage(storage: try Platform.mapReadOnly(path: path))
    }

    public var count: Int { bytes.count }

    /// Whether `[offset, offset + length)` lies inside the image.
    @inline(__always)
    public func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    public func u8(_ offset: Int) throws(FormatError) -> UInt8 {
        guard contains(offset, 1) else { throw .outOfBounds(offset: offset, length: 1, size: count) }
        try ensure(offset, 1)
        return bytes[offset]
    }

    public func u64(_ offset: Int) throws(FormatError) -> UInt64 {
        guard contains(offset, 8) else { throw .outOfBounds(offset: offset, length: 8, size: count) }
        try ensure(offset, 8)
        return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    }

    public func copy(_ offset: Int, _ length: Int) throws(FormatError) -> [UInt8] {
        guard contains(offset, length) else { throw .outOfBounds(offset: offset, length: length, size: count) }
        try ensure(offset, length)
        return Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]))
    }

    // Unchecked reads for code that has already checked the extent (Node).
    @inline(__always) func rawU8(_ offset: Int) -> UInt8 { bytes[offset] }
    @inline(__always) func rawU16(_ offset: Int) -> UInt16 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian
    }
    @inline(__always) func rawU32(_ offset: Int) -> UInt32 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
    }
    @inline(__always) func rawU64(_ offset: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    }
    @inline(__always) func rawSlice(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
    }

    /// Runs `body` over a checked range of the image without copying it.
    public func withBytes<R>(_ offset: Int, _ length: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard contains(offset, length) else { throw FormatError.outOfBounds(offset: offset, length: length, size: count) }
        try ensure(offset, length)
        return try body(rawSlice(offset, length))
    }
}
