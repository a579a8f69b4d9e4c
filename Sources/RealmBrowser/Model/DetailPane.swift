import RealmFormat
import RealmObjects

/// One object, vertically: every property with its type and its whole value (strings in full,
/// dates in UTC with nanoseconds, Mixed values with their type), the items of its collections
/// and the properties of its embedded objects indented below, then what links to it. Enter on
/// a line with a link or a collection opens it.
final class DetailPane: Pane {
    struct Entry {
        var indent: Int
        var label: String
        var type: String
        var text: String
        var style: Style
        var destination: Destination?
        /// The object and property this line shows, when it can be edited in place.
        var edit: EditTarget?
    }

    let context: PaneContext
    let objectClass: ObjectClass
    let key: Int64
    let title: String
    private(set) var entries: [Entry] = []
    /// Screen lines for the last width: (entry, text of this line, first line of the entry).
    private var wrapped: [(entry: Int, text: String, first: Bool)] = []
    private var wrappedWidth = 0
    private var labelWidth = 0
    private var typeWidth = 0
    var cursor = 0
    var top = 0

    /// Items of a collection listed before `… N more`.
    static let maxItems = 50
    static let maxDepth = 4

    init?(context: PaneContext, objectClass: ObjectClass, key: Int64) {
        self.context = context
        self.objectClass = objectClass
        self.key = key
        title = "\(objectClass.name)(\(context.cells.identity(objectClass, key)))"
        guard let rows = try? context.readers.rows(objectClass), let position = rows.position(ofKey: key),
              let values = try? rows.values(at: position) else { return nil }
        entries.append(Entry(indent: 0, label: "_key", type: "int", text: String(key), style: .dim))
        appendObject(objectClass, key: key, values: values, indent: 0, depth: 0)
        if let backlinks = try? rows.backlinks(at: position), !backlinks.isEmpty {
            entries.append(Entry(indent: 0, label: "linked from", type: "", text: "", style: .header))
            let target = ObjectRef(className: objectClass.name, key: key)
            for (b, origins) in backlinks {
                guard let originClass = b.originClass, let originProperty = b.originProperty,
                      let origin = context.objectClass(named: originClass) else { continue }
                let objects = Set(origins).count
                entries.append(Entry(
                    indent: 1, label: "\(originClass).\(originProperty)", type: "",
                    text: objects == 1 ? "1 object" : "\(grouped(objects)) objects", style: objects == 0 ? .dim : .link,
                    destination: objects == 0 ? nil : .objects(origin, .backlinks(target: target, originClass: originClass, originProperty: originProperty),
                                                               title: "\(title) ← \(originClass).\(originProperty)")))
            }
        }
        labelWidth = min(28, entries.map { $0.indent * 2 + TextWidth.of($0.label) }.max() ?? 0)
        typeWidth = min(24, entries.map { TextWidth.of($0.type) }.max() ?? 0)
    }

    private func appendObject(_ c: ObjectClass, key: Int64, values: [Value], indent: Int, depth: Int) {
        let ref = ObjectRef(className: c.name, key: key)
        for (p, v) in zip(c.properties, values) {
            let target = context.cells.target(of: p)
            var entry = Entry(indent: indent, label: p.name, type: TypeLabel.of(p, target: target), text: "", style: .plain,
                              destination: v.isNull ? nil : TablePane.destination(of: v, property: p, ref: ref, title: "\(title).\(p.name)", context: context))
            if p.collection == nil && p.type != "object" && !p.isPrimaryKey { entry.edit = EditTarget(objectClass: c, key: key, property: p, value: v) }
            if p.collection == nil && p.type == "object" && target?.isEmbedded != true { entry.edit = EditTarget(objectClass: c, key: key, property: p, value: v) }
            switch v {
            case .null:
                entry.text = "null"
                entry.style = .dim
                entries.append(entry)
            case let .link(k) where target?.isEmbedded == true:
                entry.text = "{\(target!.name)}"
                entries.append(entry)
                if depth < Self.maxDepth, let values = try? context.cells.objectValues(target!, k) {
                    appendObject(target!, key: k, values: values, indent: indent + 1, depth: depth + 1)
                }
            case .link, .typedLink:
                entry.text = context.cells.text(v, collection: nil, target: target, depth: 0)
                entry.style = .link
                entries.append(entry)
            case let .list(elements):
                entry.text = target.map { "[\(elements.count) \($0.name)]" } ?? Self.items(elements.count)
                if elements.isEmpty { entry.style = .dim }
                entries.append(entry)
                appendItems(elements.enumerated().map { ("[\($0.offset)]", $0.element) }, target: target, mixed: p.type == "mixed",
                            indent: indent + 1, depth: depth)
            case let .dictionary(entriesOfValue):
                entry.text = Self.items(entriesOfValue.count)
                if entriesOfValue.isEmpty { entry.style = .dim }
                entries.append(entry)
                appendItems(entriesOfValue.map { (context.cells.element($0.key), $0.value) }, target: target, mixed: p.type == "mixed",
                            indent: indent + 1, depth: depth)
            default:
                entry.text = context.cells.full(v, mixed: p.type == "mixed")
                if entry.text.isEmpty { (entry.text, entry.style) = ("\"\"", .dim) }
                entries.append(entry)
            }
        }
    }

