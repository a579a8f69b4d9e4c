import RealmFormat
import RealmObjects
import RealmQuery

/// What every pane of the main area reads through, for one snapshot of the file: the row
/// readers, the value texts, the query store. A new snapshot (after a commit) gets a new one.
final class PaneContext {
    let file: RealmFile
    let readers: ObjectRowsCache
    let cells: CellText
    /// Queries share one store per snapshot: columns a filter decoded serve the next filter.
    private(set) lazy var store = ObjectStore(snapshot: file.snapshot)

    init(file: RealmFile) {
        self.file = file
        readers = ObjectRowsCache(file: file)
        cells = CellText(readers: readers)
    }

    /// A class by name, also an internal table's.
    func objectClass(named name: String) -> ObjectClass? {
        if let c = file.objectClass(named: name) { return c }
        guard let table = file.snapshot.table(named: name) else { return nil }
        return try? file.makeClass(table)
    }
}

/// One object: its class and ObjKey.
struct ObjectRef: Equatable {
    let className: String
    let key: Int64
}

/// Where a list of objects comes from, so that it can be read again from a new snapshot.
enum ObjectSource: Equatable {
    /// Every object of the class.
    case allObjects
    /// The objects a property of one object links to: a link, an embedded object, a list, set
    /// or dictionary of them, a link in a Mixed.
    case property(ObjectRef, String)
    /// The objects whose property `originProperty` of class `originClass` links to `target`.
    case backlinks(target: ObjectRef, originClass: String, originProperty: String)
    /// One object.
    case object(Int64)
}

/// Where Enter (or `d`, `b`) leads from a pane.
enum Destination {
    case objects(ObjectClass, ObjectSource, title: String)
    case values(ValueSource, title: String)
    case detail(ObjectClass, key: Int64)
    case backlinks(ObjectClass, key: Int64)
}

/// A pane of the main area: a table of objects, one object's detail, the items of a
/// collection, the backlinks of an object. The session moves the cursor; the pane lays out
/// its lines and says where Enter leads.
protocol Pane: AnyObject {
    /// Its place in the history line: `Person`, `Person(#2).dogs`.
    var title: String { get }
    /// What the status line says: `4 of 10 Person`.
    var countLine: String { get }
    var rowCount: Int { get }
    var cursor: Int { get set }
    var top: Int { get set }
    /// Lines above the rows (column headers).
    var headerLines: Int { get }
    /// Header lines, then rows from `top`, each exactly `width` columns wide.
    func lines(width: Int, height: Int, focused: Bool) -> [Line]
    /// Where Enter on the cursor's row leads.
    func destination() -> Destination?
    /// The object under the cursor, for `d`, `b`, `e`, `D`.
    func currentObject() -> (ObjectClass, Int64)?
    /// The same pane read from a new snapshot (nil: what it showed is gone).
    func reloaded(in context: PaneContext) -> Pane?
    /// A mouse click at column `x` of a row: the column under it, for panes that have them.
    func select(column x: Int)
}

extension Pane {
    func select(column x: Int) {}

    /// Rows that fit under the header lines.
    func pageSize(height: Int) -> Int { max(1, height - headerLines) }

    /// Keeps the cursor inside the rows and on the screen.
    func clamp(height: Int) {
        let page = pageSize(height: height)
        cursor = max(0, min(cursor, rowCount - 1))
        if cursor < top { top = cursor }
        if cursor >= top + page { top = cursor - page + 1 }
        top = max(0, min(top, max(0, rowCount - page)))
    }
}

/// Counts as people read them: 1,000,000.
func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}
