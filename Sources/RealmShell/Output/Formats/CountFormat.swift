/// `count`: only the number of objects.
struct CountFormat: ResultFormat {
    var name: String { "count" }
    var uses: FormatUses { [.query] }
    var listsObjects: Bool { false }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        output.sink.write(Array("\(results.rows.count)\n".utf8))
    }
}
