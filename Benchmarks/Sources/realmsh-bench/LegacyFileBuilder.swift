import RealmFormat

/// Writes the `Person` rows of workloads.md §2 as a file of format 9 (the layout of Realm
/// Core 4–5, Docs/legacy-formats.md), to measure how fast realmsh reads old files. Only what
/// the rows need: integer, double, bool, timestamp and string columns as B+trees of
/// 1000-element leaves under compact-form inner nodes, the `pk` and `metadata` tables, a
/// 10-slot top array with in-realm history type and no free space. Benchmark input, nothing
/// else: realm-core never saw these files (the fixtures are what realmsh is checked against).
enum LegacyFileBuilder {
    static let leafSize = 1000

    static func bytes(_ rows: [Person]) -> [UInt8] {
        let person = table(names: ["id", "name", "age", "score", "active", "created", "email"],
                           types: [0, 2, 0, 10, 1, 8, 2], attributes: [0, 0, 0, 0, 0, 0, 16],
                           columns: [
                               ints(rows.map(\.id)), strings(rows.map { Array($0.name.utf8) }, nullable: false),
                               ints(rows.map(\.age)), doubles(rows.map(\.score)), ints(rows.map { $0.active ? 1 : 0 }),
                               timestamps(rows.map(\.created)), strings(rows.map { $0.email.map { Array($0.utf8) } }, nullable: true),
                           ])
        let pk = table(names: ["pk_table", "pk_property"], types: [2, 2], attributes: [0, 0],
                       columns: [strings([Array("Person".utf8)], nullable: false), strings([Array("id".utf8)], nullable: false)])
        let metadata = table(names: ["version"], types: [0], attributes: [0], columns: [ints([1])])

        var out = [UInt8](repeating: 0, count: 24)
        out.replaceSubrange(16..<20, with: Array("T-DB".utf8))
        let names = NewFile.serialize(ShortStringArray.make(["pk", "metadata", "class_Person"].map { Array($0.utf8) }), into: &out)
        let list = MutableNode(integers: [0, 0, 0], hasRefs: true)
        for (i, t) in [pk, metadata, person].enumerated() { list.setChild(i, t) }
        let tables = NewFile.serialize(list, into: &out)
        let empty = (0..<3).map { _ in NewFile.serialize(MutableNode(integers: []), into: &out) }
        // [names, tables, T(size), free positions, lengths, versions, T(version), T(history
        // type 2: in-realm), history ref 0, T(history schema 0)] (legacy-formats.md §2).
        var slots: [Int64] = [names, tables, 0, empty[0], empty[1], empty[2], 2 << 1 | 1, 2 << 1 | 1, 0, 1]
        let topRef = out.count
        slots[2] = Int64(topRef + NodeWriting.byteSize(count: slots.count, width: 64)) << 1 | 1
        NodeWriting.append(flags: 0x40, values: slots, width: 64, to: &out)
        out.replaceSubrange(0..<8, with: UInt64(topRef).littleEndianBytes)
        out[20] = 9
        out[21] = 9
        out += [UInt8](repeating: 0, count: (4096 - out.count % 4096) % 4096)
        // The logical size is the end of the top array; the padding after it is not Realm's.
        return out
    }

    /// `[Spec, columns]` with a 3-slot Spec `[types, names, attributes]`.
    static func table(names: [String], types: [Int64], attributes: [Int64], columns: [MutableNode]) -> MutableNode {
        let spec = MutableNode(integers: [0, 0, 0], hasRefs: true)
        spec.setChild(0, MutableNode(integers: types))
        spec.setChild(1, ShortStringArray.make(names.map { Array($0.utf8) }))
        spec.setChild(2, MutableNode(integers: attributes))
        let refs = MutableNode(integers: [Int64](repeating: 0, count: columns.count), hasRefs: true)
        for (i, c) in columns.enumerated() { refs.setChild(i, c) }
        let top = MutableNode(integers: [0, 0], hasRefs: true)
        top.setChild(0, spec)
        top.setChild(1, refs)
        return top
    }

    /// A column B+tree over `leaves` (each `leafSize` elements but the last): the leaf
    /// itself, or an inner node `[T(leafSize), children…, T(total)]` (compact form).
    static func tree(_ leaves: [MutableNode], total: Int) -> MutableNode {
        if leaves.count == 1 { return leaves[0] }
        precondition(leaves.count <= leafSize, "one inner level holds up to 1,000,000 rows")
        let inner = MutableNode(integers: [Int64(leafSize) << 1 | 1] + [Int64](repeating: 0, count: leaves.count) + [Int64(total) << 1 | 1],
                                hasRefs: true, isInner: true)
        for (i, leaf) in leaves.enumerated() { inner.setChild(1 + i, leaf) }
        return inner
    }

    static func chunks<T>(_ values: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: max(values.count, 1), by: leafSize).map { values[$0..<min($0 + leafSize, values.count)] }
    }

    static func ints(_ values: [Int64]) -> MutableNode {
        tree(chunks(values).map { MutableNode(integers: Array($0)) }, total: values.count)
    }

    /// Nullable integers: each leaf starts with the value that means null (§5.2); these
    /// have none, so 0 (no timestamp of the rows is 0).
    static func nullableInts(_ values: [Int64]) -> MutableNode {
        tree(chunks(values).map { MutableNode(integers: [0] + Array($0)) }, total: values.count)
    }

    static func doubles(_ values: [Double]) -> MutableNode {
        tree(chunks(values).map { chunk in
            var bytes = [UInt8]()
            for v in chunk { bytes += v.bitPattern.littleEndianBytes }
            return MutableNode(bytes: bytes, width: 8, count: chunk.count)
        }, total: values.count)
    }

    /// §5.7: `[seconds (nullable), nanoseconds]`.
    static func timestamps(_ seconds: [Int64]) -> MutableNode {
        let top = MutableNode(integers: [0, 0], hasRefs: true)
        top.setChild(0, nullableInts(seconds))
        top.setChild(1, ints([Int64](repeating: 0, count: seconds.count)))
        return top
    }

    /// §5.4: leaves of short strings (all < 16 bytes) or medium ones `[offsets, blob, nulls]`,
    /// whose null flags are 1 for a string that is not null (the reverse of today's).
    static func strings(_ values: [[UInt8]?], nullable: Bool) -> MutableNode {
        tree(chunks(values).map { chunk in
            if chunk.allSatisfy({ ($0?.count ?? 0) < 16 }) && !chunk.contains(where: { $0 == nil }) {
                return ShortStringArray.make(chunk.map { $0 ?? [] })
            }
            var offsets = [Int64](), blob = [UInt8](), present = [Int64]()
            for v in chunk {
                blob += (v ?? []) + [0]
                offsets.append(Int64(blob.count))
                present.append(v == nil ? 0 : 1)
            }
            let leaf = MutableNode(integers: nullable ? [0, 0, 0] : [0, 0], hasRefs: true)
            leaf.setChild(0, MutableNode(integers: offsets))
            leaf.setChild(1, MutableNode(blob: blob))
            if nullable { leaf.setChild(2, MutableNode(integers: present)) }
            return leaf
        }, total: values.count)
    }
}

extension FixedWidthInteger {
    var littleEndianBytes: [UInt8] { withUnsafeBytes(of: littleEndian, Array.init) }
}
