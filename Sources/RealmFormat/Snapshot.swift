/// One committed version of a Realm file: the header, the top array it selects, and the table
/// catalogue (realm-format.md §3, §5). Opening reads only those; tables and values are decoded
/// when asked for.
///
/// Every node read goes through `node(_:)`, which charges a work budget proportional to the
/// file size. A valid file is a strict tree (§3.4), so a full read stays far below it; a hostile
/// file whose refs form cycles or shared subtrees stops with `workLimitExceeded` instead of
/// hanging.
///
/// The charge is one unit per element a node yields (or per 8 payload bytes, if more), since
/// decoding and dumping cost that much. A valid file yields at most about 125 elements per
/// byte (1000 width-0 elements in an 8-byte leaf is the densest), hence 160 units per byte.
public final class Snapshot {
    public let image: ByteImage
    public let header: FileHeader
    public let top: TopArray?
    /// Tables by position in the group (nil for removed slots).
    public private(set) var tables: [Table] = []
    private var budget: Int
    /// The budget each top-level operation starts with (`resetWorkBudget`), worked out once:
    /// a primary-key lookup resets it, and is only a few hundred instructions long.
    private let fullBudget: Int
    /// Cluster leaves of the tables walked so far, by cluster root (`clusterLeaves`).
    private var leafLists: [Int: [(leaf: ClusterLeaf, start: Int)]] = [:]
    /// Column leaf refs of the cluster trees scanned so far, by (cluster root, leaf index).
    private var columnRefLists: [ColumnSlot: [Int]] = [:]
    /// Int and bool columns checked whole for scanning (`integerColumn`).
    var integerColumns: [IntegerColumnKey: IntegerColumn] = [:]
    /// The upper levels of the search indexes looked up so far, by root ref (`IndexTop`). Only
    /// ever added to: readers hold these unretained (`SearchIndexReader.top`).
    var indexTops: [Int: IndexTop] = [:]
    /// Plain string columns checked whole for scanning (`stringColumn`).
    var stringColumns: [StringColumnKey: StringColumn] = [:]
    /// Value lists of enumerated string columns decoded so far, by ref (`enumValueList`).
    var enumValueLists: [Int: EnumValueList] = [:]
    /// Whether the file was decrypted on open.
    public private(set) var isEncrypted = false
    /// For the opens outside this file that decrypt (`LegacyExportRows.open`).
    func markEncrypted() { isEncrypted = true }
    /// A file of formats 2–9: its on-disk structures. `image` is then the converted format-24
    /// image every reader sees (legacy-formats.md §8).
    public private(set) var legacy: LegacyGroup?

    /// Opens the file at `path` read-only (memory-mapped). With a key, the file is decrypted
    /// into memory first (§14); `isEncrypted` tells which happened.
    ///
    /// `convertingLegacy: false` (what `info` needs) leaves a file of formats 2–9 unconverted:
    /// the snapshot then reads the file as it is — header, top array, free space, no tables —
    /// and `legacy` has the old group, whose `catalogue()` names the classes and counts them.
    public convenience init(path: String, key: EncryptionKey? = nil, convertingLegacy: Bool = true) throws(FormatError) {
        var image = try ByteImage.mapping(path: path)
        if let key { image = try EncryptedFile.decrypt(image, key: key) }
        if convertingLegacy {
            try self.init(image: image)
        } else {
            let header = try FileHeader(image: image)
            let legacy = header.topRef != 0 && FileFormat.legacy.contains(header.fileFormat)
            try self.init(image: image, header: header, legacy: nil, readsTables: !legacy)
            if legacy {
                self.legacy = try LegacyGroup(source: Snapshot(image: image, header: header, legacy: nil, readsTables: false))
            }
        }
        isEncrypted = key != nil
    }

    /// Opens the snapshot a file's header selects. A file of formats 2–9 is converted in
    /// memory to the format-24 image Realm Core 13 and 14 would leave after their upgrades
    /// (`LegacyConversion`); the snapshot reads that image, and `legacy` keeps what is on disk.
    public convenience init(image: ByteImage) throws(FormatError) {
        let header = try FileHeader(image: image)
        guard header.topRef != 0, FileFormat.legacy.contains(header.fileFormat) else {
            try self.init(image: image, header: header, legacy: nil)
            return
        }
        let group = try LegacyGroup(source: Snapshot(image: image, header: header, legacy: nil, readsTables: false))
        let converted = ByteImage(bytes: try LegacyConversion.convert(group).fileBytes())
        try self.init(image: converted, header: FileHeader(image: converted), legacy: group)
    }

