#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CNcurses

/// The terminal while the browser runs, and every C call the browser makes: ncurses (the
/// wide-character build, so CJK and emoji take their real width), the terminal modes saved
/// before and restored after, the signal handlers that restore them when the process dies, and
/// the character widths (`wcwidth`) the layout measures text with.
///
/// The screen is drawn from a `Frame` (plain Swift, made by the view model); keys come back as
/// `Key`s. Nothing else in the browser knows about ncurses.
final class Terminal {
    enum Failure: Error {
        case notATerminal
        case cannotStart(String)
        var message: String {
            switch self {
            case .notATerminal: return "browse needs a terminal (standard input and output)"
            case let .cannotStart(term): return "cannot start the screen for TERM=\(term) (a terminal that places the cursor is needed)"
            }
        }
    }

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let input: UnsafeMutablePointer<FILE>
    private let output: UnsafeMutablePointer<FILE>
    /// Colour pairs are used (a terminal with colours, NO_COLOR unset).
    let usesColor: Bool
    private var ended = false

    /// Starts the full screen on standard input and output: raw keys (Ctrl-C and Ctrl-Z arrive
    /// as keys), no echo, keypad and mouse reporting, the cursor hidden.
    init(color: Bool) throws(Failure) {
        guard isatty(0) == 1, isatty(1) == 1 else { throw .notATerminal }
        Self.prepareLocale()
        guard let input = fdopen(0, "r"), let output = fdopen(1, "w") else { throw .notATerminal }
        TerminalRestore.save(fd: 1)
        // Ours before ncurses starts: it installs handlers of its own only where it finds the
        // default (and its own end the process with exit status 1 rather than by the signal).
        TerminalRestore.install()
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard let screen = newterm(nil, output, input) else {
            TerminalRestore.uninstall()
            throw .cannotStart(term)
        }
        set_term(screen)
        // A terminal that cannot place the cursor (TERM=dumb) would draw garbage.
        guard let window = realmsh_nc_screen(), let cup = tigetstr("cup"), Int(bitPattern: cup) != -1 else {
            endwin()
            delscreen(screen)
            TerminalRestore.uninstall()
            throw .cannotStart(term)
        }
        self.input = input
        self.output = output
        self.screen = screen
        self.window = window
        raw()
        noecho()
        nonl()
        keypad(window, true)
        set_escdelay(25)
        curs_set(0)
        mouseinterval(0)
        mousemask(realmsh_nc_wheel_up() | realmsh_nc_wheel_down() | realmsh_nc_click() | realmsh_nc_double_click(), nil)
        var colors = false
        if color && has_colors() {
            start_color()
            use_default_colors()
            for (pair, foreground, background) in Self.pairs { init_pair(pair, foreground, background) }
            colors = true
        }
        usesColor = colors
        TerminalRestore.arm(Self.restoreSequence())
    }

    deinit { end() }

    /// Leaves the full screen: the terminal's modes, screen and cursor as they were.
    func end() {
        guard !ended else { return }
        ended = true
        endwin()
        delscreen(screen)
        fflush(output)
        TerminalRestore.disarm()
        TerminalRestore.uninstall()
    }

    /// Rows and columns.
    var size: (rows: Int, columns: Int) { (Int(getmaxy(window)), Int(getmaxx(window))) }

    // MARK: keys

    /// The next key, or nil when none came within `milliseconds`.
    func read(milliseconds: Int32) -> Key? {
        wtimeout(window, milliseconds)
        var c: wint_t = 0
        let status = wget_wch(window, &c)
        if status == ERR { return nil }
        if status == KEY_CODE_YES { return functionKey(Int32(c)) }
        return Key.fromCharacter(UInt32(c))
    }

