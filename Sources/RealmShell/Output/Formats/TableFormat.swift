import RealmObjects

/// `table`: a table drawn with ASCII `+---+` rules (`query`'s default on a terminal).
struct TableFormat: ResultFormat {
    var name: String { "table" }
    var uses: FormatUses { [.query, .shell] }
    var isForPeople: Bool { true }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        try GridText.write(results, to: output, blankLineBeforeFooter: false) { grid, cells in grid.grid(cells, rules: .ascii) }
    }

    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int {
        GridText.rowsFitting(rows, frame: headers ? 4 : 2)
    }
}
