/// Integrity check of one snapshot, in the spirit of realm-core's debug `Group::verify` and the
/// offline `realm-trawler` (realm-format.md §18). Nothing in the file is trusted: every problem
/// becomes a `VerificationProblem`, never a trap.
///
/// What is checked:
/// 1. Every node reachable from the top array (every even non-zero element of every has-refs
///    node is a child ref, §3.4): 8-aligned, inside `[24, logical size)`, readable header
///    (width type ≠ 3, inner ⇒ has-refs, has-refs ⇒ width type "bits"), referenced exactly once
///    (no shared subtrees, no cycles). The `AAAA` checksum bytes are not looked at (§4.1).
/// 2. Free lists (top slots 3–5, §13.3): equal lengths, entries 8-aligned with length > 0,
///    sorted and non-overlapping, inside `[24, logical size)`, versions ≤ the top version.
/// 3. Space accounting (§13.3, §18.1 item 8): the header, every reachable node (its exact byte
///    size) and every free entry tile `[0, logical size)` with no gap and no overlap. Streaming
///    files (no free lists) must tile as well.
/// 4. Top array (§5): valid size, logical size ≤ file size, one name per table slot, removed
///    slots tagged, table keys matching their positions and unique.
/// 5. Tables (§7, §8): ColKey leaf indexes unique; primary key column present, of an allowed
///    type and (format ≥ 22) indexed; in the object and tombstone cluster trees: ≤ 256 objects
///    per leaf and ≤ 256 children per inner node, leaves at one depth, valid key offsets (first
///    0, ascending), subtree sizes equal to the sum of the children, ObjKeys strictly ascending
///    over the whole tree (non-negative in the object tree, ≤ −2 in the tombstone tree), and
///    every column leaf decoding to exactly one value per object.
/// 6. Search indexes (§12, §18.1 item 5): each general index on a plain column is a well-formed
///    tree holding every object under its value's key chain exactly once, and nothing else
///    (`SearchIndexVerifier`).
///
/// The structural walk (1–3) reads nodes directly, with a visited set instead of the snapshot's
/// work budget, so files of any size are walked completely. The table checks (5) decode through
/// the snapshot, whose budget stops them if the file's structure is not a tree.
public enum Verifier {
    /// Problems listed in a report; further ones are summarized in one final problem.
    public static let maxReportedProblems = 1000

    public static func verify(_ snapshot: Snapshot) -> VerificationReport {
        if let legacy = snapshot.legacy { return LegacyVerifier.report(snapshot, legacy) }
        let run = VerificationRun(snapshot: snapshot)
        run.run()
        return run.report()
    }

    /// Refs of the nodes the structural walk reached and could read, in walk order.
    static func reachableNodeRefs(_ snapshot: Snapshot) -> [Int] {
        let run = VerificationRun(snapshot: snapshot)
        run.run()
        return run.nodeRefs
    }
}

/// A byte range that must be covered exactly once (§13.3 tiling).
private struct Extent {
    enum Kind { case header, node, freeEntry(Int) }
    let start: Int
    let end: Int
    let kind: Kind

    var description: String {
        let range = "[\(hex(start)), \(hex(end)))"
        switch kind {
        case .header: return "the file header \(range)"
        case .node: return "node \(hex(start)) \(range)"
        case let .freeEntry(i): return "free entry \(i) \(range)"
        }
    }
}

/// State of one verification: the problems found so far and what the walk collected.
final class VerificationRun {
    let snapshot: Snapshot
    let image: ByteImage
    private(set) var nodeRefs = [Int]()
    private var problems = [VerificationProblem]()
    private var unlisted = 0
    private var extents = [Extent]()
    private var freeEntryCount = 0
    private var logicalSize = 0
    /// The snapshot's work budget ran out: table checks stop.
    private(set) var outOfBudget = false
    /// Free-list versions are at most the top version (§13.3). Realm Core 5 and older did not
    /// always keep that (legacy-formats.md §10), so the walk of a format 2–9 file skips it.
    var checksFreeListVersions = true

    static let maxClusterNodeEntries = 256
    static let maxClusterDepth = 8
    static let primaryKeyTypes: Set<ColumnType> = [.int, .string, .objectId, .uuid]

    init(snapshot: Snapshot) {
        self.snapshot = snapshot
        image = snapshot.image
    }

