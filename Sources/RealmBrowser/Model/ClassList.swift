import RealmFormat
import RealmObjects

/// The left pane: the classes with their object counts (embedded classes marked), and the
/// internal tables (`metadata`, `pk`, sync and history tables) under a fold that Enter opens.
struct ClassList {
    enum Entry: Equatable {
        case objectClass(name: String, count: Int, embedded: Bool)
        case fold(count: Int, open: Bool)
        case internalTable(name: String, count: Int)
    }

    private(set) var entries: [Entry] = []
    private var classes: [(String, Int, Bool)] = []
    private var internals: [(String, Int)] = []
    private(set) var open = false
    var cursor = 0
    var top = 0

    init(file: RealmFile) {
        classes = file.classes.map { ($0.name, (try? file.objectCount(of: $0)) ?? 0, $0.isEmbedded) }
        internals = file.internalTables.map { table in
            let count = (try? table.clusterRef.map { try ClusterTree(snapshot: file.snapshot, rootRef: $0).count() } ?? 0) ?? 0
            return (table.name, count)
        }
        build()
    }

    private mutating func build() {
        entries = classes.map { .objectClass(name: $0.0, count: $0.1, embedded: $0.2) }
        if !internals.isEmpty {
            entries.append(.fold(count: internals.count, open: open))
            if open { entries += internals.map { .internalTable(name: $0.0, count: $0.1) } }
        }
        cursor = min(cursor, max(0, entries.count - 1))
    }

    mutating func toggleFold() {
        open.toggle()
        build()
    }

    /// The same list for a new snapshot, on the same entry.
    mutating func reload(_ file: RealmFile) {
        let selected = selectedName
        var next = ClassList(file: file)
        if open { next.toggleFold() }
        if let selected, let i = next.entries.firstIndex(where: { next.name(of: $0) == selected }) { next.cursor = i }
        next.top = top
        self = next
    }

    func name(of entry: Entry) -> String? {
        switch entry {
        case let .objectClass(name, _, _), let .internalTable(name, _): return name
        case .fold: return nil
        }
    }

    var selectedName: String? { cursor < entries.count ? name(of: entries[cursor]) : nil }

    mutating func select(_ name: String) {
        if let i = entries.firstIndex(where: { self.name(of: $0) == name }) {
            cursor = i
        } else if internals.contains(where: { $0.0 == name }) {
            if !open { toggleFold() }
            cursor = entries.firstIndex { self.name(of: $0) == name } ?? cursor
        }
    }

    /// Columns the list needs: the longest name and count, within a quarter of the screen.
    func width(screen: Int) -> Int {
        let natural = entries.map { e -> Int in
            switch e {
            case let .objectClass(name, count, embedded): return TextWidth.of(name) + grouped(count).count + (embedded ? 4 : 2) + 1
            case let .internalTable(name, count): return TextWidth.of(name) + grouped(count).count + 5
            case let .fold(count, _): return "▸ internal (\(count))".count + 1
            }
        }.max() ?? 10
        return max(12, min(natural, screen / 4, 36))
    }

    func lines(width: Int, height: Int, focused: Bool) -> [Line] {
        var out = [Line]()
        out.append(Line([Span(text: TextWidth.fit("Classes", width), style: .header)]))
        for i in top..<min(entries.count, top + height - 1) {
            var line = Line()
            switch entries[i] {
            case let .objectClass(name, count, embedded):
                let countText = grouped(count)
                let mark = embedded ? " ◇" : ""
                let room = width - TextWidth.of(countText) - TextWidth.of(mark) - 2
                line.append(" " + TextWidth.fit(name, max(1, room)))
                if embedded { line.append(mark, .dim) }
                line.append(" " + countText, .dim)
            case let .fold(count, open):
                line.append((open ? "▾" : "▸") + " internal (\(count))", .dim)
            case let .internalTable(name, count):
                let countText = grouped(count)
                line.append("   " + TextWidth.fit(name, max(1, width - TextWidth.of(countText) - 4)), .dim)
                line.append(" " + countText, .dim)
            }
            line = line.fitted(to: width)
            if i == cursor { line = line.adding(focused ? [.reverse] : [.bold], tone: focused ? nil : .accent) }
            out.append(line)
        }
        while out.count < height { out.append(Line().fitted(to: width)) }
        return out
    }

    mutating func clamp(height: Int) {
        let page = max(1, height - 1)
        cursor = max(0, min(cursor, entries.count - 1))
        if cursor < top { top = cursor }
        if cursor >= top + page { top = cursor - page + 1 }
    }
}
