import RealmFormat

/// The canonical JSON dump of a whole file (fixtures/README.md): format version, schema
/// version, classes, then every top-level class's objects, streamed class by class.
public enum CanonicalDump {
    /// `classNames` limits the classes and objects written to those classes; `eachObject` is
    /// called after each object (progress, cancellation: its errors end the dump). A file
    /// opened with `RealmFile(dumping:)` has its old classes written from their cells.
    public static func write(_ file: RealmFile, to sink: ByteSink, classNames: Set<String>? = nil,
                             eachObject: () throws -> Void = {}) throws {
        var out = JSONEmitter(sink: sink)
        out.beginObject()
        out.key("formatVersion")
        out.int(Int64(file.snapshot.fileFormat))
        out.key("schemaVersion")
        if let v = try file.schemaVersion() { out.int(v) } else { out.null() }
        let classes = classNames.map { names in file.classes.filter { names.contains($0.name) } } ?? file.classes
        out.key("classes")
        SchemaJSON.writeClasses(classes, to: &out)
        out.key("objects")
        out.beginObject()
        let writer = ObjectJSON(file: file)
        for c in classes where !c.isEmbedded {
            out.key(c.name)
            out.beginArray()
            if let rows = file.legacyRows[c.table.key] {
                try writer.writeObjects(c, rows: rows, to: &out, eachObject: eachObject)
            } else {
                try file.forEachObject(of: c) { key, values in
                    try writer.writeObject(c, key: key, values: values, to: &out)
                    try eachObject()
                }
            }
            out.end()
        }
        out.end()
        out.end()
        out.raw("\n")
        out.flush()
    }
}
