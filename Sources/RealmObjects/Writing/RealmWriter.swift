import RealmFormat

/// One write transaction at the object-store level (object-store.md §4–§7): create, upsert,
/// update and delete objects with Realm's rules — strict types, unique primary keys, links
/// resolved by identity, embedded objects owned by exactly one parent and deleted with it,
/// links to deleted objects repaired, backlinks kept exact (realm-format.md §13.10). Each
/// table gets a `TableEditor` when first touched, which changes only the leaves, columns and
/// index entries the changes reach; `commit()` writes them in one copy-on-write commit.
/// Nothing reaches the file unless every change succeeded.
public final class RealmWriter {
    public enum Policy: Sendable { case insert, upsert }

    public struct Summary: Sendable, Equatable {
        public var inserted = 0, updated = 0, deleted = 0
        public var description: String { "inserted \(inserted), updated \(updated), deleted \(deleted)" }
    }

    public let path: String
    let transaction: WriteTransaction
    /// The schema as committed (class names, properties).
    public let file: RealmFile
    var editors: [Int: TableEditor] = [:]
    /// How `create` stores each property of a class, worked out once per class.
    var creationPlans: [ObjectIdentifier: CreationPlan] = [:]
    var lastCreationPlan: CreationPlan?
    public internal(set) var summary = Summary()

    /// How each table's editor writes (tests turn a fast path off to compare).
    let editorOptions: TableEditor.Options

    public init(path: String, editorOptions: TableEditor.Options = .init()) throws(FormatError) {
        self.path = path
        self.editorOptions = editorOptions
        transaction = try WriteTransaction(path: path)
        file = try RealmFile(path: path, snapshot: transaction.snapshot)
    }

    /// Ends without writing anything.
    public func rollback() { transaction.rollback() }

    // MARK: tables

    func editor(_ position: Int) throws(FormatError) -> TableEditor {
        if let e = editors[position] { return e }
        guard let table = file.snapshot.tables.first(where: { $0.position == position }) else {
            throw .corrupt(offset: 0, reason: "no table at position \(position)")
        }
        let e = try TableEditor(transaction: transaction, table: table, options: editorOptions)
        editors[position] = e
        return e
    }

    func editor(for key: TableKey) throws(FormatError) -> TableEditor {
        guard let t = file.snapshot.table(key: key) else { throw .corrupt(offset: 0, reason: "link to a missing table \(key.value)") }
        return try editor(t.position)
    }

    /// The object with primary key `value` in the table, if any.
    func objectKey(primaryKey value: Value, in position: Int) throws(FormatError) -> Int64? {
        try editor(position).objectKey(primaryKey: value)
    }

    // MARK: commit

    /// Writes every changed table and commits (realm-format.md §13.5). A transaction that
    /// changed nothing ends without touching the file.
    public func commit() throws(FormatError) {
        let changed = editors.values.filter(\.isModified).sorted { $0.position < $1.position }
        guard !changed.isEmpty else {
            transaction.rollback()
            return
        }
        for editor in changed { try editor.finish() }
        try transaction.commit()
    }
}

/// A primary-key value that can be looked up (§7.7: int, string, ObjectId, UUID, or null).
public typealias PrimaryKey = PrimaryKeyValue
