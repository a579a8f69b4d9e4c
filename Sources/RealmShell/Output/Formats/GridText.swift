import RealmFormat
import RealmObjects

/// What the formats for people (box, table, markdown, line) share: cells as `DisplayText` shows
/// values (null dimmed on a terminal, as DuckDB shows it), columns (`_key` first for classes
/// without a primary key, numbers right-aligned, types in the header with `.types on`) fitted
/// to the width — measured in terminal columns, so CJK and emoji take two — and the footer
/// "N objects (M shown)".
struct GridText {
    /// A value as shown, and whether it is null (then it is drawn dimmed).
    struct Cell {
        var text: String
        var isNull = false
    }

    let objectClass: ObjectClass
    let headers: Bool
    /// Columns available; nil: no limit.
    let width: Int?
    let style: TextStyle
    let types: Bool

    static let minColumnWidth = 6

    init(_ results: QueryResults, _ options: ResultOptions) {
        objectClass = results.objectClass
        headers = options.headers
        width = options.width
        style = options.style
        types = options.types
    }

    /// Column headers: property names, with their types (`age int?`) when asked for.
    var columnNames: [String] {
        (objectClass.primaryKey == nil ? [types ? "_key int" : "_key"] : [])
            + objectClass.properties.map { types ? $0.name + " " + SchemaText.typeText($0) : $0.name }
    }

    /// Right-aligned columns: numbers (and `_key`).
    var numericColumns: [Bool] {
        (objectClass.primaryKey == nil ? [true] : []) + objectClass.properties.map {
            $0.collection == nil && ["int", "float", "double", "decimal128"].contains($0.type)
        }
    }

    /// Rows of a grid with `frame` lines of rules and headers that fit `rows` lines with the
    /// footer and the prompt.
    static func rowsFitting(_ rows: Int, frame: Int) -> Int { max(1, rows - frame - 2) }

    static func footer(total: Int, shown: Int) -> String {
        "\(total) \(total == 1 ? "object" : "objects") (\(shown) shown)"
    }

    /// Writes the first `maxRows` objects of `results` as `body` lays out their cells, then
    /// the footer (after a blank line when `blankLineBeforeFooter`: line and markdown output
    /// set it apart, in markdown as its own paragraph).
    static func write(_ results: QueryResults, to output: ResultOutput, blankLineBeforeFooter: Bool,
                      _ body: (GridText, [[Cell]]) -> String) throws {
        let options = output.options
        let shown = options.maxRows > 0 ? Array(results.rows.prefix(options.maxRows)) : results.rows
        let grid = GridText(results, options)
        var cells = [[Cell]]()
        for (key, row) in try results.objects(shown) {
            try Platform.checkCancellation()
            var line = [Cell]()
            if grid.objectClass.primaryKey == nil { line.append(Cell(text: String(key))) }
            for (p, v) in zip(grid.objectClass.properties, row) {
                if case .null = v { line.append(Cell(text: options.values.nullText, isNull: true)) } else {
                    line.append(Cell(text: try options.values.text(p, v)))
                }
            }
            cells.append(line)
        }
        var text = body(grid, cells)
        if !text.isEmpty { text += blankLineBeforeFooter ? "\n\n" : "\n" }
        text += grid.style.dim(footer(total: results.rows.count, shown: cells.count))
        output.emit(text)
    }

    enum Rules { case box, ascii, markdown }

