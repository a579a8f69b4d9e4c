/// String, binary and blob leaves (realm-format.md §9.4–§9.6).
extension Snapshot {
    /// An `ArrayString` leaf in any of its four forms (§9.4): short, medium, big or enumerated.
    /// Width 0 short leaves are all null when `nullable`, all "" otherwise (name arrays).
    public func decodeStrings(_ ref: Int, nullable: Bool = true, enumValues: Int? = nil) throws(FormatError) -> [[UInt8]?] {
        let node = try self.node(ref)
        if !node.hasRefs {
            switch node.header.widthType {
            case .multiply: return shortStrings(node, nullable: nullable)
            case .bits:
                guard let enumValues else {
                    throw .corrupt(offset: ref, reason: "enumerated string leaf without a value list")
                }
                let list = try enumValueList(enumValues)
                return try (0..<node.count).map { i throws(FormatError) in try list.value(node.int(i), leafRef: ref) }
            default:
                throw .corrupt(offset: ref, reason: "string leaf with width type 'ignore'")
            }
        }
        return node.context ? try bigBlobs(node, terminated: true) : try smallBlobs(node, terminated: true)
    }

    /// An `ArrayBinary` leaf (§9.5): small (offsets/blob/nulls) or big (one blob per value).
    public func decodeBinaries(_ ref: Int) throws(FormatError) -> [[UInt8]?] {
        let node = try self.node(ref)
        guard node.hasRefs else { throw .corrupt(offset: ref, reason: "binary leaf is not a has-refs array") }
        return node.context ? try bigBlobs(node, terminated: false) : try smallBlobs(node, terminated: false)
    }

    /// The bytes of an `ArrayBlob`, or of a chunked blob whose children are concatenated (§9.6).
    public func decodeBlob(_ ref: Int, depth: Int = 0) throws(FormatError) -> [UInt8] {
        let node = try self.node(ref)
        if node.hasRefs {
            guard depth < 2 else { throw .corrupt(offset: ref, reason: "chunked blob nested too deep") }
            var out = [UInt8]()
            for i in 0..<node.count {
                if let child = node.ref(i) { out += try decodeBlob(child, depth: depth + 1) }
            }
            return out
        }
        guard node.header.widthType == .ignore || node.count == 0 else {
            throw .corrupt(offset: ref, reason: "blob node does not have width type 'ignore'")
        }
        return Array(node.payloadBytes())
    }

    /// §9.4.1: each element is a w-byte block whose last byte is w − 1 − length (w: null).
    private func shortStrings(_ node: Node, nullable: Bool) -> [[UInt8]?] {
        let w = node.width
        guard w > 0 else { return Array(repeating: nullable ? nil : [], count: node.count) }
        var out = [[UInt8]?]()
        out.reserveCapacity(node.count)
        for i in 0..<node.count {
            let base = i * w
            let length = w - 1 - Int(node.byte(base + w - 1))
            if length < 0 {
                out.append(nil)
            } else {
                out.append(Array(node.image.rawSlice(node.payload + base, length)))
            }
        }
        return out
    }

    /// §9.4.2 / §9.5: [offsets, blob, nulls]; strings carry a terminating 0 byte.
    private func smallBlobs(_ node: Node, terminated: Bool) throws(FormatError) -> [[UInt8]?] {
        guard node.count >= 2, let offsetsRef = node.ref(0) else {
            throw .corrupt(offset: node.ref, reason: "small-blob leaf lacks its offsets")
        }
        let offsets = try self.node(offsetsRef)
        let blob = try node.ref(1).map { r throws(FormatError) in try self.node(r) }
        let nulls = try node.ref(2).map { r throws(FormatError) in try self.node(r) }
        let blobBytes = blob?.payloadBytes() ?? UnsafeRawBufferPointer(start: nil, count: 0)
        if let nulls, nulls.count < offsets.count {
            throw .corrupt(offset: nulls.ref, reason: "null flags shorter than the offsets")
        }
        var out = [[UInt8]?]()
        out.reserveCapacity(offsets.count)
        var start = 0
        for i in 0..<offsets.count {
            let end = Int(offsets.int(i))
            guard end >= start, end <= blobBytes.count else {
                throw .corrupt(offset: offsetsRef, reason: "blob offset \(end) is outside a blob of \(blobBytes.count) bytes")
            }
            if let nulls, nulls.int(i) != 0 {
                out.append(nil)
            } else {
                let stop = terminated ? end - 1 : end
                guard stop >= start else {
                    throw .corrupt(offset: offsetsRef, reason: "string without its terminating byte")
                }
                out.append(Array(UnsafeRawBufferPointer(rebasing: blobBytes[start..<stop])))
            }
            start = end
        }
        return out
    }

    /// §9.4.3 / §9.5: one blob ref per element, 0 = null; strings carry a terminating 0 byte.
    private func bigBlobs(_ node: Node, terminated: Bool) throws(FormatError) -> [[UInt8]?] {
        var out = [[UInt8]?]()
        out.reserveCapacity(node.count)
        for i in 0..<node.count {
            guard let r = node.ref(i) else {
                out.append(nil)
                continue
            }
            var bytes = try decodeBlob(r)
            if terminated {
                guard !bytes.isEmpty else { throw .corrupt(offset: r, reason: "string blob without its terminating byte") }
                bytes.removeLast()
            }
            out.append(bytes)
        }
        return out
    }
}
