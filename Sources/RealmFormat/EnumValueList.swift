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
    /// The same bytes back to back, for scans that read a value per object in place: a view
    /// of a buffer this list owns, so reading one takes no reference count (`bytes(at:)`).
    private let storage: UnsafeMutableRawBufferPointer
    /// Where value i starts and ends in `storage`; start −1 for null.
    private let starts: [Int]
    private let ends: [Int]

    init(ref: Int, values: [[UInt8]?]) {
        self.ref = ref
        self.values = values
        let total = values.reduce(0) { $0 + ($1?.count ?? 0) }
        storage = .allocate(byteCount: max(total, 1), alignment: 8)
        var starts = [Int](), ends = [Int](), at = 0
        starts.reserveCapacity(values.count)
        ends.reserveCapacity(values.count)
        for v in values {
            guard let v else {
                starts.append(-1)
                ends.append(-1)
                continue
            }
            let storage = storage
            v.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: storage[at..<(at + v.count)]).copyMemory(from: $0) }
            starts.append(at)
            at += v.count
            ends.append(at)
        }
        self.starts = starts
        self.ends = ends
    }

    deinit { storage.deallocate() }

    public var count: Int { values.count }

    /// The bytes of value `index` (nil for null), valid while the list lives; `index` must be
    /// a checked position (0 ..< count).
    @inline(__always)
    func bytes(at index: Int) -> UnsafeRawBufferPointer? {
        let start = starts[index]
        guard start >= 0 else { return nil }
        return UnsafeRawBufferPointer(rebasing: storage[start..<ends[index]])
    }

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
