/// Lists, sets, dictionaries and backlink cells as whole B+trees (realm-format.md §10, §11).
extension LeafEncoder {
    /// A whole list or set: one root leaf, or inner nodes over leaves of at most 1000 elements.
    /// nil for an empty collection (ref 0 in the owning slot). A set's elements must already be
    /// in Realm's order (`setOrder`). A B+tree of links gets the context flag on its root when it
    /// holds an unresolved link (key ≤ −2), so the SDKs hide those entries (§10.1).
    public static func encodeCollection(_ elements: [Value], type: ColumnType, nullable: Bool) throws(FormatError) -> MutableNode? {
        guard !elements.isEmpty else { return nil }
        if type == .mixed { return try mixedBPlusTree(elements, nesting: 0) }
        let root = try bPlusTree(count: elements.count) { range throws(FormatError) in
            try encode(Array(elements[range]), type: type, nullable: nullable, context: .collection)
        }
        if type == .link || type == .linkList {
            root.context = elements.contains { v in
                if case let .link(key) = v { return key <= -2 }
                return false
            }
        }
        return root
    }

    /// A dictionary (§10.3): [keys B+tree, values B+tree of Mixed]; `keyType` is the Spec's key
    /// DataType (2 = string, 0 = int). Keys must be unique and ascending (`dictionaryOrder`
    /// sorts them); string keys may not start with `$` or contain `.`. nil when empty.
    public static func encodeDictionary(_ entries: [DictionaryEntry], keyType: Int) throws(FormatError) -> MutableNode? {
        guard !entries.isEmpty else { return nil }
        return try dictionaryNode(entries, keyType: keyType, nesting: 0)
    }

    /// The collection column leaf of a cluster (§9.14, `ArrayRef`): one collection root per row,
    /// 0 for an empty one. `cells` are `.list` values (lists, sets) or `.dictionary` values;
    /// null is taken as empty.
    public static func encodeCollectionColumn(_ cells: [Value], type: ColumnType, nullable: Bool,
                                              kind: CollectionKind, dictionaryKeyType: Int = 2) throws(FormatError) -> MutableNode {
        refArray(try cells.map { cell throws(FormatError) in
            try encodeCollectionCell(cell, type: type, nullable: nullable, kind: kind, dictionaryKeyType: dictionaryKeyType)
        })
    }

    /// One cell of a collection column: its tree, nil when empty. A set of Mixed holds no
    /// nested list or dictionary (§10.5: Realm nests collections in Mixed values of lists and
    /// dictionaries only, and cannot read one in a set).
    public static func encodeCollectionCell(_ cell: Value, type: ColumnType, nullable: Bool,
                                            kind: CollectionKind, dictionaryKeyType: Int = 2) throws(FormatError) -> MutableNode? {
        switch (cell, kind) {
        case (.null, _): return nil
        case let (.list(elements), .set):
            if let nested = elements.first(where: \.isCollection) {
                throw .cannotWrite(reason: "a set cannot hold a collection (it holds \(nested.kindName))")
            }
            return try encodeCollection(elements, type: type, nullable: nullable)
        case let (.list(elements), .list):
            return try encodeCollection(elements, type: type, nullable: nullable)
        case let (.dictionary(entries), .dictionary):
            return try encodeDictionary(entries, keyType: dictionaryKeyType)
        default:
            throw .cannotWrite(reason: "a \(kind.rawValue) column cannot hold \(cell.kindName)")
        }
    }

    /// Backlink cells (§10.6), one per row: no origin → 0, one → T(origin key), more → ref to a
    /// B+tree of the origin keys.
    public static func encodeBacklinks(_ rows: [[Int64]]) -> MutableNode {
        var slots = [Int64](repeating: 0, count: rows.count)
        var trees = [(Int, MutableNode)]()
        for (i, keys) in rows.enumerated() {
            if keys.count == 1, keys[0] >= 0, keys[0] < 1 << 62 {
                slots[i] = keys[0] << 1 | 1
            } else if !keys.isEmpty {
                // A key that cannot be tagged still fits a one-element tree, which readers accept.
                trees.append((i, bPlusTree(count: keys.count) { range in MutableNode(integers: Array(keys[range])) }))
            }
        }
        let node = MutableNode(integers: slots, hasRefs: true)
        for (i, tree) in trees { node.setChild(i, tree) }
        return node
    }

