/// `line`: sqlite's line mode, `name = value` per property, names right-aligned, a blank line
/// between objects; each value whole unless the width cuts it.
struct LineFormat: ResultFormat {
    var name: String { "line" }
    var uses: FormatUses { [.query, .shell] }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        try GridText.write(results, to: output, blankLineBeforeFooter: true) { grid, cells in
            let names = grid.columnNames
            let nameWidth = names.map(\.count).max() ?? 0
            let valueWidth = grid.width.map { max(GridText.minColumnWidth, $0 - nameWidth - 3) }
            return cells.map { row in
                names.indices.map { c in
                    let name = String(repeating: " ", count: nameWidth - names[c].count) + names[c]
                    let value = valueWidth.map { GridText.fit(row[c], $0, right: false, pad: false) } ?? row[c]
                    return grid.style.bold(name) + " = " + value
                }.joined(separator: "\n")
            }.joined(separator: "\n\n")
        }
    }
}
