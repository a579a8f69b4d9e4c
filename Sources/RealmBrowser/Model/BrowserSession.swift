import RealmFormat
import RealmObjects
import RealmQuery

/// Completion of the query bar's word before the cursor (the shell's completer, handed in by
/// RealmShell so that this module does not depend on it).
public struct QueryCompletion: Sendable, Equatable {
    /// Characters before the cursor that the candidates replace.
    public var wordLength: Int
    public var candidates: [String]
    /// Whether a space follows a single candidate (not after a link, so a key path can go on).
    public var appendSpace: Bool

    public init(wordLength: Int, candidates: [String], appendSpace: Bool) {
        self.wordLength = wordLength
        self.candidates = candidates
        self.appendSpace = appendSpace
    }
}

public typealias QueryCompleter = (_ classes: [ObjectClass], _ className: String, _ textBeforeCursor: String) -> QueryCompletion

/// The Realm Browser's state and behaviour, without a terminal: the class list, the history of
/// panes (each with its cursor), the line being typed, messages; keys in, frames out. The
/// screen layer (`Browser.run`) only draws its frames and hands it keys.
public final class BrowserSession {
    public struct Options {
        public var path: String
        /// The class shown first (default: the first class).
        public var className: String?
        /// `--write`: edits, new objects and deletes are allowed.
        public var writable: Bool
        /// Opens the file again (after a commit, ours or another process's): the same path
        /// and key as the first time, read-only.
        public var reopen: () throws -> RealmFile
        public var complete: QueryCompleter?

        public init(path: String, className: String? = nil, writable: Bool = false,
                    reopen: @escaping () throws -> RealmFile, complete: QueryCompleter? = nil) {
            self.path = path
            self.className = className
            self.writable = writable
            self.reopen = reopen
            self.complete = complete
        }
    }

    public enum Action: Equatable { case none, quit, suspend }

    enum Focus { case classes, main }

    /// What the bottom line is asking for.
    enum Prompt {
        case query(TablePane)
        case search(TablePane)
        case edit(EditTarget)
        case create(CreateForm)
    }

    let options: Options
    public private(set) var file: RealmFile
    var context: PaneContext
    var classes: ClassList
    /// The history: the class's table first, then where Enter, `d` and `b` led.
    var stack: [Pane] = []
    /// Class tables shown before, with their cursor, filter and sort.
    private var roots: [String: TablePane] = [:]
    var focus = Focus.main
    var input: InputLine?
    var prompt: Prompt?
    /// A yes/no question (`D`) and what yes does.
    var confirmation: (question: String, action: () -> Void)?
    var message: (text: String, style: Style)?
    var showingHelp = false
    public var size = (rows: 24, columns: 80)
    private var stamp: [Int]?
    /// Another process holds the file open (probed when the file is read, never per frame:
    /// the probe takes the lock for an instant).
    private(set) var writerActive = false
    var queryHistory: [String] = []
    /// A long piece of work the screen has announced (`busy`), run by `runPendingWork`.
    var pendingWork: (() -> Void)?
    var searchHistory: [String] = []

    public init(file: RealmFile, options: Options) {
        self.options = options
        self.file = file
        context = PaneContext(file: file)
        classes = ClassList(file: file)
        stamp = Platform.modificationStamp(options.path)
        writerActive = Platform.isLockHeld(lockPath: options.path + ".lock") == true
        if let name = options.className ?? classes.selectedName {
            show(className: name)
        }
        if stack.isEmpty { focus = .classes }
    }

    public var version: UInt64 { file.snapshot.top?.version ?? 0 }
    var current: Pane? { stack.last }
    var writable: Bool { options.writable }

    public var hasPendingWork: Bool { pendingWork != nil }

    /// Runs the work announced on the last screen (a filter, sort or search of many rows).
    public func runPendingWork() {
        guard let work = pendingWork else { return }
        pendingWork = nil
        file.snapshot.resetWorkBudget()
        work()
    }

    // MARK: layout sizes

    /// Rows of the body (between the title line and the two bottom lines).
    var bodyHeight: Int { max(1, size.rows - 3) }
    /// Rows a pane has under its title line.
    var paneHeight: Int { max(1, bodyHeight - 1) }
    var sidebarWidth: Int { size.columns < 50 ? 0 : classes.width(screen: size.columns) }
    var mainX: Int { sidebarWidth == 0 ? 0 : sidebarWidth + 1 }
    var mainWidth: Int { max(1, size.columns - mainX) }

