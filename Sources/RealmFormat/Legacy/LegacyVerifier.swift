/// What `verify` checks in the structures of a file of formats 2–9 (legacy-formats.md §10),
/// beyond the walk every file gets (refs, node headers, free lists, tiling) and what the
/// conversion already refuses:
/// * every column B+tree as Core 5's `verify_bptree` checks it: inner nodes with at least one
///   child and a tagged total equal to the children's sum; general form: an offsets array of
///   one cumulative count per child but the last; compact form: every child but the last
///   exactly "elements per child" large, no general-form child; leaves non-empty and at one
///   depth;
/// * every column of a table (and of each subtable) the same size;
/// * links and link lists name rows their target table has, enumerated strings positions
///   their value list has, the old Mixed column indexes its blobs and timestamps have;
/// * backlinks mirror the links exactly (each origin row once per link to the row).
/// Tables a Core 10–13 upgrade already converted in part (§9) get these checks for the old
/// columns they still have; their cluster part is checked in the converted image.
struct LegacyVerifier {
    /// `verify` of a legacy file: the walk of the file as it is on disk, these checks, and
    /// the checks of the converted image (which would show a conversion fault, not damage).
    static func report(_ snapshot: Snapshot, _ group: LegacyGroup) -> VerificationReport {
        let onDisk = VerificationRun(snapshot: group.source)
        onDisk.checksFreeListVersions = false
        onDisk.run()
        onDisk.adopt(verify(group))
        let converted = VerificationRun(snapshot: snapshot)
        converted.run()
        onDisk.adopt(converted.report().problems.map {
            VerificationProblem(offset: $0.offset, message: "in the format-24 image converted from it: \($0.message)")
        })
        return onDisk.report()
    }

    let group: LegacyGroup
    private(set) var problems: [VerificationProblem] = []
    /// The work budget ran out (a cycle): further checks would only repeat that.
    private var stopped = false

    static func verify(_ group: LegacyGroup) -> [VerificationProblem] {
        group.source.resetWorkBudget()
        var v = LegacyVerifier(group: group)
        for table in group.tables where !v.stopped { v.check(table) }
        if !v.stopped { v.checkBacklinks() }
        return v.problems
    }

    private mutating func problem(_ offset: Int, _ message: String) {
        if problems.count < Verifier.maxReportedProblems { problems.append(VerificationProblem(offset: offset, message: message)) }
    }

    private mutating func record(_ error: FormatError, at offset: Int, _ what: String) {
        switch error {
        case let .corrupt(o, reason): problem(o, "\(what): \(reason)")
        case .workLimitExceeded:
            problem(offset, "\(what): the structure needs more reads than the file size allows (shared subtrees or cycles); checks stopped")
            stopped = true
        default: problem(offset, "\(what): \(error.message)")
        }
    }

    // MARK: - Tables

    private mutating func check(_ table: LegacyTable) {
        guard let columns = table.columns else { return }
        let source = LegacyRowSource(columns: columns, hasIndexSlots: table.hasIndexSlots)
        checkColumns(table.spec, source, rows: table.upgraded == nil ? table.rowCount : nil, what: "table '\(table.name)'")
        guard table.upgraded == nil else { return }
        let reader = LegacyColumnReader(source: group.source, table: table.name)
        for c in table.spec.columns where !stopped {
            guard let root = source.root(of: c) else { continue }
            let what = "table '\(table.name)' column \(describe(c))"
            do {
                switch c.type {
                case .link:
                    let target = group.tables[c.linkedTable!]
                    for (row, t) in try reader.links(root).enumerated() where t.map({ $0 < 0 || $0 >= Int64(target.rowCount) }) ?? false {
                        problem(root, "\(what): row \(row) links to row \(t!) of '\(target.name)', which has \(target.rowCount) rows")
                    }
                case .linkList:
                    let target = group.tables[c.linkedTable!]
                    for (row, v) in try reader.plainInts(root).enumerated() where v != 0 {
                        guard v > 0, v & 1 == 0 else {
                            problem(root, "\(what): row \(row) holds \(v), not a link list ref")
                            continue
                        }
                        guard checkTree(Int(v), what: "\(what) row \(row)", leafSize: { $0.count }) != nil else { continue }
                        for t in try reader.plainInts(Int(v)) where t < 0 || t >= Int64(target.rowCount) {
                            problem(Int(v), "\(what): row \(row) links to row \(t) of '\(target.name)', which has \(target.rowCount) rows")
                        }
                    }
                case .backlink:
                    let origin = group.tables[c.linkedTable!]
                    for (row, v) in try reader.plainInts(root).enumerated() where v != 0 && v & 1 == 0 {
                        guard checkTree(Int(v), what: "\(what) row \(row)", leafSize: { $0.count }) != nil else { continue }
                        for o in try reader.plainInts(Int(v)) where o < 0 || o >= Int64(origin.rowCount) {
                            problem(Int(v), "\(what): row \(row) has a backlink from row \(o) of '\(origin.name)', which has \(origin.rowCount) rows")
                        }
                    }
                default:
                    break
                }
            } catch {
                record(error, at: root, what)
            }
        }
    }

