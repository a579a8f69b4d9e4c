/// Full leaves of a bulk insert kept in their file form (issue #16). Each new leaf the
/// appends fill is encoded as `finish()` would encode it — the same `ColumnCells.encode`,
/// `compacted` — as soon as the next object starts a new leaf: a million-object import then
/// waits for its commit at about the size of its leaves in the file (bit-packed ints, padded
/// strings, §4, §9), not at 8 bytes per int and 16 per timestamp, and its counter keys
/// (§8.5) go back to the compact form (§8.2). `finish()` writes the packed nodes as they are,
/// so the file is the one the cells would have given.
///
/// A packed column is unpacked before anything else reads or changes it (a value read or
/// `set` unpacks its column; a removal, an insert into the leaf, the whole leaf): its nodes
/// are laid out as in a file (`NodeScratchImage`) and read back by the decoder of committed
/// leaves, `ColumnCells.decode`, so the cells are those a later transaction would read from
/// the committed file.
extension TableEditor {
    /// Kinds whose packed leaf `ColumnCells.decode` reads back as the cells were. Not an
    /// enumerated column (positions of values new in this transaction are past the committed
    /// value list the decoder checks against), nor the `Value` kinds.
    static func packs(_ kind: ColumnCells.Kind) -> Bool {
        switch kind {
        case .int, .bool, .double, .string, .timestamp: return true
        case .enumerated, .collection, .values: return false
        }
    }

    /// Packs the columns of `leaf` (new, every column decoded) that encode; one whose cells
    /// do not (a value its column cannot hold) stays in `cells`, and `finish()` reports it
    /// as it would have.
    func pack(_ leaf: ClusterLeafEdit) {
        guard options.packsFullLeaves, leaf.originalRef == nil, leaf.packed == nil, leaf.allDecoded else { return }
        var packed = [MutableNode?](repeating: nil, count: leaf.cells.count)
        var any = false
        for c in leaf.cells.indices where c < columns.count && c < table.columns.count && Self.packs(cellKinds[c]) {
            guard let cells = leaf.cells[c], cells.isTyped, cells.count == leaf.count,
                  let node = try? cells.encode(columns[c]).compacted() else { continue }
            packed[c] = node
            leaf.cells[c] = nil
            any = true
        }
        leaf.compactKeys()
        guard any else { return }
        leaf.packed = packed
        leaf.allDecoded = false
    }

    /// Turns packed columns of `leaf` back into cells: column `only`, or every one (nothing
    /// for a column or leaf that is not packed). A value read unpacks just its column: an
    /// index build that compares values (§12.3) reads one column of many leaves, whose other
    /// columns stay packed. All or nothing: if a column does not decode, it stays packed.
    func unpack(_ leaf: ClusterLeafEdit, only column: Int? = nil) throws(FormatError) {
        guard let packed = leaf.packed else { return }
        var wanted: [Int]
        if let column {
            guard leaf.packedColumn(column) != nil else { return }
            wanted = [column]
        } else {
            wanted = packed.indices.filter { packed[$0] != nil }
        }
        var image = NodeScratchImage()
        var roots: [(column: Int, ref: Int)] = []
        for c in wanted {
            if let node = packed[c] { roots.append((c, image.append(node))) }
        }
        let scratch = try image.snapshot()
        var decoded: [(column: Int, cells: ColumnCells)] = []
        for (c, ref) in roots {
            decoded.append((c, try ColumnCells.decode(scratch, ref: ref, kind: cellKinds[c], column: table.columns[c],
                                                      of: table, expected: leaf.count)))
        }
        for (c, cells) in decoded {
            leaf.cells[c] = cells
            leaf.packed?[c] = nil
        }
        if leaf.packed?.allSatisfy({ $0 == nil }) ?? false { leaf.packed = nil }
    }
}
