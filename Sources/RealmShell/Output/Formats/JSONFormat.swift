import RealmObjects

/// `json`: query results as an array of objects as the canonical dump encodes them; an export
/// is the canonical dump itself (fixtures/README.md), byte for byte as realm-core's dumps.
struct JSONFormat: ResultFormat {
    var name: String { "json" }
    var uses: FormatUses { [.query, .shell, .export] }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        let writer = ObjectJSON(file: results.file)
        var out = JSONEmitter(sink: output.sink)
        out.beginArray()
        for (key, values) in try results.objects() {
            try writer.writeObject(results.objectClass, key: key, values: values, to: &out)
        }
        out.end()
        out.raw("\n")
        out.flush()
    }

    func export(_ file: RealmFile, classes: [ObjectClass], selected: Bool, to output: ExportOutput) throws {
        try CanonicalDump.write(file, to: output.sink, classNames: selected ? Set(classes.map(\.name)) : nil)
    }
}