    // MARK: building blocks

    /// [keys, values] with both B+trees split at the same positions.
    static func dictionaryNode(_ entries: [DictionaryEntry], keyType: Int, nesting: Int) throws(FormatError) -> MutableNode {
        let keyColumn: ColumnType
        switch keyType {
        case 0: keyColumn = .int
        case 2: keyColumn = .string
        default: throw .cannotWrite(reason: "dictionary keys of type \(keyType) (only string 2 and int 0 exist)")
        }
        let keys = entries.map(\.key)
        for (i, key) in keys.enumerated() {
            if case let .string(s) = key, s.first == UInt8(ascii: "$") || s.contains(UInt8(ascii: ".")) {
                throw .cannotWrite(reason: "dictionary key '\(String(decoding: s, as: UTF8.self))' starts with '$' or contains '.'")
            }
            if i > 0, ValueOrder.compare(keys[i - 1], key) >= 0 {
                throw .cannotWrite(reason: "dictionary keys are not unique and ascending at entry \(i) (sort them with dictionaryOrder)")
            }
        }
        let keyTree = try bPlusTree(count: keys.count) { range throws(FormatError) in
            try encode(Array(keys[range]), type: keyColumn, nullable: false, context: .collection)
        }
        let values = entries.map(\.value)
        var ids = NestedCollectionIDs()
        let valueTree = try bPlusTree(count: values.count) { range throws(FormatError) in
            try mixedLeaf(Array(values[range]), ids: &ids, nesting: nesting)
        }
        let node = MutableNode(integers: [0, 0], hasRefs: true)
        node.setChild(0, keyTree)
        node.setChild(1, valueTree)
        return node
    }

    /// A B+tree over `count` elements (§11): a single leaf up to 1000 elements, otherwise leaves
    /// of 1000 (the last one shorter) under inner nodes of up to 1000 children. Every child but
    /// the last holds exactly E = 1000^depth elements, so inner nodes use the compact form
    /// [T(E), children…, T(size)], as Realm builds trees by appending.
    static func bPlusTree<E: Error>(count: Int, leaf: (Range<Int>) throws(E) -> MutableNode) throws(E) -> MutableNode {
        if count <= maxNodeSize { return try leaf(0..<count) }
        var level = [(node: MutableNode, size: Int)]()
        for start in stride(from: 0, to: count, by: maxNodeSize) {
            let range = start..<min(start + maxNodeSize, count)
            level.append((try leaf(range), range.count))
        }
        var perChild = maxNodeSize
        while level.count > 1 {
            var parents = [(node: MutableNode, size: Int)]()
            for start in stride(from: 0, to: level.count, by: maxNodeSize) {
                let group = level[start..<min(start + maxNodeSize, level.count)]
                let size = group.reduce(0) { $0 + $1.size }
                let slots = [tagged(perChild)] + [Int64](repeating: 0, count: group.count) + [tagged(size)]
                let inner = MutableNode(integers: slots, isInner: true)
                for (j, child) in group.enumerated() { inner.setChild(j + 1, child.node) }
                parents.append((inner, size))
            }
            level = parents
            perChild *= maxNodeSize
        }
        return level[0].node
    }

    /// A has-refs array of children, 0 where there is none (`ArrayRef`).
    static func refArray(_ children: [MutableNode?]) -> MutableNode {
        let node = MutableNode(integers: [Int64](repeating: 0, count: children.count), hasRefs: true)
        for (i, child) in children.enumerated() where child != nil { node.setChild(i, child) }
        return node
    }
}
