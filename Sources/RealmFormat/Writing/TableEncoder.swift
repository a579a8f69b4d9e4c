/// Writes a `TableModel` as a new table subtree (realm-format.md §7.1, §7.5, §8): the 14-slot
/// table top, its Spec, a cluster tree of leaves of at most 256 objects, and a freshly built
/// search index for every indexed column (the primary key's always, §12.6).
public enum TableEncoder {
    static let leafSize = 256

    /// `indexes`: search-index trees to use as they are (a column whose values did not change
    /// keeps its index); the others are built.
    public static func encode(_ model: TableModel, indexes existing: [ColumnKey: MutableNode] = [:]) throws(FormatError) -> MutableNode {
        try encode(model, indexes: existing, columnLeaf: { _, _ in nil })
    }

    /// A column's cluster leaf for a range of rows, encoded by the caller (nil: from
    /// `model.values`): the legacy conversion keeps plain columns by type (`LegacyTypedColumn`).
    typealias ColumnLeafSource = (_ key: ColumnKey, _ rows: Range<Int>) -> MutableNode?

    static func encode(_ model: TableModel, indexes existing: [ColumnKey: MutableNode],
                       columnLeaf: ColumnLeafSource) throws(FormatError) -> MutableNode {
        let leafCount = (model.columns.map { $0.key.leafIndex }.max() ?? -1) + 1
        let top = MutableNode(integers: [Int64](repeating: 0, count: 14), hasRefs: true)
        top.setChild(0, try encodeSpec(model))
        top.setChild(2, try encodeClusters(model, leafCount: leafCount, columnLeaf: columnLeaf))
        top.setTagged(3, Int64(model.key.value))
        let indexes = MutableNode(integers: [Int64](repeating: 0, count: leafCount), hasRefs: true)
        for (c, column) in model.columns.enumerated() where column.isIndexed || column.key == model.primaryKey {
            if let index = existing[column.key] {
                indexes.setChild(column.key.leafIndex, index)
            } else {
                indexes.setChild(column.key.leafIndex, try buildIndex(model, column: c))
            }
        }
        top.setChild(4, indexes)
        top.setTagged(5, Int64(model.columnKeySequence))
        top.setTagged(6, Int64(model.contentVersion))
        var oppositeTables = [Int64](repeating: Int64(TableKey.null.value), count: leafCount)
        var oppositeColumns = [Int64](repeating: ColumnKey.null.value, count: leafCount)
        for column in model.columns {
            if let t = column.targetTable { oppositeTables[column.key.leafIndex] = Int64(t.value) }
            if let o = column.oppositeColumn { oppositeColumns[column.key.leafIndex] = o.value }
        }
        top.setChild(7, MutableNode(integers: oppositeTables))
        top.setChild(8, MutableNode(integers: oppositeColumns))
        top.setTagged(9, Int64(model.sequenceNumber))
        if let pk = model.primaryKey { top.setTagged(11, pk.value) }
        top.setTagged(12, Int64(model.kind.rawValue))
        return top
    }

    /// A search index over one column, built by inserting every object in key order (§12.4).
    static func buildIndex(_ model: TableModel, column c: Int) throws(FormatError) -> MutableNode {
        let values = model.values[c]
        let writer = SearchIndexWriter(columnType: model.columns[c].type) { key throws(FormatError) in
            guard let row = model.row(of: key) else { throw .corrupt(offset: 0, reason: "index refers to a missing object \(key)") }
            return values[row]
        }
        var root = SearchIndexWriter.makeEmpty()
        for (row, key) in model.objectKeys.enumerated() {
            root = try writer.insert(values[row], objKey: key, into: root)
        }
        return root
    }

    /// §7.5: [types, names (public columns), attributes, 0, 0, column keys].
    static func encodeSpec(_ model: TableModel) throws(FormatError) -> MutableNode {
        let spec = MutableNode(integers: [Int64](repeating: 0, count: 6), hasRefs: true)
        spec.setChild(0, MutableNode(integers: model.columns.map(\.specType)))
        spec.setChild(1, ShortStringArray.make(model.columns.filter { !$0.isBacklink }.map { Array($0.name.utf8) }))
        spec.setChild(2, MutableNode(integers: model.columns.map(\.specAttributes)))
        spec.setChild(5, MutableNode(integers: model.columns.map(\.key.value)))
        return spec
    }

    /// §8: leaves of ≤ 256 objects, then inner nodes over them (`clusterRoot`).
    static func encodeClusters(_ model: TableModel, leafCount: Int, columnLeaf: ColumnLeafSource = { _, _ in nil }) throws(FormatError) -> MutableNode {
        var level: [ClusterLevelEntry] = []
        var start = 0
        repeat {
            let end = min(start + leafSize, model.objectCount)
            let base = start == 0 ? 0 : model.objectKeys[start]
            level.append((base, .node(try encodeLeaf(model, rows: start..<end, base: base, leafCount: leafCount, columnLeaf: columnLeaf)), end - start))
            start = end
        } while start < model.objectCount
        guard case let .node(root) = clusterRoot(over: level) else {
            throw .corrupt(offset: 0, reason: "table '\(model.name)': cluster root is not a new node")
        }
        return root
    }

