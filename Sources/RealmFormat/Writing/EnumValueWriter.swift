/// The value list of an enumerated string column under edit (realm-format.md §9.4.4). The
/// column's leaves hold positions in this list; a value not yet in it is appended, as
/// realm-core's `ArrayString::set` and `insert` do, so every position a committed leaf holds
/// keeps its meaning and no leaf is rewritten because another one changed. Values are never
/// removed (realm-core keeps them too), so a list only grows until the column is enumerated
/// again or converted back.
///
/// Shared by every leaf of the column (`ColumnCells.Kind.enumerated`); compared by identity.
final class EnumValueWriter: Equatable {
    /// Values by position; nil is a null string.
    private(set) var values: [[UInt8]?]
    /// The first position of each value (realm-core's `find_first`).
    private var positions: [[UInt8]?: Int64] = [:]
    /// The list in the committed file, replaced at commit when `isChanged`.
    let committedRef: Int?
    /// Positions below this are in the committed list (those a committed leaf may hold).
    let committedCount: Int
    private(set) var isChanged: Bool

    /// The committed list of a column that is already enumerated.
    init(committed list: EnumValueList) {
        values = list.values
        committedRef = list.ref
        committedCount = list.count
        isChanged = false
        for (i, v) in values.enumerated() where positions[v] == nil { positions[v] = Int64(i) }
    }

    /// A new list for a column being enumerated: its distinct values in realm-core's order,
    /// null first, then by unsigned bytes (`StringData::operator<`, as `enumerate_string_column`
    /// builds it with `lower_bound`).
    init(distinct: Set<[UInt8]?>) {
        values = distinct.sorted(by: Self.precedes)
        committedRef = nil
        committedCount = 0
        isChanged = true
        for (i, v) in values.enumerated() { positions[v] = Int64(i) }
    }

    static func precedes(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool {
        switch (a, b) {
        case let (a?, b?): return a.lexicographicallyPrecedes(b)
        case (nil, _?): return true
        default: return false
        }
    }

    /// The position of `value`, appended to the list when it is new.
    func position(of value: [UInt8]?) -> Int64 {
        if let p = positions[value] { return p }
        let p = Int64(values.count)
        values.append(value)
        positions[value] = p
        isChanged = true
        return p
    }

    /// The position of null, if the list holds it.
    var nullPosition: Int64? { positions[nil] }

    /// The value at a position a cell holds (checked when it was read or handed out).
    func value(at position: Int64) -> [UInt8]? { values[Int(position)] }

    /// The list as an `ArrayString` leaf: short, medium or big by its longest value (§9.4).
    func encode() throws(FormatError) -> MutableNode {
        try LeafEncoder.encode(values.map { $0.map(Value.string) ?? .null }, type: .string, nullable: true, context: .cluster)
    }

    static func == (a: EnumValueWriter, b: EnumValueWriter) -> Bool { a === b }
}
