import RealmFormat

/// The canonical JSON dump of a whole file (fixtures/README.md): format version, schema
/// version, classes, then every top-level class's objects, streamed class by class.
public enum CanonicalDump {
    /// `classNames` limits the classes and objects written to those classes; `eachObject` is
    /// called after each object (progress, cancellation: its errors end the dump).
    public static func write(_ file: RealmFile, to sink: ByteSink, classNames: Set<String>? = nil,
                             eachObject: () throws -> Void = {}) throws {
        try write(file, direct: [:], to: sink, classNames: classNames, eachObject: eachObject)
    }

    /// The dump of the file at `path`, opened for it alone: a file of formats 2–9 is read
    /// through `LegacyExportRows` (its classes without links are written from the
    /// conversion's cells, not from cluster leaves encoded and decoded again); any other
    /// file as `RealmFile(path:)` opens it. The bytes are those of `write(RealmFile(…))`
    /// (`LegacyExportTests`).
    public static func write(path: String, key: EncryptionKey? = nil, to sink: ByteSink, classNames: Set<String>? = nil,
                             eachObject: () throws -> Void = {}) throws {
        if let legacy = try LegacyExportRows.open(path: path, key: key, direct: classTables) {
            try write(RealmFile(path: path, snapshot: legacy.snapshot), direct: legacy.tables, to: sink,
                      classNames: classNames, eachObject: eachObject)
        } else {
            try write(RealmFile(path: path, snapshot: Snapshot(path: path, key: key)), direct: [:], to: sink,
                      classNames: classNames, eachObject: eachObject)
        }
    }

    /// `write(path:)` of a file's logical (decrypted) bytes; `path` names it in errors.
    public static func write(image: ByteImage, path: String, to sink: ByteSink, classNames: Set<String>? = nil,
                             eachObject: () throws -> Void = {}) throws {
        if let legacy = try LegacyExportRows.open(image: image, direct: classTables) {
            try write(RealmFile(path: path, snapshot: legacy.snapshot), direct: legacy.tables, to: sink,
                      classNames: classNames, eachObject: eachObject)
        } else {
            try write(RealmFile(path: path, snapshot: Snapshot(image: image)), direct: [:], to: sink,
                      classNames: classNames, eachObject: eachObject)
        }
    }

    /// The tables the dump writes objects of: the classes (`RealmFile`'s rule).
    static func classTables(_ names: [String]) -> Set<String> {
        let raw = RealmFile.isRawForm(tableNames: names)
        return Set(names.filter { RealmFile.className(tableName: $0, isRawForm: raw) != nil })
    }

    /// `direct`: tables whose objects are written from these rows (the image has them empty).
    static func write(_ file: RealmFile, direct: [TableKey: LegacyTableRows], to sink: ByteSink, classNames: Set<String>?,
                      eachObject: () throws -> Void) throws {
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
            if let rows = direct[c.table.key] {
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
