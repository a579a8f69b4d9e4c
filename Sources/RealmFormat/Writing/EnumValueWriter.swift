/// The value list of an enumerated string column under edit (realm-format.md §9.4.4). The
/// column's leaves hold positions in this list; a value not yet in it is appended, as
/// realm-core's `ArrayString::set` and `insert` do, so every position a committed leaf holds
/// keeps its meaning and no leaf is rewritten because another one changed. Values are never
/// removed (realm-core keeps them too), so a list only grows until the column is enumerated
/// again or converted back.
///
/// Shared by every leaf of the column (`ColumnCells.Kind.enumerated`); compared by identity.
final class EnumValueWriter: Equatable {
    private var table: ByteStringTable
    /// The list in the committed file, replaced at commit when `isChanged`.
    let committedRef: Int?
    /// Positions below this are in the committed list (those a committed leaf may hold).
    let committedCount: Int
    private(set) var isChanged: Bool

    /// The committed list of a column that is already enumerated. realm-core never stores a
    /// value twice (it looks a value up before it appends it); a list that does cannot be
    /// extended without changing what some position means, so it is refused.
    init(committed list: EnumValueList) throws(FormatError) {
        var table = ByteStringTable()
        for v in list.values {
            let inserted = v.map { bytes in bytes.withUnsafeBufferPointer { table.insert($0).inserted } } ?? table.insert(nil).inserted
            guard inserted else {
                throw .corrupt(offset: list.ref, reason: "the value list of an enumerated string column holds a value twice")
            }
        }
        self.table = table
        committedRef = list.ref
        committedCount = list.count
        isChanged = false
    }

    /// A new list (a column being enumerated), in the order `table` holds its values.
    init(new table: ByteStringTable) {
        self.table = table
        committedRef = nil
        committedCount = 0
        isChanged = true
    }

    var count: Int { table.count }

    /// The position of `value`, appended to the list when it is new.
    func position(of value: [UInt8]?) -> Int64 {
        guard let value else { return position(ofBytes: nil) }
        return value.withUnsafeBufferPointer { position(ofBytes: $0) }
    }

    func position(ofBytes value: UnsafeBufferPointer<UInt8>?) -> Int64 {
        let (p, inserted) = table.insert(value)
        if inserted { isChanged = true }
        return Int64(p)
    }

    /// The position of null, if the list holds it.
    var nullPosition: Int64? { table.nullPosition.map(Int64.init) }

    /// The value at a position a cell holds (checked when it was read or handed out).
    func value(at position: Int64) -> [UInt8]? { table.value(Int(position)) }

    /// The list as an `ArrayString` leaf: short, medium or big by its longest value (§9.4).
    /// Written from the table's one buffer: no array per value.
    func encode() throws(FormatError) -> MutableNode {
        let longest = table.longest
        guard longest <= LeafEncoder.maxStringSize else {
            throw .cannotWrite(reason: "a value of \(longest) bytes exceeds Realm's limit of \(LeafEncoder.maxStringSize) bytes")
        }
        return LeafEncoder.stringLeaf(of: table)
    }

    static func == (a: EnumValueWriter, b: EnumValueWriter) -> Bool { a === b }
}
