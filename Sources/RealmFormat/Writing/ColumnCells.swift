/// The cells of one column of one cluster leaf under edit (`ClusterLeafEdit`), kept by type:
/// ints and bools as their leaf elements, doubles as bit patterns, strings in one buffer
/// (`StringCells`), timestamps as structs. Inserting, filtering and encoding them then needs
/// no boxed `Value` per cell, which is what bulk inserts and mass deletes spend their time on.
///
/// A list, set or dictionary column keeps `Value`s and, for each object whose collection has
/// not changed, the ref of its committed B+tree: that tree is written back by ref, its bytes
/// as they were (a set Realm ordered stays in that order, §10.2), and only the trees of
/// changed or removed objects leave the file.
///
/// Every other column (links, backlinks, Mixed, …) keeps `Value`s. So does a typed column
/// given a value its form cannot hold (null in a required column, a string in an int column):
/// it turns into `Value`s, and `encode` then fails with the leaf encoder's own message, as it
/// did before columns were typed. Reading a cell gives what `Snapshot.decodeLeaf` gives.
struct ColumnCells {
    /// How a column's cells are kept, decided once per column.
    enum Kind: Equatable {
        case int                       // required int
        case bool(nullable: Bool)      // 0, 1, and 3 for null (§9.2)
        case double(nullable: Bool)    // the null pattern for null (§9.3)
        case string(nullable: Bool)
        case timestamp(nullable: Bool)
        /// An enumerated string column (§9.4.4): positions in its value list, kept as integers.
        case enumerated(EnumValueWriter, nullable: Bool)
        /// A list, set or dictionary column: values, and the committed refs of unchanged cells.
        case collection
        case values

        /// `enumValues`: the column's value list when it is an enumerated string column.
        init(_ column: TableModel.ColumnModel, enumValues: EnumValueWriter?) {
            if let enumValues {
                self = .enumerated(enumValues, nullable: column.isNullable)
                return
            }
            guard !column.isBacklink else {
                self = .values
                return
            }
            guard column.collection == nil else {
                self = .collection
                return
            }
            let nullable = column.isNullable
            switch column.type {
            case .int: self = nullable ? .values : .int
            case .bool: self = .bool(nullable: nullable)
            case .double: self = .double(nullable: nullable)
            case .string: self = .string(nullable: nullable)
            case .timestamp: self = .timestamp(nullable: nullable)
            default: self = .values
            }
        }
    }

    private enum Form { case integers, doubles, strings, timestamps, values }

    let kind: Kind
    private var form: Form
    private var integers: [Int64] = []
    private var doubles: [UInt64] = []
    private var strings = StringCells()
    private var timestamps: [Timestamp?] = []
    private var values: [Value] = []
    /// `.collection`: per cell the ref of its committed collection while the cell is
    /// unchanged, else 0 (written from `values`).
    private var committedRefs: [Int64] = []
    /// `.collection`: committed collections of cells that were replaced or removed, which
    /// leave the file with the column array (`releaseCommitted`).
    private(set) var abandonedRefs: [Int] = []

    init(kind: Kind) {
        self.kind = kind
        switch kind {
        case .int, .bool, .enumerated: form = .integers
        case .double: form = .doubles
        case .string: form = .strings
        case .timestamp: form = .timestamps
        case .values, .collection: form = .values
        }
    }

    init(kind: Kind, values: [Value]) {
        self.init(kind: kind)
        for v in values { append(v) }
    }

    /// Whether the cells are kept in their column's typed form (not turned into `Value`s).
    var isTyped: Bool { form != .values }

    /// A required int column's cells as they are held.
    var intValues: [Int64]? { form == .integers && kind == .int ? integers : nil }

    /// An enumerated column's cells from their positions in its value list.
    init(kind: Kind, positions: [Int64]) {
        self.init(kind: kind)
        integers = positions
    }

    /// Calls `body` with each cell of a string column as bytes (nil for null), without a
    /// boxed value per cell when the cells are kept as strings.
    func forEachString(_ body: (UnsafeBufferPointer<UInt8>?) throws(FormatError) -> Void) throws(FormatError) {
        if form == .strings {
            var failure: FormatError?
            strings.forEachValue { v in
                guard failure == nil else { return }
                do throws(FormatError) { try body(v) } catch { failure = error }
            }
            if let failure { throw failure }
            return
        }
        for row in 0..<count {
            switch self[row] {
            case let .string(s): try s.withUnsafeBufferPointer { b throws(FormatError) in try body(b) }
            case .null: try body(nil)
            default: throw .cannotWrite(reason: "a string column holds a value that is not a string")
            }
        }
    }

