/// The value list of an enumerated string column (realm-format.md §9.4.4): an `ArrayString`
/// leaf referenced from Spec slot 4, whose position is what the column's leaves store.
///
/// Every leaf of such a column indexes the same list, so it is decoded once per snapshot and
/// shared (`Snapshot.enumValueList`); decoding it per leaf would cost a whole list per 256
/// objects. realm-core sorts the list when it enumerates a column and appends to it when a
/// later write stores a new value (`ArrayString::set`), so readers must not assume it sorted.
public final class EnumValueList {
    public let ref: Int
    /// The values by position; nil is a null string.
    public let values: [[UInt8]?]

    init(ref: Int, values: [[UInt8]?]) {
        self.ref = ref
        self.values = values
    }

    public var count: Int { values.count }

    /// The value at `index`, an element read from an enumerated leaf at `leafRef`.
    @inline(__always)
    func value(_ index: Int64, leafRef: Int) throws(FormatError) -> [UInt8]? {
        guard index >= 0, index < Int64(values.count) else {
            throw .corrupt(offset: leafRef, reason: "enumerated string index \(index) is outside its value list of \(values.count)")
        }
        return values[Int(index)]
    }
}

extension Snapshot {
    /// The value list at `ref`, decoded on first use and kept for the snapshot's lifetime.
    public func enumValueList(_ ref: Int) throws(FormatError) -> EnumValueList {
        if let list = enumValueLists[ref] { return list }
        let node = try self.node(ref)
        // The list is itself a short, medium or big string leaf, never an enumerated one.
        guard node.hasRefs || node.header.widthType == .multiply else {
            throw .corrupt(offset: ref, reason: "enumerated string value list is not a string leaf")
        }
        let list = EnumValueList(ref: ref, values: try decodeStrings(ref, nullable: true))
        enumValueLists[ref] = list
        return list
    }
}
