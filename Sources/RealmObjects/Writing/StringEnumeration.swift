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

/// String properties enumerated in a compacted copy, for `compact --enumerate-strings`
/// (realm-enumerate's "enumerate, then compact"), in one pass: a `StringEnumerationPlan` of
/// the classes' string columns, which the compactor writes in place of the plain leaves. The
/// result is what `RealmWriter.enumerateStrings` and a compaction give, without a scratch file
/// (so an encrypted file is never written out decrypted). Needs a format-24 snapshot.
public enum EnumeratedCopy {
    public static func plan(for snapshot: Snapshot, maxDistinctPercent: Double) throws
        -> (plan: StringEnumerationPlan, properties: [RealmWriter.EnumeratedProperty]) {
        guard snapshot.fileFormat == 24 else {
            throw FormatError.cannotWrite(reason: "it has file format \(snapshot.fileFormat); only format-24 files are enumerated (upgrade a copy first)")
        }
        let file = try RealmFile(path: "", snapshot: snapshot)
        var plan = StringEnumerationPlan()
        try plan.add(file.classes.map(\.table), in: snapshot, maxDistinctPercent: maxDistinctPercent)
        let properties = plan.columns.map { c in
            RealmWriter.EnumeratedProperty(className: file.classes.first { $0.table.name == c.table }?.name ?? c.table,
                                           property: c.column, distinctValues: c.distinctValues, objects: c.objects,
                                           enumerated: c.enumerated, alreadyEnumerated: c.alreadyEnumerated)
        }
        return (plan, properties)
    }

    /// The compacted bytes of `snapshot` with its string properties enumerated.
    public static func make(of snapshot: Snapshot, maxDistinctPercent: Double, options: Compactor.Options = Compactor.Options()) throws
        -> (bytes: [UInt8], properties: [RealmWriter.EnumeratedProperty]) {
        let (plan, properties) = try plan(for: snapshot, maxDistinctPercent: maxDistinctPercent)
        return (try Compactor.compact(snapshot, options: options, enumeration: plan), properties)
    }
}
