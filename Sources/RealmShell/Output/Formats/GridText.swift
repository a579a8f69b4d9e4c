import RealmFormat
import RealmObjects

/// What the formats for people (box, table, markdown, line) share: cells as `ValueText` shows
/// values, columns (`_key` first for classes without a primary key, numbers right-aligned)
/// fitted to the width, and the footer "N objects (M shown)".
struct GridText {
    let objectClass: ObjectClass
    let headers: Bool
    /// Columns available; nil: no limit.
    let width: Int?
    let style: TextStyle

    static let minColumnWidth = 6

    init(_ results: QueryResults, _ options: ResultOptions) {
        objectClass = results.objectClass
        headers = options.headers
        width = options.width
        style = options.style
    }

    var columnNames: [String] {
        (objectClass.primaryKey == nil ? ["_key"] : []) + objectClass.properties.map(\.name)
    }

    /// Right-aligned columns: numbers (and `_key`).
    var numericColumns: [Bool] {
        (objectClass.primaryKey == nil ? [true] : []) + objectClass.properties.map {
            $0.collection == nil && ["int", "float", "double", "decimal128"].contains($0.type)
        }
    }

    static func footer(total: Int, shown: Int) -> String {
        "\(total) \(total == 1 ? "object" : "objects") (\(shown) shown)"
    }

    /// Writes the first `maxRows` objects of `results` as `body` lays out their cells, then
    /// the footer (after a blank line when `blankLineBeforeFooter`: line and markdown output
    /// set it apart, in markdown as its own paragraph).
    static func write(_ results: QueryResults, to output: ResultOutput, blankLineBeforeFooter: Bool,
                      _ body: (GridText, [[String]]) -> String) throws {
        let options = output.options
        let shown = options.maxRows > 0 ? Array(results.rows.prefix(options.maxRows)) : results.rows
        let grid = GridText(results, options)
        var cells = [[String]]()
        for (key, row) in try results.objects(shown) {
            var line = [String]()
            if grid.objectClass.primaryKey == nil { line.append(String(key)) }
            for (p, v) in zip(grid.objectClass.properties, row) { line.append(try options.values.text(p, v)) }
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
    func grid(_ cells: [[String]], rules: Rules) -> String {
        let names = columnNames
        let numeric = numericColumns
        let natural = names.indices.map { c in max(headers ? names[c].count : 1, cells.map { $0[c].count }.max() ?? 0, 1) }
        let (widths, dropped) = fittedWidths(natural, headerWidths: names.map(\.count))
        let shown = widths.indices
        func row(_ values: [String], header: Bool) -> String {
            var parts = shown.map { c -> String in
                let text = Self.fit(values[c], widths[c], right: numeric[c] && !header)
                return header ? style.bold(text) : text
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
                lines.append(row(names, header: true))
                lines.append(rule("├", "┼", "┤", "─"))
            }
            lines += cells.map { row($0, header: false) }
            lines.append(rule("└", "┴", "┘", "─"))
        case .ascii:
            lines.append(rule("+", "+", "+", "-"))
            if headers {
                lines.append(row(names, header: true))
                lines.append(rule("+", "+", "+", "-"))
            }
            lines += cells.map { row($0, header: false) }
            lines.append(rule("+", "+", "+", "-"))
        case .markdown:
            let escaped = cells.map { $0.map { $0.replacing("|", with: "\\|") } }
            if headers {
                lines.append(row(names, header: true))
                var separators = shown.map { c in
                    numeric[c] ? String(repeating: "-", count: widths[c] + 1) + ":" : String(repeating: "-", count: widths[c] + 2)
                }
                if dropped { separators.append("---") }
                lines.append("|" + separators.joined(separator: "|") + "|")
            }
            lines += escaped.map { row($0, header: false) }
        }
        return lines.joined(separator: "\n")
    }

    /// `value` padded (left- or right-aligned) or cut to `width` characters, ending in `…`.
    static func fit(_ value: String, _ width: Int, right: Bool = false, pad: Bool = true) -> String {
        let n = value.count
        if n > width { return String(value.prefix(max(0, width - 1))) + "…" }
        guard pad else { return value }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + value : value + fill
    }
}