    func report() -> VerificationReport {
        var listed = problems
        if unlisted > 0 {
            listed.append(VerificationProblem(offset: 0, message: "\(unlisted) more problems not listed"))
        }
        return VerificationReport(problems: listed, nodeCount: nodeRefs.count, freeEntryCount: freeEntryCount,
                                  logicalSize: logicalSize)
    }

    /// Problems another check found (the legacy structures, §10 of legacy-formats.md).
    func adopt(_ found: [VerificationProblem]) {
        for p in found { problem(p.offset, p.message) }
    }

    func problem(_ offset: Int, _ message: String) {
        if problems.count < Verifier.maxReportedProblems {
            problems.append(VerificationProblem(offset: offset, message: message))
        } else {
            unlisted += 1
        }
    }

    /// Turns a decoding error into a problem located where the decoder found it.
    func record(_ error: FormatError, at fallback: Int, _ context: String) {
        switch error {
        case let .corrupt(offset, reason):
            problem(offset, "\(context): \(reason)")
        case let .outOfBounds(offset, length, size):
            problem(offset, "\(context): a read of \(length) bytes runs past the end of the file (\(size) bytes)")
        case .workLimitExceeded:
            if !outOfBudget {
                problem(fallback, "\(context): the structure needs more reads than the file size allows "
                        + "(shared subtrees or cycles); table checks stopped")
            }
            outOfBudget = true
        default:
            problem(fallback, "\(context): \(error.message)")
        }
    }

    func run() {
        let topRef = snapshot.header.topRef
        guard topRef != 0 else { return }       // nothing committed: only the header exists
        let top: Node
        do {
            top = try Node(image: image, ref: topRef)
        } catch {
            record(error, at: topRef, "top array")
            return
        }
        guard checkTop(top) else { return }
        walkNodes(from: topRef)
        checkFreeLists(top)
        checkTiling()
        checkTables(top)
        if !outOfBudget && !snapshot.tables.isEmpty {
            snapshot.resetWorkBudget()
            do {
                for p in try BacklinkVerifier.verify(snapshot) { problem(p.offset, p.message) }
            } catch {
                record(error, at: 0, "links and backlinks")
            }
        }
    }

    // MARK: - Top array (§5)

    /// Checks the top array and sets the logical size; false when the rest cannot be checked.
    private func checkTop(_ top: Node) -> Bool {
        guard top.hasRefs, top.header.widthType == .bits else {
            problem(top.ref, "the top array is not a has-refs integer array")
            return false
        }
        if !TopArray.validSizes.contains(top.count) {
            problem(top.ref, "the top array has \(top.count) slots (valid: 3, 5, 7, 9, 10, 11, 12)")
        }
        guard let size = top.tagged(2) else {
            problem(top.ref, "the top array has no tagged logical file size in slot 2")
            return false
        }
        if size > UInt64(image.count) {
            problem(top.ref, "logical file size \(size) exceeds the file size \(image.count)")
        }
        if size % 8 != 0 { problem(top.ref, "logical file size \(size) is not a multiple of 8") }
        if size < 24 { problem(top.ref, "logical file size \(size) is smaller than the file header") }
        logicalSize = Int(min(size, UInt64(image.count)))
        if top.ref(0) == nil { problem(top.ref, "slot 0 (table names) is not a ref") }
        if top.ref(1) == nil { problem(top.ref, "slot 1 (tables) is not a ref") }
        for slot in 3...5 where slot < top.count && top.int(slot) & 1 == 1 {
            problem(top.ref, "slot \(slot) (free list) holds a tagged value, not a ref or 0")
        }
        return true
    }

    // MARK: - Structural walk (§3.4, §4)

    /// Why `value`, found in a has-refs array, cannot be a node ref (nil: it can).
    private func refProblem(_ value: Int64) -> String? {
        if value < 0 || value % 8 != 0 { return "which is not an 8-aligned offset" }
        if value < 24 { return "which points into the file header" }
        if value > Int64(logicalSize) - 8 { return "which points past the logical file size \(logicalSize)" }
        return nil
    }

