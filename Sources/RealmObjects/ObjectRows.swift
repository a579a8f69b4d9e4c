import RealmFormat

/// The objects of one class read by position (0 ..< count, the table's ObjKey order), a cluster
/// leaf at a time: a screen of rows decodes the one or two leaves it falls in (realm-format.md
/// §8: at most 256 objects each), and only the columns the screen shows. Nothing reads the
/// whole class; the leaf list itself comes from the snapshot, which walks the tree once.
/// Decoded leaves are kept for a few screens, so moving line by line decodes nothing again.
public final class ObjectRows {
    public let file: RealmFile
    public let objectClass: ObjectClass
    private let leaves: [(leaf: ClusterLeaf, start: Int)]
    public let count: Int
    /// Each leaf's first ObjKey, for finding an object by key (made on first use).
    private var firstKeys: [Int64]?
    /// Decoded columns by leaf, then by property index; the most recently used last.
    private var decoded: [Int: [Int: [Value]]] = [:]
    private var recent: [Int] = []
    private static let keptLeaves = 12

    public init(file: RealmFile, objectClass: ObjectClass) throws(FormatError) {
        self.file = file
        self.objectClass = objectClass
        // Format-22 asymmetric tables read as empty, as realm-core's upgrade leaves them (§16.3).
        if let root = objectClass.table.clusterRef, try file.objectCount(of: objectClass) > 0 {
            leaves = try file.snapshot.clusterLeaves(rootRef: root)
        } else {
            leaves = []
        }
        count = leaves.last.map { $0.start + $0.leaf.count } ?? 0
    }

    /// The leaf holding `position` and the row within it.
    private func locate(_ position: Int) -> (leaf: Int, row: Int)? {
        guard position >= 0, position < count else { return nil }
        var lo = 0, hi = leaves.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if leaves[mid].start <= position { lo = mid + 1 } else { hi = mid }
        }
        let l = lo - 1
        return (l, position - leaves[l].start)
    }

    public func key(at position: Int) -> Int64? {
        guard let (l, r) = locate(position) else { return nil }
        return leaves[l].leaf.objectKey(r)
    }

    /// The position of the object with ObjKey `key`: the leaf by its first key, then the row
    /// by binary search (keys ascend through the tree, §8).
    public func position(ofKey key: Int64) -> Int? {
        guard !leaves.isEmpty else { return nil }
        if firstKeys == nil { firstKeys = leaves.map { $0.leaf.count > 0 ? $0.leaf.objectKey(0) : Int64.max } }
        let firsts = firstKeys!
        var lo = 0, hi = firsts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if firsts[mid] <= key { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        let (leaf, start) = leaves[lo - 1]
        var a = 0, b = leaf.count
        while a < b {
            let mid = (a + b) / 2
            if leaf.objectKey(mid) < key { a = mid + 1 } else { b = mid }
        }
        return a < leaf.count && leaf.objectKey(a) == key ? start + a : nil
    }

    /// The value of property `index` (in `objectClass.properties`) of the object at `position`.
    public func value(_ index: Int, at position: Int) throws(FormatError) -> Value {
        guard let (l, r) = locate(position) else { return .null }
        return try column(index, leaf: l)[r]
    }

    /// Every property value of the object at `position`, in `objectClass.properties` order.
    public func values(at position: Int) throws(FormatError) -> [Value] {
        try objectClass.properties.indices.map { i throws(FormatError) in try value(i, at: position) }
    }

    private func column(_ index: Int, leaf l: Int) throws(FormatError) -> [Value] {
        if let columns = decoded[l] {
            touch(l)
            if let values = columns[index] { return values }
        }
        let values = try file.decodeColumn(objectClass.properties[index].column, of: objectClass, in: leaves[l].leaf)
        if decoded[l] == nil {
            decoded[l] = [:]
            recent.append(l)
            if recent.count > Self.keptLeaves { decoded[recent.removeFirst()] = nil }
        }
        decoded[l]![index] = values
        return values
    }

    /// Leaves whose columns are held decoded (at most `keptLeaves`).
    public var decodedLeaves: Int { decoded.count }

    private func touch(_ l: Int) {
        guard recent.last != l, let i = recent.firstIndex(of: l) else { return }
        recent.remove(at: i)
        recent.append(l)
    }

    /// The objects that link to the object at `position`, by origin class and property
    /// (each backlink column of the class, §10.6), origins in stored order.
    public func backlinks(at position: Int) throws(FormatError) -> [(backlink: Backlink, origins: [Int64])] {
        guard let (l, r) = locate(position) else { return [] }
        let leaf = leaves[l].leaf
        var out: [(backlink: Backlink, origins: [Int64])] = []
        for b in objectClass.backlinks {
            guard let ref = leaf.columnRef(b.column.leafIndex) else {
                out.append((b, []))
                continue
            }
            let cells = try file.snapshot.decodeBacklinks(ref)
            guard cells.count == leaf.count else {
                throw .corrupt(offset: ref, reason: "class '\(objectClass.name)': backlink column holds \(cells.count) cells for \(leaf.count) objects")
            }
            out.append((b, cells[r]))
        }
        return out
    }
}

/// The row readers of one snapshot, one per class, made on first use.
public final class ObjectRowsCache {
    public let file: RealmFile
    private var readers: [Int: ObjectRows] = [:]

    public init(file: RealmFile) { self.file = file }

    public func rows(_ objectClass: ObjectClass) throws(FormatError) -> ObjectRows {
        if let r = readers[objectClass.table.position] { return r }
        let r = try ObjectRows(file: file, objectClass: objectClass)
        readers[objectClass.table.position] = r
        return r
    }

    /// The class of a table (listed, or an internal or embedded table).
    public func objectClass(for key: TableKey) -> ObjectClass? {
        if let c = file.objectClass(for: key) { return c }
        guard let table = file.snapshot.table(key: key) else { return nil }
        return try? file.makeClass(table)
    }
}
