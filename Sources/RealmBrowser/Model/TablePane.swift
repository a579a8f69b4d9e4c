import RealmFormat
import RealmObjects
import RealmQuery

/// Objects of one class as a table: one column per property (the primary key, or the ObjKey
/// for classes without one, first and always shown), headers with the type, widths fitted to
/// what is on the screen. Rows are read a screen at a time through `ObjectRows`; a filter
/// (Realm's query language, through RealmQuery) or a sort keeps the matching positions only.
final class TablePane: Pane {
    enum Column: Equatable {
        /// The ObjKey (`_key`), for classes without a primary key.
        case objectKey
        case property(Int)
    }

    struct Sort: Equatable {
        let column: Int
        let ascending: Bool
    }

    let context: PaneContext
    let objectClass: ObjectClass
    let source: ObjectSource
    let title: String
    let rows: ObjectRows
    let columns: [Column]
    /// The positions the source lists, in its order; nil: every object of the class.
    private let base: [Int]?
    /// Objects the source names that the class does not hold (dangling links).
    private(set) var missing = 0
    private(set) var filter: String?
    private(set) var sort: Sort?
    /// The positions shown after the filter and sort; nil: `base` as it is.
    private var shown: [Int]?
    var cursor = 0
    var top = 0
    /// The cursor's column, and the first of the scrolling columns on screen.
    var column = 0
    private var firstScrolled = 1
    /// Widths seen so far, so that columns do not jump as rows scroll by; reset by a resize,
    /// a filter or a sort.
    private var widths: [Int?]
    private var widthsFor = 0
    /// Where the columns were drawn, for mouse clicks: (start, width, column).
    private var drawn: [(start: Int, width: Int, column: Int)] = []

    static let gap = 2

    init(context: PaneContext, objectClass: ObjectClass, source: ObjectSource = .allObjects, title: String? = nil) throws {
        self.context = context
        self.objectClass = objectClass
        self.source = source
        self.title = title ?? objectClass.name
        rows = try context.readers.rows(objectClass)
        let pk = objectClass.properties.firstIndex(where: \.isPrimaryKey)
        columns = (pk.map { [Column.property($0)] } ?? [.objectKey])
            + objectClass.properties.indices.filter { $0 != pk }.map(Column.property)
        widths = Array(repeating: nil, count: columns.count)
        if let keys = try context.keys(of: source, in: objectClass) {
            var positions = [Int]()
            positions.reserveCapacity(keys.count)
            for k in keys {
                if let p = rows.position(ofKey: k) { positions.append(p) } else { missing += 1 }
            }
            base = positions
        } else {
            base = nil
        }
    }

    var baseCount: Int { base?.count ?? rows.count }
    var rowCount: Int { shown?.count ?? baseCount }
    var headerLines: Int { 1 }

    /// The position (in the class) of row `i`.
    func position(_ i: Int) -> Int { shown?[i] ?? base?[i] ?? i }

    func key(ofRow i: Int) -> Int64? { i >= 0 && i < rowCount ? rows.key(at: position(i)) : nil }

    /// `4 of 10 Person` with a filter, `10 Person` without.
    var countLine: String {
        var line = filter == nil ? "\(grouped(rowCount)) \(objectClass.name)" : "\(grouped(rowCount)) of \(grouped(baseCount)) \(objectClass.name)"
        if missing > 0 { line += " (\(missing) missing)" }
        return line
    }

