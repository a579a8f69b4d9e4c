#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The storage half of the platform layer: the libc calls that files, memory maps and Realm's
/// lock file need (descriptors themselves are `FileDescriptor`). Everything above sees only
/// safe, bounds-checked types. The terminal and process half (terminals, signals, child
/// processes) belongs to the shell: RealmShell's `Platform/` folder.
public enum Platform {
    /// The bytes of a file, memory-mapped read-only (`MAP_PRIVATE`, `PROT_READ`), so opening
    /// a large file costs nothing until its pages are touched and nothing is ever written back.
    static func mapReadOnly(path: String) throws(FormatError) -> ByteStorage {
        let file = try FileDescriptor.open(path, .readOnly)
        defer { file.closeQuietly() }
        var st = stat()
        if fstat(file.rawValue, &st) != 0 { throw FormatError.io(path: path, errno: errno, action: "stat") }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw FormatError.io(path: path, errno: EISDIR, action: "open") }
        let size = Int(st.st_size)
        if size == 0 { return ByteStorage(bytes: [UInt8]()) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.rawValue, 0), base != MAP_FAILED else {
            throw FormatError.io(path: path, errno: errno, action: "map")
        }
        return ByteStorage(mapped: UnsafeRawBufferPointer(start: base, count: size))
    }

    /// `size` bytes of zero-filled anonymous memory, reserved but not committed: pages cost
    /// memory only once written (an encrypted file's logical image, `DecryptedPages`). Freed by
    /// `unmap`. Nil when the mapping fails.
    ///
    /// The memory is left out of core dumps (`MADV_DONTDUMP`): it holds decrypted pages, and a
    /// crash must not write them to a file.
    static func reserveZeroed(_ size: Int) -> UnsafeMutableRawBufferPointer? {
        guard size > 0, let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              base != MAP_FAILED else { return nil }
        #if os(Linux)
        _ = madvise(base, size, 16)                   // MADV_DONTDUMP
        #endif
        return UnsafeMutableRawBufferPointer(start: base, count: size)
    }

    /// Commits the pages of `range` (inside a `reserveZeroed` mapping) in one call, so that
    /// writing them afterwards takes no page fault each (Linux ≥ 5.14 `MADV_POPULATE_WRITE`;
    /// pages already present are kept). Where the kernel cannot, nothing happens and the writes
    /// fault as before.
    static func populate(_ range: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard let base = range.baseAddress, range.count > 0 else { return }
        _ = madvise(base, range.count, 23)            // MADV_POPULATE_WRITE
        #endif
    }

    /// Runs `body(0)` on this thread and `body(1)` on a thread started for it, and returns when
    /// both have. If no thread can be started, runs both here, one after the other.
    static func onTwoThreads(_ body: @Sendable (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            let work = Unmanaged.passRetained(ThreadWork(body))
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { context in
                let work = Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue()
                work.body(1)
                return nil
            }, work.toOpaque()) == 0
            guard started else {
                work.release()
                body(0)
                body(1)
                return
            }
            body(0)
            pthread_join(thread, nil)
        }
    }

    /// Lets another thread run (a page another thread is decrypting, `DecryptedPages`).
    static func yieldThread() { sched_yield() }

    static func unmap(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), buffer.count) }
    }

    // MARK: Realm's session lock (realm-format.md §15.3)

    /// Whether another process has `lockPath` open through Realm's session protocol: every
    /// participant holds a shared `flock` on the `.lock` file (§15.3). Returns nil when there
    /// is no lock file (no session has ever been started).
    ///
    /// Linux lists every flock in `/proc/locks` (holder's pid, device and inode), so the
    /// holders are read there without taking any lock (as the probe below, this counts a lock
    /// of this process's too, taken through another descriptor): a probe that took an exclusive lock,
    /// even for an instant, would make a writer starting at that instant — an app, or realmsh's
    /// own writer — believe the file is busy. Only without `/proc` does it fall back to that
    /// probe (an exclusive non-blocking attempt, released at once).
    public static func isLockHeld(lockPath: String) -> Bool? {
        guard let identity = fileIdentity(lockPath) else { return nil }
        if let holders = flockHolders(of: identity) { return !holders.isEmpty }
        guard let file = try? FileDescriptor.open(lockPath, .readOnly) else { return nil }
        defer { file.closeQuietly() }
        guard let taken = try? file.tryLock(exclusive: true) else { return nil }
        if taken { file.unlock() }
        return !taken
    }

    /// The pids holding an flock on the file `identity` names, from `/proc/locks`
    /// (`N: FLOCK ADVISORY READ|WRITE PID MAJ:MIN:INODE START END`, device numbers in hex;
    /// waiters' lines, marked `->`, hold nothing); nil when `/proc/locks` cannot be read.
    static func flockHolders(of identity: FileIdentity) -> [Int32]? {
        guard let file = try? FileDescriptor.open("/proc/locks", .readOnly), let bytes = try? file.readAll() else { return nil }
        file.closeQuietly()
        let dev = identity.device
        let major = ((dev >> 8) & 0xFFF) | ((dev >> 32) & ~0xFFF)
        let minor = (dev & 0xFF) | ((dev >> 12) & ~0xFF)
        var holders = [Int32]()
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let where_ = fields[5].split(separator: ":")
            guard where_.count == 3, let pid = Int32(fields[4]),
                  UInt64(where_[0], radix: 16) == major, UInt64(where_[1], radix: 16) == minor,
                  UInt64(where_[2]) == identity.inode else { continue }
            holders.append(pid)
        }
        return holders
    }

    /// Takes Realm's session lock for a writer: opens (creating if needed) `lockPath` and
    /// `flock(LOCK_EX | LOCK_NB)`. Returns the descriptor holding the lock, or nil when another
    /// process holds it (an app, a simulator, another realmsh).
    public static func lockSession(lockPath: String) throws(FormatError) -> FileDescriptor? {
        let file = try FileDescriptor.open(lockPath, .readWrite, options: .create)
        do {
            if try file.tryLock(exclusive: true) { return file }
        } catch {
            file.closeQuietly()
            throw error
        }
        file.closeQuietly()
        return nil
    }

    /// Releases a session lock taken with `lockSession`, truncating the lock file first so
    /// the next Realm process re-initializes its shared state (§15.3).
    public static func unlockSession(_ lock: FileDescriptor) {
        try? lock.resize(to: 0)
        lock.unlock()
        lock.closeQuietly()
    }

    // MARK: whole files

    /// Everything on standard input.
    public static func readStandardInput() throws(FormatError) -> [UInt8] { try FileDescriptor.standardInput.readAll() }

    /// The whole contents of `path` read as a stream (works for pipes and /dev/stdin too).
    public static func readFile(_ path: String) throws(FormatError) -> [UInt8] {
        let file = try FileDescriptor.open(path, .readOnly)
        defer { file.closeQuietly() }
        return try file.readAll()
    }

    /// Creates (or truncates) `path` for writing.
    public static func createFile(_ path: String, mode: UInt32 = 0o644) throws(FormatError) -> FileDescriptor {
        try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: mode)
    }

    /// Creates `path`, failing if it exists (for temporary files next to an output).
    public static func createNew(_ path: String, mode: UInt32 = 0o644) throws(FormatError) -> FileDescriptor {
        try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive], permissions: mode)
    }

    /// Atomically replaces `to` with `from` (same file system).
    public static func rename(_ from: String, _ to: String) throws(FormatError) {
        if Glibc.rename(from, to) != 0 { throw .io(path: to, errno: errno, action: "rename onto") }
    }

    public static func remove(_ path: String) { unlink(path) }

    /// fsyncs the directory holding `path`, so a rename in it is durable.
    public static func syncDirectory(of path: String) {
        let dir = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        guard let directory = try? FileDescriptor.open(dir.isEmpty ? "/" : dir, .readOnly, options: .directory) else { return }
        try? directory.sync()
        directory.closeQuietly()
    }

    /// The size of the file at `path`, or nil when it does not exist.
    public static func fileSize(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    public static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Size, modification time and inode, to notice that a file changed (another process
    /// committed to it: the shell's and the browser's refresh).
    public static func modificationStamp(_ path: String) -> [Int]? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return [Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec), Int(st.st_ino)]
    }

    /// Which file `path` names (device and inode, after following symlinks), or nil when it
    /// names none: two paths name the same file exactly when their identities are equal,
    /// whatever their spelling (`./x`, a symlink, a hard link).
    public static func fileIdentity(_ path: String) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// `path` with symlinks resolved (realpath), or nil when it does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: the process

    /// Text of an errno value.
    public static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    public static func processID() -> Int32 { getpid() }

    /// Monotonic clock in seconds, for timers and benchmarks.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    #if REALMSH_FAILPOINTS
    /// Dies at once, as a crash or `kill -9` would (crash-safety failpoints, test builds only).
    static func killSelf() -> Never {
        kill(getpid(), SIGKILL)
        exit(137)
    }
    #endif
}