    var count: Int {
        switch form {
        case .integers: return integers.count
        case .doubles: return doubles.count
        case .strings: return strings.count
        case .timestamps: return timestamps.count
        case .values: return values.count
        }
    }

    subscript(row: Int) -> Value {
        switch form {
        case .integers:
            let v = integers[row]
            switch kind {
            case .bool: return v == 0 ? .bool(false) : v == 1 ? .bool(true) : .null
            case let .enumerated(list, _): return list.value(at: v).map(Value.string) ?? .null
            default: return .int(v)
            }
        case .doubles:
            let bits = doubles[row]
            return bits == Snapshot.doubleNull ? .null : .double(Double(bitPattern: bits))
        case .strings:
            return strings[row].map { .string(Array($0)) } ?? .null
        case .timestamps:
            return timestamps[row].map(Value.timestamp) ?? .null
        case .values:
            return values[row]
        }
    }

    // MARK: changing

    mutating func append(_ value: Value) {
        insert(value, at: count)
    }

    mutating func insert(_ value: Value, at row: Int) {
        // Appends (bulk loads) skip the general insert's range replacement.
        func put<T>(_ a: inout [T], _ x: T) { if row == a.count { a.append(x) } else { a.insert(x, at: row) } }
        switch (form, kind, value) {
        case let (.integers, .int, .int(v)): put(&integers, v)
        case let (.integers, .bool, .bool(b)): put(&integers, b ? 1 : 0)
        case (.integers, .bool(nullable: true), .null): put(&integers, 3)
        case let (.integers, .enumerated(list, _), .string(s)) where s.count <= LeafEncoder.maxStringSize:
            put(&integers, list.position(of: s))
        case let (.integers, .enumerated(list, nullable: true), .null): put(&integers, list.position(of: nil))
        case let (.doubles, _, .double(d)) where d.bitPattern != Snapshot.doubleNull: put(&doubles, d.bitPattern)
        case (.doubles, .double(nullable: true), .null): put(&doubles, Snapshot.doubleNull)
        case let (.strings, _, .string(s)) where s.count <= LeafEncoder.maxStringSize: strings.insert(s, at: row)
        case (.strings, .string(nullable: true), .null): strings.insert(nil, at: row)
        case let (.timestamps, _, .timestamp(t)): put(&timestamps, t)
        case (.timestamps, .timestamp(nullable: true), .null): put(&timestamps, nil)
        default:
            becomeValues()
            put(&values, value)
            if kind == .collection { put(&committedRefs, 0) }
        }
    }

    mutating func set(_ row: Int, _ value: Value) {
        switch (form, kind, value) {
        case let (.integers, .int, .int(v)): integers[row] = v
        case let (.integers, .bool, .bool(b)): integers[row] = b ? 1 : 0
        case (.integers, .bool(nullable: true), .null): integers[row] = 3
        case let (.integers, .enumerated(list, _), .string(s)) where s.count <= LeafEncoder.maxStringSize:
            integers[row] = list.position(of: s)
        case let (.integers, .enumerated(list, nullable: true), .null): integers[row] = list.position(of: nil)
        case let (.doubles, _, .double(d)) where d.bitPattern != Snapshot.doubleNull: doubles[row] = d.bitPattern
        case (.doubles, .double(nullable: true), .null): doubles[row] = Snapshot.doubleNull
        case let (.strings, _, .string(s)) where s.count <= LeafEncoder.maxStringSize: strings.set(row, s)
        case (.strings, .string(nullable: true), .null): strings.set(row, nil)
        case let (.timestamps, _, .timestamp(t)): timestamps[row] = t
        case (.timestamps, .timestamp(nullable: true), .null): timestamps[row] = nil
        default:
            becomeValues()
            values[row] = value
            if kind == .collection { abandon(row) }
        }
    }

    /// The committed collection of `row` is no longer the cell's.
    private mutating func abandon(_ row: Int) {
        if committedRefs[row] != 0 { abandonedRefs.append(Int(committedRefs[row])) }
        committedRefs[row] = 0
    }

    /// Removes the cells from `row` on and returns them (a leaf split, §8.3).
    mutating func removeSuffix(from row: Int) -> ColumnCells {
        var tail = ColumnCells(kind: kind)
        tail.form = form
        switch form {
        case .integers:
            tail.integers = Array(integers[row...])
            integers.removeSubrange(row...)
        case .doubles:
            tail.doubles = Array(doubles[row...])
            doubles.removeSubrange(row...)
        case .strings:
            tail.strings = strings.removeSuffix(from: row)
        case .timestamps:
            tail.timestamps = Array(timestamps[row...])
            timestamps.removeSubrange(row...)
        case .values:
            tail.values = Array(values[row...])
            values.removeSubrange(row...)
            if kind == .collection {
                tail.committedRefs = Array(committedRefs[row...])
                committedRefs.removeSubrange(row...)
            }
        }
        return tail
    }