    // MARK: keys

    @discardableResult
    public func handle(_ key: Key) -> Action {
        file.snapshot.resetWorkBudget()
        if key == .resize { return .none }
        if let confirmation {
            self.confirmation = nil
            if key == .character("y") || key == .character("Y") { confirmation.action() } else { say("Nothing was deleted.") }
            return .none
        }
        if input != nil { return handleInput(key) }
        if showingHelp {
            showingHelp = false
            if key != .character("q") { return .none }
        }
        message = nil
        if case let .mouse(event) = key { mouse(event); return .none }
        switch key {
        case .character("q"), .control("c"): return .quit
        case .control("z"): return .suspend
        case .tab, .backTab:
            if focus == .classes && !stack.isEmpty { focus = .main } else if sidebarWidth > 0 { focus = .classes }
        case .character("?"): showingHelp = true
        case .control("l"), .character("R"): refresh(force: true)
        default:
            if focus == .classes { handleClasses(key) } else { handleMain(key) }
        }
        return .none
    }

    private func handleClasses(_ key: Key) {
        let page = max(1, bodyHeight - 1)
        switch key {
        case .up, .character("k"): moveClass(to: classes.cursor - 1)
        case .down, .character("j"): moveClass(to: classes.cursor + 1)
        case .pageUp: moveClass(to: classes.cursor - page)
        case .pageDown: moveClass(to: classes.cursor + page)
        case .home, .character("g"): moveClass(to: 0)
        case .end, .character("G"): moveClass(to: classes.entries.count - 1)
        case .enter, .right, .character("l"), .character(" "):
            if classes.selectedName == nil {
                classes.toggleFold()
            } else if !stack.isEmpty {
                focus = .main
            }
        default:
            handleMain(key)
        }
    }

    private func moveClass(to index: Int) {
        classes.cursor = max(0, min(index, classes.entries.count - 1))
        classes.clamp(height: bodyHeight)
        if let name = classes.selectedName { show(className: name) }
    }

    private func handleMain(_ key: Key) {
        guard let pane = current else { return }
        let page = pane.pageSize(height: paneHeight)
        switch key {
        case .up, .character("k"): move(pane, to: pane.cursor - 1)
        case .down, .character("j"): move(pane, to: pane.cursor + 1)
        case .pageUp, .control("b"):
            pane.top = max(0, pane.top - page)
            move(pane, to: pane.cursor - page)
        case .pageDown, .control("f"), .character(" "):
            pane.top = min(max(0, pane.rowCount - page), pane.top + page)
            move(pane, to: pane.cursor + page)
        case .home, .character("g"): move(pane, to: 0)
        case .end, .character("G"): move(pane, to: pane.rowCount - 1)
        case .left, .character("h"): (pane as? TablePane)?.moveColumn(by: -1)
        case .right, .character("l"): (pane as? TablePane)?.moveColumn(by: 1)
        case .enter: open(pane.destination())
        case .character("d"):
            if let (c, key) = pane.currentObject() { open(.detail(c, key: key)) }
        case .character("b"):
            if let (c, key) = pane.currentObject() { open(.backlinks(c, key: key)) } else { say("No object under the cursor.", .error) }
        case .backspace, .escape: back()
        case .character(":"), .character("f"): startQuery()
        case .character("s"): sortByColumn()
        case .character("/"): startSearch()
        case .character("e"): startEdit()
        case .character("n"): startCreate()
        case .character("D"): confirmDelete()
        default: break
        }
    }

    func move(_ pane: Pane, to row: Int) {
        pane.cursor = max(0, min(row, pane.rowCount - 1))
        pane.clamp(height: paneHeight)
    }

