import RealmFormat
import RealmObjects

/// `line`: sqlite's line mode, `name = value` per property, names right-aligned, a blank line
/// between objects; each value whole unless the width cuts it.
struct LineFormat: ResultFormat {
    var name: String { "line" }
    var uses: FormatUses { [.query, .shell] }
    var isForPeople: Bool { true }

    /// An object takes a line per column and a blank line; the footer two lines.
    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int {
        let columns = objectClass.properties.count + (objectClass.primaryKey == nil ? 1 : 0)
        return max(1, (rows - 2) / (columns + 1))
    }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        try GridText.write(results, to: output, blankLineBeforeFooter: true) { grid, cells in
            let names = grid.columnNames
            let nameWidths = names.map(Platform.displayWidth)
            let nameWidth = nameWidths.max() ?? 0
            let valueWidth = grid.width.map { max(GridText.minColumnWidth, $0 - nameWidth - 3) }
            return cells.map { row in
                names.indices.map { c in
                    let name = String(repeating: " ", count: nameWidth - nameWidths[c]) + names[c]
                    let text = valueWidth.map { GridText.fit(row[c].text, $0, right: false, pad: false) } ?? row[c].text
                    return grid.style.bold(name) + " = " + (row[c].isNull ? grid.style.dim(text) : text)
                }.joined(separator: "\n")
            }.joined(separator: "\n\n")
        }
    }
}