    /// Appends `other`'s cells (a leaf merge, §8.3).
    mutating func append(contentsOf other: ColumnCells) {
        var other = other
        if form != other.form {
            becomeValues()
            other.becomeValues()
        }
        switch form {
        case .integers: integers += other.integers
        case .doubles: doubles += other.doubles
        case .strings: strings.append(contentsOf: other.strings)
        case .timestamps: timestamps += other.timestamps
        case .values:
            values += other.values
            // `other`'s abandoned trees are released with its own column array.
            if kind == .collection { committedRefs += other.committedRefs }
        }
    }

    /// Keeps the cells whose flag is set (one flag per cell).
    mutating func filter(_ keep: [Bool]) {
        func kept<T>(_ a: [T]) -> [T] {
            var out = [T]()
            out.reserveCapacity(a.count)
            for i in a.indices where keep[i] { out.append(a[i]) }
            return out
        }
        switch form {
        case .integers: integers = kept(integers)
        case .doubles: doubles = kept(doubles)
        case .strings: strings = strings.filtered(keep)
        case .timestamps: timestamps = kept(timestamps)
        case .values:
            values = kept(values)
            if kind == .collection {
                for i in committedRefs.indices where !keep[i] && committedRefs[i] != 0 { abandonedRefs.append(Int(committedRefs[i])) }
                committedRefs = kept(committedRefs)
            }
        }
    }

    private mutating func becomeValues() {
        guard form != .values else { return }
        values = (0..<count).map { self[$0] }
        integers = []
        doubles = []
        strings = StringCells()
        timestamps = []
        form = .values
    }

    // MARK: disk

    /// The cells of the column leaf at `ref`, read as `Snapshot.decodeColumn` reads them; the
    /// leaf must hold `expected` values (its objects). With `keep`, only the rows whose flag is
    /// set are read (a removal decodes just the objects that stay).
    static func decode(_ snapshot: Snapshot, ref: Int, kind: Kind, column: Column, of table: Table,
                       expected: Int, keeping keep: [Bool]? = nil) throws(FormatError) -> ColumnCells {
        func check(_ stored: Int) throws(FormatError) {
            guard stored == expected else {
                throw .corrupt(offset: ref, reason: "table '\(table.name)': column '\(column.name)' holds \(stored) values for \(expected) objects")
            }
        }
        func kept<T>(_ all: [T]) -> [T] {
            guard let keep else { return all }
            var out = [T]()
            for i in all.indices where keep[i] { out.append(all[i]) }
            return out
        }
        var cells = ColumnCells(kind: kind)
        switch cells.form {
        case .integers:
            let node = try snapshot.plainInts(ref)
            try check(node.count)
            if case let .enumerated(list, _) = kind {
                guard !node.hasRefs else {
                    throw .corrupt(offset: ref, reason: "table '\(table.name)': column '\(column.name)' is enumerated but its leaf is not")
                }
                cells.integers.reserveCapacity(node.count)
                for i in 0..<node.count where keep?[i] ?? true {
                    let p = node.int(i)
                    guard p >= 0, p < Int64(list.committedCount) else {
                        throw .corrupt(offset: ref, reason: "enumerated string index \(p) is outside its value list of \(list.committedCount)")
                    }
                    cells.integers.append(p)
                }
            } else if case .bool = kind {
                for i in 0..<node.count where keep?[i] ?? true {
                    let v = node.int(i)
                    cells.integers.append(v == 0 || v == 1 ? v : 3)
                }
            } else if let keep {
                cells.integers.reserveCapacity(node.count)
                for i in 0..<node.count where keep[i] { cells.integers.append(node.int(i)) }
            } else {
                cells.integers = node.ints()
            }
        case .doubles:
            let node = try snapshot.fixedWidth(ref, width: 8, what: "double")
            try check(node.count)
            #if _endian(little)
            if keep == nil {
                // All rows: the leaf's 8-byte little-endian elements (§9.3) are the cells' bit
                // patterns as they are, one copy (an update of one double column per leaf).
                let bytes = node.image.rawSlice(node.payload, 8 * node.count)
                cells.doubles = [UInt64](unsafeUninitializedCapacity: node.count) { buffer, initialized in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
                    initialized = node.count
                }
                break
            }
            #endif
            cells.doubles.reserveCapacity(node.count)
            for i in 0..<node.count where keep?[i] ?? true { cells.doubles.append(node.u64(at: 8 * i)) }
        case .strings:
            let reader = try StringLeafReader(snapshot, ref: ref)
            try check(reader.count)
            cells.strings.reserve(reader.count, bytes: 16 * reader.count)
            try reader.forEachValue(keeping: keep) { v in
                if let v { cells.strings.append(v) } else { cells.strings.append(nil as [UInt8]?) }
            }
        case .timestamps:
            let all = try snapshot.decodeTimestamps(ref)
            try check(all.count)
            cells.timestamps = kept(all)
        case .values:
            guard kind == .collection else {
                let all = try snapshot.decodeColumn(ref, column: column, of: table)
                try check(all.count)
                cells.values = kept(all)
                break
            }
            let roots = try snapshot.node(ref)
            guard roots.hasRefs, roots.header.widthType == .bits else {
                throw .corrupt(offset: ref, reason: "table '\(table.name)': column '\(column.name)' holds no collection refs")
            }
            try check(roots.count)
            cells.values.reserveCapacity(roots.count)
            cells.committedRefs.reserveCapacity(roots.count)
            for i in 0..<roots.count {
                let root = roots.ref(i)
                if keep?[i] ?? true {
                    cells.values.append(try snapshot.decodeCollection(root, column: column))
                    cells.committedRefs.append(Int64(root ?? 0))
                } else if let root {
                    cells.abandonedRefs.append(root)
                }
            }
        }
        return cells
    }

