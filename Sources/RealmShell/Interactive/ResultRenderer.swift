import RealmFormat
import RealmObjects

/// How the shell prints query results (`.mode`).
enum OutputMode: String, CaseIterable {
    case box, table, markdown, csv, json, jsonl, line

    /// Modes for people: rows limited by `.maxrows`, values as `ValueText` shows them, a footer.
    var isForPeople: Bool { self == .box || self == .table || self == .markdown || self == .line }
}

/// Query results in one of the output modes. Human modes build text (so the shell can page
/// it); csv, json and jsonl stream the canonical encodings to a sink.
struct ResultRenderer {
    let file: RealmFile
    let objectClass: ObjectClass
    let mode: OutputMode
    let headers: Bool
    /// Columns available; nil: no limit (output that is not a terminal, no `.maxwidth`).
    let width: Int?
    let values: ValueText
    let style: TextStyle

    /// Text styling for a terminal with colour (identity otherwise).
    struct TextStyle {
        let color: Bool
        func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
        func dim(_ s: String) -> String { color ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    }

    static let minColumnWidth = 6

    var columnNames: [String] {
        (objectClass.primaryKey == nil ? ["_key"] : []) + objectClass.properties.map(\.name)
    }

    /// Right-aligned columns: numbers (and `_key`).
    var numericColumns: [Bool] {
        (objectClass.primaryKey == nil ? [true] : []) + objectClass.properties.map {
            $0.collection == nil && ["int", "float", "double", "decimal128"].contains($0.type)
        }
    }

    /// The footer human modes end with.
    static func footer(total: Int, shown: Int) -> String {
        "\(total) \(total == 1 ? "object" : "objects") (\(shown) shown)"
    }

    // MARK: human modes

    /// The text of `rows` (the shown objects) and the footer counting `total`.
    func text(_ rows: [(key: Int64, values: [Value])], total: Int) throws -> String {
        var cells = [[String]]()
        for (key, row) in rows {
            var line = [String]()
            if objectClass.primaryKey == nil { line.append(String(key)) }
            for (p, v) in zip(objectClass.properties, row) { line.append(try values.text(p, v)) }
            cells.append(line)
        }
        var out: String
        switch mode {
        case .line: out = lineText(cells)
        case .markdown: out = gridText(cells, style: .markdown)
        case .table: out = gridText(cells, style: .ascii)
        default: out = gridText(cells, style: .box)
        }
        // Line and markdown output set the footer apart (in markdown, as its own paragraph).
        if !out.isEmpty { out += mode == .line || mode == .markdown ? "\n\n" : "\n" }
        out += style.dim(Self.footer(total: total, shown: rows.count))
        return out
    }

    enum Grid { case box, ascii, markdown }

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

    func gridText(_ cells: [[String]], style grid: Grid) -> String {
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
            switch grid {
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
        switch grid {
        case .box:
            lines.append(rule("┌", headers ? "┬" : "┬", "┐", "─"))
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

    /// sqlite's line mode: `name = value`, names right-aligned, a blank line between objects.
    func lineText(_ cells: [[String]]) -> String {
        let names = columnNames
        let nameWidth = names.map(\.count).max() ?? 0
        let valueWidth = width.map { max(Self.minColumnWidth, $0 - nameWidth - 3) }
        return cells.map { row in
            names.indices.map { c in
                let name = String(repeating: " ", count: nameWidth - names[c].count) + names[c]
                let value = valueWidth.map { Self.fit(row[c], $0, right: false, pad: false) } ?? row[c]
                return style.bold(name) + " = " + value
            }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// `value` padded (left- or right-aligned) or cut to `width` characters, ending in `…`.
    static func fit(_ value: String, _ width: Int, right: Bool = false, pad: Bool = true) -> String {
        let n = value.count
        if n > width { return String(value.prefix(max(0, width - 1))) + "…" }
        guard pad else { return value }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + value : value + fill
    }

    // MARK: data modes

    /// csv (RFC 4180, as `query --format csv`), json (an array of objects as the canonical
    /// dump encodes them), jsonl (one per line).
    func write(_ rows: [(key: Int64, values: [Value])], to sink: ByteSink) throws {
        switch mode {
        case .csv:
            let memory = MemorySink()
            try CSVWriter(file: file, objectClass: objectClass).write(objects: rows, to: memory)
            var bytes = memory.bytes
            if !headers, let end = bytes.firstIndex(of: 10) { bytes.removeSubrange(0...end) }
            sink.write(bytes)
        case .jsonl:
            let writer = ObjectJSON(file: file)
            var out = JSONEmitter(sink: sink, pretty: false)
            for (key, values) in rows {
                try writer.writeObject(objectClass, key: key, values: values, to: &out)
                out.raw("\n")
            }
            out.flush()
        default:
            let writer = ObjectJSON(file: file)
            var out = JSONEmitter(sink: sink)
            out.beginArray()
            for (key, values) in rows { try writer.writeObject(objectClass, key: key, values: values, to: &out) }
            out.end()
            out.raw("\n")
            out.flush()
        }
    }
}