    private func walkNodes(from topRef: Int) {
        if let reason = refProblem(Int64(topRef)) {
            problem(topRef, "top ref \(hex(topRef)) is unusable, \(reason)")
            return
        }
        // Every ref is marked when first seen, so each node is queued and read at most once.
        var parentOf: [Int: Int] = [topRef: -1]
        var stack = [topRef]
        while let ref = stack.popLast() {
            let node: Node
            do {
                node = try Node(image: image, ref: ref)
            } catch {
                record(error, at: ref, "node \(hex(ref))")
                continue
            }
            nodeRefs.append(ref)
            if node.isInner && !node.hasRefs { problem(ref, "node has the inner flag without has-refs") }
            if node.hasRefs && node.header.widthType != .bits {
                problem(ref, "has-refs node does not use width type 'bits'")
            }
            let size = node.header.byteSize
            if size > logicalSize - ref {
                problem(ref, "node of \(size) bytes runs past the logical file size \(logicalSize)")
            }
            extents.append(Extent(start: ref, end: min(ref + size, logicalSize), kind: .node))

            guard node.hasRefs, node.header.widthType == .bits else { continue }
            for i in stride(from: node.count - 1, through: 0, by: -1) {   // pop order = slot order
                let value = node.int(i)
                guard value != 0, value & 1 == 0 else { continue }
                if let reason = refProblem(value) {
                    problem(ref, "slot \(i) holds \(hex(UInt64(bitPattern: value))), \(reason)")
                    continue
                }
                let child = Int(value)
                if let first = parentOf[child] {
                    let firstPlace = first < 0 ? "the file header (top ref)" : "node \(hex(first))"
                    problem(child, "node is referenced twice: from \(firstPlace) and from node \(hex(ref)) slot \(i)")
                    continue
                }
                parentOf[child] = ref
                stack.append(child)
            }
        }
    }

    // MARK: - Free lists (§13.3)

    /// A free-list array: nil when the slot is 0 or the node unreadable (the walk reported it).
    private func freeListArray(_ ref: Int?, _ name: String) -> Node? {
        guard let ref, let node = try? Node(image: image, ref: ref) else { return nil }
        guard !node.hasRefs, node.header.widthType == .bits else {
            problem(ref, "free-list \(name) array is not a plain integer array")
            return nil
        }
        return node
    }

    private func checkFreeLists(_ top: Node) {
        guard top.count >= 5 else { return }
        let positions = freeListArray(top.ref(3), "positions")
        let lengths = freeListArray(top.ref(4), "lengths")
        let versions = top.count >= 7 ? freeListArray(top.ref(5), "versions") : nil
        let count = positions?.count ?? 0
        if (lengths?.count ?? 0) != count {
            problem(top.ref, "free-list positions (\(count)) and lengths (\(lengths?.count ?? 0)) differ in length")
        }
        if top.count >= 7, (versions?.count ?? 0) != count {
            problem(top.ref, "free-list positions (\(count)) and versions (\(versions?.count ?? 0)) differ in length")
        }
        guard let positions, let lengths else { return }
        let entries = min(positions.count, lengths.count)
        freeEntryCount = entries
        let stored = top.tagged(6) ?? 0
        let topVersion = stored == 0 ? 1 : stored        // absent or 0 counts as 1 (§5)
        let logical = Int64(logicalSize)
        var previousEnd = Int64.min
        for i in 0..<entries {
            let position = positions.int(i), length = lengths.int(i)
            let at = Int(position)
            let (end, overflow) = position.addingReportingOverflow(length)
            let range = overflow ? "[\(position), +\(length))" : "[\(hex(UInt64(bitPattern: position))), \(hex(UInt64(bitPattern: end))))"
            if position % 8 != 0 || length % 8 != 0 { problem(at, "free entry \(i) \(range) is not 8-aligned") }
            if length <= 0 { problem(at, "free entry \(i) has length \(length) (must be > 0)") }
            if position < previousEnd {
                problem(at, "free entry \(i) \(range) is not sorted after, or overlaps, the previous entry")
            }
            if position < 24 || overflow || end > logical {
                problem(at, "free entry \(i) \(range) lies outside [0x18, \(hex(logicalSize)))")
            }
            if checksFreeListVersions, let versions, i < versions.count {
                let version = UInt64(bitPattern: versions.int(i))
                if version > topVersion { problem(at, "free entry \(i) has version \(version) > top version \(topVersion)") }
            }
            guard length > 0, !overflow else { continue }
            previousEnd = max(previousEnd, end)
            let start = max(position, 0), stop = min(end, logical)
            if start < stop { extents.append(Extent(start: Int(start), end: Int(stop), kind: .freeEntry(i))) }
        }
    }

    // MARK: - Space accounting (§13.3 tiling, §18.1 item 8)