    /// Releases what the committed column array at `ref` held that these cells do not keep:
    /// the array, and for a collection column the trees of replaced and removed cells
    /// (unchanged ones are written back by ref); for any other column everything below it.
    func releaseCommitted(_ ref: Int, in transaction: WriteTransaction) throws(FormatError) {
        guard kind == .collection else {
            try transaction.releaseSubtree(ref: ref)
            return
        }
        try transaction.releaseNode(ref: ref)
        for tree in abandonedRefs { try transaction.releaseSubtree(ref: tree) }
    }

    /// The column leaf holding the cells, as `TableEncoder.encodeColumn` would write their values.
    func encode(_ column: TableModel.ColumnModel) throws(FormatError) -> MutableNode {
        switch form {
        case .integers:
            if case .bool(nullable: false) = kind, integers.contains(3) { throw LeafEncoder.nullInRequired(.bool) }
            if case let .enumerated(list, nullable: false) = kind, let null = list.nullPosition, integers.contains(null) {
                throw LeafEncoder.nullInRequired(.string)
            }
            return MutableNode(integers: integers)
        case .doubles:
            if case .double(nullable: false) = kind, doubles.contains(Snapshot.doubleNull) { throw LeafEncoder.nullInRequired(.double) }
            #if _endian(little)
            let payload = doubles.withUnsafeBytes { [UInt8]($0) }
            #else
            var payload = [UInt8]()
            payload.reserveCapacity(8 * doubles.count)
            for bits in doubles { withUnsafeBytes(of: bits.littleEndian) { payload.append(contentsOf: $0) } }
            #endif
            return MutableNode(bytes: payload, width: doubles.isEmpty ? 0 : 8, count: doubles.count)
        case .strings:
            if case .string(nullable: false) = kind, strings.nulls.contains(true) { throw LeafEncoder.nullInRequired(.string) }
            return LeafEncoder.stringLeaf(of: strings)
        case .timestamps:
            if case .timestamp(nullable: false) = kind, timestamps.contains(where: { $0 == nil }) {
                throw LeafEncoder.nullInRequired(.timestamp)
            }
            return LeafEncoder.timestampLeaf(timestamps)
        case .values:
            if kind == .collection {
                // Unchanged cells keep their committed trees, by ref.
                let node = MutableNode(integers: committedRefs, hasRefs: true)
                for row in values.indices where committedRefs[row] == 0 {
                    node.setChild(row, try TableEncoder.collectionRoot(values[row], column: column))
                }
                return node
            }
            if case .enumerated = kind {
                // Never a plain string leaf in an enumerated column: the typed form again, or the
                // encoder's own refusal of the value that did not fit it.
                let typed = ColumnCells(kind: kind, values: values)
                if typed.form == .integers { return try typed.encode(column) }
                _ = try TableEncoder.encodeColumn(values, column: column)
                throw .cannotWrite(reason: "column '\(column.name)': a value does not fit an enumerated string column")
            }
            return try TableEncoder.encodeColumn(values, column: column)
        }
    }
}
