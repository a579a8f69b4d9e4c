/// Maintains a general search index (realm-format.md §12.4 insertion, §13.10 erase) on a tree
/// of `MutableNode`s: a new one (`makeEmpty`) or one loaded through a write transaction.
/// Applying the same operations in the same order as Realm gives Realm's tree node for node:
/// the tree depends on the order (a duplicate list that shrank to one entry stays a list).
///
/// Index nodes are has-refs arrays with the context flag: slot 0 = keys (created with width
/// 32, ascending signed 32-bit), then one entry per key. Nodes hold at most `maxNodeSize`
/// keys (Realm's REALM_MAX_BPNODE_SIZE, 1000; smaller values reproduce test builds); a full
/// node splits B-tree style and a split root gets a new inner root, which `insert` returns.
public struct SearchIndexWriter {
    public let columnType: ColumnType
    public let maxNodeSize: Int
    let nodes: any IndexNodeLoader
    let readValue: (Int64) throws(FormatError) -> Value

    /// `readValue` returns another object's current value in the column: the index stores
    /// too little to compare values itself.
    public init(columnType: ColumnType, nodes: any IndexNodeLoader = InMemoryIndexNodes(), maxNodeSize: Int = 1000,
                readValue: @escaping (Int64) throws(FormatError) -> Value) {
        self.columnType = columnType
        self.nodes = nodes
        self.maxNodeSize = max(maxNodeSize, 2)
        self.readValue = readValue
    }

    /// An empty index: a leaf with an empty keys array.
    public static func makeEmpty() -> MutableNode { makeNode(inner: false) }

    /// Adds `objKey` with `value`; returns the root, new if the old one split.
    /// `unique` (primary keys): when another object has an equal value, nothing changes and
    /// `FormatError.duplicateKey` names it.
    public func insert(_ value: Value, objKey: Int64, into root: MutableNode, unique: Bool = false) throws(FormatError) -> MutableNode {
        let op = Operation(objKey: objKey, value: value, data: try indexBytes(value), unique: unique)
        return try newRoot(root, try insert(op, into: root, offset: 0))
    }

    /// Removes `objKey`, whose value is `value`; returns the root, which changes when an inner
    /// root is left with one child (§13.10).
    public func erase(_ value: Value, objKey: Int64, from root: MutableNode) throws(FormatError) -> MutableNode {
        let op = Operation(objKey: objKey, value: value, data: try indexBytes(value), unique: false)
        try erase(op, from: root, offset: 0)
        var root = root
        while root.isInner && root.count == 2 {
            let only = try child(root, 1)
            root[1] = 0                          // detach the child before releasing the root
            try nodes.releaseSubtree(root)
            root = only
        }
        return root
    }

    /// The objects whose value equals `value` (Realm's comparison), found in the tree as it is
    /// now: the lookup of §12.4's descent, then each candidate's value confirmed.
    public func find(_ value: Value, in root: MutableNode) throws(FormatError) -> [Int64] {
        guard let data = IndexKey.bytes(of: value, columnType: columnType) else { return [] }
        var node = root
        var offset = 0
        while true {
            let keysNode = try keys(node)
            let i = lowerBound(keysNode, Int64(IndexKey.key(data, offset: offset)))
            guard i < keysNode.count else { return [] }
            if node.isInner {
                node = try child(node, i + 1)
                continue
            }
            guard keysNode[i] == Int64(IndexKey.key(data, offset: offset)) else { return [] }
            switch try entry(node, i + 1) {
            case let .single(objKey):
                return ValueOrder.compare(try readValue(objKey), value) == 0 ? [objKey] : []
            case let .child(c) where c.context:
                node = c
                offset += 4
                guard offset <= IndexKey.maxOffset else { throw corrupt(c, "has a sub-index beyond byte offset \(IndexKey.maxOffset)") }
            case let .child(c):
                var out = [Int64]()
                for k in try IndexDuplicateList(root: c, nodes: nodes, maxNodeSize: maxNodeSize).all()
                where ValueOrder.compare(try readValue(k), value) == 0 {
                    out.append(k)
                }
                return out
            }
        }
    }

    // MARK: insertion (§12.4)

    /// The object being inserted or erased; its own value is `value`, whatever the column says.
    private struct Operation {
        let objKey: Int64
        let value: Value
        let data: IndexBytes
        let unique: Bool
    }

    /// What an insertion did to a node: nothing its parent must know, a new node before or
    /// after it, or a split into itself (the left part) and a new right part.
    private enum Change {
        case none
        case before(MutableNode)
        case after(MutableNode)
        case split(MutableNode, MutableNode)
    }

