/// `ArrayMixed` leaves (realm-format.md §9.12) and the collections nested in them (§10.5).
extension LeafEncoder {
    /// Identifiers of nested collections (§10.5): non-zero and unique within one B+tree (or one
    /// cluster leaf). Small consecutive numbers serve as well as Realm's random ones.
    struct NestedCollectionIDs {
        private var last: Int64 = 0
        mutating func next() -> Int64 {
            last += 1
            return last
        }
    }

    /// Payload arrays of a composite entry (bits 5–7, §9.12).
    private enum MixedPayload: Int64 {
        case inline = 0, ints = 1, pairs = 2, strings = 3, refs = 4
    }

    /// A format-24 `ArrayMixed` leaf with its 6 slots: composite, ints, pairs, strings, refs,
    /// keys. Payloads are laid out in row order; unused payload arrays (and the keys array when
    /// no value is a nested collection) are 0. `.list` and `.dictionary` values become nested
    /// collections, with an id from `ids` in the keys array.
    static func mixedLeaf(_ values: [Value], ids: inout NestedCollectionIDs, nesting: Int) throws(FormatError) -> MutableNode {
        guard nesting <= Snapshot.maxMixedNesting else {
            throw .cannotWrite(reason: "collections nested more than \(Snapshot.maxMixedNesting) levels deep in a Mixed value")
        }
        var composite = [Int64](), ints = [Int64](), pairs = [Int64](), strings = [[UInt8]?]()
        var nested = [MutableNode?](), keys = [Int64]()
        composite.reserveCapacity(values.count)
        keys.reserveCapacity(values.count)

        /// (index << 8) | (payload array << 5) | (DataType + 1).
        func entry(_ type: Int64, _ payload: MixedPayload, _ index: Int) -> Int64 {
            Int64(index) << 8 | payload.rawValue << 5 | (type + 1)
        }

        for v in values {
            var key: Int64 = 0
            switch v {
            case .null:
                composite.append(0)
            case let .int(x):
                if x >= Int64(Int32.min) && x <= Int64(Int32.max) {
                    composite.append(x << 8 | 1)
                } else {
                    composite.append(entry(0, .ints, ints.count))
                    ints.append(x)
                }
            case let .bool(b):
                composite.append(Int64(b ? 1 : 0) << 8 | 2)
            case let .string(s):
                composite.append(entry(2, .strings, strings.count))
                strings.append(s)
            case let .binary(b):
                composite.append(entry(4, .strings, strings.count))
                strings.append(b)
            case let .timestamp(t):
                composite.append(entry(8, .pairs, pairs.count / 2))
                pairs += [t.seconds, Int64(t.nanoseconds)]
            case let .float(f):
                composite.append(entry(9, .ints, ints.count))
                ints.append(Int64(f.bitPattern))
            case let .double(d):
                composite.append(entry(10, .ints, ints.count))
                ints.append(Int64(bitPattern: d.bitPattern))
            case let .decimal(d):
                let (low, high) = try d.bidBits()
                composite.append(entry(11, .pairs, pairs.count / 2))
                pairs += [Int64(bitPattern: low), Int64(bitPattern: high)]
            case let .link(k):
                composite.append(entry(12, .ints, ints.count))
                ints.append(k)
            case let .objectId(id):
                guard id.bytes.count == 12 else { throw .cannotWrite(reason: "an ObjectId of \(id.bytes.count) bytes") }
                composite.append(entry(15, .strings, strings.count))
                strings.append(id.bytes)
            case let .typedLink(table, k):
                composite.append(entry(16, .pairs, pairs.count / 2))
                pairs += [Int64(table.value), k]
            case let .uuid(id):
                guard id.bytes.count == 16 else { throw .cannotWrite(reason: "a UUID of \(id.bytes.count) bytes") }
                composite.append(entry(17, .strings, strings.count))
                strings.append(id.bytes)
            case let .list(elements):
                composite.append(entry(19, .refs, nested.count))
                nested.append(elements.isEmpty ? nil : try mixedBPlusTree(elements, nesting: nesting + 1))
                key = ids.next()
            case let .dictionary(entries):
                composite.append(entry(21, .refs, nested.count))
                nested.append(entries.isEmpty ? nil : try dictionaryNode(entries, keyType: 2, nesting: nesting + 1))
                key = ids.next()
            }
            keys.append(key)
        }

        let node = MutableNode(integers: [Int64](repeating: 0, count: 6), hasRefs: true)
        node.setChild(0, MutableNode(integers: composite))
        if !ints.isEmpty { node.setChild(1, MutableNode(integers: ints)) }
        if !pairs.isEmpty { node.setChild(2, MutableNode(integers: pairs)) }
        if !strings.isEmpty { node.setChild(3, stringLeaf(strings)) }
        if !nested.isEmpty {
            let refs = MutableNode(integers: [Int64](repeating: 0, count: nested.count), hasRefs: true)
            for (i, child) in nested.enumerated() where child != nil { refs.setChild(i, child) }
            node.setChild(4, refs)
            node.setChild(5, MutableNode(integers: keys))
        }
        return node
    }

    /// A B+tree of Mixed leaves whose nested collections share one id sequence (§10.5).
    static func mixedBPlusTree(_ values: [Value], nesting: Int) throws(FormatError) -> MutableNode {
        var ids = NestedCollectionIDs()
        return try bPlusTree(count: values.count) { range throws(FormatError) in
            try mixedLeaf(Array(values[range]), ids: &ids, nesting: nesting)
        }
    }
}
