#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

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

    /// Writes `buffers` back to back from `offset` on, with one `pwritev` per group of up to
    /// 64 buffers: a commit's run of adjacent nodes goes out without first being copied into
    /// one array (tens of megabytes for a million objects, and their page faults).
    public static func writeAll(_ fd: Int32, buffers: [[UInt8]], at offset: Int) -> Bool {
        var position = offset
        var first = 0
        while first < buffers.count {
            let group = buffers[first..<min(first + 64, buffers.count)]
            var vectors = [iovec]()
            vectors.reserveCapacity(group.count)
            let ok = withVectors(group, &vectors) { vectors in writeVectors(fd, &vectors, at: position) }
            guard ok else { return false }
            position += group.reduce(0) { $0 + $1.count }
            first += group.count
        }
        return true
    }

    /// Calls `body` with an iovec per buffer, each pinned for the call (one nested
    /// `withUnsafeBytes` per buffer: at most 64 deep).
    private static func withVectors(_ buffers: ArraySlice<[UInt8]>, _ vectors: inout [iovec],
                                    _ body: (inout [iovec]) -> Bool) -> Bool {
        guard let head = buffers.first else { return body(&vectors) }
        return head.withUnsafeBytes { bytes in
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
            return withVectors(buffers.dropFirst(), &vectors, body)
        }
    }

    /// `pwritev` until every vector is written (short writes resume where they stopped).
    private static func writeVectors(_ fd: Int32, _ vectors: inout [iovec], at offset: Int) -> Bool {
        var index = 0, position = offset
        while index < vectors.count {
            if vectors[index].iov_len == 0 {
                index += 1
                continue
            }
            let n = vectors.withUnsafeBufferPointer { v in
                pwritev(fd, v.baseAddress! + index, Int32(v.count - index), off_t(position))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
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
        return true
    }

    /// Grows (or shrinks) the file to `size` bytes.
    public static func resize(_ fd: Int32, to size: Int) -> Bool { ftruncate(fd, off_t(size)) == 0 }

    public static func lastErrno() -> Int32 { errno }

    /// Everything on standard input.
    public static func readStandardInput() throws(FormatError) -> [UInt8] {
        guard let bytes = readAll(0) else { throw .io(path: "standard input", errno: errno, action: "read") }
        return bytes
    }

    /// The whole contents of `path` read as a stream (works for pipes and /dev/stdin too).
    public static func readFile(_ path: String) throws(FormatError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .io(path: path, errno: errno, action: "open") }
        defer { close(fd) }
        guard let bytes = readAll(fd) else { throw .io(path: path, errno: errno, action: "read") }
        return bytes
    }

    /// Reads to the end; nil on a read error (errno says which). A regular file's size is
    /// known up front, so its bytes are read straight into one buffer of that size (a
    /// 173 MB import used to spend a sixth of its time growing and copying the buffer).
    private static func readAll(_ fd: Int32) -> [UInt8]? {
        var st = stat()
        let expected = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
        var failed = false
        var out = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            while count < expected {
                let n = read(fd, buffer.baseAddress! + count, expected - count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = true }
                if n <= 0 { break }
                count += n
            }
        }
        if failed { return nil }
        // Whatever the size did not announce (pipes; a file that grew): in chunks.
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
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

// MARK: - Interactive shell: signals, terminals, processes, small files

extension Platform {
    /// Set by the SIGINT handler the interactive shell installs (Ctrl-C).
    private static let interruptReceived = Atomic<Bool>(false)
    /// Whether a Ctrl-C should also stop reads in progress (`Snapshot.node` checks it).
    private static let interruptsCancelReads = Atomic<Bool>(false)

    /// Catches SIGINT (without SA_RESTART, so a blocked `poll` returns): the shell decides what
    /// Ctrl-C cancels. The handler only sets an atomic flag.
    public static func installInterruptHandler() {
        _ = interruptReceived.load(ordering: .relaxed)      // initialise the globals outside the handler
        _ = interruptsCancelReads.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Platform.interruptReceived.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Whether Ctrl-C was pressed since the last `takeInterrupt`; clears the flag.
    public static func takeInterrupt() -> Bool { interruptReceived.exchange(false, ordering: .relaxed) }

    /// While on, a Ctrl-C makes every node read throw `FormatError.interrupted`.
    public static func setInterruptsCancelReads(_ on: Bool) { interruptsCancelReads.store(on, ordering: .relaxed) }

    /// True when a read should stop: Ctrl-C was pressed during a cancellable operation.
    @inline(__always)
    public static var readsCancelled: Bool {
        interruptsCancelReads.load(ordering: .relaxed) && interruptReceived.load(ordering: .relaxed)
    }

    public enum InputWait: Sendable { case ready, interrupted, closed, timedOut }

    /// Waits until `fd` can be read (or a signal arrives, or `milliseconds` pass; -1: forever).
    public static func waitForInput(_ fd: Int32, milliseconds: Int32 = -1) -> InputWait {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&p, 1, milliseconds)
        if n < 0 { return errno == EINTR ? .interrupted : .closed }
        if n == 0 { return .timedOut }
        if p.revents & Int16(POLLIN) != 0 { return .ready }
        return .closed
    }

    /// Up to `count` bytes from `fd`; nil at end of input or on an error (EINTR is retried).
    public static func readSome(_ fd: Int32, count: Int = 1 << 16) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: count)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            return Array(chunk[0..<n])
        }
    }

    /// Rows of the terminal on `fd`, if it is one.
    public static func terminalRows(_ fd: Int32) -> Int? {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return nil
    }

    public static func setTerminalSize(_ fd: Int32, rows: Int, columns: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(fd, UInt(TIOCSWINSZ), &size)
    }

    /// A new pseudo-terminal: the controlling side's descriptor and the path of the terminal
    /// side. (Linux: /dev/ptmx, unlocked with TIOCSPTLCK, numbered by TIOCGPTN; these ioctls
    /// and posix_openpt are not visible through the Glibc module.)
    public static func openPseudoTerminal() -> (controller: Int32, terminalPath: String)? {
        let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if fd < 0 { return nil }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(fd, UInt(0x4004_5431), &unlock) == 0,      // TIOCSPTLCK
              ioctl(fd, UInt(0x8004_5430), &number) == 0 else { // TIOCGPTN
            close(fd)
            return nil
        }
        return (fd, "/dev/pts/\(number)")
    }

    /// Starts `path` with `arguments` (argv[0] included). `environment` nil inherits ours.
    /// `stdin`: a descriptor to use as standard input. `terminal`: a terminal path that becomes
    /// the child's standard streams and controlling terminal (in a new session).
    public static func spawn(_ path: String, arguments: [String], environment: [String]? = nil,
                             stdin: Int32? = nil, terminal: String? = nil) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETSIGDEF)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        if let terminal {
            flags |= 0x80                                       // POSIX_SPAWN_SETSID (glibc)
            posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
        } else if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for p in argv { free(p) }
            for p in envp ?? [] { free(p) }
        }
        let status: Int32
        if let envp {
            status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        } else {
            status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        return status == 0 ? pid : nil
    }

    /// A pipe: (read end, write end), both close-on-exec.
    public static func makePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    public static func sendSignal(_ pid: Int32, _ signal: Int32) { kill(pid, signal) }

    public static var interruptSignal: Int32 { SIGINT }
    public static var killSignal: Int32 { SIGKILL }

    /// The exit status of child `pid` (128 + signal when killed); nil if it is still running
    /// and `block` is false. EINTR is retried.
    public static func waitForExit(_ pid: Int32, block: Bool = true) -> Int32? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, block ? 0 : WNOHANG)
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { return r == 0 ? nil : -1 }
            break
        }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }  // WIFEXITED / WEXITSTATUS
        return 128 + (status & 0x7f)                            // WTERMSIG
    }

    /// Creates `path` and its missing parents with `mode`; true when it exists as a directory.
    public static func makeDirectories(_ path: String, mode: UInt32) -> Bool {
        if isDirectory(path) { return true }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            _ = makeDirectories(String(path[..<slash]), mode: mode)
        }
        if mkdir(path, mode_t(mode)) == 0 { _ = chmod(path, mode_t(mode)) }
        return isDirectory(path)
    }

    public static func setMode(_ path: String, _ mode: UInt32) { _ = chmod(path, mode_t(mode)) }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The entries of a directory (without . and ..), each with whether it is a directory.
    public static func listDirectory(_ path: String) -> [(name: String, isDirectory: Bool)] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out = [(name: String, isDirectory: Bool)]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let full = path == "/" ? "/" + name : path + "/" + name
            out.append((name, isDirectory(full)))
        }
        return out
    }

    /// Opens `path` for appending, creating it with `mode`; the mode is applied to an existing
    /// file too.
    public static func openForAppend(_ path: String, mode: UInt32) -> Int32? {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode_t(mode))
        if fd < 0 { return nil }
        _ = fchmod(fd, mode_t(mode))
        return fd
    }

    /// The whole content of a (small) file, or nil.
    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var out = [UInt8]()
        while let chunk = readSome(fd) { out += chunk }
        return out
    }

    /// Size and modification time, to notice that a file changed.
    public static func modificationStamp(_ path: String) -> [Int]? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return [Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec), Int(st.st_ino)]
    }

    /// The home directory: $HOME, else the password database.
    public static func homeDirectory() -> String? {
        if let home = environment("HOME"), !home.isEmpty { return home }
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// The first executable called `name` on $PATH.
    public static func findExecutable(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for dir in (environment("PATH") ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = dir + "/" + name
            if access(candidate, X_OK) == 0 && !isDirectory(candidate) { return candidate }
        }
        return nil
    }
}
