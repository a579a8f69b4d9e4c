import RealmFormat

/// Finding one object by its primary key (realm-core's `Table::find_primary_key`), and reading
/// one of its values, without decoding whole columns: the primary key's search index names the
/// candidate (realm-format.md §12; realm-core indexes every primary key, §16.3), the leaf is
/// found through `LeafKeyIndex`, and the candidate is confirmed by its stored value, read in
/// place. An int key takes a path that allocates nothing (`SearchIndexReader.lookup(int:)`).
extension TableData {
    /// The row of the object whose primary key equals `value`, nil when there is none (also
    /// for a class without a primary key).
    public func row(primaryKey value: Value) throws -> Int? {
        if case let .int(v) = value {
            // The made index borrowed, not retained: `intPrimaryKey` holds it for the table's life.
            if let made = intPrimaryKeyUnretained {
                snapshot.resetWorkBudget()
                return try made._withUnsafeGuaranteedRef { try $0.hit(v)?.row }
            }
            if let index = try intPrimaryKeyIndex() {
                snapshot.resetWorkBudget()
                return try index.hit(v)?.row
            }
        }
        guard let pk = primaryKeyColumn else { return nil }
        snapshot.resetWorkBudget()          // one lookup is one top-level operation (Snapshot)
        switch try indexedPrimaryKey(pk, value) {
        case let .found(row, _): return row
        case .absent: return nil
        case .unusable: break
        }
        guard let key = try scanPrimaryKey(pk, QValue(value)) else { return nil }
        return try keys().firstIndex(of: key)
    }

    /// The object whose primary key equals `value` (`Table::find_primary_key`): through the
    /// index when the value has the key's own type (or is null), else by comparing every
    /// object's key as realm-core's query would.
    public func find(primaryKey value: QValue) throws -> Int64? {
        if case let .int(v) = value {
            if let made = intPrimaryKeyUnretained {      // borrowed, as in `row(primaryKey:)`
                snapshot.resetWorkBudget()
                return try made._withUnsafeGuaranteedRef { try $0.hit(v)?.key }
            }
            if let index = try intPrimaryKeyIndex() {
                snapshot.resetWorkBudget()
                return try index.hit(v)?.key
            }
        }
        guard let pk = primaryKeyColumn else { return nil }
        snapshot.resetWorkBudget()
        if let v = value.storedValue(for: pk.type) {
            switch try indexedPrimaryKey(pk, v) {
            case let .found(_, key): return key
            case .absent: return nil
            case .unusable: break
            }
        }
        return try scanPrimaryKey(pk, value)
    }

    enum PrimaryKeyHit {
        case found(row: Int, key: Int64)
        case absent
        /// No index to ask (files before format 20, test builds, a value the index cannot hold).
        case unusable
    }

    /// The primary key's index asked for `value`, each candidate confirmed by its stored value.
    func indexedPrimaryKey(_ pk: Column, _ value: Value) throws -> PrimaryKeyHit {
        // Indexes of files before format 20 hold row numbers, not ObjKeys: scan those.
        guard snapshot.layoutFormat >= 20, pk.hasSearchIndex, let root = pk.searchIndexRef else { return .unusable }
        let leaves = try leaves()
        let positions = try leafKeyIndex()
        // Test-build files (≤ 4 objects per cluster) number keys differently (see
        // IndexLookup.swift): scan those too.
        guard positions.holdsProductionKeys else { return .unusable }
        let reader = SearchIndexReader(snapshot: snapshot, rootRef: root)
        if pk.type == .int, case let .int(v) = value {
            // The int path: no bytes built, no candidate array, the key confirmed in place.
            switch try reader.lookup(int: v) {
            case .none:
                return .absent
            case let .single(key, _):
                guard let (l, i) = positions.locate(key, in: leaves) else { return .absent }
                return try storedInt(pk, leaf: l, i, positions) == v ? .found(row: positions.starts[l] + i, key: key) : .absent
            case let .list(ref, _):
                for key in try reader.listKeys(ref) {
                    guard let (l, i) = positions.locate(key, in: leaves) else { continue }
                    if try storedInt(pk, leaf: l, i, positions) == v { return .found(row: positions.starts[l] + i, key: key) }
                }
                return .absent
            }
        }
        guard let data = IndexKey.bytes(of: value, columnType: pk.type) else { return .unusable }
        for key in try reader.candidates(data) {
            guard let (l, i) = positions.locate(key, in: leaves) else { continue }
            let row = leaves[l].start + i
            if ValueOrder.compare(try self.value(of: pk, atRow: row), value) == 0 { return .found(row: row, key: key) }
        }
        return .absent
    }

    /// The int stored for the object at position `i` of leaf `l`, nil for null; the column's
    /// leaf found through the kept refs (`columnRefs`), so only that node is read.
    private func storedInt(_ column: Column, leaf l: Int, _ i: Int, _ positions: LeafKeyIndex) throws -> Int64? {
        let refs = try columnRefs(column)
        guard l < refs.count, refs[l] != 0 else {
            throw FormatError.corrupt(offset: 0, reason: "class '\(className)': no data for property '\(column.name)' in cluster leaf \(l)")
        }
        let values = try IntegerLeaf(snapshot, ref: refs[l], nullable: column.isNullable)
        guard values.count == positions.counts[l] else {
            throw FormatError.corrupt(offset: refs[l], reason: "class '\(className)': property '\(column.name)' holds \(values.count) values for \(positions.counts[l]) objects")
        }
        return values.isNull(i) ? nil : values[i]
    }

