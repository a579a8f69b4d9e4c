import RealmFormat
import RealmObjects

/// `realmsh browse`: the Realm Browser, full screen in the terminal. RealmShell opens the file
/// (its read-only open path: no byte of the file or its `.lock` is written) and hands it here
/// with a way to open it again and the shell's query completion.
public enum Browser {
    public struct Failure: Error {
        public let message: String
        public init(message: String) { self.message = message }
    }

    /// Runs until q or Ctrl-C; the terminal is left as it was found (also on SIGTERM and on
    /// a crash, through `Terminal`'s signal handlers).
    public static func run(file: RealmFile, options: BrowserSession.Options, color: Bool) throws(Failure) {
        let terminal: Terminal
        do { terminal = try Terminal(color: color) } catch { throw Failure(message: error.message) }
        defer { terminal.end() }
        let session = BrowserSession(file: file, options: options)
        var lastCheck = Platform.monotonicSeconds()
        while true {
            let (rows, columns) = terminal.size
            session.size = (rows, columns)
            terminal.draw(session.render())
            let key = terminal.read(milliseconds: 500)
            // Another process's commit shows within about half a second, keys or not.
            if Platform.monotonicSeconds() - lastCheck >= 0.5 {
                lastCheck = Platform.monotonicSeconds()
                session.checkForChanges()
            }
            guard let key else { continue }
            switch session.handle(key) {
            case .quit: return
            case .suspend: terminal.suspend()
            case .none: break
            }
            if session.hasPendingWork {
                terminal.draw(session.render())
                session.runPendingWork()
            }
        }
    }
}
