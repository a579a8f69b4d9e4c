#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RealmFormat

/// Child processes (the pager, the tests' realmsh on a pseudo-terminal) and the process's own
/// exit.
extension Platform {
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
        // Signals we ignore (SIGPIPE) would stay ignored in the child; caught ones are reset
        // by exec anyway. The child gets the defaults.
        var flags = Int32(POSIX_SPAWN_SETSIGDEF)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, s) }
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
    public static var terminateSignal: Int32 { SIGTERM }
    public static var killSignal: Int32 { SIGKILL }

    /// The exit status of child `pid` (128 + signal when killed); nil if it is still running
    /// and `block` is false. EINTR is retried.
    public static func waitForExit(_ pid: Int32, block: Bool = true) -> Int32? {
        var status: Int32 = 0
        let r = retryingInterrupts { waitpid(pid, &status, block ? 0 : WNOHANG) }
        if r <= 0 { return r == 0 ? nil : -1 }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }  // WIFEXITED / WEXITSTATUS
        return 128 + (status & 0x7f)                            // WTERMSIG
    }

    public static func exitProcess(_ status: Int32) -> Never { exit(status) }

    /// Writing to a closed pipe (`realmsh export … | head`) returns EPIPE instead of killing us.
    public static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }
}
