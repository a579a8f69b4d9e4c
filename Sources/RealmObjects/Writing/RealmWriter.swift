import RealmFormat

/// One write transaction at the object-store level (object-store.md §4–§7): create, upsert,
/// update and delete objects with Realm's rules — strict types, unique primary keys, links
/// resolved by identity, embedded objects owned by exactly one parent and deleted with it,
/// links to deleted objects nullified, backlinks kept exact. Tables are loaded into
/// `TableModel`s when first touched; `commit()` writes each changed table as a new subtree in
/// one copy-on-write commit. Nothing reaches the file unless every change succeeded.
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
    /// Loaded tables, boxed so that changes happen in place (a `TableModel` copy would copy
    /// every column array).
    var boxes: [Int: TableBox] = [:]
    var modified: Set<Int> = []
    var primaryKeys: [Int: [PrimaryKey: Int64]] = [:]
    public internal(set) var summary = Summary()

    public init(path: String) throws(FormatError) {
        self.path = path
        transaction = try WriteTransaction(path: path)
        file = try RealmFile(path: path, snapshot: transaction.snapshot)
    }

    /// Ends without writing anything.
    public func rollback() { transaction.rollback() }

    // MARK: tables

    func model(_ position: Int) throws(FormatError) -> TableModel { try box(position).model }

    func box(_ position: Int) throws(FormatError) -> TableBox {
        if let b = boxes[position] { return b }
        guard let table = file.snapshot.tables.first(where: { $0.position == position }) else {
            throw .corrupt(offset: 0, reason: "no table at position \(position)")
        }
        let b = TableBox(try file.snapshot.tableModel(table))
        boxes[position] = b
        return b
    }

    func position(of key: TableKey) throws(FormatError) -> Int {
        guard let t = file.snapshot.table(key: key) else { throw .corrupt(offset: 0, reason: "link to a missing table \(key.value)") }
        return t.position
    }

    /// The object with primary key `value` in the table, if any.
    func objectKey(primaryKey value: PrimaryKey, in position: Int) throws(FormatError) -> Int64? {
        if primaryKeys[position] == nil {
            let m = try model(position)
            var map = [PrimaryKey: Int64]()
            if let pk = m.primaryKey, let c = m.columnIndex(key: pk) {
                for (row, v) in m.values[c].enumerated() {
                    if let k = PrimaryKey(v) { map[k] = m.objectKeys[row] }
                }
            }
            primaryKeys[position] = map
        }
        return primaryKeys[position]?[value]
    }

    // MARK: commit

    /// Writes every changed table (backlinks recomputed) and commits (realm-format.md §13.5).
    /// A transaction that changed nothing ends without touching the file.
    public func commit() throws(FormatError) {
        guard !modified.isEmpty else {
            transaction.rollback()
            return
        }
        try refreshBacklinks()
        let tables = try transaction.child(transaction.top, 1)
        guard let tables else { throw .corrupt(offset: 0, reason: "no tables array") }
        for position in modified.sorted() {
            guard var m = boxes[position]?.model else { continue }
            m.contentVersion += 1
            let old = tables.integers[position]
            if old != 0 && old & 1 == 0 { try transaction.releaseSubtree(ref: Int(old)) }
            tables.setChild(position, try TableEncoder.encode(m))
        }
        try transaction.commit()
    }
}

final class TableBox {
    var model: TableModel
    init(_ model: TableModel) { self.model = model }
}

/// A primary-key value that can be looked up (§7.7: int, string, ObjectId, UUID, or null).
public struct PrimaryKey: Hashable, Sendable {
    let bytes: [UInt8]
    let kind: UInt8

    public init?(_ value: Value) {
        switch value {
        case .null: (kind, bytes) = (0, [])
        case let .int(i): (kind, bytes) = (1, withUnsafeBytes(of: i, Array.init))
        case let .string(s): (kind, bytes) = (2, s)
        case let .objectId(o): (kind, bytes) = (3, o.bytes)
        case let .uuid(u): (kind, bytes) = (4, u.bytes)
        default: return nil
        }
    }
}
