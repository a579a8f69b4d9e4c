import RealmFormat

/// Where streamed output goes: a file descriptor, or memory (tests, `--format` conversions).
public protocol ByteSink: AnyObject {
    func write(_ bytes: [UInt8])
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
}

/// Collects output in memory.
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public func write(_ bytes: [UInt8]) { self.bytes += bytes }
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