    private func describe(_ c: LegacySpec.Column) -> String {
        c.type == .backlink ? "\(c.index) (backlink)" : "'\(c.name)' (\(c.type.name))"
    }

    /// The trees of every column of one columns array, all `rows` long (nil: as long as the
    /// first one; a half-upgraded table's moved columns are skipped).
    private mutating func checkColumns(_ spec: LegacySpec, _ source: LegacyRowSource, rows: Int?, what: String) {
        var expected = rows
        let reader = LegacyColumnReader(source: group.source, table: what)
        for c in spec.columns where !stopped {
            guard let root = source.root(of: c) else { continue }
            let column = "\(what) column \(describe(c))"
            guard let size = checkColumn(c, root: root, reader: reader, what: column) else { continue }
            if let e = expected, e != size {
                problem(root, "\(column) has \(size) rows, the table \(e)")
            }
            expected = expected ?? size
        }
    }

    /// Checks one column's structures; returns its size.
    private mutating func checkColumn(_ c: LegacySpec.Column, root: Int, reader: LegacyColumnReader, what: String) -> Int? {
        // A subtable column an upgrade retyped but did not move (§9): subtable refs.
        if c.isConvertedList { return checkTree(root, what: what, leafSize: { $0.count }) }
        do {
            switch c.type {
            case .timestamp:
                let (s, n) = try reader.timestampTrees(root)
                let seconds = checkTree(s, what: "\(what) seconds", leafSize: Self.nullableIntLeafSize)
                let nanos = checkTree(n, what: "\(what) nanoseconds", leafSize: { $0.count })
                if let seconds, let nanos, seconds != nanos {
                    problem(root, "\(what): \(seconds) seconds but \(nanos) nanoseconds")
                }
                return seconds
            case .mixed:
                return try checkMixed(root, reader: reader, what: what)
            case .string, .binary:
                return checkTree(root, what: what, leafSize: Self.blobLeafSize)
            case .stringEnum:
                guard let size = checkTree(root, what: what, leafSize: { $0.count }),
                      let values = checkTree(c.enumKeysRef!, what: "\(what) values", leafSize: Self.blobLeafSize) else { return nil }
                for (row, i) in try reader.plainInts(root).enumerated() where i < 0 || i >= Int64(values) {
                    problem(root, "\(what): row \(row) holds position \(i) of \(values) values")
                }
                return size
            case .table:
                guard let size = checkTree(root, what: what, leafSize: { $0.count }) else { return nil }
                let sub = c.subspec!
                for (row, columns) in try reader.subtables(root, spec: sub).enumerated() {
                    guard let columns else { continue }
                    checkColumns(sub, LegacyRowSource(columns: columns, hasIndexSlots: true), rows: nil, what: "\(what) row \(row)")
                }
                return size
            case .int, .bool, .dateTime:
                return checkTree(root, what: what, leafSize: c.isNullable ? Self.nullableIntLeafSize : { $0.count })
            default:
                return checkTree(root, what: what, leafSize: { $0.count })
            }
        } catch {
            record(error, at: root, what)
            return nil
        }
    }

    private mutating func checkMixed(_ root: Int, reader: LegacyColumnReader, what: String) throws(FormatError) -> Int? {
        let parts = try reader.mixedParts(root)
        guard let types = checkTree(parts.types, what: "\(what) types", leafSize: { $0.count }),
              let data = checkTree(parts.data, what: "\(what) data", leafSize: { $0.count }) else { return nil }
        if types != data { problem(root, "\(what): \(types) types for \(data) values") }
        if let b = parts.blobs { _ = checkTree(b, what: "\(what) blobs", leafSize: Self.blobLeafSize) }
        if let t = parts.timestamps { _ = checkColumn(.mixedTimestamps, root: t, reader: reader, what: "\(what) timestamps") }
        _ = try reader.mixed(root)          // every type known, every index inside its column
        return types
    }

    // MARK: - B+trees (§5.1)

    static func nullableIntLeafSize(_ leaf: Node) -> Int { leaf.count - 1 }

    /// Short strings and big blobs hold one value per element; medium strings and small
    /// binaries one per offset.
    static func blobLeafSize(_ leaf: Node) -> Int {
        guard leaf.hasRefs, !leaf.context, let offsets = leaf.ref(0),
              let node = try? Node(image: leaf.image, ref: offsets) else { return leaf.count }
        return node.count
    }

    /// Checks the tree at `root`; returns its element count, nil when it is unusable.
    private mutating func checkTree(_ root: Int, what: String, leafSize: (Node) -> Int) -> Int? {
        do {
            let node = try group.source.node(root)
            if !node.isInner {
                let n = leafSize(node)
                if n < 0 { problem(root, "\(what): leaf lacks its null marker") }
                return max(n, 0)
            }
            return try checkInner(node, depth: 0, what: what, leafSize: leafSize)?.elements
        } catch {
            record(error, at: root, what)
            return nil
        }
    }

