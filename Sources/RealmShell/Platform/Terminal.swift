#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CTerminal
import RealmFormat

/// The terminal half of the platform layer (the storage half is RealmFormat's `Platform`):
/// what the shell asks of terminals — is this one, how large is it, waiting for a key — and
/// the pseudo-terminals the tests drive it through.
extension Platform {
    /// Whether `fd` is a terminal (colour, tables and prompts only then).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Columns of the terminal on `fd`, if it is one.
    public static func terminalColumns(_ fd: Int32) -> Int? {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }

    /// Rows of the terminal on `fd`, if it is one.
    public static func terminalRows(_ fd: Int32) -> Int? {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return nil
    }

    /// Turns the terminal's echo on `fd` off or on (a key typed at a prompt); false when `fd`
    /// is not a terminal.
    @discardableResult
    public static func setEcho(_ fd: Int32, _ on: Bool) -> Bool {
        var attributes = termios()
        guard tcgetattr(fd, &attributes) == 0 else { return false }
        if on { attributes.c_lflag |= tcflag_t(ECHO) } else { attributes.c_lflag &= ~tcflag_t(ECHO) }
        return tcsetattr(fd, TCSAFLUSH, &attributes) == 0
    }

    public static func setTerminalSize(_ fd: Int32, rows: Int, columns: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(fd, UInt(TIOCSWINSZ), &size)
    }

    public enum InputWait: Sendable { case ready, interrupted, closed, timedOut }

    /// Waits until `fd` can be read (or a signal arrives, or `milliseconds` pass; -1: forever).
    /// A signal ends the wait (`.interrupted`) rather than being retried: that is how Ctrl-C
    /// reaches the line reader.
    public static func waitForInput(_ fd: Int32, milliseconds: Int32 = -1) -> InputWait {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&p, 1, milliseconds)
        if n < 0 { return errno == EINTR ? .interrupted : .closed }
        if n == 0 { return .timedOut }
        if p.revents & Int16(POLLIN) != 0 { return .ready }
        return .closed
    }

    /// Up to `count` bytes from `fd`; nil at end of input or on an error.
    public static func readSome(_ fd: Int32, count: Int = 1 << 16) -> [UInt8]? {
        guard let bytes = try? FileDescriptor(rawValue: fd, path: "input").read(upTo: count), !bytes.isEmpty else { return nil }
        return bytes
    }

    /// Writes all of `text` to `fd` (the terminal, a pager's pipe); false when it failed.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        (try? FileDescriptor(rawValue: fd, path: "output").write(Array(text.utf8))) != nil
    }

    /// A new pseudo-terminal: the controlling side's descriptor and the path of the terminal
    /// side. (Linux: /dev/ptmx, unlocked with TIOCSPTLCK, numbered by TIOCGPTN; these ioctls
    /// and posix_openpt are not visible through the Glibc module.)
    public static func openPseudoTerminal() -> (controller: Int32, terminalPath: String)? {
        guard let ptmx = try? FileDescriptor.open("/dev/ptmx", .readWrite, options: .noControllingTerminal) else { return nil }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(ptmx.rawValue, UInt(0x4004_5431), &unlock) == 0,      // TIOCSPTLCK
              ioctl(ptmx.rawValue, UInt(0x8004_5430), &number) == 0 else { // TIOCGPTN
            ptmx.closeQuietly()
            return nil
        }
        return (ptmx.rawValue, "/dev/pts/\(number)")
    }

    // MARK: character widths

    /// LC_CTYPE from the environment when it is UTF-8, else C.UTF-8: the shell's output is
    /// UTF-8 whatever the environment says, and wcwidth (like readline's editing of non-ASCII
    /// text) knows character widths only in a UTF-8 locale. Set once, before readline starts.
    private static let utf8CharacterLocale: Bool = {
        if let name = setlocale(LC_CTYPE, ""), isUTF8(name) { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "C.utf8") != nil
    }()

    /// Whether a locale name says UTF-8 ("utf-8", "UTF8": any case, hyphens ignored). In bytes:
    /// every command runs this first, and String's `lowercased`/`contains` cost a process
    /// start ~0.3 ms of generic set-up.
    static func isUTF8(_ name: UnsafePointer<CChar>) -> Bool {
        var folded = [UInt8]()
        var p = name
        while p.pointee != 0 {
            let c = UInt8(bitPattern: p.pointee)
            if c != UInt8(ascii: "-") { folded.append(c | (c >= 0x41 && c <= 0x5A ? 0x20 : 0)) }
            p += 1
        }
        let utf8: [UInt8] = [0x75, 0x74, 0x66, 0x38]   // "utf8"
        guard folded.count >= utf8.count else { return false }
        return (0...(folded.count - utf8.count)).contains { folded[$0..<($0 + utf8.count)].elementsEqual(utf8) }
    }

    /// Makes the character locale UTF-8 (see `utf8CharacterLocale`); main calls it first.
    public static func useUTF8CharacterLocale() { _ = utf8CharacterLocale }

    /// The columns `text` takes on a terminal: wcwidth of each character (East Asian wide
    /// characters and emoji take two, combining marks none), as DuckDB measures its cells.
    public static func displayWidth(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + displayWidth($1) }
    }

    /// The columns one character (a grapheme cluster) takes: its first scalar's width (the
    /// rest are combining marks, joiners and modifiers drawn within it), two for a cluster
    /// asking for emoji presentation (U+FE0F) or a flag; unprintable scalars count as one.
    public static func displayWidth(_ character: Character) -> Int {
        if let a = character.asciiValue { return a < 0x20 || a == 0x7F ? 0 : 1 }
        _ = utf8CharacterLocale
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        var width = Int(realmsh_wcwidth(first.value))
        if width < 0 { width = 1 }
        if width == 1, scalars.contains(where: { $0.value == 0xFE0F }) || (0x1F1E6...0x1F1FF).contains(first.value) { width = 2 }
        return width
    }
}
