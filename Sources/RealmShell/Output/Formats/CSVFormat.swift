import RealmObjects

/// `csv`: RFC 4180, a header row (unless `.headers off`) and one row per object (`CSVWriter`);
/// an export takes exactly one class and streams it.
struct CSVFormat: ResultFormat {
    var name: String { "csv" }
    var uses: FormatUses { [.query, .shell, .export] }
    var exportsOneClass: Bool { true }

    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int {
        max(1, rows - (headers ? 3 : 2))
    }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        let writer = CSVWriter(file: results.file, objectClass: results.objectClass)
        if output.options.headers {
            try writer.write(objects: try results.objects(), to: output.sink)
            return
        }
        let memory = MemorySink()
        try writer.write(objects: try results.objects(), to: memory)
        var bytes = memory.bytes
        if let end = bytes.firstIndex(of: 10) { bytes.removeSubrange(0...end) }
        output.sink.write(bytes)
    }

    func export(_ file: RealmFile, classes: [ObjectClass], selected: Bool, to output: ExportOutput) throws {
        try CSVWriter(file: file, objectClass: classes[0]).write(to: output.sink, eachObject: output.objectWritten)
    }
}