    private func checkTiling() {
        var all = extents
        all.append(Extent(start: 0, end: 24, kind: .header))
        all.sort { $0.start != $1.start ? $0.start < $1.start : $0.end < $1.end }
        var covered = 0
        var owner: Extent?
        for extent in all {
            if extent.start > covered {
                problem(covered, "bytes [\(hex(covered)), \(hex(extent.start))) (\(extent.start - covered) bytes) "
                        + "are neither reachable nor free")
            } else if extent.start < covered, let owner {
                problem(extent.start, "\(extent.description) overlaps \(owner.description)")
            }
            if extent.end > covered {
                covered = extent.end
                owner = extent
            }
        }
        if covered < logicalSize {
            problem(covered, "bytes [\(hex(covered)), \(hex(logicalSize))) (\(logicalSize - covered) bytes) "
                    + "before the logical end are neither reachable nor free")
        }
    }

    // MARK: - Tables (§7)

    private func checkTables(_ top: Node) {
        if let namesRef = top.ref(0), let tablesRef = top.ref(1),
           let names = try? Node(image: image, ref: namesRef), let tables = try? Node(image: image, ref: tablesRef) {
            if names.count != tables.count {
                problem(tablesRef, "\(names.count) table names for \(tables.count) table slots")
            }
            if tables.hasRefs, tables.header.widthType == .bits {
                for i in 0..<tables.count where tables.int(i) == 0 {
                    problem(tablesRef, "table slot \(i) is 0: neither a table nor a removed-table tag")
                }
            }
        }
        var positionOfKey = [TableKey: Int]()
        for table in snapshot.tables {
            let index = Int(table.key.value & 0xFFFF)
            if index != table.position {
                problem(table.ref, "table '\(table.name)' at position \(table.position) has key \(hex(table.key.value)), "
                        + "which names position \(index)")
            }
            if let other = positionOfKey[table.key] {
                problem(table.ref, "table '\(table.name)' has the same key \(hex(table.key.value)) as the table at position \(other)")
            } else {
                positionOfKey[table.key] = table.position
            }
            checkTable(table)
            if outOfBudget { return }
        }
    }

    func describe(_ column: Column, of table: Table) -> String {
        column.isBacklink ? "table '\(table.name)' backlink column \(hex(column.key.value))"
                          : "table '\(table.name)' column '\(column.name)'"
    }

    private func checkTable(_ table: Table) {
        var columnOfLeaf = [Int: Column]()
        for column in table.columns {
            if let other = columnOfLeaf[column.leafIndex] {
                problem(table.ref, "\(describe(column, of: table)) uses leaf index \(column.leafIndex), "
                        + "as does \(describe(other, of: table))")
            } else {
                columnOfLeaf[column.leafIndex] = column
            }
        }
        checkPrimaryKey(table)
        if let root = table.clusterRef {
            var walk = ClusterWalk(table: table, tombstones: false, usedSlots: Set(columnOfLeaf.keys.map { $0 + 1 }))
            _ = visitCluster(root, base: 0, expectedDepth: nil, &walk)
        } else {
            problem(table.ref, "table '\(table.name)' has no object cluster tree (slot 2)")
        }
        if let root = table.tombstonesRef, !outOfBudget {
            var walk = ClusterWalk(table: table, tombstones: true, usedSlots: Set(columnOfLeaf.keys.map { $0 + 1 }))
            _ = visitCluster(root, base: 0, expectedDepth: nil, &walk)
        }
        if !outOfBudget {
            for p in SearchIndexVerifier.verifyIndexes(of: table, snapshot: snapshot) { problem(p.offset, p.message) }
        }
    }

    /// §7.7: the PK column exists, has an allowed type and, from format 22 on, a search index.
    private func checkPrimaryKey(_ table: Table) {
        guard let key = table.primaryKey else { return }
        guard let column = table.primaryKeyColumn else {
            problem(table.ref, "table '\(table.name)': primary key column \(hex(UInt64(bitPattern: key.value))) does not exist")
            return
        }
        if !Self.primaryKeyTypes.contains(column.type) || column.collection != nil || column.isBacklink {
            problem(table.ref, "table '\(table.name)': primary key column '\(column.name)' has type "
                    + "\(column.type.propertyTypeName)\(column.collection.map { " \($0.rawValue)" } ?? ""), "
                    + "not int, string, objectId or uuid")
        }
        if snapshot.layoutFormat >= 22 && column.searchIndexRef == nil {
            problem(table.ref, "table '\(table.name)': primary key column '\(column.name)' has no search index")
        }
    }
}
