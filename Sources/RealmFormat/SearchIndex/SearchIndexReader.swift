/// Reads a general search index (realm-format.md §12.2): a tree of index nodes, each a
/// has-refs array `[keys, entry…]` with the context flag, where the keys are ascending signed
/// 32-bit chunks of the values' index bytes (§12.3). Inner nodes point at children (key i = the
/// last key of child i); a leaf entry is T(ObjKey), a duplicate list (B+tree of ObjKeys) or a
/// sub-index for the next four bytes.
///
/// The index keeps only as many chunks as it needs to tell values apart, so `find` confirms
/// every candidate by reading its actual value. Nothing from disk is trusted: node shapes,
/// depths and offsets are checked, and every problem is a `FormatError.corrupt`.
public struct SearchIndexReader {
    /// Inner levels within one sub-index tree: 1000-key nodes need 4 for any file; builds with
    /// tiny nodes (REALM_MAX_BPNODE_SIZE 4) need about log2 of the key count.
    static let maxInnerDepth = 48
    /// Levels of a duplicate list's B+tree.
    static let maxListDepth = 48

    let snapshot: Snapshot
    public let rootRef: Int
    /// The snapshot's kept upper levels, when this reader was made to hold them. Unretained:
    /// the snapshot keeps every `IndexTop` it makes for its whole life (`indexTops`, only ever
    /// added to) and this reader holds the snapshot, so a lookup needs no reference count.
    let top: Unmanaged<IndexTop>?

    public init(snapshot: Snapshot, rootRef: Int) {
        self.snapshot = snapshot
        self.rootRef = rootRef
        top = nil
    }

    private init(snapshot: Snapshot, rootRef: Int, top: IndexTop) {
        self.snapshot = snapshot
        self.rootRef = rootRef
        self.top = Unmanaged.passUnretained(top)
    }

    /// This reader holding the index's kept upper levels (`IndexTop`), read now if they were
    /// not yet: for a reader kept for many lookups, which then skip asking the snapshot.
    public func holdingTop() throws(FormatError) -> SearchIndexReader {
        if top != nil { return self }
        return SearchIndexReader(snapshot: snapshot, rootRef: rootRef, top: try snapshot.indexTop(rootRef, self))
    }

    /// The ObjKeys whose value equals `value` (Realm's comparison, `ValueOrder.compare`), in
    /// index order. `readValue` returns an object's current value in the column.
    public func find(_ value: Value, columnType: ColumnType,
                     readValue: (Int64) throws(FormatError) -> Value) throws(FormatError) -> [Int64] {
        guard let data = IndexKey.bytes(of: value, columnType: columnType) else { return [] }
        snapshot.resetWorkBudget()
        var out = [Int64]()
        for key in try candidates(data) where ValueOrder.compare(try readValue(key), value) == 0 {
            out.append(key)
        }
        return out
    }

    /// The ObjKeys stored where values with index bytes `data` would be, unconfirmed.
    public func candidates(_ data: IndexBytes) throws(FormatError) -> [Int64] {
        switch try lookup(data) {
        case .none: return []
        case let .single(objKey, _): return [objKey]
        case let .list(listRef, _): return try listKeys(listRef)
        }
    }

    /// Where values with index bytes `data` would be stored, unconfirmed (§12.2).
    public func lookup(_ data: IndexBytes) throws(FormatError) -> IndexHit {
        try lookup { IndexKey.key(data, offset: $0) }
    }

    /// `lookup(.bytes(intBytes(value)))` for an int (or bool) column, without building the
    /// bytes or allocating: the primary-key and int-equality fast path.
    public func lookup(int value: Int64) throws(FormatError) -> IndexHit {
        try lookup { IndexKey.key(int: value, offset: $0) }
    }

    /// Descends from the root, taking the key of each sub-index level from `keyAt(offset)`. The
    /// upper levels come from the snapshot's kept copy (`IndexTop`), the rest are read.
    @inline(__always)
    func lookup(_ keyAt: (Int) -> Int32) throws(FormatError) -> IndexHit {
        // The held top is borrowed for the descent, not retained (see `top`).
        if let held = top {
            return try held._withUnsafeGuaranteedRef { top in
                Result { () throws(FormatError) in try descend(top, keyAt) }
            }.get()
        }
        return try descend(try snapshot.indexTop(rootRef, self), keyAt)
    }

