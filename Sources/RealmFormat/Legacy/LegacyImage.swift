/// The format-24 image of a converted legacy group (legacy-formats.md §8.4): every table
/// encoded anew by `TableEncoder` (cluster leaves of ≤ 256 objects, search indexes built),
/// the slot `pk` leaves behind removed with tag 1 as Core's `remove_table` leaves it, the
/// on-disk version number kept. This is the image every reader sees and `upgrade` writes.
extension LegacyConversion {
    func fileBytes() throws(FormatError) -> [UInt8] {
        var tables = [NewFile.TableSlot]()
        for slot in slots {
            switch slot {
            case let .table(model): tables.append(.table(try TableEncoder.encode(model)))
            case .removed: tables.append(.removed(tag: 1))
            }
        }
        return NewFile.bytes(tableNames: names, slots: tables, version: group.source.top?.version ?? 1)
    }
}