    /// `readsTables: false` reads the header and top array only (the on-disk side of a legacy
    /// file, whose tables are not today's).
    init(image: ByteImage, header: FileHeader, legacy: LegacyGroup?, readsTables: Bool = true) throws(FormatError) {
        self.image = image
        self.legacy = legacy
        fullBudget = Snapshot.budget(for: image.count)
        budget = fullBudget
        self.header = header
        if header.topRef == 0 {
            top = nil
            return
        }
        let topNode = try Node(image: image, ref: header.topRef)
        top = try TopArray(node: topNode, fileSize: image.count)
        if readsTables { tables = try readTables() }
    }

    /// The file format as found on disk: the selected slot's header byte, also when nothing
    /// was committed (0 for a file Realm just created; `java__sizefile.realm`'s says 2, and its
    /// dump agrees, whatever fixtures/README.md says about top ref 0).
    public var fileFormat: Int { legacy?.format ?? header.fileFormat }

    /// The format of the structures this snapshot reads: a file of formats 2–9 is read
    /// through its converted format-24 image, so decoding and index use follow 24.
    public var layoutFormat: Int { legacy == nil || isLegacyCatalogue ? fileFormat : 24 }

    /// The logical bytes of the file as they are on disk (decrypted): `image`, except for a
    /// converted file of formats 2–9, whose image is the conversion's. What re-encrypting or
    /// decrypting a file copies.
    public var diskImage: ByteImage { legacy?.source.image ?? image }

    /// A file of formats 2–9 opened without conversion (`convertingLegacy: false`): its
    /// tables are in `legacy.catalogue()`, not in `tables`.
    public var isLegacyCatalogue: Bool { legacy.map { $0.source.image.storage === image.storage } ?? false }

    /// Elements of width 0 take no bytes (§4.2), so an 8-byte node could claim 16 million of
    /// them. Valid ones are leaves of at most 1000 elements (§11; clusters: 256 objects, §8.3),
    /// except the plain backlink arrays of formats ≤ 23 (§10.6), where a width of 0 would mean
    /// one origin object linking tens of thousands of times. Past this bound a count is damage
    /// (typically a flipped high count byte), refused before it is decoded.
    static let maxWidthZeroElements = 1 << 16

    static func budget(for size: Int) -> Int { 1_000_000 + 160 * size }

    /// Refills the work budget. Each top-level operation (a table scan, an index lookup, a
    /// verification) starts with a full budget, so a long-lived snapshot can serve many of them;
    /// within one operation a hostile file still cannot make the work exceed the bound.
    public func resetWorkBudget() { budget = fullBudget }

    /// The leaves of the cluster tree at `rootRef` in key order, each with the row number of its
    /// first object. A snapshot never changes, so the walk is done once and kept: queries on
    /// one snapshot do not walk the tree again (as realm-core keeps its table accessors).
    public func clusterLeaves(rootRef: Int) throws(FormatError) -> [(leaf: ClusterLeaf, start: Int)] {
        if let l = leafLists[rootRef] { return l }
        let tree = ClusterTree(snapshot: self, rootRef: rootRef)
        var out = [(leaf: ClusterLeaf, start: Int)]()
        // Room for count / 256 leaves (§8.3's most objects a leaf) up front: grown by doubling,
        // the list (144 bytes a leaf) was copied a dozen times and left twice its size of
        // freshly faulted pages behind (3,907 leaves, 560 KB, for a million objects). Only a
        // hint: a damaged count is capped, not refused (the walk checks the tree itself).
        out.reserveCapacity(min(((try? tree.count()) ?? 0) / 256 + 1, image.count / 64, 1 << 16))
        var start = 0
        try tree.forEachLeaf { leaf throws(FormatError) in
            out.append((leaf, start))
            start += leaf.count
        }
        leafLists[rootRef] = out
        return out
    }

    /// The leaf list of the tree at `rootRef` if a reader has already made it, else nil.
    public func cachedClusterLeaves(rootRef: Int) -> [(leaf: ClusterLeaf, start: Int)]? { leafLists[rootRef] }

    /// The ref of column `leafIndex`'s leaf in each cluster leaf of the tree at `rootRef`, in
    /// leaf order (0 where a leaf has no ref in that slot). Kept like the leaf list: a scan then
    /// reads the refs from one flat array instead of from each cluster leaf node, which lie all
    /// over the file (one cache and TLB miss per leaf saved, per column scanned).
    public func columnRefs(rootRef: Int, leafIndex: Int) throws(FormatError) -> [Int] {
        let slot = ColumnSlot(rootRef: rootRef, leafIndex: leafIndex)
        if let refs = columnRefLists[slot] { return refs }
        let refs = try clusterLeaves(rootRef: rootRef).map { $0.leaf.columnRef(leafIndex) ?? 0 }
        columnRefLists[slot] = refs
        return refs
    }

