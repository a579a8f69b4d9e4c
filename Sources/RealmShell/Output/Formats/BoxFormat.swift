import RealmObjects

/// `box`: a table drawn with box-drawing lines, fitted to the terminal (the shell's default).
struct BoxFormat: ResultFormat {
    var name: String { "box" }
    var uses: FormatUses { [.query, .shell] }
    var isForPeople: Bool { true }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        try GridText.write(results, to: output, blankLineBeforeFooter: false) { grid, cells in grid.grid(cells, rules: .box) }
    }

    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int {
        GridText.rowsFitting(rows, frame: headers ? 4 : 2)
    }
}
