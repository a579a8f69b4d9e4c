/// `count`: only the number of objects.
struct CountFormat: ResultFormat {
    var name: String { "count" }
    var uses: FormatUses { [.query] }
    var listsObjects: Bool { false }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        output.sink.write(Self.line(results.rows.count))
    }

    static func line(_ count: Int) -> [UInt8] { Array("\(count)\n".utf8) }
}
