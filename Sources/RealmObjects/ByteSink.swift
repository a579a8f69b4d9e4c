import RealmFormat

/// Where streamed output goes: a file descriptor, or memory (tests, `--format` conversions).
public protocol ByteSink: AnyObject {
    func write(_ bytes: [UInt8])
    /// Bytes lent for the call (the JSON emitter's buffer); by default copied into an array.
    func write(buffer: UnsafeBufferPointer<UInt8>)
}

extension ByteSink {
    public func write(buffer: UnsafeBufferPointer<UInt8>) { write(Array(buffer)) }
}

/// Writes to a file descriptor; remembers the first failure (a closed pipe, a full disk).
public final class FileSink: ByteSink {
    public let descriptor: FileDescriptor
    public private(set) var failed = false

    public init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    public func write(_ bytes: [UInt8]) {
        guard !failed else { return }
        failed = (try? descriptor.write(bytes)) == nil
    }

    public func write(buffer: UnsafeBufferPointer<UInt8>) {
        guard !failed else { return }
        failed = (try? descriptor.write(UnsafeRawBufferPointer(buffer))) == nil
    }
}

/// Collects output in memory.
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public func write(_ bytes: [UInt8]) { self.bytes += bytes }
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