    private func insert(_ op: Operation, into node: MutableNode, offset: Int) throws(FormatError) -> Change {
        let key = Int64(IndexKey.key(op.data, offset: offset))
        let keysNode = try keys(node)
        let keyCount = keysNode.count
        if node.isInner {
            guard keyCount > 0 else { throw corrupt(node, "inner node has no children") }
            let i = min(lowerBound(keysNode, key), keyCount - 1)
            let target = try child(node, i + 1)
            let newChild: MutableNode
            let at: Int
            var leftChanged = false
            switch try insert(op, into: target, offset: offset) {
            case .none:
                setKey(keysNode, i, try lastKey(target))
                return .none
            case let .before(n):
                newChild = n
                at = i
            case let .after(n):
                newChild = n
                at = i + 1
            case let .split(left, right):
                setKey(keysNode, i, try lastKey(left))
                newChild = right
                at = i + 1
                leftChanged = true
            }
            if keyCount < maxNodeSize {
                insertKey(keysNode, try lastKey(newChild), at: at)
                node.insertChild(newChild, at: at + 1)
                return .none
            }
            // Full: a new inner node takes the new child and every child after it.
            let sibling = Self.makeNode(inner: true)
            try appendEntry(to: sibling, key: try lastKey(newChild), child: newChild)
            if at == 0 { return .before(sibling) }
            if at == keyCount { return leftChanged ? .split(node, sibling) : .after(sibling) }
            try move(from: node, keysNode: keysNode, position: at, to: sibling)
            return .split(node, sibling)
        }
        if try insertInLeaf(op, into: node, key: key, offset: offset, mayGrow: keyCount < maxNodeSize) {
            return .none
        }
        // A full leaf without the key: the key goes to a new leaf, with every key after it.
        let sibling = Self.makeNode(inner: false)
        _ = try insertInLeaf(op, into: sibling, key: key, offset: offset, mayGrow: true)
        let i = lowerBound(keysNode, key)
        if i == 0 { return .before(sibling) }
        if i == keysNode.count { return .after(sibling) }
        try move(from: node, keysNode: keysNode, position: i, to: sibling)
        return .split(node, sibling)
    }

    /// Inserts into a leaf; false (and nothing changed) when the key is absent and the leaf
    /// may not grow.
    private func insertInLeaf(_ op: Operation, into node: MutableNode, key: Int64, offset: Int,
                              mayGrow: Bool) throws(FormatError) -> Bool {
        let keysNode = try keys(node)
        let i = lowerBound(keysNode, key)
        if i == keysNode.count || keysNode[i] != key {
            guard mayGrow else { return false }
            insertKey(keysNode, key, at: i)
            node.insert(Self.tagged(op.objKey), at: i + 1)
            return true
        }
        let slot = i + 1
        let nextOffset = offset + 4
        let existing: MutableNode
        switch try entry(node, slot) {
        case let .single(other):
            if other == op.objKey { return true }
            let otherValue = try value(of: other, op)
            let order = ValueOrder.compare(otherValue, op.value)
            if order == 0 {
                if op.unique { throw .duplicateKey(existing: other) }
                replaceEntry(node, slot, with: IndexDuplicateList.make([min(other, op.objKey), max(other, op.objKey)]))
                return true
            }
            let otherData = try indexBytes(otherValue)
            if otherData == op.data || nextOffset > IndexKey.maxOffset {
                let pair = order > 0 ? [op.objKey, other] : [other, op.objKey]
                replaceEntry(node, slot, with: IndexDuplicateList.make(pair))
                return true
            }
            var sub = Self.makeEmpty()
            sub = try insert(Operation(objKey: other, value: otherValue, data: otherData, unique: false), intoSubIndex: sub, offset: nextOffset)
            sub = try insert(op, intoSubIndex: sub, offset: nextOffset)
            replaceEntry(node, slot, with: sub)
            return true
        case let .child(c):
            existing = c
        }
        if existing.context {
            let sub = try insert(op, intoSubIndex: existing, offset: nextOffset)
            if sub !== existing { replaceEntry(node, slot, with: sub) }
            return true
        }
        // A duplicate list, sorted by value, then ObjKey.
        var list = IndexDuplicateList(root: existing, nodes: nodes, maxNodeSize: maxNodeSize)
        let count = try list.count
        guard count > 0 else { throw corrupt(existing, "duplicate list is empty") }
        let at = try firstPosition(in: list, count: count, op) { c, k in c < 0 || (c == 0 && k < op.objKey) }
        var hasEqual = false
        if at < count {
            let k = try list.element(at)
            if ValueOrder.compare(try value(of: k, op), op.value) == 0 {
                if k == op.objKey { return true }
                if op.unique { throw .duplicateKey(existing: k) }
                hasEqual = true
            }
        }
        if !hasEqual && at > 0 {
            let k = try list.element(at - 1)
            hasEqual = ValueOrder.compare(try value(of: k, op), op.value) == 0
            if hasEqual && op.unique { throw .duplicateKey(existing: k) }
        }
        if !hasEqual {
            let listData = try indexBytes(try value(of: try list.element(0), op))
            if listData != op.data && nextOffset <= IndexKey.maxOffset {
                // The new value differs within the next bytes: the list moves one level down.
                node[slot] = 0
                var sub = Self.makeNode(inner: false)
                try appendEntry(to: sub, key: Int64(IndexKey.key(listData, offset: nextOffset)), child: existing)
                sub = try insert(op, intoSubIndex: sub, offset: nextOffset)
                replaceEntry(node, slot, with: sub)
                return true
            }
        }
        // Among equal values by ObjKey; a new value (same index bytes, or past the offset
        // limit) where its value order puts it.
        try list.insert(op.objKey, at: at)
        if list.root !== existing { replaceEntry(node, slot, with: list.root) }
        return true
    }