    /// The filter and sort as the title line shows them.
    var queryDescription: String? {
        var parts = [String]()
        if let filter { parts.append("where " + filter) }
        if let sort { parts.append("sorted by \(name(of: columns[sort.column])) \(sort.ascending ? "↑" : "↓")") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    // MARK: columns

    func property(_ c: Column) -> Property? {
        if case let .property(i) = c { return objectClass.properties[i] }
        return nil
    }

    func name(of c: Column) -> String { property(c)?.name ?? "_key" }

    func typeLabel(of c: Column) -> String {
        guard let p = property(c) else { return "int" }
        return TypeLabel.of(p, target: context.cells.target(of: p))
    }

    func isNumeric(_ c: Column) -> Bool {
        guard let p = property(c) else { return true }
        return p.collection == nil && ["int", "float", "double", "decimal128"].contains(p.type)
    }

    func moveColumn(by delta: Int) {
        column = max(0, min(columns.count - 1, column + delta))
    }

    // MARK: cells

    /// A cell's text and style.
    func cell(row i: Int, _ c: Column) -> (String, Style) {
        let p = position(i)
        switch c {
        case .objectKey:
            return (rows.key(at: p).map(String.init) ?? "", .plain)
        case let .property(index):
            let property = objectClass.properties[index]
            do {
                let value = try rows.value(index, at: p)
                if value.isNull { return ("null", .dim) }
                let text = context.cells.text(property, CellText.shortened(value))
                let isLink = property.type == "object" || value.isLink
                return (text, isLink ? .link : .plain)
            } catch {
                return ("⚠ " + BrowserSession.describe(error), .error)
            }
        }
    }

    func value(row i: Int, property index: Int) throws -> Value {
        try rows.value(index, at: position(i))
    }

    // MARK: layout

    /// Header and rows, the cursor's row reversed and its cell marked.
    func lines(width: Int, height: Int, focused: Bool) -> [Line] {
        if widthsFor != width {
            widths = Array(repeating: nil, count: columns.count)
            widthsFor = width
        }
        let visible = top..<min(rowCount, top + pageSize(height: height))
        var texts = [Int: [(String, Style)]]()
        func cells(_ c: Int) -> [(String, Style)] {
            if let t = texts[c] { return t }
            let t = visible.map { cell(row: $0, columns[c]) }
            texts[c] = t
            return t
        }
        let cap = max(12, min(48, width / 2))
        func columnWidth(_ c: Int) -> Int {
            let marker = sort?.column == c ? 1 : 0
            let header = TextWidth.of(name(of: columns[c])) + marker + 1 + TextWidth.of(typeLabel(of: columns[c]))
            let natural = cells(c).reduce(min(header, cap)) { max($0, TextWidth.of($1.0)) }
            let w = max(widths[c] ?? 0, min(natural, cap), 3)
            widths[c] = w
            return w
        }
        // The first column stays; the others scroll so that the cursor's column is on screen.
        if column > 0 && column < firstScrolled { firstScrolled = column }
        firstScrolled = max(1, min(firstScrolled, max(1, columns.count - 1)))
        func layout() -> [(c: Int, width: Int)] {
            var out = [(c: 0, width: min(columnWidth(0), width))]
            var used = out[0].width
            var c = firstScrolled
            while c < columns.count, used + Self.gap < width {
                let w = columnWidth(c)
                let room = width - used - Self.gap
                if w > room {
                    // A last column cut to what is left, if that shows anything.
                    if room >= 4 { out.append((c, room)) }
                    break
                }
                out.append((c, w))
                used += Self.gap + w
                c += 1
            }
            return out
        }
        var shownColumns = layout()
        func fullyShown() -> Bool { shownColumns.contains { $0.c == column && $0.width >= columnWidth(column) } }
        while column > 0, firstScrolled < column, !fullyShown() {
            firstScrolled += 1
            shownColumns = layout()
        }
        drawn = []
        var x = 0
        for (i, col) in shownColumns.enumerated() {
            if i > 0 { x += Self.gap }
            drawn.append((x, col.width, col.c))
            x += col.width
        }

        var out = [Line]()
        var header = Line()
        for (i, col) in shownColumns.enumerated() {
            if i > 0 { header.append(String(repeating: " ", count: Self.gap)) }
            let name = name(of: columns[col.c])
            let type = typeLabel(of: columns[col.c])
            var marker = ""
            if let sort, sort.column == col.c { marker = sort.ascending ? "↑" : "↓" }
            let nameText = TextWidth.cut(name + marker, col.width)
            var cellLine = Line()
            cellLine.append(nameText, col.c == column && focused ? Style(.bold, .selection) : .header)
            let rest = col.width - TextWidth.of(nameText)
            if rest > 1 { cellLine.append(" " + TextWidth.cut(type, rest - 1), .dim) }
            header.append(cellLine.fitted(to: col.width))
        }
        out.append(header.fitted(to: width))
        for (n, i) in visible.enumerated() {
            var line = Line()
            for (k, col) in shownColumns.enumerated() {
                if k > 0 { line.append(String(repeating: " ", count: Self.gap)) }
                let (text, style) = cells(col.c)[n]
                let fitted = TextWidth.fit(text, col.width, right: isNumeric(columns[col.c]))
                if i == cursor && col.c == column && focused {
                    line.append(fitted, Style(style.attributes.union(.bold), .selection))
                } else {
                    line.append(fitted, style)
                }
            }
            line = line.fitted(to: width)
            out.append(i == cursor ? line.adding(focused ? [.reverse] : [.bold]) : line)
        }
        return out
    }

    func select(column x: Int) {
        if let hit = drawn.first(where: { x >= $0.start && x < $0.start + $0.width }) { column = hit.column }
    }

    // MARK: filter and sort

    /// Applies a filter (nil or empty: none) and a sort, through RealmQuery on the class; a
    /// list's own order and repeats are kept. Throws `QueryError` for a bad query.
    func apply(filter newFilter: String?, sort newSort: Sort?) throws {
        let filterText = newFilter.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        var sortClause = ""
        if let newSort, let p = property(columns[newSort.column]) {
            if p.collection != nil { throw QueryError.invalidQuery(message: "Cannot sort on '\(p.name)': it is a \(TypeLabel.of(p, target: context.cells.target(of: p)))", at: nil) }
            sortClause = " SORT(\(p.name) \(newSort.ascending ? "ASC" : "DESC"))"
        }
        let keyAtCursor = key(ofRow: cursor)
        var result: [Int]?
        if filterText != nil || !sortClause.isEmpty {
            let query = try Query(store: context.store, className: objectClass.name, (filterText ?? "TRUEPREDICATE") + sortClause)
            let matches = try query.rows()
            if let base {
                if sortClause.isEmpty {
                    let set = Set(matches)
                    result = base.filter { set.contains($0) }
                } else {
                    // Sorted: in the query's order, each object as often as the list holds it.
                    var times = [Int: Int]()
                    for p in base { times[p, default: 0] += 1 }
                    result = matches.flatMap { Array(repeating: $0, count: times[$0] ?? 0) }
                }
            } else {
                result = matches
            }
        }
        if let newSort, property(columns[newSort.column]) == nil {
            // By ObjKey: the table's own order, or backwards.
            // (Positions ascend with ObjKeys, §8.)
            let ordered = (result ?? base ?? Array(0..<rows.count)).sorted()
            result = newSort.ascending ? ordered : ordered.reversed()
        }
        filter = filterText
        sort = newSort
        shown = result
        widths = Array(repeating: nil, count: columns.count)
        cursor = keyAtCursor.flatMap(row(ofKey:)) ?? 0
        top = 0
    }

    /// The row showing the object with this key, if any.
    func row(ofKey key: Int64) -> Int? {
        guard let p = rows.position(ofKey: key) else { return nil }
        if shown == nil && base == nil { return p }
        let list = shown ?? base!
        if shown != nil, sort == nil, base == nil {
            // A filter keeps table order: binary search.
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if list[mid] < p { lo = mid + 1 } else { hi = mid }
            }
            return lo < list.count && list[lo] == p ? lo : nil
        }
        return list.firstIndex(of: p)
    }

    /// `s`: by the cursor's column, ascending, then descending, then unsorted.
    func toggleSort() throws {
        let next: Sort?
        if let sort, sort.column == column {
            next = sort.ascending ? Sort(column: column, ascending: false) : nil
        } else {
            next = Sort(column: column, ascending: true)
        }
        try apply(filter: filter, sort: next)
    }

    // MARK: search

    /// `/`: the next row (after the cursor, wrapping) whose cell in the cursor's column holds
    /// `text`, ignoring case.
    func search(_ text: String) -> Int? {
        let needle = text.lowercased()
        guard rowCount > 0, !needle.isEmpty else { return nil }
        for step in 1...rowCount {
            let i = (cursor + step) % rowCount
            if cell(row: i, columns[column]).0.lowercased().contains(needle) { return i }
        }
        return nil
    }

    // MARK: navigation

    func currentObject() -> (ObjectClass, Int64)? {
        key(ofRow: cursor).map { (objectClass, $0) }
    }

    /// Enter: the link, list, set, dictionary or embedded object in the cursor's cell; the
    /// detail view for anything else.
    func destination() -> Destination? {
        guard let key = key(ofRow: cursor) else { return nil }
        guard case let .property(index) = columns[column] else { return .detail(objectClass, key: key) }
        let p = objectClass.properties[index]
        guard let value = try? value(row: cursor, property: index), !value.isNull else { return .detail(objectClass, key: key) }
        let ref = ObjectRef(className: objectClass.name, key: key)
        let origin = "\(objectClass.name)(\(context.cells.identity(objectClass, key))).\(p.name)"
        return Self.destination(of: value, property: p, ref: ref, title: origin, context: context)
            ?? .detail(objectClass, key: key)
    }

    /// Where a property's value leads: linked objects as a table, values as a list.
    static func destination(of value: Value, property p: Property, ref: ObjectRef, title: String, context: PaneContext) -> Destination? {
        if p.type == "object", let target = context.cells.target(of: p) {
            if p.collection == .dictionary { return .values(ValueSource(origin: ref, property: p.name), title: title) }
            return .objects(target, .property(ref, p.name), title: title)
        }
        if p.collection != nil { return .values(ValueSource(origin: ref, property: p.name), title: title) }
        switch value {
        case let .typedLink(table, _):
            guard let target = context.readers.objectClass(for: table) else { return nil }
            return .objects(target, .property(ref, p.name), title: title)
        case .list, .dictionary:
            return .values(ValueSource(origin: ref, property: p.name), title: title)
        default:
            return nil
        }
    }

    func reloaded(in context: PaneContext) -> Pane? {
        guard let c = context.objectClass(named: objectClass.name),
              let pane = try? TablePane(context: context, objectClass: c, source: source, title: title) else { return nil }
        let key = key(ofRow: cursor)
        if filter != nil || sort != nil { try? pane.apply(filter: filter, sort: sort) }
        pane.column = min(column, pane.columns.count - 1)
        pane.firstScrolled = firstScrolled
        pane.cursor = key.flatMap(pane.row(ofKey:)) ?? min(cursor, max(0, pane.rowCount - 1))
        pane.top = top
        return pane
    }
}

extension Value {
    var isLink: Bool {
        switch self {
        case .link, .typedLink: return true
        default: return false
        }
    }
}

extension CellText {
    /// A value cut down to what a table cell can show: long strings and binaries keep their
    /// start (the cell ends in `…` anyway), so a 70 KB binary is not encoded for one line.
    static func shortened(_ v: Value) -> Value {
        switch v {
        case let .string(bytes) where bytes.count > 400:
            // Cut at a character boundary: drop continuation bytes at the end.
            var cut = Array(bytes.prefix(400))
            while let last = cut.last, last & 0xC0 == 0x80 { cut.removeLast() }
            if !cut.isEmpty { cut.removeLast() }
            return .string(cut + Array("…".utf8))
        case let .binary(bytes) where bytes.count > 300:
            return .binary(Array(bytes.prefix(300)))
        default:
            return v
        }
    }
}