    private struct ColumnSlot: Hashable {
        let rootRef: Int
        let leafIndex: Int
    }

    /// Reads a node, charging the work budget (see the type's documentation).
    public func node(_ ref: Int) throws(FormatError) -> Node {
        let node = try Node(image: image, ref: ref)
        let payloadSize = node.header.payloadSize
        if payloadSize == 0 && node.count > Snapshot.maxWidthZeroElements {
            throw .corrupt(offset: ref, reason: "node of width 0 claims \(node.count) elements")
        }
        budget -= 1 + max(node.count, payloadSize / 8)
        if budget < 0 { throw .workLimitExceeded }
        if Platform.readsCancelled { throw .interrupted }       // Ctrl-C in the interactive shell
        return node
    }

    /// Reads a node that must be a has-refs array with at least `minimum` slots.
    func refsNode(_ ref: Int, minimum: Int, what: String) throws(FormatError) -> Node {
        let n = try node(ref)
        guard n.hasRefs, n.header.widthType == .bits, n.count >= minimum else {
            throw .corrupt(offset: ref, reason: "\(what) is not an array of at least \(minimum) refs")
        }
        return n
    }

    public func table(key: TableKey) -> Table? {
        let index = Int(key.value & 0xFFFF)
        if index < tables.count, tables[index].key == key { return tables[index] }
        // Removed slots (§7.2) have no entry in `tables`, so later tables sit earlier in it.
        return tables.first { $0.key == key }
    }

    public func table(named name: String) -> Table? { tables.first { $0.name == name } }

    private func readTables() throws(FormatError) -> [Table] {
        guard let top else { return [] }
        let names = try decodeStrings(top.tableNamesRef, nullable: false)
        let refs = try refsNode(top.tablesRef, minimum: 0, what: "table list")
        guard names.count == refs.count else {
            throw .corrupt(offset: refs.ref, reason: "\(names.count) table names for \(refs.count) tables")
        }
        var out = [Table]()
        for i in 0..<refs.count {
            guard let ref = refs.ref(i) else { continue }     // tagged: a removed table (§7.2)
            let name = String(decoding: names[i] ?? [], as: UTF8.self)
            out.append(try Table(snapshot: self, position: i, name: name, ref: ref))
        }
        return out
    }
}

/// The Group top array (realm-format.md §5).
public struct TopArray: Sendable {
    public let ref: Int
    public let slotCount: Int
    public let tableNamesRef: Int
    public let tablesRef: Int
    public let logicalSize: Int
    public let freePositionsRef: Int?
    public let freeLengthsRef: Int?
    public let freeVersionsRef: Int?
    /// Transaction number; 1 when the slot is absent (§5).
    public let version: UInt64
    public let historyType: Int
    public let historyRef: Int?
    public let historySchemaVersion: Int
    public let syncFileIdent: UInt64

    static let validSizes: Set<Int> = [3, 5, 7, 9, 10, 11, 12]

    init(node: Node, fileSize: Int) throws(FormatError) {
        guard node.hasRefs, TopArray.validSizes.contains(node.count) else {
            throw .corrupt(offset: node.ref, reason: "top array has \(node.count) slots (valid: 3, 5, 7, 9, 10, 11, 12)")
        }
        ref = node.ref
        slotCount = node.count
        guard let names = node.ref(0), let tables = node.ref(1) else {
            throw .corrupt(offset: node.ref, reason: "top array lacks the table names or tables ref")
        }
        tableNamesRef = names
        tablesRef = tables
        guard let size = node.tagged(2), size <= UInt64(fileSize) else {
            throw .corrupt(offset: node.ref, reason: "logical file size in the top array exceeds the file size \(fileSize)")
        }
        logicalSize = Int(size)
        freePositionsRef = node.ref(3)
        freeLengthsRef = node.ref(4)
        freeVersionsRef = node.ref(5)
        let v = node.tagged(6) ?? 0
        version = v == 0 ? 1 : v
        historyType = Int(node.tagged(7) ?? 0)
        historyRef = node.ref(8)
        historySchemaVersion = Int(node.tagged(9) ?? 0)
        syncFileIdent = node.tagged(10) ?? 0
    }

    public var historyTypeName: String {
        switch historyType {
        case 0: return "none"
        case 1: return "out-of-realm (obsolete)"
        case 2: return "in-realm (local SDK)"
        case 3: return "sync client"
        case 4: return "sync server"
        default: return "unknown (\(historyType))"
        }
    }
}