    @inline(__always)
    private func descend(_ top: IndexTop, _ keyAt: (Int) -> Int32) throws(FormatError) -> IndexHit {
        // The ref of the current node once the descent is below the kept levels (a kept node
        // has its own, `IndexNode.ref`).
        var ref = rootRef
        var offset = 0
        var innerDepth = 0
        var level = 0
        var key = keyAt(0)
        // The number of the current node in `top`, -1 once the descent is below the kept levels.
        var kept = 0
        while true {
            let node: IndexNode
            let i: Int
            if kept >= 0 {
                let k = top.node(kept)
                node = k.node
                if let bytes = k.keys32 {
                    i = IndexNode.lowerBound(key, in: bytes, count: node.keyCount, scale: k.scale)
                    if !node.isInner {
                        // The leaf's key and entry read straight from the payloads: a tagged
                        // ObjKey (§12.2) is the usual answer, and needs nothing kept or read.
                        guard i < node.keyCount, bytes.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self) == key.littleEndian else {
                            return .none
                        }
                        let v = node.slots.int(i &+ 1)
                        if v & 1 == 1 { return .single(objKey: Int64(bitPattern: UInt64(bitPattern: v) >> 1), offset: offset) }
                    }
                } else {
                    i = node.lowerBound(key, scale: k.scale)
                }
            } else {
                node = try indexNode(ref)
                i = node.lowerBound(key)
            }
            guard i < node.keyCount else { return .none }
            if node.isInner {
                innerDepth += 1
                guard innerDepth <= Self.maxInnerDepth else {
                    throw .corrupt(offset: node.ref, reason: "search index inner nodes nest deeper than \(Self.maxInnerDepth) levels")
                }
                level += 1
                if kept >= 0 && level < IndexTop.depth {
                    let known = top.keptChild(of: kept, i)
                    kept = known >= 0 ? known : try top.child(of: kept, i, ref: try node.childRef(i), self)
                } else {
                    ref = try node.childRef(i)
                    kept = -1
                }
                continue
            }
            guard node.key(i) == Int64(key) else { return .none }
            // A tagged ObjKey needs nothing kept or read (§12.2); `indexNode` checked one slot
            // per key after the keys ref, so slot i + 1 exists.
            let v = node.slots.int(i &+ 1)
            if v & 1 == 1 { return .single(objKey: Int64(bitPattern: UInt64(bitPattern: v) >> 1), offset: offset) }
            let entry: Entry
            if kept >= 0 { entry = try top.entry(of: kept, i, self) } else { entry = try leafEntry(node, i) }
            switch entry {
            case let .single(objKey):
                return .single(objKey: objKey, offset: offset)
            case let .list(listRef):
                return .list(ref: listRef, offset: offset)
            case let .subIndex(subRef):
                offset += 4
                guard offset <= IndexKey.maxOffset else {
                    throw .corrupt(offset: node.ref, reason: "search index has a sub-index beyond byte offset \(IndexKey.maxOffset)")
                }
                innerDepth = 0
                key = keyAt(offset)
                level += 1
                if kept >= 0 && level < IndexTop.depth {
                    kept = try top.child(of: kept, i, ref: subRef, self)
                } else {
                    ref = subRef
                    kept = -1
                }
            }
        }
    }

    /// The number of ObjKeys in a duplicate list and its first and last, reading only the root
    /// and the two outer paths (§11): the count is the root's size slot, as realm-core's
    /// `BPlusTree::size()` answers it, so a list of 10,000 keys costs three nodes, not its
    /// eleven leaves. The right path is checked on the way down — each inner node's size must be
    /// its last child's start (E·(N−1) in the compact form, the last offset in the general one)
    /// plus that child's size — and the outer leaves must not be empty. Nil for an empty list
    /// or one whose sizes disagree: the caller then evaluates without the summary.
    public func listSummary(_ ref: Int) throws(FormatError) -> (count: Int, first: Int64, last: Int64)? {
        let root = try listNode(ref, depth: 0)
        guard root.isInner else {
            guard root.count > 0 else { return nil }
            return (root.count, root.int(0), root.int(root.count - 1))
        }
        guard let count = listSize(root) else { return nil }
        var node = root, depth = 0
        while node.isInner {                                   // listNode bounds the depth
            depth += 1
            node = try listNode(try listChild(node, 1), depth: depth)
        }
        guard node.count > 0 else { return nil }
        let first = node.int(0)
        node = root
        depth = 0
        var size = count
        while node.isInner {
            let children = node.count - 2
            guard let start = try listChildStart(node, children - 1) else { return nil }
            depth += 1
            node = try listNode(try listChild(node, children), depth: depth)
            guard let below = node.isInner ? listSize(node) : node.count,
                  case let (sum, overflow) = start.addingReportingOverflow(below), !overflow, sum == size else { return nil }
            size = below
        }
        guard node.count > 0 else { return nil }
        return (count, first, node.int(node.count - 1))
    }

    /// The size slot (last) of an inner duplicate-list node; nil when it is not a tagged count.
    private func listSize(_ inner: Node) -> Int? {
        guard let s = inner.tagged(inner.count - 1), s <= UInt64(Int.max) else { return nil }
        return Int(s)
    }

    /// The position of child `j`'s first element in an inner duplicate-list node (§11 slot 0):
    /// j·E in the compact form, offsets[j − 1] in the general one; nil when slot 0 is neither
    /// or the offsets do not cover the children.
    private func listChildStart(_ inner: Node, _ j: Int) throws(FormatError) -> Int? {
        if let e = inner.tagged(0) {
            guard e <= UInt64(Int.max), case let (start, overflow) = j.multipliedReportingOverflow(by: Int(e)), !overflow else { return nil }
            return start
        }
        guard j > 0 else { return 0 }
        guard let offsetsRef = inner.ref(0) else { return nil }
        let offsets = try snapshot.node(offsetsRef)
        guard !offsets.hasRefs, offsets.header.widthType == .bits, offsets.count == inner.count - 3 else { return nil }
        let start = offsets.unsigned(j - 1)
        return start <= UInt64(Int.max) ? Int(start) : nil
    }

    /// Every entry of the index, in key order: the key chain that leads to it and its ObjKey
    /// (one entry per ObjKey of a duplicate list).
    public func allEntries() throws(FormatError) -> [SearchIndexEntry] {
        var out = [SearchIndexEntry]()
        try walk(entry: { out.append($0) }, irregularity: { _, _ in })
        return out
    }

    // MARK: walking

    /// Visits every entry; `irregularity` receives structural problems that do not stop the
    /// walk (offset, description); unreadable structure throws.
    func walk(maxNodeSize: Int = 1000, entry: (SearchIndexEntry) -> Void,
              irregularity: (Int, String) -> Void) throws(FormatError) {
        _ = try walkTree(rootRef, offset: 0, chain: [], maxNodeSize: maxNodeSize, entry: entry, irregularity: irregularity)
    }

    /// Walks one index tree (the root or a sub-index); returns its number of keys.
    private func walkTree(_ ref: Int, offset: Int, chain: [Int32], maxNodeSize: Int,
                          entry: (SearchIndexEntry) -> Void, irregularity: (Int, String) -> Void) throws(FormatError) -> Int {
        var leafDepth: Int?
        var keyCount = 0
        func visit(_ ref: Int, depth: Int) throws(FormatError) -> Int64? {
            guard depth <= Self.maxInnerDepth else {
                throw .corrupt(offset: ref, reason: "search index inner nodes nest deeper than \(Self.maxInnerDepth) levels")
            }
            let node = try indexNode(ref)
            if !node.context { irregularity(ref, "search index node lacks the context flag") }
            if node.keyCount > maxNodeSize {
                irregularity(ref, "search index node has \(node.keyCount) keys (at most \(maxNodeSize))")
            }
            for i in 0..<node.keyCount {
                let k = node.key(i)
                if k < Int64(Int32.min) || k > Int64(Int32.max) {
                    irregularity(node.keysRef, "search index key \(k) is not a signed 32-bit value")
                } else if i > 0 && k <= node.key(i - 1) {
                    irregularity(node.keysRef, "search index keys are not strictly ascending at position \(i)")
                }
            }
            if node.isInner {
                if node.keyCount == 0 { irregularity(ref, "search index inner node has no children") }
                for i in 0..<node.keyCount {
                    let last = try visit(try node.childRef(i), depth: depth + 1)
                    if let last, last != node.key(i) {
                        irregularity(ref, "search index inner node key \(i) is \(node.key(i)), but its child's last key is \(last)")
                    } else if last == nil {
                        irregularity(ref, "search index inner node child \(i) is empty")
                    }
                }
            } else {
                if let d = leafDepth, d != depth {
                    irregularity(ref, "search index leaves at different depths (\(d) and \(depth))")
                }
                leafDepth = depth
                keyCount += node.keyCount
                for i in 0..<node.keyCount {
                    let key = Int32(truncatingIfNeeded: node.key(i))
                    let here = chain + [key]
                    switch try leafEntry(node, i) {
                    case let .single(objKey):
                        entry(SearchIndexEntry(keys: here, objKey: objKey, kind: .single))
                    case let .list(listRef):
                        let keys = try listKeys(listRef, maxNodeSize: maxNodeSize, irregularity: irregularity)
                        if keys.isEmpty { irregularity(listRef, "search index duplicate list is empty") }
                        for (position, objKey) in keys.enumerated() {
                            entry(SearchIndexEntry(keys: here, objKey: objKey, kind: .list(ref: listRef, position: position)))
                        }
                    case let .subIndex(subRef):
                        guard offset + 4 <= IndexKey.maxOffset else {
                            throw .corrupt(offset: ref, reason: "search index has a sub-index beyond byte offset \(IndexKey.maxOffset)")
                        }
                        let n = try walkTree(subRef, offset: offset + 4, chain: here, maxNodeSize: maxNodeSize,
                                             entry: entry, irregularity: irregularity)
                        if n == 0 { irregularity(subRef, "search index sub-index is empty") }
                    }
                }
            }
            return node.keyCount > 0 ? node.key(node.keyCount - 1) : nil
        }
        _ = try visit(ref, depth: 0)
        return keyCount
    }

    // MARK: nodes

    /// One index node and its keys array, as plain views of their checked payloads (no
    /// reference to the image: copied per level of a lookup, and kept in `IndexTop`, without
    /// reference counting; the reader's snapshot keeps the bytes alive).
    struct IndexNode {
        let ref: Int
        let isInner: Bool
        let context: Bool
        let keysRef: Int
        /// The keys; and the node's own elements: slot 0 the keys ref, then one per key.
        let keys: PackedInts
        let slots: PackedInts
        var keyCount: Int { keys.count }
        func key(_ i: Int) -> Int64 { keys.int(i) }

        /// Slot `i` as `Node.ref` reads it: nil for 0 and tagged values.
        func ref(_ i: Int) -> Int? {
            guard i >= 0, i < slots.count else { return nil }
            let v = slots.int(i)
            return v != 0 && v & 1 == 0 ? Int(v) : nil
        }

        /// The factor of `lowerBound`'s interpolation guess, (keyCount − 2) / (last key − first
        /// key), for a node whose keys are read straight from a width-32 payload; 0 when the
        /// guess is never made (fewer than two keys, or no spread).
        var interpolationScale: Double {
            keyCount >= 2 ? Self.interpolationScale(count: keyCount, low: key(0), high: key(keyCount - 1)) : 0
        }

        /// The same for `count` keys from `low` to `high`.
        static func interpolationScale(count: Int, low: Int64, high: Int64) -> Double {
            count >= 2 && high > low ? Double(count - 2) / Double(high - low) : 0
        }

        /// The first position whose key is ≥ `key` (keyCount if none).
        @inline(__always)
        func lowerBound(_ key: Int32) -> Int { lowerBound(key, scale: interpolationScale) }

        /// The keys' payload when they can be read as plain int32s: Realm writes keys arrays
        /// with width 32 (§12.2), and `Node` checked the payload's extent when made. nil for
        /// other widths (then `int`'s per-element switch on the width reads them).
        var keys32: UnsafeRawPointer? {
            keys.width == 32 && keyCount > 0 && keys.bytes.count >= 4 &* keyCount ? keys.bytes.baseAddress : nil
        }

        /// `lowerBound(key)` with the node's `interpolationScale` already known.
        func lowerBound(_ key: Int32, scale: Double) -> Int {
            if let bytes = keys32 { return Self.lowerBound(key, in: bytes, count: keyCount, scale: scale) }
            return lowerBound(key, 0, keyCount)
        }

        /// The first of the `count` (> 0) int32 keys at `bytes` that is ≥ `key` (`count` if
        /// none), `scale` the node's `interpolationScale`. Kept nodes keep both (`IndexTop`):
        /// a kept level's search then copies no node and divides nothing.
        @inline(__always)
        static func lowerBound(_ key: Int32, in bytes: UnsafeRawPointer, count hi: Int, scale: Double) -> Int {
            @inline(__always) func at(_ i: Int) -> Int32 {
                Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self))
            }
            // First a guess by interpolation between the node's first and last keys (keys of ints
            // and hash-like strings spread evenly).
            let low = at(0), high = at(hi &- 1)
            if key <= low { return 0 }
            if key > high { return hi }
            // low < key <= high: the answer is in 1 ..< hi, and so is the guess (the product is
            // at most hi − 2, rounding included, before the truncation).
            let guess = Swift.min(hi &- 1, 1 &+ Int(Double(Int64(key) &- Int64(low)) * scale))
            // On the keys of ints the guess is within 16 positions of the answer almost always
            // (measured on the 1M-object benchmark index: within 28 on every probe): a binary
            // search of the 32 positions around it, without jumps on the keys, its answer
            // confirmed by its neighbour's key.
            if guess > 16 && guess &+ 16 <= hi {
                var f = guess &- 16
                f &+= at(f &+ 15) < key ? 16 : 0
                f &+= at(f &+ 7) < key ? 8 : 0
                f &+= at(f &+ 3) < key ? 4 : 0
                f &+= at(f &+ 1) < key ? 2 : 0
                f &+= at(f) < key ? 1 : 0
                if at(f) >= key && at(f &- 1) < key { return f }
            }
            // Else a gallop outwards from the guess to a bracket of at most twice its distance
            // (never more than about twice a binary search's probes), then a binary search.
            var lo: Int, hi = hi
            var step = 1
            if at(guess - 1) < key {
                // The answer is ≥ guess: gallop up until a key ≥ key.
                lo = guess
                var probe = guess
                while probe < hi - 1, at(probe) < key {
                    lo = probe + 1
                    probe = Swift.min(hi - 1, probe + step)
                    step <<= 1
                }
                hi = probe + 1
            } else {
                // The answer is ≤ guess - 1: gallop down until a key < key.
                hi = guess
                var probe = guess - 1
                while probe > 0, at(probe - 1) >= key {
                    hi = probe
                    probe = Swift.max(1, probe - step)
                    step <<= 1
                }
                lo = probe
            }
            while lo < hi {
                let mid = (lo &+ hi) >> 1
                if at(mid) < key { lo = mid &+ 1 } else { hi = mid }
            }
            return lo
        }

        private func lowerBound(_ key: Int32, _ lo: Int, _ hi: Int) -> Int {
            var lo = lo, hi = hi
            let k = Int64(key)
            while lo < hi {
                let mid = (lo + hi) / 2
                if keys.int(mid) < k { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        func childRef(_ i: Int) throws(FormatError) -> Int {
            guard let child = ref(i + 1) else {
                throw .corrupt(offset: ref, reason: "search index inner node entry \(i) is not a ref")
            }
            return child
        }
    }

    enum Entry {
        case single(Int64)
        case list(Int)
        case subIndex(Int)
    }

    func indexNode(_ ref: Int) throws(FormatError) -> IndexNode {
        let node = try snapshot.node(ref)
        guard node.hasRefs, node.header.widthType == .bits, node.count >= 1, let keysRef = node.ref(0) else {
            throw .corrupt(offset: ref, reason: "search index node is not a has-refs array with its keys in slot 0")
        }
        let keys = try snapshot.node(keysRef)
        guard !keys.hasRefs, keys.header.widthType == .bits, keys.count == node.count - 1 else {
            throw .corrupt(offset: keysRef, reason: "search index keys array does not hold one key per entry (\(node.count - 1))")
        }
        return IndexNode(ref: ref, isInner: node.isInner, context: node.context, keysRef: keysRef,
                         keys: PackedInts(keys), slots: PackedInts(node))
    }

    /// Leaf entry `i`: a tagged ObjKey, or a ref whose target's context flag tells a sub-index
    /// (set) from a duplicate list (clear).
    func leafEntry(_ node: IndexNode, _ i: Int) throws(FormatError) -> Entry {
        let v = node.slots.int(i + 1)
        if v & 1 == 1 { return .single(Int64(bitPattern: UInt64(bitPattern: v) >> 1)) }
        guard v != 0 else {
            throw .corrupt(offset: node.ref, reason: "search index leaf entry \(i) is 0")
        }
        let target = try snapshot.node(Int(v))
        return target.context ? .subIndex(Int(v)) : .list(Int(v))
    }

    /// A node of a duplicate list (§11), checked as both list walks need it: an integer array;
    /// a leaf without the has-refs flag; an inner node with refs, children and a size slot,
    /// no deeper than `maxListDepth`.
    private func listNode(_ ref: Int, depth: Int) throws(FormatError) -> Node {
        let node = try snapshot.node(ref)
        guard node.header.widthType == .bits else {
            throw .corrupt(offset: ref, reason: "search index duplicate list is not an integer array")
        }
        if node.isInner {
            guard depth < Self.maxListDepth, node.hasRefs, node.count >= 3 else {
                throw .corrupt(offset: ref, reason: "search index duplicate list inner node is malformed or too deep")
            }
        } else if node.hasRefs {
            throw .corrupt(offset: ref, reason: "search index duplicate list leaf has the has-refs flag")
        }
        return node
    }

    /// Child `j` (slot 1 … count − 2) of an inner duplicate-list node.
    private func listChild(_ node: Node, _ j: Int) throws(FormatError) -> Int {
        guard let child = node.ref(j) else {
            throw .corrupt(offset: node.ref, reason: "search index duplicate list child \(j - 1) is not a ref")
        }
        return child
    }

    /// The ObjKeys of a duplicate list (a B+tree of int64, §11), in stored order.
    public func listKeys(_ ref: Int) throws(FormatError) -> [Int64] {
        try listKeys(ref, maxNodeSize: .max, irregularity: { _, _ in })
    }

    /// The same, reporting B+tree irregularities (§11, §18.1 item 3): oversized nodes, inner
    /// nodes without children, sizes or offsets that do not match the children.
    func listKeys(_ ref: Int, maxNodeSize: Int, irregularity: (Int, String) -> Void) throws(FormatError) -> [Int64] {
        var out = [Int64]()
        /// Returns the number of elements below `ref`.
        func visit(_ ref: Int, depth: Int) throws(FormatError) -> Int {
            let node = try listNode(ref, depth: depth)
            guard node.isInner else {
                if node.count > maxNodeSize {
                    irregularity(ref, "search index duplicate list leaf holds \(node.count) keys (at most \(maxNodeSize))")
                }
                out += node.ints()
                return node.count
            }
            let children = node.count - 2
            if children > maxNodeSize {
                irregularity(ref, "search index duplicate list inner node has \(children) children (at most \(maxNodeSize))")
            }
            var sizes = [Int]()
            for j in 1...children {
                let child = try listChild(node, j)
                let n = try visit(child, depth: depth + 1)
                if n == 0 { irregularity(child, "search index duplicate list has an empty node below the root") }
                sizes.append(n)
            }
            let total = sizes.reduce(0, +)
            if node.tagged(node.count - 1) != UInt64(total) {
                irregularity(ref, "search index duplicate list inner node size slot does not equal its \(total) elements")
            }
            if let e = node.tagged(0) {
                if !sizes.dropLast().allSatisfy({ UInt64($0) == e }) || UInt64(sizes.last ?? 0) > e {
                    irregularity(ref, "search index duplicate list compact node (E = \(e)) has children of sizes other than E")
                }
            } else if let offsetsRef = node.ref(0) {
                let offsets = try snapshot.node(offsetsRef)
                var sum = 0
                let expected = sizes.dropLast().map { s -> UInt64 in sum += s; return UInt64(sum) }
                if offsets.count != expected.count || (0..<offsets.count).contains(where: { offsets.unsigned($0) != expected[$0] }) {
                    irregularity(offsetsRef, "search index duplicate list offsets do not match its children")
                }
            } else {
                irregularity(ref, "search index duplicate list inner node has neither E nor offsets in slot 0")
            }
            return total
        }
        _ = try visit(ref, depth: 0)
        return out
    }
}

/// Where an index lookup ended (§12.2): no entry for the key chain, one ObjKey, or a duplicate
/// list; `offset` is the byte offset of the level whose key matched (0 at the root), so the
/// chain compared the value's index bytes up to `offset + 4`.
public enum IndexHit: Sendable, Equatable {
    case none
    case single(objKey: Int64, offset: Int)
    case list(ref: Int, offset: Int)
}

/// One ObjKey in a search index and the chain of keys (one per sub-index level, the root's
/// first) under which it is stored.
public struct SearchIndexEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// T(ObjKey) in a leaf.
        case single
        /// Element `position` of the duplicate list at `ref`.
        case list(ref: Int, position: Int)
    }

    public let keys: [Int32]
    public let objKey: Int64
    public let kind: Kind

    public init(keys: [Int32], objKey: Int64, kind: Kind) {
        self.keys = keys
        self.objKey = objKey
        self.kind = kind
    }
}
