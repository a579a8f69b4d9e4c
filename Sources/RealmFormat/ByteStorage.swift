/// Owner of the logical bytes of a Realm file: a read-only memory map of a plain file, or a
/// heap buffer (a decrypted file, bytes built in a test). Nodes borrow from it; it lives as
/// long as any `ByteImage` refers to it.
public final class ByteStorage: @unchecked Sendable {
    // @unchecked: the buffer is immutable after init and freed only in deinit.
    let buffer: UnsafeRawBufferPointer
    private let isMapped: Bool

    init(mapped: UnsafeRawBufferPointer) {
        buffer = mapped
        isMapped = true
    }

    /// Copies `bytes` into storage owned by this object.
    public init(bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
        buffer = UnsafeRawBufferPointer(start: memory.baseAddress, count: bytes.count)
        isMapped = false
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
public struct ByteImage: @unchecked Sendable {
    let storage: ByteStorage
    let bytes: UnsafeRawBufferPointer

    public init(storage: ByteStorage) {
        self.storage = storage
        self.bytes = storage.buffer
    }

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
        return bytes[offset]
    }

    public func u64(_ offset: Int) throws(FormatError) -> UInt64 {
        guard contains(offset, 8) else { throw .outOfBounds(offset: offset, length: 8, size: count) }
        return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    }

    public func copy(_ offset: Int, _ length: Int) throws(FormatError) -> [UInt8] {
        guard contains(offset, length) else { throw .outOfBounds(offset: offset, length: length, size: count) }
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
        return try body(rawSlice(offset, length))
    }
}