    /// Column widths fitted to `width`. Columns are kept from the left as long as they fit at
    /// their narrowest (their header, at least `minColumnWidth`; a `…` column says others were
    /// dropped); then the widest kept columns are narrowed until the table fits.
    func fittedWidths(_ natural: [Int], headerWidths: [Int]) -> (widths: [Int], dropped: Bool) {
        guard let width else { return (natural, false) }
        func total(_ w: ArraySlice<Int>, extra: Bool) -> Int { 1 + w.reduce(0) { $0 + $1 + 3 } + (extra ? 4 : 0) }
        if total(natural[...], extra: false) <= width { return (natural, false) }
        let floors = natural.indices.map { min(natural[$0], max(Self.minColumnWidth, min(headerWidths[$0], 16))) }
        var kept = natural.count
        while kept > 1 && total(floors[0..<kept], extra: kept < natural.count) > width { kept -= 1 }
        var widths = Array(natural[0..<kept])
        let dropped = kept < natural.count
        while total(widths[...], extra: dropped) > width,
              let widest = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] }) {
            widths[widest] -= 1
        }
        return (widths, dropped)
    }

    /// A grid with `rules`: box-drawing lines, ASCII `+--+`, or a markdown table.
    func grid(_ cells: [[Cell]], rules: Rules) -> String {
        let names = columnNames
        let numeric = numericColumns
        let cells = rules == .markdown ? cells.map { $0.map { Cell(text: $0.text.replacing("|", with: "\\|"), isNull: $0.isNull) } } : cells
        let headerWidths = names.map(Platform.displayWidth)
        let natural = names.indices.map { c in
            max(headers ? headerWidths[c] : 1, cells.map { Platform.displayWidth($0[c].text) }.max() ?? 0, 1)
        }
        let (widths, dropped) = fittedWidths(natural, headerWidths: headerWidths)
        let shown = widths.indices
        func row(_ values: [Cell], header: Bool) -> String {
            var parts = shown.map { c -> String in
                let text = Self.fit(values[c].text, widths[c], right: numeric[c] && !header)
                return header ? style.bold(text) : values[c].isNull ? style.dim(text) : text
            }
            if dropped { parts.append("…") }
            switch rules {
            case .box: return "│ " + parts.joined(separator: " │ ") + " │"
            case .ascii, .markdown: return "| " + parts.joined(separator: " | ") + " |"
            }
        }
        var all = widths
        if dropped { all.append(1) }
        func rule(_ left: String, _ middle: String, _ right: String, _ fill: String) -> String {
            left + all.map { String(repeating: fill, count: $0 + 2) }.joined(separator: middle) + right
        }
        var lines = [String]()
        switch rules {
        case .box:
            lines.append(rule("┌", "┬", "┐", "─"))
            if headers {
                lines.append(row(names.map { Cell(text: $0) }, header: true))
                lines.append(rule("├", "┼", "┤", "─"))
            }
            lines += cells.map { row($0, header: false) }
            lines.append(rule("└", "┴", "┘", "─"))
        case .ascii:
            lines.append(rule("+", "+", "+", "-"))
            if headers {
                lines.append(row(names.map { Cell(text: $0) }, header: true))
                lines.append(rule("+", "+", "+", "-"))
            }
            lines += cells.map { row($0, header: false) }
            lines.append(rule("+", "+", "+", "-"))
        case .markdown:
            if headers {
                lines.append(row(names.map { Cell(text: $0) }, header: true))
                var separators = shown.map { c in
                    numeric[c] ? String(repeating: "-", count: widths[c] + 1) + ":" : String(repeating: "-", count: widths[c] + 2)
                }
                if dropped { separators.append("---") }
                lines.append("|" + separators.joined(separator: "|") + "|")
            }
            lines += cells.map { row($0, header: false) }
        }
        return lines.joined(separator: "\n")
    }

    /// `value` padded (left- or right-aligned) or cut to `width` terminal columns, ending in
    /// `…` (and a space when a wide character did not fit).
    static func fit(_ value: String, _ width: Int, right: Bool = false, pad: Bool = true) -> String {
        let n = Platform.displayWidth(value)
        if n > width {
            var kept = "", used = 0
            for c in value {
                let w = Platform.displayWidth(c)
                if used + w > width - 1 { break }
                kept.append(c)
                used += w
            }
            return kept + "…" + (pad ? String(repeating: " ", count: max(0, width - 1 - used)) : "")
        }
        guard pad else { return value }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + value : value + fill
    }
}
