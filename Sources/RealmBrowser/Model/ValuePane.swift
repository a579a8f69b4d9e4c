import RealmFormat
import RealmObjects

/// The items of a collection of values — a list, set or dictionary of scalars, a dictionary of
/// links, a collection nested in a Mixed — as a table of index (or key) and value. Enter on a
/// link opens its object, on a nested collection its items.
final class ValuePane: Pane {
    let context: PaneContext
    let source: ValueSource
    let title: String
    let contents: ValueItems
    var cursor = 0
    var top = 0

    init?(context: PaneContext, source: ValueSource, title: String) {
        guard let contents = try? context.items(of: source) else { return nil }
        self.context = context
        self.source = source
        self.title = title
        self.contents = contents
    }

    var rowCount: Int { contents.items.count }
    var headerLines: Int { 1 }
    private var isMixed: Bool { contents.property.type == "mixed" }

    var countLine: String {
        let p = contents.property
        let kind = source.path.isEmpty ? TypeLabel.of(p, target: contents.target) : (contents.isDictionary ? "dictionary" : "list")
        return "\(grouped(rowCount)) \(rowCount == 1 ? "item" : "items") · \(kind)"
    }

    func label(_ step: ValueSource.Step) -> String {
        switch step {
        case let .index(i): return "[\(i)]"
        case let .key(k): return context.cells.element(k)
        }
    }

    func text(_ v: Value) -> (String, Style) {
        if v.isNull { return ("null", .dim) }
        let shown = context.cells.text(CellText.shortened(v), collection: nil, target: contents.target, depth: 1)
        return (isMixed ? CellText.typeName(v) + " " + shown : shown, v.isLink ? .link : .plain)
    }

    func lines(width: Int, height: Int, focused: Bool) -> [Line] {
        let visible = top..<min(rowCount, top + pageSize(height: height))
        let labels = visible.map { label(contents.items[$0].step) }
        let keyWidth = min(max(labels.map(TextWidth.of).max() ?? 0, contents.isDictionary ? 3 : 1), max(4, width / 3))
        var header = Line()
        header.append(TextWidth.fit(contents.isDictionary ? "key" : "#", keyWidth), .header)
        header.append("  ")
        header.append("value", .header)
        var out = [header.fitted(to: width)]
        for (n, i) in visible.enumerated() {
            var line = Line()
            line.append(TextWidth.fit(labels[n], keyWidth), .dim)
            line.append("  ")
            let (text, style) = text(contents.items[i].value)
            line.append(TextWidth.cut(text, max(1, width - keyWidth - 2)), style)
            line = line.fitted(to: width)
            out.append(i == cursor ? line.adding(focused ? [.reverse] : [.bold]) : line)
        }
        return out
    }

    func currentObject() -> (ObjectClass, Int64)? {
        guard cursor < rowCount else { return nil }
        switch contents.items[cursor].value {
        case let .link(k): return contents.target.map { ($0, k) }
        case let .typedLink(t, k): return context.readers.objectClass(for: t).map { ($0, k) }
        default: return nil
        }
    }

    func destination() -> Destination? {
        guard cursor < rowCount else { return nil }
        let (step, value) = contents.items[cursor]
        let name = title + label(step)
        switch value {
        case let .link(k):
            guard let target = contents.target else { return nil }
            return .objects(target, .object(k), title: name)
        case let .typedLink(t, k):
            guard let target = context.readers.objectClass(for: t) else { return nil }
            return .objects(target, .object(k), title: name)
        case .list, .dictionary:
            var nested = source
            nested.path.append(step)
            return .values(nested, title: name)
        default:
            return nil
        }
    }

    func reloaded(in context: PaneContext) -> Pane? {
        guard let pane = ValuePane(context: context, source: source, title: title) else { return nil }
        pane.cursor = min(cursor, max(0, pane.rowCount - 1))
        pane.top = top
        return pane
    }
}
