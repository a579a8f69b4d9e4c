/// Writes a brand-new file from tables built in memory (realm-format.md §1.2, §5.1, §13.7):
/// nodes laid out back to back after the header (children first), then the 11-slot top array
/// of a local SDK file (in-realm history type 2, history schema 1, so an SDK opens it without
/// an upgrade commit), in normal form with slot 1 current, zero-padded to a 4096-byte page.
public enum NewFile {
    public static func bytes(tableNames: [String], tables: [MutableNode], version: UInt64 = 1) -> [UInt8] {
        bytes(tableNames: tableNames, slots: tables.map(TableSlot.table), version: version)
    }

    /// One entry of the group's table list: a table, or the slot of a removed table, which
    /// keeps the generation tag the next table created there gets (§7.2; its name is empty).
    public enum TableSlot {
        case table(MutableNode)
        case removed(tag: UInt32)
    }

    /// `capacity`: the bytes to reserve up front when the caller can tell the image's size
    /// roughly (a large image then grows without being copied at every doubling).
    public static func bytes(tableNames: [String], slots tableSlots: [TableSlot], version: UInt64 = 1,
                             capacity: Int = 0) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(max(capacity, 24))
        out += [UInt8](repeating: 0, count: 24)
        out.replaceSubrange(16..<20, with: Array("T-DB".utf8))
        let names = serialize(ShortStringArray.make(tableNames.map { Array($0.utf8) }), into: &out)
        let tableList = MutableNode(integers: [Int64](repeating: 0, count: tableSlots.count), hasRefs: true)
        for (i, slot) in tableSlots.enumerated() {
            switch slot {
            case let .table(t): tableList.setChild(i, t)
            case let .removed(tag): tableList.setTagged(i, Int64(tag))
            }
        }
        let tablesRef = serialize(tableList, into: &out)
        let freeLists = (0..<3).map { _ in serialize(MutableNode(integers: []), into: &out) }
        var slots: [Int64] = [names, tablesRef, 0, freeLists[0], freeLists[1], freeLists[2], Int64(version) << 1 | 1,
                              2 << 1 | 1, 0, 1 << 1 | 1, 1]
        let topRef = out.count
        var width = 0
        while true {
            slots[2] = Int64(topRef + NodeWriting.byteSize(count: slots.count, width: width)) << 1 | 1
            let needed = NodeWriting.minimalWidth(slots)
            if needed <= width { break }
            width = needed
        }
        NodeWriting.append(flags: 0x40, values: slots, width: width, to: &out)
        out.replaceSubrange(8..<16, with: UInt64(topRef).littleEndianBytes)
        out[21] = 24
        out[23] = 1
        out += [UInt8](repeating: 0, count: (4096 - out.count % 4096) % 4096)
        return out
    }

    /// Lays `node` and everything below it out at the end of `out` (`NodeLayout`'s order,
    /// children first); returns its ref. Subtrees still on disk (unloaded refs) cannot be
    /// serialized here: every child must be in memory.
    @discardableResult
    public static func serialize(_ node: MutableNode, into out: inout [UInt8]) -> Int64 {
        NodeLayout.lay(node, existing: { _ in nil }) { n, slots in
            let ref = out.count
            n.encode(slots: slots, into: &out)
            return Int64(ref)
        }
    }
}

/// `ArrayStringShort` for the non-nullable name arrays (§7.3, §9.4.1): every name in a block
/// of the smallest power-of-two width above its length, whose last byte counts the padding.
public enum ShortStringArray {
    public static func make(_ strings: [[UInt8]]) -> MutableNode {
        let longest = strings.map(\.count).max() ?? 0
        var width = 0
        if !strings.isEmpty {
            width = 1
            while width < longest + 1 { width *= 2 }
        }
        var payload = [UInt8]()
        payload.reserveCapacity(width * strings.count)
        for s in strings {
            payload += s
            payload += [UInt8](repeating: 0, count: width - 1 - s.count)
            payload.append(UInt8(width - 1 - s.count))
        }
        return MutableNode(bytes: payload, width: width, count: strings.count)
    }
}
