import RealmObjects

/// `markdown`: a GitHub-flavoured markdown table (numbers right-aligned, `|` escaped), the
/// footer as its own paragraph.
struct MarkdownFormat: ResultFormat {
    var name: String { "markdown" }
    var uses: FormatUses { [.query, .shell] }
    var isForPeople: Bool { true }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        try GridText.write(results, to: output, blankLineBeforeFooter: true) { grid, cells in grid.grid(cells, rules: .markdown) }
    }

    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int {
        GridText.rowsFitting(rows, frame: headers ? 3 : 1)
    }
}
