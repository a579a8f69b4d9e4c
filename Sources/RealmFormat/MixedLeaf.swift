/// `ArrayMixed` leaves (realm-format.md §9.12) and the collections nested in them (§10.5).
extension Snapshot {
    /// Realm limits nesting of collections in Mixed to 100 levels (§10.5).
    static let maxMixedNesting = 100

    func decodeMixed(_ ref: Int, nesting: Int = 0) throws(FormatError) -> [Value] {
        guard nesting <= Snapshot.maxMixedNesting else {
            throw .corrupt(offset: ref, reason: "collections nested more than \(Snapshot.maxMixedNesting) levels deep in a Mixed value")
        }
        let node = try refsNode(ref, minimum: 4, what: "Mixed leaf")
        guard let compositeRef = node.ref(0) else { throw .corrupt(offset: ref, reason: "Mixed leaf lacks its composite array") }
        let composite = try plainInts(compositeRef)
        let ints = try node.ref(1).map { r throws(FormatError) in try plainInts(r) }
        let pairs = try node.ref(2).map { r throws(FormatError) in try plainInts(r) }
        let strings = try node.ref(3).map { r throws(FormatError) in try decodeStrings(r) }
        let refs = try node.ref(4).map { r throws(FormatError) in try self.node(r) }

        func int(_ i: Int64) throws(FormatError) -> Int64 {
            guard let ints else { throw .corrupt(offset: ref, reason: "Mixed value refers to a missing ints array") }
            return try ints.element(Int(truncatingIfNeeded: i))
        }
        func pair(_ i: Int64) throws(FormatError) -> (Int64, Int64) {
            guard let pairs, i >= 0, i < Int64(pairs.count / 2) else {
                throw .corrupt(offset: ref, reason: "Mixed value refers to a missing pair \(i)")
            }
            return (pairs.int(Int(2 * i)), pairs.int(Int(2 * i + 1)))
        }
        func string(_ i: Int64) throws(FormatError) -> [UInt8] {
            guard let strings, i >= 0, i < Int64(strings.count), let s = strings[Int(i)] else {
                throw .corrupt(offset: ref, reason: "Mixed value refers to a missing string \(i)")
            }
            return s
        }
        func collectionRef(_ i: Int64) throws(FormatError) -> Int? {
            guard let refs, i >= 0, i < Int64(refs.count) else {
                throw .corrupt(offset: ref, reason: "Mixed value refers to a missing collection \(i)")
            }
            return refs.ref(Int(i))
        }

        var out = [Value]()
        out.reserveCapacity(composite.count)
        for row in 0..<composite.count {
            let c = composite.int(row)
            if c == 0 {
                out.append(.null)
                continue
            }
            let type = Int(c & 0x1F) - 1
            let inline = (c >> 5) & 7 == 0
            let payload = c >> 8
            switch type {
            case 0: out.append(.int(inline ? payload : try int(payload)))
            case 1: out.append(.bool(payload != 0))
            case 2: out.append(.string(try string(payload)))
            case 4: out.append(.binary(try string(payload)))
            case 8:
                let (s, ns) = try pair(payload)
                out.append(.timestamp(Timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: ns))))
            case 9: out.append(.float(Float(bitPattern: UInt32(truncatingIfNeeded: try int(payload)))))
            case 10: out.append(.double(Double(bitPattern: UInt64(bitPattern: try int(payload)))))
            case 11:
                let (low, high) = try pair(payload)
                out.append(.decimal(Decimal128(low: UInt64(bitPattern: low), high: UInt64(bitPattern: high))))
            case 12: out.append(.link(try int(payload)))
            case 15:
                let bytes = try string(payload)
                guard bytes.count == 12 else { throw .corrupt(offset: ref, reason: "Mixed ObjectId of \(bytes.count) bytes") }
                out.append(.objectId(ObjectId(bytes: bytes)))
            case 16:
                let (t, k) = try pair(payload)
                out.append(.typedLink(table: TableKey(value: UInt32(truncatingIfNeeded: t)), key: k))
            case 17:
                let bytes = try string(payload)
                guard bytes.count == 16 else { throw .corrupt(offset: ref, reason: "Mixed UUID of \(bytes.count) bytes") }
                out.append(.uuid(UUID(bytes: bytes)))
            case 19:
                let values = try collectionRef(payload).map { r throws(FormatError) in try decodeMixedList(r, nesting: nesting + 1) }
                out.append(.list(values ?? []))
            case 21:
                let entries = try collectionRef(payload).map { r throws(FormatError) in
                    try decodeDictionary(r, keyType: 2, nesting: nesting + 1)
                }
                out.append(.dictionary(entries ?? []))
            default:
                throw .corrupt(offset: compositeRef, reason: "unknown Mixed type \(type)")
            }
        }
        return out
    }

    func decodeMixedList(_ ref: Int, nesting: Int) throws(FormatError) -> [Value] {
        var values = [Value]()
        try BPlusTree(snapshot: self, rootRef: ref).forEachLeaf { leaf throws(FormatError) in
            values += try self.decodeMixed(leaf.ref, nesting: nesting)
        }
        return values
    }
}