    /// A child of a cluster inner node: a committed node kept by ref, or a node to write.
    public enum ClusterChild {
        case ref(Int)
        case node(MutableNode)
    }

    /// One child of a level of the cluster tree: its absolute key offset, the node, its objects.
    public typealias ClusterLevelEntry = (base: Int64, child: ClusterChild, size: Int)

    /// The inner nodes over `level` (children in key order; the first one's base is 0):
    /// groups of ≤ 256 children with explicit offsets relative to each group's first child,
    /// so every subtree's first offset is 0 (§8.2); returns the root.
    public static func clusterRoot(over level: [ClusterLevelEntry]) -> ClusterChild {
        var level = level
        var depth: Int64 = 1
        while level.count > 1 {
            var parents: [ClusterLevelEntry] = []
            for groupStart in stride(from: 0, to: level.count, by: leafSize) {
                let group = level[groupStart..<min(groupStart + leafSize, level.count)]
                let base = group.first!.base
                let size = group.reduce(0) { $0 + $1.size }
                let inner = MutableNode(integers: [0, depth << 1 | 1, Int64(size) << 1 | 1], hasRefs: true, isInner: true)
                inner.setChild(0, MutableNode(integers: group.map { $0.base - base }, unsigned: true))
                for (j, entry) in group.enumerated() { put(entry.child, in: inner, at: 3 + j) }
                parents.append((base, .node(inner), size))
            }
            level = parents
            depth += 1
        }
        return level[0].child
    }

    /// Stores a cluster child in slot `i` of `parent`.
    public static func put(_ child: ClusterChild, in parent: MutableNode, at i: Int) {
        switch child {
        case let .ref(r):
            parent.setChild(i, nil)
            parent[i] = Int64(r)
        case let .node(n):
            parent.setChild(i, n)
        }
    }

    /// Slot 0 of a cluster leaf (§8.1): T(n) when the relative keys are 0 … n−1, otherwise an
    /// ArrayUnsigned of them.
    public static func setKeys(_ relative: [Int64], of leaf: MutableNode) {
        if relative.enumerated().allSatisfy({ Int64($0.offset) == $0.element }) {
            leaf.setTagged(0, Int64(relative.count))
        } else {
            leaf.setChild(0, MutableNode(integers: relative, unsigned: true))
        }
    }

    static func encodeLeaf(_ model: TableModel, rows: Range<Int>, base: Int64, leafCount: Int,
                           columnLeaf: ColumnLeafSource = { _, _ in nil }) throws(FormatError) -> MutableNode {
        let leaf = MutableNode(integers: [Int64](repeating: 0, count: 1 + leafCount), hasRefs: true)
        setKeys(rows.map { model.objectKeys[$0] - base }, of: leaf)
        for (c, column) in model.columns.enumerated() {
            if let given = columnLeaf(column.key, rows) {
                leaf.setChild(1 + column.key.leafIndex, given)
                continue
            }
            leaf.setChild(1 + column.key.leafIndex, try encodeColumn(model.values[c][rows], column: column))
        }
        return leaf
    }

    /// One column array of a cluster leaf (§9, §10): scalars, a ref per collection, backlinks.
    public static func encodeColumn(_ values: [Value], column: TableModel.ColumnModel) throws(FormatError) -> MutableNode {
        try encodeColumn(values[...], column: column)
    }

    /// `encodeColumn` of one leaf's rows of a whole column, read in place (no copy per leaf).
    static func encodeColumn(_ values: ArraySlice<Value>, column: TableModel.ColumnModel) throws(FormatError) -> MutableNode {
        if column.isBacklink {
            return LeafEncoder.encodeBacklinks(values.map { v in
                if case let .list(links) = v { return links.compactMap { if case let .link(k) = $0 { return k } else { return nil } } }
                return []
            })
        }
        if column.collection != nil {
            return LeafEncoder.refArray(try values.map { cell throws(FormatError) in try collectionRoot(cell, column: column) })
        }
        return try LeafEncoder.encode(values, type: column.type, nullable: column.isNullable, context: .cluster)
    }

    /// The tree of one cell of a list, set or dictionary column, nil when empty. A set is
    /// written in the order it has when that is one Realm can have made, else in Realm's
    /// order (`LeafEncoder.needsSetOrder`: sets from files of format < 24, values not yet
    /// ordered); dictionary keys are sorted (§10.3; formats 21–22 kept them in hash order).
    static func collectionRoot(_ cell: Value, column: TableModel.ColumnModel) throws(FormatError) -> MutableNode? {
        guard let kind = column.collection else {
            throw .cannotWrite(reason: "column '\(column.name)' is not a collection column")
        }
        var cell = cell
        switch cell {
        case let .list(elements) where kind == .set && LeafEncoder.needsSetOrder(elements, type: column.type):
            cell = .list(LeafEncoder.setOrder(elements, type: column.type))
        case let .dictionary(entries):
            cell = .dictionary(LeafEncoder.dictionaryOrder(entries))
        default:
            break
        }
        return try LeafEncoder.encodeCollectionCell(cell, type: column.type, nullable: column.isNullable, kind: kind,
                                                    dictionaryKeyType: Int(column.specType >> 16))
    }
}
