import RealmFormat

/// Enumerated string columns (realm-format.md §9.4.4), chosen the way realm-core's
/// `realm-enumerate` tool chooses them before it compacts a file for shipping: every plain
/// string property that is not a primary key and whose distinct values are at most a given
/// share of the class's objects gets a value list, and each object stores a position in it
/// (an integer of 1 to 32 bits instead of the string). Objects, schema and indexes read the
/// same; only the size changes. realm-core and the SDKs read and write such columns.
extension RealmWriter {
    public struct EnumeratedProperty: Sendable, Equatable {
        public let className: String
        public let property: String
        /// The distinct values (null counts as one). For a property left as it is, counting
        /// stopped as soon as there were too many: it holds at least this many.
        public let distinctValues: Int
        public let objects: Int
        /// False when the property was left as it is (too many distinct values).
        public let enumerated: Bool
        public let alreadyEnumerated: Bool
    }

    /// Enumerates every plain string property of every class with at most
    /// `maxDistinctPercent` % distinct values (100: all of them; a class without objects is
    /// left alone, as realm-enumerate does). Returns what was considered, in schema order.
    public func enumerateStrings(maxDistinctPercent: Double) throws(FormatError) -> [EnumeratedProperty] {
        var out: [EnumeratedProperty] = []
        for objectClass in file.classes {
            let editor = try editor(objectClass.table.position)
            guard editor.objectCount > 0 else { continue }
            let limit = maxDistinctPercent >= 100 ? Int.max : Int(Double(editor.objectCount) * maxDistinctPercent / 100)
            for (c, column) in objectClass.table.columns.enumerated()
            where column.type == .string && column.collection == nil && c != editor.primaryKeyColumn
                && !column.attributes.contains(.fullText) {
                let already = editor.enumeratedValueCount(column: c) != nil
                let (distinct, enumerated) = try editor.enumerateStrings(column: c, maxDistinct: limit)
                out.append(.init(className: objectClass.name, property: column.name, distinctValues: distinct,
                                 objects: editor.objectCount, enumerated: enumerated, alreadyEnumerated: already))
            }
        }
        return out
    }
}

/// A copy of a snapshot with its string properties enumerated, for `compact --enumerate-strings`
/// (realm-enumerate's "enumerate, then compact"): the live data is written to a scratch file,
/// a write transaction enumerates there, and the caller compacts the returned snapshot. The
/// scratch file (and its lock file) is removed before this returns; the snapshot keeps its
/// mapping. Needs a format-24 snapshot, as every write does.
public enum EnumeratedCopy {
    public static func make(of snapshot: Snapshot, scratchPath: String, maxDistinctPercent: Double) throws
        -> (snapshot: Snapshot, properties: [RealmWriter.EnumeratedProperty]) {
        defer {
            Platform.remove(scratchPath)
            Platform.remove(scratchPath + ".lock")
        }
        let bytes = try Compactor.compact(snapshot)
        let fd = try Platform.createNew(scratchPath, mode: 0o600).get()
        let written = Platform.writeAll(fd, bytes, at: 0)
        guard Platform.closeFile(fd), written else {
            throw FormatError.io(path: scratchPath, errno: Platform.lastErrno(), action: "write")
        }
        let writer = try RealmWriter(path: scratchPath, durable: false)
        let properties = try writer.enumerateStrings(maxDistinctPercent: maxDistinctPercent)
        try writer.commit()
        return (try Snapshot(path: scratchPath), properties)
    }
}
