#if canImport(Glibc)
import Glibc
#if os(Linux)
import CWriteback
#endif
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor, in the manner of swift-system's `FileDescriptor`: every call
/// retries a system call a signal interrupted (EINTR, here and nowhere else) and reports a
/// failure in one style, `FormatError.io` naming the path and what was being done. It is a
/// value, so closing is explicit (`close()`); whoever opens a descriptor closes it.
public struct FileDescriptor: Sendable, Equatable {
    public let rawValue: Int32
    /// The path it was opened with (or a name such as "standard output"), for messages.
    public let path: String

    public init(rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    public static let standardInput = FileDescriptor(rawValue: 0, path: "standard input")
    public static let standardOutput = FileDescriptor(rawValue: 1, path: "standard output")
    public static let standardError = FileDescriptor(rawValue: 2, path: "standard error")

    public enum Access: Sendable { case readOnly, writeOnly, readWrite }

    public struct Options: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let create = Options(rawValue: O_CREAT)
        /// With `create`: fail when the file exists (temporary files beside an output).
        public static let exclusive = Options(rawValue: O_EXCL)
        public static let truncate = Options(rawValue: O_TRUNC)
        public static let append = Options(rawValue: O_APPEND)
        public static let directory = Options(rawValue: O_DIRECTORY)
        public static let noControllingTerminal = Options(rawValue: O_NOCTTY)
    }

    /// Opens `path` (always close-on-exec: a pager or test child never inherits it).
    public static func open(_ path: String, _ access: Access, options: Options = [], permissions: UInt32 = 0o644,
                            action: String? = nil) throws(FormatError) -> FileDescriptor {
        let flags: Int32
        switch access {
        case .readOnly: flags = O_RDONLY
        case .writeOnly: flags = O_WRONLY
        case .readWrite: flags = O_RDWR
        }
        let fd = retryingInterrupts { Glibc.open(path, flags | options.rawValue | O_CLOEXEC, mode_t(permissions)) }
        if fd < 0 { throw .io(path: path, errno: errno, action: action ?? (options.contains(.create) ? "create" : "open")) }
        return FileDescriptor(rawValue: fd, path: path)
    }

    /// Closes the descriptor. A failing close can mean lost writes (NFS, quotas), so it is
    /// reported too.
    public func close() throws(FormatError) {
        // Not retried: after EINTR the descriptor state is unspecified on Linux and it is gone.
        if Glibc.close(rawValue) != 0 && errno != EINTR { throw .io(path: path, errno: errno, action: "close") }
    }

    /// Closes, ignoring failure (cleanup after another error).
    public func closeQuietly() { _ = Glibc.close(rawValue) }

    // MARK: reading