    private func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            let row = Int(event.y), column = Int(event.x)
            if event.bstate & realmsh_nc_wheel_up() != 0 { return .mouse(.init(kind: .wheelUp, row: row, column: column)) }
            if event.bstate & realmsh_nc_wheel_down() != 0 { return .mouse(.init(kind: .wheelDown, row: row, column: column)) }
            if event.bstate & realmsh_nc_double_click() != 0 { return .mouse(.init(kind: .doubleClick, row: row, column: column)) }
            if event.bstate & realmsh_nc_click() != 0 { return .mouse(.init(kind: .click, row: row, column: column)) }
            return nil
        default:
            return nil
        }
    }

    // MARK: drawing

    /// Draws a frame: every line from the left edge, the rest of each line cleared; the cursor
    /// shown where the frame puts it (an input line), hidden otherwise.
    func draw(_ frame: Frame) {
        let (rows, columns) = size
        werase(window)
        for (y, line) in frame.lines.prefix(rows).enumerated() {
            wmove(window, Int32(y), 0)
            var x = 0
            for span in line.spans {
                guard x < columns else { break }
                let (attrs, pair) = attributes(span.style)
                wattr_set(window, attrs, pair, nil)
                var text = span.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                // The last cell of the screen is written too; ncurses reports the cursor that
                // cannot move past it as an error, which changes nothing on the screen.
                text.withUnsafeMutableBufferPointer { buffer in
                    _ = waddnwstr(window, buffer.baseAddress, Int32(buffer.count))
                }
                x += TextWidth.of(span.text)
            }
        }
        wattr_set(window, 0, 0, nil)
        if let cursor = frame.cursor, cursor.row < rows, cursor.column < columns {
            wmove(window, Int32(cursor.row), Int32(cursor.column))
            curs_set(1)
        } else {
            curs_set(0)
        }
        wrefresh(window)
    }

    /// Ctrl-Z: the shell's screen back until the process is continued (`fg`), then ours.
    func suspend() {
        endwin()
        TerminalRestore.disarm()
        kill(getpid(), SIGTSTP)
        TerminalRestore.arm(Self.restoreSequence())
        wrefresh(window)
    }

    // MARK: styles

    /// Colour pairs by tone: foreground on the terminal's own background (-1).
    private static let pairs: [(Int16, Int16, Int16)] = [
        (1, Int16(COLOR_WHITE), Int16(COLOR_BLUE)),     // title
        (2, Int16(COLOR_CYAN), -1),                      // accent: headers, focus
        (3, Int16(COLOR_BLUE), -1),                      // links
        (4, Int16(COLOR_RED), -1),                       // errors
        (5, Int16(COLOR_GREEN), -1),                     // success
        (6, Int16(COLOR_BLACK), Int16(COLOR_CYAN)),      // selection
        (7, Int16(COLOR_YELLOW), -1),                    // warnings
    ]

    /// The attributes and colour pair of a style (pair 0: the terminal's own colours).
    private func attributes(_ style: Style) -> (attr_t, Int16) {
        var a: attr_t = 0
        if style.attributes.contains(.bold) { a |= realmsh_nc_bold() }
        if style.attributes.contains(.dim) { a |= realmsh_nc_dim() }
        // Reverse stands in for the title's and the selection's colours when there are none.
        if style.attributes.contains(.reverse), !(usesColor && (style.tone == .title || style.tone == .selection)) { a |= realmsh_nc_reverse() }
        if style.attributes.contains(.underline) { a |= realmsh_nc_underline() }
        guard usesColor else { return (a, 0) }
        switch style.tone {
        case .plain: return (a, 0)
        case .title: return (a, 1)
        case .accent: return (a, 2)
        case .link: return (a, 3)
        case .error: return (a, 4)
        case .success: return (a, 5)
        case .selection: return (a, 6)
        case .warning: return (a, 7)
        }
    }

    // MARK: restoring the terminal

    /// What leaves the full screen, looked up now (terminfo) so a signal handler only has to
    /// write bytes: normal screen, keypad off, cursor visible, attributes off, mouse off.
    private static func restoreSequence() -> [UInt8] {
        var out = [UInt8]()
        for capability in ["rmcup", "rmkx", "cnorm", "sgr0"] {
            guard let value = tigetstr(capability), Int(bitPattern: value) != -1 else { continue }
            out += Array(String(cString: value).utf8)
        }
        // xterm-style mouse reporting off (ncurses turns on 1000 and 1006); other terminals
        // ignore these.
        out += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l".utf8)
        return out
    }

    // MARK: character widths

    /// Terminal columns a character takes (`wcwidth` in a UTF-8 locale): 2 for wide CJK and
    /// emoji, 0 for combining marks, -1 for control and unassigned characters.
    static func width(of scalar: Unicode.Scalar) -> Int {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
        _ = localeReady
        return Int(realmsh_wcwidth(wchar_t(bitPattern: scalar.value)))
    }

    private static let localeReady: Bool = prepareLocale()

    /// Character classification from the environment's locale, or C.UTF-8 when that is not
    /// UTF-8 (ncurses and wcwidth need one to know any character past ASCII).
    @discardableResult
    static func prepareLocale() -> Bool {
        if let set = setlocale(LC_CTYPE, ""), String(cString: set).lowercased().replacingDashes().contains("utf8") { return true }
        if let codeset = nl_langinfo(Int32(CODESET)), String(cString: codeset).lowercased().replacingDashes() == "utf8" { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil
    }
}