    /// The slow path: every object's key compared as realm-core's query compares values.
    func scanPrimaryKey(_ pk: Column, _ value: QValue) throws -> Int64? {
        let keys = try keys()
        for (row, v) in try values(pk).enumerated() {
            let candidate = QValue(v)
            if candidate.isNull && value.isNull { return keys[row] }
            if QValue.typesAreComparable(candidate, value), QValue.compare(candidate, value) == 0 { return keys[row] }
        }
        return nil
    }

    /// The value of `column` for the object at `row` (0 ..< count), read from its cluster leaf
    /// alone. Ints, bools and doubles are read in place; other types decode the one leaf.
    public func value(of column: Column, atRow row: Int) throws -> Value {
        // An int property whose leaves were already checked whole, read with both kept
        // structures borrowed: no reference counted per object (the general path below made
        // the column on the first read).
        if column.type == .int, !column.isCollection, let value = try withMadeIntegerColumn(column, { values throws -> Value in
            try withKeptLeafKeyIndex { positions throws -> Value in
                guard let (l, i) = positions.position(ofRow: row) else { throw outside(row) }
                return values.value(leaf: l, at: i).map(Value.int) ?? .null
            }
        }) {
            return value
        }
        let positions = try leafKeyIndex()
        guard let l = positions.leaf(ofRow: row) else { throw outside(row) }
        let i = row - positions.starts[l]
        if column.collection == nil, column.type == .int {
            if let values = keptIntegerColumn(column) { return values.value(leaf: l, at: i).map(Value.int) ?? .null }
            return try storedInt(column, leaf: l, i, positions).map(Value.int) ?? .null
        }
        return try decode(column, in: leaves()[l].leaf)[i]
    }

    private func outside(_ row: Int) -> QueryError {
        .illegalOperation(message: "Row \(row) is outside class '\(className)'", at: nil)
    }
}

/// An int primary key's index with the column that confirms its hits, made once per table
/// (`TableData.intPrimaryKeyIndex`): a lookup descends the index from its kept upper levels
/// (`SearchIndexReader`, `IndexTop`), finds the object's leaf by binary search over flat
/// arrays (`LeafKeyIndex`) and confirms the stored key in place (`IntegerColumn`), without
/// allocating.
final class IntPrimaryKeyIndex {
    let reader: SearchIndexReader
    let keys: IntegerColumn
    let positions: LeafKeyIndex
    let leaves: [(leaf: ClusterLeaf, start: Int)]

    init(reader: SearchIndexReader, keys: IntegerColumn, positions: LeafKeyIndex, leaves: [(leaf: ClusterLeaf, start: Int)]) {
        self.reader = reader
        self.keys = keys
        self.positions = positions
        self.leaves = leaves
    }

    /// The row and ObjKey of the object whose primary key is `v`; nil when there is none.
    func hit(_ v: Int64) throws -> (row: Int, key: Int64)? {
        switch try reader.lookup(int: v) {
        case .none:
            return nil
        case let .single(key, _):
            guard let (l, i) = positions.locate(key, in: leaves), keys.value(leaf: l, at: i) == v else { return nil }
            return (positions.starts[l] + i, key)
        case let .list(ref, _):
            for key in try reader.listKeys(ref) {
                if let (l, i) = positions.locate(key, in: leaves), keys.value(leaf: l, at: i) == v { return (positions.starts[l] + i, key) }
            }
            return nil
        }
    }
}

extension TableData {
    /// The index of an int primary key checked for the fast path, made on first use; nil when
    /// the key is not an indexed int of a format-20+ file with production ObjKeys, or its
    /// column does not read whole (then the general path reports what is wrong).
    func intPrimaryKeyIndex() throws -> IntPrimaryKeyIndex? {
        if let known = intPrimaryKey { return known }
        var made: IntPrimaryKeyIndex?
        if snapshot.fileFormat >= 20, let pk = primaryKeyColumn, pk.type == .int, pk.collection == nil, pk.hasSearchIndex,
           let root = pk.searchIndexRef, let keys = keptIntegerColumn(pk) {
            let positions = try leafKeyIndex()
            if positions.holdsProductionKeys {
                made = IntPrimaryKeyIndex(reader: try SearchIndexReader(snapshot: snapshot, rootRef: root).holdingTop(), keys: keys,
                                          positions: positions, leaves: try leaves())
            }
        }
        intPrimaryKey = .some(made)
        return made
    }
}

extension QValue {
    /// This value as a column of `type` stores it, when it has exactly that type (or is null):
    /// the form the column's search index is keyed by. nil when only a comparison across types
    /// (an int key and a double constant, say) could match.
    func storedValue(for type: ColumnType) -> Value? {
        switch (self, type) {
        case (.null, _): return .null
        case let (.int(i), .int): return .int(i)
        case let (.string(s), .string): return .string(s)
        case let (.objectId(o), .objectId): return .objectId(o)
        case let (.uuid(u), .uuid): return .uuid(u)
        default: return nil
        }
    }
}
