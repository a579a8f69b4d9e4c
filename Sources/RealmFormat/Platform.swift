#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that talks to libc: files, memory maps, locks, terminals.
/// Everything above this file sees only safe, bounds-checked types.
public enum Platform {
    /// The bytes of a file, memory-mapped read-only (`MAP_PRIVATE`, `PROT_READ`), so opening
    /// a large file costs nothing until its pages are touched and nothing is ever written back.
    static func mapReadOnly(path: String) throws(FormatError) -> ByteStorage {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw FormatError.io(path: path, errno: errno, action: "open") }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 { throw FormatError.io(path: path, errno: errno, action: "stat") }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw FormatError.io(path: path, errno: EISDIR, action: "open") }
        let size = Int(st.st_size)
        if size == 0 { return ByteStorage(bytes: [UInt8]()) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw FormatError.io(path: path, errno: errno, action: "map")
        }
        return ByteStorage(mapped: UnsafeRawBufferPointer(start: base, count: size))
    }

    static func unmap(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), buffer.count) }
    }

    /// Whether another process has `lockPath` open through Realm's session protocol
    /// (realm-format.md §15.3): every participant holds a shared `flock` on the `.lock` file, so
    /// an exclusive non-blocking attempt fails while one is active. The file is opened
    /// read-only and never created, and the probe lock is released at once: nothing is written.
    /// Returns nil when there is no lock file (no session has ever been started).
    public static func isLockHeld(lockPath: String) -> Bool? {
        let fd = open(lockPath, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// Takes Realm's session lock for a writer (§15.3): opens (creating if needed) `lockPath`
    /// and `flock(LOCK_EX | LOCK_NB)`. Returns the descriptor holding the lock, or nil when
    /// another process holds it (an app, a simulator, another realmsh).
    public static func lockExclusively(lockPath: String) -> Result<Int32?, FormatError> {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { return .failure(.io(path: lockPath, errno: errno, action: "open")) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            return .success(nil)
        }
        return .success(fd)
    }

    /// Releases a session lock taken with `lockExclusively`, truncating the lock file first so
    /// the next Realm process re-initializes its shared state (§15.3).
    public static func unlock(_ fd: Int32) {
        _ = ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// Opens an existing file for reading and writing.
    public static func openReadWrite(_ path: String) -> Result<Int32, FormatError> {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        if fd < 0 { return .failure(.io(path: path, errno: errno, action: "open for writing")) }
        return .success(fd)
    }

    /// Writes all of `bytes` at `offset`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
            }
            return true
        }
    }

    /// Grows (or shrinks) the file to `size` bytes.
    public static func resize(_ fd: Int32, to size: Int) -> Bool { ftruncate(fd, off_t(size)) == 0 }

    public static func lastErrno() -> Int32 { errno }

    /// Everything on standard input.
    public static func readStandardInput() -> [UInt8] { readAll(0) }

    /// The whole contents of `path` read as a stream (works for pipes and /dev/stdin too).
    public static func readFile(_ path: String) throws(FormatError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .io(path: path, errno: errno, action: "open") }
        defer { close(fd) }
        return readAll(fd)
    }

    private static func readAll(_ fd: Int32) -> [UInt8] {
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    /// Whether `fd` is a terminal (colour, tables and prompts only then).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Columns of the terminal on `fd`, if it is one.
    public static func terminalColumns(_ fd: Int32) -> Int? {
        var size = winsize()
        #if canImport(Darwin)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = UInt(TIOCGWINSZ)
        #endif
        if ioctl(fd, request, &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }

    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Writes all of `bytes` to `fd`, retrying on short writes and EINTR.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Creates (or truncates) `path` for writing; returns the descriptor or the errno.
    public static func createFile(_ path: String, mode: UInt32 = 0o644) -> Result<Int32, FormatError> {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        if fd < 0 { return .failure(.io(path: path, errno: errno, action: "create")) }
        return .success(fd)
    }

    public static func closeFile(_ fd: Int32) -> Bool { close(fd) == 0 }

    /// Creates `path`, failing if it exists (for temporary files next to an output).
    public static func createNew(_ path: String, mode: UInt32 = 0o644) -> Result<Int32, FormatError> {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        if fd < 0 { return .failure(.io(path: path, errno: errno, action: "create")) }
        return .success(fd)
    }

    public static func sync(_ fd: Int32) -> Bool { fsync(fd) == 0 }

    /// Atomically replaces `to` with `from` (same file system).
    public static func rename(_ from: String, _ to: String) -> FormatError? {
        Glibc.rename(from, to) == 0 ? nil : .io(path: to, errno: errno, action: "rename onto")
    }

    public static func remove(_ path: String) { unlink(path) }

    /// fsyncs the directory holding `path`, so a rename in it is durable.
    public static func syncDirectory(of path: String) {
        let dir = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let fd = open(dir.isEmpty ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    public static func processID() -> Int32 { getpid() }

    public static func exitProcess(_ status: Int32) -> Never { exit(status) }

    /// Dies at once, as a crash or `kill -9` would (crash-safety failpoints).
    public static func killSelf() -> Never {
        kill(getpid(), SIGKILL)
        exit(137)
    }

    /// Writing to a closed pipe (`realmsh export … | head`) returns EPIPE instead of killing us.
    public static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }

    /// Size and modification state of a path, or nil when it does not exist.
    public static func fileSize(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    public static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Text of an errno value.
    public static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    /// Monotonic clock in seconds, for timers and benchmarks.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
