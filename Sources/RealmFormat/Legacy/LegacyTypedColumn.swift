/// One old column of single values kept by type for the image (legacy-formats.md §8.4): ints
/// and bools as their leaf elements, doubles and floats as the bytes of their old leaves (the
/// old float leaves are today's, §5.3), strings in one buffer (`StringCells`), timestamps (and DateTimes) as
/// structs. Its cluster leaves are then encoded from these straight away: no `Value` per cell
/// is made, boxed, encoded and freed, which is most of what converting a large table costs.
///
/// Only columns nothing else in the conversion reads take this form: not links, not indexed
/// (the index is built from values), not the primary key, not `!OID`/`!ROW_INDEX`, not the
/// `pk` table's. `read` gives nil for any other column, for a column whose stored nullability
/// differs from its model's, and for content the value path must see (a null pattern in a
/// required double, a string too long for a leaf, and any read error): that path then gives
/// the same result or the same error. Each leaf equals `LeafEncoder.encode` of the values the
/// value path reads (`LegacyTypedColumnTests` compares the images of every old fixture).
struct LegacyTypedColumn {
    enum Cells {
        /// Required ints; bools as 0, 1 and (nullable) 3 (§9.2).
        case integers([Int64])
        case nullableIntegers([Int64?])
        /// The payload bytes of the old leaves, back to back, `width` bytes per value.
        case bytes([UInt8], width: Int)
        case strings(StringCells)
        case timestamps([Timestamp?])
    }

    let cells: Cells
    let count: Int

    /// `c` read by type, or nil when the value path must read it (see above).
    static func read(_ reader: LegacyColumnReader, _ c: LegacySpec.Column, model: TableModel.ColumnModel,
                     root: Int) -> LegacyTypedColumn? {
        guard c.isNullable == model.isNullable, model.collection == nil, !model.isIndexed else { return nil }
        do {
            return try readCells(reader, c, root: root)
        } catch {
            return nil
        }
    }

    private static func readCells(_ reader: LegacyColumnReader, _ c: LegacySpec.Column, root: Int) throws(FormatError) -> LegacyTypedColumn? {
        let nullable = c.isNullable
        switch c.type {
        case .int:
            if nullable {
                let ints = try reader.ints(root, nullable: true)
                return LegacyTypedColumn(cells: .nullableIntegers(ints), count: ints.count)
            }
            let ints = try reader.plainInts(root)
            return LegacyTypedColumn(cells: .integers(ints), count: ints.count)
        case .bool:
            // A bool is 0 or 1 once read (`v != 0`), 3 when null.
            let ints = try reader.ints(root, nullable: nullable).map { v -> Int64 in v.map { $0 != 0 ? 1 : 0 } ?? 3 }
            return LegacyTypedColumn(cells: .integers(ints), count: ints.count)
        case .float, .double:
            let width = c.type == .float ? 4 : 8
            var bytes = [UInt8]()
            var count = 0
            var nullPattern = false
            try reader.forEachLeaf(root) { leaf throws(FormatError) in
                let node = try reader.source.fixedWidth(leaf.ref, width: width, what: c.type == .float ? "float" : "double")
                let payload = node.payloadBytes()
                guard payload.count >= width * node.count else {
                    throw reader.corrupt(leaf.ref, "float leaf shorter than its \(node.count) values")
                }
                let values = UnsafeRawBufferPointer(rebasing: payload[0..<(width * node.count)])
                if !nullable {
                    for i in 0..<node.count where isNull(values, i, width: width) { nullPattern = true }
                }
                bytes.append(contentsOf: values)
                count += node.count
            }
            // The value path reads the null pattern as null, which a required column refuses.
            if nullPattern { return nil }
            return LegacyTypedColumn(cells: .bytes(bytes, width: width), count: count)
        case .string:
            guard c.enumKeysRef == nil else { return nil }
            let strings = try reader.stringBuffer(root, nullable: nullable)
            if strings.longest > LeafEncoder.maxStringSize { return nil }
            return LegacyTypedColumn(cells: .strings(strings), count: strings.count)
        case .dateTime:
            let seconds = try reader.ints(root, nullable: nullable)
            let stamps = seconds.map { s in s.map { Timestamp(seconds: $0, nanoseconds: 0) } }
            return LegacyTypedColumn(cells: .timestamps(stamps), count: stamps.count)
        case .timestamp:
            let zero = Timestamp(seconds: 0, nanoseconds: 0)
            let stamps = try reader.timestamps(root).map { t in t ?? (nullable ? nil : zero) }
            return LegacyTypedColumn(cells: .timestamps(stamps), count: stamps.count)
        case .stringEnum, .binary, .mixed, .link, .linkList, .backlink, .table:
            return nil
        }
    }

    /// Whether value `i` of a float (width 4) or double leaf has the bits Realm reserves for null.
    private static func isNull(_ values: UnsafeRawBufferPointer, _ i: Int, width: Int) -> Bool {
        if width == 4 { return values.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self).littleEndian == Snapshot.floatNull }
        return values.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self).littleEndian == Snapshot.doubleNull
    }

    /// The cluster leaf column of `rows` (§9), as `LeafEncoder.encode` writes their values.
    func leaf(_ rows: Range<Int>) -> MutableNode {
        switch cells {
        case let .integers(a): return MutableNode(integers: Array(a[rows]))
        case let .nullableIntegers(a): return LeafEncoder.nullableIntLeaf(Array(a[rows]))
        case let .bytes(b, width):
            return MutableNode(bytes: Array(b[(width * rows.lowerBound)..<(width * rows.upperBound)]),
                               width: rows.isEmpty ? 0 : width, count: rows.count)
        case let .strings(all): return LeafEncoder.stringLeaf(of: all.copy(rows))
        case let .timestamps(a): return LeafEncoder.timestampLeaf(Array(a[rows]))
        }
    }
}
