import RealmFormat
import RealmObjects

/// `b`: what links to one object (its backlinks, realm-format.md §10.6) by origin class and
/// property, with how many objects and links each; Enter opens the linking objects.
final class BacklinkPane: Pane {
    struct Group {
        let originClass: String
        let originProperty: String
        let objects: Int
        let links: Int
    }

    let context: PaneContext
    let target: ObjectRef
    /// `Dog(#0)`.
    let objectTitle: String
    var title: String { objectTitle + " ← backlinks" }
    let groups: [Group]
    var cursor = 0
    var top = 0

    init?(context: PaneContext, objectClass: ObjectClass, key: Int64) {
        self.context = context
        target = ObjectRef(className: objectClass.name, key: key)
        objectTitle = "\(objectClass.name)(\(context.cells.identity(objectClass, key)))"
        guard let (_, rows, position) = context.locate(target), let backlinks = try? rows.backlinks(at: position) else { return nil }
        groups = backlinks.compactMap { b, origins in
            guard let c = b.originClass, let p = b.originProperty else { return nil }
            return Group(originClass: c, originProperty: p, objects: Set(origins).count, links: origins.count)
        }
    }

    var rowCount: Int { groups.count }
    var headerLines: Int { 1 }

    var countLine: String {
        let total = groups.reduce(0) { $0 + $1.links }
        return "\(grouped(total)) \(total == 1 ? "link" : "links") to \(target.className) from \(groups.filter { $0.links > 0 }.count) of \(groups.count) properties"
    }

    func lines(width: Int, height: Int, focused: Bool) -> [Line] {
        let names = groups.map { "\($0.originClass).\($0.originProperty)" }
        let nameWidth = min(max(names.map(TextWidth.of).max() ?? 0, 4), max(8, width - 24))
        var header = Line()
        header.append(TextWidth.fit("from", nameWidth), .header)
        header.append("  ")
        header.append(TextWidth.fit("objects", 8, right: true), .header)
        header.append("  ")
        header.append(TextWidth.fit("links", 8, right: true), .header)
        var out = [header.fitted(to: width)]
        if groups.isEmpty {
            out.append(Line([Span(text: "Nothing links to \(target.className) objects (no backlinks in the schema).", style: .dim)]).fitted(to: width))
        }
        for i in top..<min(rowCount, top + pageSize(height: height)) {
            let g = groups[i]
            let style: Style = g.objects == 0 ? .dim : .plain
            var line = Line()
            line.append(TextWidth.fit(names[i], nameWidth), g.objects == 0 ? .dim : .link)
            line.append("  ")
            line.append(TextWidth.fit(grouped(g.objects), 8, right: true), style)
            line.append("  ")
            line.append(TextWidth.fit(grouped(g.links), 8, right: true), style)
            line = line.fitted(to: width)
            out.append(i == cursor ? line.adding(focused ? [.reverse] : [.bold]) : line)
        }
        return out
    }

    func destination() -> Destination? {
        guard cursor < groups.count, groups[cursor].objects > 0, let origin = context.objectClass(named: groups[cursor].originClass) else { return nil }
        let g = groups[cursor]
        return .objects(origin, .backlinks(target: target, originClass: g.originClass, originProperty: g.originProperty),
                        title: "\(objectTitle) ← \(g.originClass).\(g.originProperty)")
    }

    func currentObject() -> (ObjectClass, Int64)? {
        context.objectClass(named: target.className).map { ($0, target.key) }
    }

    func reloaded(in context: PaneContext) -> Pane? {
        guard let c = context.objectClass(named: target.className),
              let pane = BacklinkPane(context: context, objectClass: c, key: target.key) else { return nil }
        pane.cursor = min(cursor, max(0, pane.rowCount - 1))
        return pane
    }
}