    /// Inserts into a sub-index (or the root); returns its root, new if the old one split.
    private func insert(_ op: Operation, intoSubIndex root: MutableNode, offset: Int) throws(FormatError) -> MutableNode {
        try newRoot(root, try insert(op, into: root, offset: offset))
    }

    private func newRoot(_ root: MutableNode, _ change: Change) throws(FormatError) -> MutableNode {
        let pair: (MutableNode, MutableNode)
        switch change {
        case .none: return root
        case let .before(n): pair = (n, root)
        case let .after(n): pair = (root, n)
        case let .split(left, right): pair = (left, right)
        }
        let newRoot = Self.makeNode(inner: true)
        try appendEntry(to: newRoot, key: try lastKey(pair.0), child: pair.0)
        try appendEntry(to: newRoot, key: try lastKey(pair.1), child: pair.1)
        return newRoot
    }

    /// The first list position whose (value order against the new value, ObjKey) is not
    /// `before`, by binary search: the list is sorted by value, then ObjKey.
    private func firstPosition(in list: IndexDuplicateList, count: Int, _ op: Operation,
                               before: (Int, Int64) -> Bool) throws(FormatError) -> Int {
        // Objects usually arrive in key order with equal values: try the end first.
        let last = try list.element(count - 1)
        if before(ValueOrder.compare(try value(of: last, op), op.value), last) { return count }
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            let k = try list.element(mid)
            if before(ValueOrder.compare(try value(of: k, op), op.value), k) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // MARK: erase (§13.10)

    private func erase(_ op: Operation, from node: MutableNode, offset: Int) throws(FormatError) {
        let key = Int64(IndexKey.key(op.data, offset: offset))
        let keysNode = try keys(node)
        let i = lowerBound(keysNode, key)
        guard i < keysNode.count else { throw notFound(node, op) }
        let slot = i + 1
        if node.isInner {
            let target = try child(node, slot)
            try erase(op, from: target, offset: offset)
            if target.count == 1 {
                removeKey(keysNode, at: i)
                node.remove(at: slot)
                try nodes.releaseSubtree(target)
            } else {
                setKey(keysNode, i, try lastKey(target))
            }
            return
        }
        guard keysNode[i] == key else { throw notFound(node, op) }
        switch try entry(node, slot) {
        case let .single(objKey):
            guard objKey == op.objKey else { throw notFound(node, op) }
            removeKey(keysNode, at: i)
            node.remove(at: slot)
        case let .child(target) where target.context:
            try erase(op, from: target, offset: offset + 4)
            if target.count == 1 {                    // emptied sub-indexes go; others stay
                removeKey(keysNode, at: i)
                node.remove(at: slot)
                try nodes.releaseSubtree(target)
            }
        case let .child(target):
            var list = IndexDuplicateList(root: target, nodes: nodes, maxNodeSize: maxNodeSize)
            let count = try list.count
            var at = try firstPosition(in: list, count: count, op) { c, k in c < 0 || (c == 0 && k < op.objKey) }
            var present = false
            if at < count { present = try list.element(at) == op.objKey }
            if !present {
                // Lists of files upgraded from format ≤ 23 may be in another order (§12.4).
                guard let found = try list.all().firstIndex(of: op.objKey) else { throw notFound(node, op) }
                at = found
            }
            try list.remove(at: at)
            if try list.count == 0 {
                removeKey(keysNode, at: i)
                node.remove(at: slot)
                try nodes.releaseSubtree(list.root)
            } else if list.root !== target {
                replaceEntry(node, slot, with: list.root)
            }
        }
    }

    // MARK: nodes

    static func makeNode(inner: Bool) -> MutableNode {
        let keys = MutableNode(integers: [])
        keys.minimumWidth = 32
        let node = MutableNode(integers: [0], hasRefs: true, isInner: inner, context: true)
        node.setChild(0, keys)
        return node
    }

    static func tagged(_ objKey: Int64) -> Int64 { objKey << 1 | 1 }

    private enum Entry {
        case single(Int64)
        case child(MutableNode)
    }

    private func entry(_ node: MutableNode, _ slot: Int) throws(FormatError) -> Entry {
        if let c = node.loadedChild(slot) { return .child(c) }
        guard slot < node.count else { throw corrupt(node, "has no entry \(slot)") }
        let v = node[slot]
        if v & 1 == 1 { return .single(Int64(bitPattern: UInt64(bitPattern: v) >> 1)) }
        return .child(try child(node, slot))
    }

    // Loaded children are taken directly: the loader is asked only for nodes still on disk.

    private func child(_ node: MutableNode, _ slot: Int) throws(FormatError) -> MutableNode {
        if let c = node.loadedChild(slot) { return c }
        guard let c = try nodes.child(node, slot, unsigned: false) else { throw corrupt(node, "entry \(slot) is not a ref") }
        return c
    }

    private func keys(_ node: MutableNode) throws(FormatError) -> MutableNode {
        var loaded = node.loadedChild(0)
        if loaded == nil && node.hasRefs { loaded = try nodes.child(node, 0, unsigned: false) }
        guard node.hasRefs, let keys = loaded, !keys.hasRefs,
              keys.count == node.count - 1 else {
            throw corrupt(node, "node has no keys array with one key per entry")
        }
        return keys
    }

    // Keys arrays change in place (no copy of up to 1000 keys per operation); Realm creates
    // them 32 bits wide (§12.1), and a changed one is written at least that wide.

    private func setKey(_ keysNode: MutableNode, _ i: Int, _ key: Int64) {
        guard keysNode[i] != key else { return }
        keysNode[i] = key
        keysNode.minimumWidth = 32
    }

    private func insertKey(_ keysNode: MutableNode, _ key: Int64, at i: Int) {
        keysNode.insert(key, at: i)
        keysNode.minimumWidth = 32
    }

    private func removeKey(_ keysNode: MutableNode, at i: Int) {
        keysNode.remove(at: i)
        keysNode.minimumWidth = 32
    }

    private func lastKey(_ node: MutableNode) throws(FormatError) -> Int64 {
        let keysNode = try keys(node)
        guard keysNode.count > 0 else { throw corrupt(node, "node is empty") }
        return keysNode[keysNode.count - 1]
    }

    private func appendEntry(to node: MutableNode, key: Int64, child: MutableNode) throws(FormatError) {
        insertKey(try keys(node), key, at: try keys(node).count)
        node.append(0)
        node.setChild(node.count - 1, child)
    }

    private func replaceEntry(_ node: MutableNode, _ slot: Int, with child: MutableNode) {
        node[slot] = 0
        node.setChild(slot, child)
    }

    /// Moves the entries from key `position` on to the end of `sibling`, loading children
    /// first so that a new node never holds refs into the committed file.
    private func move(from node: MutableNode, keysNode: MutableNode, position: Int,
                      to sibling: MutableNode) throws(FormatError) {
        let siblingKeys = try self.keys(sibling)
        let moved = Array(keysNode.integers[position...])
        siblingKeys.withIntegers { $0 += moved }
        siblingKeys.minimumWidth = 32
        for slot in (position + 1)..<node.count {
            switch try entry(node, slot) {
            case let .single(objKey):
                sibling.append(Self.tagged(objKey))
            case let .child(c):
                sibling.append(0)
                sibling.setChild(sibling.count - 1, c)
            }
        }
        node.removeSuffix(from: position + 1)
        keysNode.removeSuffix(from: position)
        keysNode.minimumWidth = 32
    }

    private func lowerBound(_ keysNode: MutableNode, _ key: Int64) -> Int {
        keysNode.integers.withUnsafeBufferPointer { keys in
            var lo = 0, hi = keys.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if keys[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }

    // MARK: values

    func indexBytes(_ value: Value) throws(FormatError) -> IndexBytes {
        guard let data = IndexKey.bytes(of: value, columnType: columnType) else {
            throw .cannotWrite(reason: "the value \(SearchIndexVerifier.describe(value)) cannot be in a search index on a \(columnType.propertyTypeName) column")
        }
        return data
    }

    private func value(of objKey: Int64, _ op: Operation) throws(FormatError) -> Value {
        objKey == op.objKey ? op.value : try readValue(objKey)
    }

    private func corrupt(_ node: MutableNode, _ what: String) -> FormatError {
        .corrupt(offset: node.originalRef ?? 0, reason: "search index \(what)")
    }

    private func notFound(_ node: MutableNode, _ op: Operation) -> FormatError {
        .corrupt(offset: node.originalRef ?? 0,
                 reason: "search index has no entry for ObjKey \(op.objKey) with value \(SearchIndexVerifier.describe(op.value))")
    }
}