/// The device and inode of a file (`Platform.fileIdentity`).
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
}

// MARK: - WriteTransaction's calls

// WriteTransaction still keeps raw descriptors and checks Bool results; these wrappers keep
// its code unchanged (the write path is being changed on another branch) and go through
// `FileDescriptor`, so EINTR and short writes are handled in one place. errno is left as the
// failing call set it, for `lastErrno()`.
extension Platform {
    public static func lockExclusively(lockPath: String) -> Result<Int32?, FormatError> {
        do throws(FormatError) { return .success(try lockSession(lockPath: lockPath)?.rawValue) } catch { return .failure(error) }
    }

    public static func unlock(_ fd: Int32) { unlockSession(FileDescriptor(rawValue: fd, path: "lock file")) }

    public static func openReadWrite(_ path: String) -> Result<Int32, FormatError> {
        do throws(FormatError) { return .success(try FileDescriptor.open(path, .readWrite, action: "open for writing").rawValue) } catch {
            return .failure(error)
        }
    }

    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Bool {
        FileDescriptor(rawValue: fd, path: "").writeAll(bytes, at: offset) == 0
    }

    public static func writeAll(_ fd: Int32, buffers: [[UInt8]], at offset: Int) -> Bool {
        FileDescriptor(rawValue: fd, path: "").writeAll(buffers, at: offset) == 0
    }

    public static func sync(_ fd: Int32) -> Bool { retryingInterrupts { fsync(fd) } == 0 }

    /// `FileDescriptor.startWriteback` for a raw descriptor: a hint, never a failure.
    public static func startWriteback(_ fd: Int32, offset: Int, count: Int) {
        FileDescriptor(rawValue: fd, path: "").startWriteback(offset: offset, count: count)
    }

    public static func resize(_ fd: Int32, to size: Int) -> Bool { retryingInterrupts { ftruncate(fd, off_t(size)) } == 0 }

    public static func closeFile(_ fd: Int32) -> Bool { close(fd) == 0 }

    public static func lastErrno() -> Int32 { errno }
}

/// The work `Platform.onTwoThreads` hands its second thread.
private final class ThreadWork: @unchecked Sendable {
    // @unchecked: `body` is Sendable; it is called once, on the started thread.
    let body: @Sendable (Int) -> Void
    init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }
}