    private func mouse(_ event: MouseEvent) {
        let bodyRow = event.row - 1
        guard bodyRow >= 0, bodyRow < bodyHeight else { return }
        if event.column < sidebarWidth {
            switch event.kind {
            case .wheelUp: moveClass(to: classes.cursor - 3)
            case .wheelDown: moveClass(to: classes.cursor + 3)
            case .click, .doubleClick:
                let index = classes.top + bodyRow - 1
                guard bodyRow >= 1, index < classes.entries.count else { return }
                focus = .classes
                if index == classes.cursor, classes.selectedName == nil { classes.toggleFold(); return }
                moveClass(to: index)
            }
            return
        }
        guard let pane = current else { return }
        switch event.kind {
        case .wheelUp:
            pane.top = max(0, pane.top - 3)
            move(pane, to: pane.cursor - 3)
        case .wheelDown:
            pane.top = min(max(0, pane.rowCount - pane.pageSize(height: paneHeight)), pane.top + 3)
            move(pane, to: pane.cursor + 3)
        case .click, .doubleClick:
            focus = .main
            let line = bodyRow - 1 - pane.headerLines
            guard line >= 0, pane.top + line < pane.rowCount else { return }
            move(pane, to: pane.top + line)
            pane.select(column: event.column - mainX)
            if event.kind == .doubleClick { open(pane.destination()) }
        }
    }

    // MARK: navigation

    /// Shows a class's table (as it was left, if it was shown before) as the history's start.
    func show(className name: String) {
        classes.select(name)
        if let root = roots[name] {
            stack = [root]
            return
        }
        guard let c = context.objectClass(named: name) else {
            say("No class '\(name)' in the file.", .error)
            return
        }
        do {
            let pane = try TablePane(context: context, objectClass: c)
            roots[name] = pane
            stack = [pane]
        } catch {
            say("\(name): \(Self.describe(error))", .error)
        }
    }

    /// Goes where Enter, `d` or `b` leads; the pane left keeps its cursor for Backspace.
    func open(_ destination: Destination?) {
        guard let destination else {
            say("Nothing to open here (Enter opens links, lists, sets, dictionaries and embedded objects; d the detail view).")
            return
        }
        let pane: Pane?
        switch destination {
        case let .objects(c, source, title):
            do { pane = try TablePane(context: context, objectClass: c, source: source, title: title) } catch {
                say(Self.describe(error), .error)
                return
            }
        case let .values(source, title):
            pane = ValuePane(context: context, source: source, title: title)
        case let .detail(c, key):
            pane = DetailPane(context: context, objectClass: c, key: key)
        case let .backlinks(c, key):
            pane = BacklinkPane(context: context, objectClass: c, key: key)
        }
        guard let pane else {
            say("Cannot show that: the object is gone or cannot be read.", .error)
            return
        }
        stack.append(pane)
        focus = .main
    }

    /// Backspace: the previous pane, with its cursor where it was.
    func back() {
        guard stack.count > 1 else {
            say("Nothing to go back to.")
            return
        }
        stack.removeLast()
    }

    // MARK: refresh

    /// Reads the file again when it changed on disk (another process, or our own commit);
    /// every pane keeps its place. Returns whether it did.
    @discardableResult
    public func checkForChanges() -> Bool { refresh(force: false) }

    @discardableResult
    func refresh(force: Bool, announce: Bool = true) -> Bool {
        let now = Platform.modificationStamp(options.path)
        guard force || now != stamp else { return false }
        stamp = now
        let before = version
        let reopened: RealmFile
        do { reopened = try options.reopen() } catch {
            say("Cannot read the file again: \(Self.describe(error))", .error)
            return false
        }
        file = reopened
        writerActive = Platform.isLockHeld(lockPath: options.path + ".lock") == true
        context = PaneContext(file: reopened)
        classes.reload(reopened)
        roots = [:]
        var panes = [Pane]()
        for pane in stack {
            guard let again = pane.reloaded(in: context) else { break }
            panes.append(again)
        }
        stack = panes
        if let root = stack.first as? TablePane, case .allObjects = root.source { roots[root.objectClass.name] = root }
        if stack.isEmpty, let name = classes.selectedName { show(className: name) }
        if announce {
            if version != before {
                say("The file changed (another process committed): now version \(version).", .warning)
            } else if force {
                say("Read the file again: version \(version).")
            }
        }
        return true
    }

    // MARK: messages

    func say(_ text: String, _ style: Style = .plain) { message = (text, style) }

    static func describe(_ error: Error) -> String {
        if let e = error as? FormatError { return e.message }
        if let e = error as? QueryError { return e.message }
        if let e = error as? Browser.Failure { return e.message }
        return "\(error)"
    }
}
