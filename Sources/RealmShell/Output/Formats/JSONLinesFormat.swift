import RealmFormat
import RealmObjects

/// `jsonl`: one compact object per line; an export writes every object of every top-level
/// class, its class in `"_class"`.
struct JSONLinesFormat: ResultFormat {
    var name: String { "jsonl" }
    var uses: FormatUses { [.query, .shell, .export] }

    func write(_ results: QueryResults, to output: ResultOutput) throws {
        let writer = ObjectJSON(file: results.file)
        var out = JSONEmitter(sink: output.sink, pretty: false)
        for (key, values) in try results.objects() {
            try Platform.checkCancellation()
            try writer.writeObject(results.objectClass, key: key, values: values, to: &out)
            out.raw("\n")
        }
        out.flush()
    }

    func export(_ file: RealmFile, classes: [ObjectClass], selected: Bool, to output: ExportOutput) throws {
        let writer = ObjectJSON(file: file)
        var out = JSONEmitter(sink: output.sink, pretty: false)
        for c in classes where !c.isEmbedded {
            try file.forEachObject(of: c) { key, values in
                try writer.writeObject(c, key: key, values: values, to: &out, classMember: true)
                out.raw("\n")
                try output.objectWritten()
            }
        }
        out.flush()
    }
}