private extension String {
    func replacingDashes() -> String { String(filter { $0 != "-" }) }
}

/// The terminal modes to restore and the bytes that leave the full screen, kept where a signal
/// handler can reach them without allocating: a fatal signal (SIGTERM, SIGHUP, a crash) restores
/// the terminal, then goes on to what it did before (the default action, or Swift's backtrace).
enum TerminalRestore {
    static let signals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    private static let capacity = 512

    struct State {
        var fd: Int32 = 1
        var saved = termios()
        var hasSaved = false
        var installed = false
        var armed = false
        var count = 0
    }

    nonisolated(unsafe) static let state: UnsafeMutablePointer<State> = {
        let p = UnsafeMutablePointer<State>.allocate(capacity: 1)
        p.initialize(to: State())
        return p
    }()
    nonisolated(unsafe) static let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        p.initialize(repeating: sigaction(), count: 65)
        return p
    }()

    /// The modes before the full screen starts.
    static func save(fd: Int32) {
        state.pointee.fd = fd
        state.pointee.hasSaved = tcgetattr(fd, &state.pointee.saved) == 0
    }

    /// Installs the handlers (once); until `arm`, they only pass the signal on.
    static func install() {
        guard !state.pointee.installed else { return }
        state.pointee.installed = true
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreTerminalAndRaise
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(s, &action, previous + Int(s))
        }
    }

    /// From now on a signal writes these bytes and restores the saved modes first.
    static func arm(_ sequence: [UInt8]) {
        let n = min(sequence.count, capacity)
        sequence.withUnsafeBufferPointer { bytes.update(from: $0.baseAddress!, count: n) }
        state.pointee.count = n
        state.pointee.armed = true
    }

    /// The screen was left in order: nothing to restore.
    static func disarm() { state.pointee.armed = false }

    /// The handlers that were there before.
    static func uninstall() {
        guard state.pointee.installed else { return }
        state.pointee.installed = false
        for s in signals { sigaction(s, previous + Int(s), nil) }
    }
}

/// The signal handler: only async-signal-safe calls (tcsetattr, write, sigaction, raise).
private func restoreTerminalAndRaise(_ signal: Int32) {
    let s = TerminalRestore.state
    if s.pointee.armed {
        s.pointee.armed = false
        _ = write(s.pointee.fd, TerminalRestore.bytes, s.pointee.count)
        if s.pointee.hasSaved { _ = tcsetattr(s.pointee.fd, TCSANOW, &s.pointee.saved) }
    }
    sigaction(signal, TerminalRestore.previous + Int(signal), nil)
    // Blocked while this handler runs: delivered, with the previous action, when it returns
    // (a fault re-executes and faults again into that action).
    raise(signal)
}