    /// Up to `count` bytes; empty at the end of the input.
    public func read(upTo count: Int = 1 << 16) throws(FormatError) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, n in
            let r = retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress, count) }
            if r < 0 { failure = errno }
            n = max(r, 0)
        }
        if failure != 0 { throw .io(path: path, errno: failure, action: "read") }
        return bytes
    }

    /// Everything to the end. A regular file's size is known up front, so its bytes are read
    /// straight into one buffer of that size (a 173 MB import used to spend a sixth of its
    /// time growing and copying the buffer); what the size did not announce (pipes, a file
    /// that grew) follows in chunks.
    public func readAll() throws(FormatError) -> [UInt8] {
        var st = stat()
        let expected = fstat(rawValue, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
        var failure: Int32 = 0
        var out = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            while count < expected {
                let n = retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress! + count, expected - count) }
                if n < 0 { failure = errno }
                if n <= 0 { break }
                count += n
            }
        }
        if failure != 0 { throw .io(path: path, errno: failure, action: "read") }
        while true {
            let chunk = try read(upTo: 1 << 20)
            if chunk.isEmpty { return out }
            out += chunk
        }
    }

    /// The size of the open file (fstat).
    public func size() throws(FormatError) -> Int {
        var st = stat()
        if fstat(rawValue, &st) != 0 { throw .io(path: path, errno: errno, action: "stat") }
        return Int(st.st_size)
    }

    // MARK: writing

    /// Writes all of `bytes` at the current position, resuming short writes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FormatError) {
        let code = writeAll(bytes)
        if code != 0 { throw .io(path: path, errno: code, action: "write") }
    }

    public func write(_ bytes: [UInt8]) throws(FormatError) {
        let code = bytes.withUnsafeBytes { writeAll($0) }
        if code != 0 { throw .io(path: path, errno: code, action: "write") }
    }

    /// Writes all of `bytes` at `offset` (pwrite).
    public func write(_ bytes: [UInt8], at offset: Int) throws(FormatError) {
        let code = writeAll(bytes, at: offset)
        if code != 0 { throw .io(path: path, errno: code, action: "write") }
    }

    /// Writes all of `bytes` at `offset` (pwrite), resuming short writes.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(FormatError) {
        let code = writeAll(bytes, at: offset)
        if code != 0 { throw .io(path: path, errno: code, action: "write") }
    }

    /// Asks the kernel to start writing `count` bytes from `offset` back to the disk now,
    /// without waiting for them (Linux `sync_file_range(SYNC_FILE_RANGE_WRITE)`): a writer that
    /// calls it on each finished stretch has most of its file on the disk by the time it
    /// fsyncs, so the fsync waits only for the last stretch. Nothing elsewhere. Durability
    /// still comes from `sync()` alone; a failure here shows there, so it is not reported.
    public func startWriteback(offset: Int, count: Int) {
        #if os(Linux)
        _ = retryingInterrupts { realmsh_start_writeback(rawValue, Int64(offset), Int64(count)) }
        #endif
    }

    /// Writes `buffers` back to back from `offset` on, with one `pwritev` per group of up to
    /// 64 buffers: a commit's run of adjacent nodes goes out without first being copied into
    /// one array (tens of megabytes for a million objects, and their page faults).
    public func write(_ buffers: [[UInt8]], at offset: Int) throws(FormatError) {
        let code = writeAll(buffers, at: offset)
        if code != 0 { throw .io(path: path, errno: code, action: "write") }
    }

    /// fsync: the bytes written so far are durable.
    public func sync() throws(FormatError) {
        if retryingInterrupts({ fsync(rawValue) }) != 0 { throw .io(path: path, errno: errno, action: "sync") }
    }

    /// Grows (or shrinks) the file to `size` bytes.
    public func resize(to size: Int) throws(FormatError) {
        if retryingInterrupts({ ftruncate(rawValue, off_t(size)) }) != 0 { throw .io(path: path, errno: errno, action: "resize") }
    }

    public func setPermissions(_ mode: UInt32) { _ = fchmod(rawValue, mode_t(mode)) }

    // MARK: advisory locks (Realm's session protocol, realm-format.md §15.3)

    /// `flock(LOCK_EX | LOCK_NB)` or `LOCK_SH | LOCK_NB`: true when taken, false when another
    /// open file holds a conflicting lock.
    public func tryLock(exclusive: Bool) throws(FormatError) -> Bool {
        if retryingInterrupts({ flock(rawValue, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) }) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw .io(path: path, errno: errno, action: "lock")
    }

    public func unlock() { _ = flock(rawValue, LOCK_UN) }

    // MARK: the loops (0 or the errno of the failing call, so errno stays for the caller)

    func writeAll(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        var done = 0
        while done < bytes.count {
            let n = retryingInterrupts { Glibc.write(rawValue, bytes.baseAddress! + done, bytes.count - done) }
            if n < 0 { return errno }
            done += n
        }
        return 0
    }

    func writeAll(_ bytes: [UInt8], at offset: Int) -> Int32 {
        bytes.withUnsafeBytes { writeAll($0, at: offset) }
    }

    func writeAll(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        var done = 0
        while done < buffer.count {
            let n = retryingInterrupts { pwrite(rawValue, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            done += n
        }
        return 0
    }

    func writeAll(_ buffers: [[UInt8]], at offset: Int) -> Int32 {
        var position = offset
        var first = 0
        while first < buffers.count {
            let group = buffers[first..<min(first + 64, buffers.count)]
            var vectors = [iovec]()
            vectors.reserveCapacity(group.count)
            let code = Self.withVectors(group, &vectors) { vectors in writeVectors(&vectors, at: position) }
            if code != 0 { return code }
            position += group.reduce(0) { $0 + $1.count }
            first += group.count
        }
        return 0
    }

    /// Calls `body` with an iovec per buffer, each pinned for the call (one nested
    /// `withUnsafeBytes` per buffer: at most 64 deep).
    private static func withVectors(_ buffers: ArraySlice<[UInt8]>, _ vectors: inout [iovec],
                                    _ body: (inout [iovec]) -> Int32) -> Int32 {
        guard let head = buffers.first else { return body(&vectors) }
        return head.withUnsafeBytes { bytes in
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
            return withVectors(buffers.dropFirst(), &vectors, body)
        }
    }

    /// `pwritev` until every vector is written (short writes resume where they stopped).
    private func writeVectors(_ vectors: inout [iovec], at offset: Int) -> Int32 {
        var index = 0, position = offset
        while index < vectors.count {
            if vectors[index].iov_len == 0 {
                index += 1
                continue
            }
            let n = vectors.withUnsafeBufferPointer { v in
                retryingInterrupts { pwritev(rawValue, v.baseAddress! + index, Int32(v.count - index), off_t(position)) }
            }
            if n < 0 { return errno }
            position += n
            var left = n
            while left > 0 && index < vectors.count {
                let length = vectors[index].iov_len
                if left >= length {
                    left -= length
                    index += 1
                } else {
                    vectors[index].iov_base = vectors[index].iov_base! + left
                    vectors[index].iov_len = length - left
                    left = 0
                }
            }
        }
        return 0
    }
}

/// Runs a system call again while a signal interrupts it (EINTR): the one retry loop of the
/// platform layer (both halves).
@inline(__always)
public func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