    /// (elements, leaf level, general form) of the subtree at `node`, as Core 5's
    /// `verify_bptree` computes them.
    private mutating func checkInner(_ node: Node, depth: Int, what: String,
                                     leafSize: (Node) -> Int) throws(FormatError) -> (elements: Int, level: Int, general: Bool)? {
        guard depth < BPlusTree.maxDepth else {
            problem(node.ref, "\(what): B+tree deeper than \(BPlusTree.maxDepth) levels")
            return nil
        }
        guard node.hasRefs, node.count >= 3 else {
            problem(node.ref, "\(what): inner B+tree node with \(node.count) slots (needs offsets, a child and a total)")
            return nil
        }
        let children = node.count - 2
        let first = node.int(0)
        let general = first & 1 == 0
        var offsets: Node?
        var perChild = 0
        if general {
            guard first != 0 else {
                problem(node.ref, "\(what): inner B+tree node has neither offsets nor elements per child")
                return nil
            }
            let o = try group.source.node(Int(first))
            if o.hasRefs || o.count != children - 1 {
                problem(o.ref, "\(what): B+tree offsets array has \(o.count) entries for \(children) children")
            } else {
                offsets = o
            }
        } else {
            perChild = Int(truncatingIfNeeded: first >> 1)
        }
        var elements = 0
        var level: Int?
        for i in 0..<children {
            guard let childRef = node.ref(1 + i) else {
                problem(node.ref, "\(what): B+tree child \(i) is not a ref")
                return nil
            }
            let child = try group.source.node(childRef)
            let count: Int, childLevel: Int
            if child.isInner {
                guard let r = try checkInner(child, depth: depth + 1, what: what, leafSize: leafSize) else { return nil }
                if !general && r.general { problem(child.ref, "\(what): general-form B+tree node under a compact one") }
                (count, childLevel) = (r.elements, r.level)
            } else {
                count = leafSize(child)
                childLevel = 0
                if count < 1 { problem(child.ref, "\(what): empty B+tree leaf") }
            }
            if let level, level != childLevel {
                problem(child.ref, "\(what): B+tree leaves at different depths")
            }
            level = childLevel
            elements += max(count, 0)
            if i < children - 1 {
                if let offsets, offsets.int(i) != Int64(elements) {
                    problem(offsets.ref, "\(what): B+tree offset \(i) is \(offsets.int(i)), the children hold \(elements)")
                }
                if !general && count != perChild {
                    problem(child.ref, "\(what): compact B+tree child \(i) holds \(count) elements, not \(perChild)")
                }
            } else if !general && count > perChild {
                problem(child.ref, "\(what): compact B+tree last child holds \(count) elements, more than \(perChild)")
            }
        }
        guard let total = node.tagged(node.count - 1) else {
            problem(node.ref, "\(what): inner B+tree node lacks its tagged total")
            return nil
        }
        if total != UInt64(elements) {
            problem(node.ref, "\(what): B+tree total \(total) but its children hold \(elements)")
        }
        return (elements, 1 + (level ?? 0), general)
    }

    // MARK: - Backlinks (§6.3)

    /// Each link column and the backlink column its target keeps for it hold the same
    /// (origin row, target row) pairs, as often each.
    private mutating func checkBacklinks() {
        for origin in group.tables where origin.upgraded == nil {
            let reader = LegacyColumnReader(source: group.source, table: origin.name)
            for c in origin.spec.columns where [.link, .linkList].contains(c.type) && !stopped {
                let target = group.tables[c.linkedTable!]
                guard target.upgraded == nil, let root = origin.root(of: c) else { continue }
                let what = "table '\(origin.name)' column '\(c.name)'"
                guard let b = target.spec.columns.first(where: {
                    $0.type == .backlink && $0.linkedTable == origin.position && $0.originColumn == c.index
                }), let backRoot = target.root(of: b) else {
                    problem(target.spec.ref, "\(what): table '\(target.name)' has no backlink column for it")
                    continue
                }
                do {
                    var forward = [[Int64]](repeating: [], count: target.rowCount)
                    let lists = c.type == .link ? try reader.links(root).map { $0.map { [$0] } ?? [] } : try reader.linkLists(root)
                    for (row, targets) in lists.enumerated() {
                        for t in targets where t >= 0 && t < Int64(target.rowCount) { forward[Int(t)].append(Int64(row)) }
                    }
                    let backward = try LegacyColumnReader(source: group.source, table: target.name).backlinks(backRoot)
                    guard backward.count == forward.count else { continue }     // reported as a size mismatch
                    for (row, origins) in backward.enumerated() where origins.sorted() != forward[row] {
                        problem(backRoot, "table '\(target.name)' row \(row): backlinks from '\(origin.name)'.'\(c.name)' are rows \(origins.sorted()), its links come from rows \(forward[row])")
                    }
                } catch {
                    record(error, at: root, what)
                }
            }
        }
    }
}

extension LegacySpec.Column {
    /// The timestamp column inside an old Mixed column.
    static let mixedTimestamps = LegacySpec.Column(index: 0, name: "", type: .timestamp, attributes: 16, slot: 0,
                                                   linkedTable: nil, originColumn: nil, subspec: nil,
                                                   enumKeysRef: nil, key: nil)
}
