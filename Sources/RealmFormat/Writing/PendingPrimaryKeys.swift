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
/// ascending int keys: those stay in a sorted array (a duplicate can only be the last one, a
/// lookup is a binary search); anything else goes to a dictionary.
struct PendingPrimaryKeys {
    private var ascending: [(value: Int64, objectKey: Int64)] = []
    private var others: [PrimaryKeyValue: Int64] = [:]

    func objectKey(_ value: PrimaryKeyValue) -> Int64? {
        if case let .int(i) = value, let last = ascending.last, i <= last.value {
            var lo = 0, hi = ascending.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ascending[mid].value < i { lo = mid + 1 } else { hi = mid }
            }
            if lo < ascending.count && ascending[lo].value == i { return ascending[lo].objectKey }
        }
        return others[value]
    }

    /// Adds a value that is not present (the caller checked).
    mutating func insert(_ value: PrimaryKeyValue, objectKey: Int64) {
        if case let .int(i) = value, ascending.last.map({ i > $0.value }) ?? true {
            ascending.append((i, objectKey))
        } else {
            others[value] = objectKey
        }
    }
}
