/// Lists, sets and dictionaries (realm-format.md §10, §11).
extension Snapshot {
    /// All elements of a B+tree whose leaves hold `type` elements.
    public func decodeBPlusTree(_ ref: Int, type: ColumnType, nullable: Bool) throws(FormatError) -> [Value] {
        if type == .mixed { return try decodeMixedList(ref, nesting: 0) }
        var values = [Value]()
        try BPlusTree(snapshot: self, rootRef: ref).forEachLeaf { leaf throws(FormatError) in
            values += try self.decodeLeaf(leaf.ref, type: type, nullable: nullable, context: .collection)
        }
        return values
    }

    /// The value of a list, set or dictionary cell of `column` (ref 0 = empty collection).
    public func decodeCollection(_ ref: Int?, column: Column) throws(FormatError) -> Value {
        guard let ref else { return column.collection == .dictionary ? .dictionary([]) : .list([]) }
        switch column.collection {
        case .dictionary:
            if layoutFormat == 21 || layoutFormat == 22 {
                return .dictionary(try decodeClusterDictionary(ref, keyType: column.dictionaryKeyType))
            }
            return .dictionary(try decodeDictionary(ref, keyType: column.dictionaryKeyType, nesting: 0))
        case .set:
            var values = try decodeBPlusTree(ref, type: column.type, nullable: column.isNullable)
            // Opening a format < 24 file re-sorts these sets in the new order (§16.3).
            if layoutFormat < 24 && [.string, .binary, .mixed].contains(column.type) {
                values.sort { ValueOrder.compare($0, $1) < 0 }
            }
            return .list(values)
        default:
            return .list(try decodeBPlusTree(ref, type: column.type, nullable: column.isNullable))
        }
    }

    /// §10.3 (formats 23, 24): [keys B+tree, values B+tree of Mixed].
    func decodeDictionary(_ ref: Int, keyType: Int, nesting: Int) throws(FormatError) -> [DictionaryEntry] {
        let node = try refsNode(ref, minimum: 2, what: "dictionary")
        let keys: [Value] = try node.ref(0).map { r throws(FormatError) in
            try decodeBPlusTree(r, type: keyType == 0 ? .int : .string, nullable: false)
        } ?? []
        let values: [Value] = try node.ref(1).map { r throws(FormatError) in try decodeMixedList(r, nesting: nesting) } ?? []
        guard keys.count == values.count else {
            throw .corrupt(offset: ref, reason: "dictionary has \(keys.count) keys but \(values.count) values")
        }
        return zip(keys, values).map { DictionaryEntry(key: $0, value: $1) }
    }

    /// §10.3 (formats 21, 22): a cluster tree with keys in leaf index 0 and values in 1.
    func decodeClusterDictionary(_ ref: Int, keyType: Int) throws(FormatError) -> [DictionaryEntry] {
        var out = [DictionaryEntry]()
        try ClusterTree(snapshot: self, rootRef: ref).forEachLeaf { leaf throws(FormatError) in
            guard let keysRef = leaf.columnRef(0), let valuesRef = leaf.columnRef(1) else {
                throw .corrupt(offset: leaf.node.ref, reason: "dictionary cluster lacks keys or values")
            }
            let keys = try self.decodeLeaf(keysRef, type: keyType == 0 ? .int : .string, nullable: false, context: .cluster)
            let values = try self.decodeMixed(valuesRef)
            guard keys.count == values.count else {
                throw .corrupt(offset: leaf.node.ref, reason: "dictionary cluster keys and values differ in length")
            }
            out += zip(keys, values).map { DictionaryEntry(key: $0, value: $1) }
        }
        return out
    }
}
