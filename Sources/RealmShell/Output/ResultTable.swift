import RealmFormat
import RealmObjects

/// Query results as a table for a terminal: one column per property (and `_key` for classes
/// without a primary key), columns narrowed to fit the terminal width, long values cut with
/// `…`, and a footer "N objects (M shown)".
struct ResultTable {
    static let maxCellWidth = 40
    static let minCellWidth = 8

    let objectClass: ObjectClass
    let csv: CSVWriter
    let width: Int

    /// `rows`: the objects shown; `total`: how many matched.
    func render(_ rows: [(key: Int64, values: [Value])], total: Int, io: ShellIO) throws -> String {
        var headers = [String]()
        if objectClass.primaryKey == nil { headers.append("_key") }
        headers += objectClass.properties.map(\.name)
        var cells = [[String]]()
        for (key, values) in rows {
            var line = [String]()
            if objectClass.primaryKey == nil { line.append(String(key)) }
            for (p, v) in zip(objectClass.properties, values) { line.append(try text(p, v)) }
            cells.append(line)
        }
        var widths = headers.indices.map { c in
            min(ResultTable.maxCellWidth, max(headers[c].count, cells.map { $0[c].count }.max() ?? 0))
        }
        // Narrow the widest columns (never below their header or 8 characters) until the table
        // fits, then drop columns from the right.
        let floors = headers.indices.map { min(widths[$0], max(ResultTable.minCellWidth, headers[$0].count)) }
        func tableWidth() -> Int { widths.reduce(0, +) + 2 * max(0, widths.count - 1) }
        while tableWidth() > width,
              let widest = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] }) {
            widths[widest] -= 1
        }
        var shown = widths.count
        while shown > 1 && widths[0..<shown].reduce(0, +) + 2 * (shown - 1) + (shown < widths.count ? 3 : 0) > width {
            shown -= 1
        }
        func line(_ values: [String]) -> String {
            var parts = (0..<shown).map { ResultTable.fit(values[$0], widths[$0]) }
            if shown < widths.count { parts.append("…") }
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var out = [io.bold(line(headers))]
        out += cells.map(line)
        let noun = total == 1 ? "object" : "objects"
        out.append(io.dim("\(total) \(noun) (\(rows.count) shown)"))
        return out.joined(separator: "\n")
    }

    /// `value` padded or cut to `width` characters.
    static func fit(_ value: String, _ width: Int) -> String {
        if value.count <= width { return value + String(repeating: " ", count: width - value.count) }
        return String(value.prefix(max(0, width - 1))) + "…"
    }

    /// A cell: scalars as CSV writes them (strings raw), control characters made visible.
    func text(_ p: Property, _ v: Value) throws -> String {
        if case .null = v { return "null" }
        let raw = String(decoding: try csv.field(p, v), as: UTF8.self)
        return String(raw.map { c -> Character in
            if c == "\n" || c == "\r\n" { return "↵" }
            if let a = c.asciiValue, a < 0x20 { return "·" }
            return c
        })
    }
}
