/// A primary-key value that can be hashed (§7.7: int, string, ObjectId, UUID, or null); nil
/// for values of other types.
public enum PrimaryKeyValue: Hashable, Sendable {
    case null
    case int(Int64)
    case bytes(kind: UInt8, [UInt8])

    public init?(_ value: Value) {
        switch value {
        case .null: self = .null
        case let .int(i): self = .int(i)
        case let .string(s): self = .bytes(kind: 2, s)
        case let .objectId(o): self = .bytes(kind: 3, o.bytes)
        case let .uuid(u): self = .bytes(kind: 4, u.bytes)
        default: return nil
        }
    }
}

/// Primary keys of objects made in a transaction and not yet in the index. A bulk load brings
/// ascending int keys: those are found in the primary-key column's own pending index entries
/// (`PendingIndexEntries.ascendingInts`: a binary search there, a duplicate can only be the
/// last one), not in a copy of them; anything else goes to a dictionary.
struct PendingPrimaryKeys {
    private var others: [PrimaryKeyValue: Int64] = [:]

    /// `entries`: the primary-key column's pending index entries.
    func objectKey(_ value: PrimaryKeyValue, entries: PendingIndexEntries?) -> Int64? {
        if case let .int(i) = value, let key = entries?.key(ofAscendingInt: i) { return key }
        return others[value]
    }

    /// Adds a value that is not present (the caller checked), given the column's pending
    /// entries just before this object's entry is appended to them, as it must be next.
    mutating func insert(_ value: PrimaryKeyValue, objectKey: Int64, entries: PendingIndexEntries?) {
        if case let .int(i) = value, entries?.extendsAscendingInts(i) ?? true { return }
        others[value] = objectKey
    }
}
