import RealmFormat
import RealmObjects

/// `json`: query results as an array of objects as the canonical dump encodes them — laid out
/// for a person on a terminal, compact when piped (one object per line, as DuckDB's json
/// mode); an export is the canonical dump itself (fixtures/README.md), byte for byte as
/// realm-core's dumps.
struct JSONFormat: ResultFormat {
    var name: String { "json" }
    var uses: FormatUses { [.query, .shell, .export] }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        let writer = ObjectJSON(file: results.file)
        let pretty = output.options.prettyJSON
        var out = JSONEmitter(sink: output.sink, pretty: pretty)
        if pretty { out.beginArray() } else { out.raw("[") }
        for (i, (key, values)) in try results.objects().enumerated() {
            try Platform.checkCancellation()
            if !pretty && i > 0 { out.raw(",\n") }
            try writer.writeObject(results.objectClass, key: key, values: values, to: &out)
        }
        if pretty { out.end() } else { out.raw("]") }
        out.raw("\n")
        out.flush()
    }

    /// Laid out, an object takes a line per column and its braces.
    func objectsFitting(screenRows rows: Int, objectClass: ObjectClass, headers: Bool) -> Int {
        let columns = objectClass.properties.count + (objectClass.primaryKey == nil ? 1 : 0)
        return max(1, (rows - 4) / (columns + 2))
    }

    func export(_ file: RealmFile, classes: [ObjectClass], selected: Bool, to output: ExportOutput) throws {
        try CanonicalDump.write(file, to: output.sink, classNames: selected ? Set(classes.map(\.name)) : nil, eachObject: output.objectWritten)
    }
}