    static func items(_ n: Int) -> String { n == 1 ? "1 item" : "\(grouped(n)) items" }

    private func appendItems(_ items: [(String, Value)], target: ObjectClass?, mixed: Bool, indent: Int, depth: Int) {
        for (label, v) in items.prefix(Self.maxItems) {
            var entry = Entry(indent: indent, label: label, type: "", text: "", style: .plain)
            switch v {
            case .null:
                entry.text = "null"
                entry.style = .dim
                entries.append(entry)
            case let .link(k), let .typedLink(_, k):
                var c = target
                if case let .typedLink(t, _) = v { c = context.readers.objectClass(for: t) }
                if let c, c.isEmbedded {
                    entry.text = "{\(c.name)}"
                    entries.append(entry)
                    if depth < Self.maxDepth, let values = try? context.cells.objectValues(c, k) {
                        appendObject(c, key: k, values: values, indent: indent + 1, depth: depth + 1)
                    }
                } else {
                    entry.text = context.cells.text(v, collection: nil, target: c, depth: 0)
                    entry.style = .link
                    entry.destination = c.map { .objects($0, .object(k), title: "\(title) \(label)") }
                    entries.append(entry)
                }
            case let .list(elements) where depth < Self.maxDepth:
                entry.text = (mixed ? "list " : "") + "[\(elements.count)]"
                entries.append(entry)
                appendItems(elements.enumerated().map { ("[\($0.offset)]", $0.element) }, target: nil, mixed: true, indent: indent + 1, depth: depth + 1)
            case let .dictionary(nested) where depth < Self.maxDepth:
                entry.text = (mixed ? "dictionary " : "") + "{\(nested.count)}"
                entries.append(entry)
                appendItems(nested.map { (context.cells.element($0.key), $0.value) }, target: nil, mixed: true, indent: indent + 1, depth: depth + 1)
            default:
                entry.text = context.cells.full(v, mixed: mixed)
                if entry.text.isEmpty { (entry.text, entry.style) = ("\"\"", .dim) }
                entries.append(entry)
            }
        }
        if items.count > Self.maxItems {
            entries.append(Entry(indent: indent, label: "…", type: "", text: "\(grouped(items.count - Self.maxItems)) more", style: .dim))
        }
    }

    // MARK: lines

    private func wrap(width: Int) {
        guard width != wrappedWidth else { return }
        let entryAtCursor = cursor < wrapped.count ? wrapped[cursor].entry : 0
        wrappedWidth = width
        wrapped = []
        let valueWidth = max(8, width - labelWidth - typeWidth - 4)
        for (i, e) in entries.enumerated() {
            let parts = e.text.isEmpty ? [""] : e.text.split(separator: "\n", omittingEmptySubsequences: false)
                .flatMap { TextWidth.wrap(TextWidth.printable(String($0)), valueWidth) }
            for (n, part) in parts.enumerated() { wrapped.append((i, part, n == 0)) }
        }
        cursor = wrapped.firstIndex { $0.entry == entryAtCursor } ?? 0
    }

    var rowCount: Int {
        if wrapped.isEmpty { wrap(width: max(wrappedWidth, 80)) }
        return wrapped.count
    }

    var headerLines: Int { 0 }

    var countLine: String { "\(objectClass.name) object · \(objectClass.properties.count) properties" }

    var currentEntry: Entry? {
        _ = rowCount
        return cursor < wrapped.count ? entries[wrapped[cursor].entry] : nil
    }

    func lines(width: Int, height: Int, focused: Bool) -> [Line] {
        wrap(width: width)
        clamp(height: height)
        let currentEntryIndex = cursor < wrapped.count ? wrapped[cursor].entry : -1
        var out = [Line]()
        for i in top..<min(wrapped.count, top + height) {
            let (index, text, first) = wrapped[i]
            let e = entries[index]
            var line = Line()
            let label = first ? String(repeating: "  ", count: e.indent) + e.label : ""
            line.append(TextWidth.fit(label, labelWidth), first && e.indent == 0 ? .bold : .plain)
            line.append("  ")
            line.append(TextWidth.fit(first ? e.type : "", typeWidth), .dim)
            line.append("  ")
            line.append(text, e.style)
            line = line.fitted(to: width)
            out.append(index == currentEntryIndex ? line.adding(focused ? [.reverse] : [.bold]) : line)
        }
        return out
    }

    func destination() -> Destination? { currentEntry?.destination }

    func currentObject() -> (ObjectClass, Int64)? { (objectClass, key) }

    func reloaded(in context: PaneContext) -> Pane? {
        guard let c = context.objectClass(named: objectClass.name),
              let pane = DetailPane(context: context, objectClass: c, key: key) else { return nil }
        pane.wrap(width: max(wrappedWidth, 80))
        pane.cursor = min(cursor, max(0, pane.rowCount - 1))
        pane.top = top
        return pane
    }
}
