/// One cluster leaf (realm-format.md §8.1) as a write transaction sees it: its absolute keys,
/// and the column arrays that were read or changed, decoded. Columns nobody touched stay on
/// disk and are written back by ref; an untouched leaf is not rewritten at all.
final class ClusterLeafEdit {
    /// The committed leaf array, nil for a leaf made by this transaction.
    let originalRef: Int?
    /// The committed leaf's slots (slot 0: keys ref or T(count); 1 + leaf index: column refs).
    let originalSlots: [Int64]
    /// Key offset of the leaf: every key is ≥ `base`, every key of the next leaf is above
    /// this leaf's keys, and the keys are stored relative to it (§8.2).
    var base: Int64 {
        willSet { materializeKeys() }
    }
    /// Absolute ObjKeys, ascending. A committed compact-form leaf (§8.2: keys base + 0 ..<
    /// count) makes the array on first use only: an update or a scattered delete never asks
    /// most leaves for it, and a million-object table then costs no million-key arrays.
    var keys: [Int64] {
        get {
            materializeKeys()
            return storedKeys
        }
        _modify {
            materializeKeys()
            yield &storedKeys
        }
        set {
            compactCount = nil
            storedKeys = newValue
        }
    }
    private var storedKeys: [Int64]
    /// Set while the keys are base + 0 ..< compactCount and not yet in `storedKeys`.
    private var compactCount: Int?
    /// Decoded column arrays by spec index, nil while still on disk only (or packed).
    var cells: [ColumnCells?]
    /// A new leaf the inserts have passed: its columns already in their file form, by spec
    /// index (nil for a column that stayed in `cells` or was unpacked), nil when nothing is
    /// packed (`TableEditor.pack`, issue #16). A column is unpacked before anything else reads
    /// or changes it.
    var packed: [MutableNode?]?
    /// Columns whose array must be written again.
    var dirty: [Bool]
    /// The keys changed (objects added or removed, or a new base): the leaf array is rewritten.
    var keysChanged: Bool
    /// Every column is in `cells` (and writable).
    var allDecoded = false
    /// Rows removed while some columns were still on disk only: the committed arrays hold one
    /// row per flag, the leaf keeps those whose flag is set. Nil when no column waits for it.
    var removalMask: [Bool]?
    /// Columns (by spec index) still on disk whose arrays must drop `removalMask`'s rows: at
    /// `finish()` byte by byte (`LeafRowFilter`), or when read, by decoding the kept rows.
    var removalPending: [Bool]

    /// Column `c` in its file form, if the leaf is packed and the column with it.
    func packedColumn(_ c: Int) -> MutableNode? {
        guard let packed, c < packed.count else { return nil }
        return packed[c]
    }

    var allDirty: Bool { !dirty.contains(false) }

    var count: Int { compactCount ?? storedKeys.count }
    /// The highest key, nil for an empty leaf.
    var lastKey: Int64? {
        if let n = compactCount { return n > 0 ? base &+ Int64(n - 1) : nil }
        return storedKeys.last
    }

    /// Keys base + 0 ..< count, relative to `base`, without making the key array of a
    /// compact-form leaf (`finish` writes them for every leaf).
    var relativeKeys: [Int64] {
        if let n = compactCount { return Array(0..<Int64(n)) }
        return storedKeys.map { $0 - base }
    }

    /// Drops the key array when the keys are base + 0 ..< count (a new leaf of a bulk load's
    /// counter keys, §8.5): the compact form again, made into an array on first use.
    func compactKeys() {
        guard compactCount == nil, let first = storedKeys.first, first == base,
              storedKeys.last == base &+ Int64(storedKeys.count - 1) else { return }
        // First and last in place (ascending keys), so every key in between is too.
        compactCount = storedKeys.count
        storedKeys = []
    }

    private func materializeKeys() {
        guard let n = compactCount else { return }
        compactCount = nil
        let base = self.base
        storedKeys = (0..<Int64(n)).map { base &+ $0 }
    }
    var isChanged: Bool { originalRef == nil || keysChanged || dirty.contains(true) }

    /// A committed leaf: its keys, or with `keys` nil the compact form's `compactCount` keys
    /// base + 0 ..< compactCount (the caller checked that they do not overflow).
    init(ref: Int, slots: [Int64], base: Int64, keys: [Int64]?, compactCount: Int = 0, columnCount: Int) {
        originalRef = ref
        originalSlots = slots
        self.base = base
        storedKeys = keys ?? []
        self.compactCount = keys == nil ? compactCount : nil
        cells = [ColumnCells?](repeating: nil, count: columnCount)
        dirty = [Bool](repeating: false, count: columnCount)
        removalPending = [Bool](repeating: false, count: columnCount)
        keysChanged = false
    }

    /// A new, empty leaf with every column decoded (empty), kept as `kinds` says.
    init(base: Int64, kinds: [ColumnCells.Kind]) {
        originalRef = nil
        originalSlots = []
        self.base = base
        storedKeys = []
        cells = kinds.map { ColumnCells(kind: $0) }
        dirty = [Bool](repeating: true, count: kinds.count)
        removalPending = [Bool](repeating: false, count: kinds.count)
        keysChanged = true
        allDecoded = true
    }

    /// Puts object `key` with one value per column at `row`; every column must be decoded.
    func insert(key: Int64, values: [Value], at row: Int) {
        if row == keys.count { keys.append(key) } else { keys.insert(key, at: row) }
        // One access to `cells` for the whole row, not one per column (exclusivity checks).
        cells.withUnsafeMutableBufferPointer { cells in
            for c in cells.indices { cells[c]!.insert(values[c], at: row) }
        }
        if !allDirty { dirty = [Bool](repeating: true, count: dirty.count) }
        keysChanged = true
    }

    /// Forgets the decoded and packed columns (the leaf was encoded by `finish()`).
    func releaseCells() {
        cells = [ColumnCells?](repeating: nil, count: cells.count)
        packed = nil
    }

    /// Row of `key`, nil when absent.
    func row(of key: Int64) -> Int? {
        if let n = compactCount {
            let row = key &- base
            return row >= 0 && row < Int64(n) ? Int(row) : nil
        }
        return storedKeys.withUnsafeBufferPointer { keys in
            // Compact-form leaves (§8.2), and general ones without gaps before `key`, hold
            // it at `key - base`: one compare instead of a binary search per lookup (an
            // update reads and sets each object, several lookups each).
            let guess = key &- base
            if guess >= 0, guess < Int64(keys.count), keys[Int(guess)] == key { return Int(guess) }
            var lo = 0, hi = keys.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if keys[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            return lo < keys.count && keys[lo] == key ? lo : nil
        }
    }

    /// Row of `key`, nil when absent, for the next of a run of ascending keys whose previous
    /// one is at or before `start`: the compact-form guess first, then the rows from `start`.
    func row(of key: Int64, from start: Int) -> Int? {
        if compactCount != nil { return row(of: key) }
        let keys = storedKeys
        let guess = key &- base
        if guess >= Int64(start), guess < Int64(keys.count), keys[Int(guess)] == key { return Int(guess) }
        let row = Self.nextLowerBound(key, in: keys, from: start)
        return row < keys.count && keys[row] == key ? row : nil
    }

    /// First row from `start` on whose key is ≥ `key`.
    func lowerBound(_ key: Int64, from start: Int = 0) -> Int {
        Self.lowerBound(key, in: keys, from: start)
    }

    /// First position from `start` on in ascending `keys` holding a key ≥ `key`.
    static func lowerBound(_ key: Int64, in keys: [Int64], from start: Int) -> Int {
        var lo = start, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// `lowerBound` for the next of a run of ascending keys: a mass removal or lookup of
    /// sorted keys usually finds the next one within a few rows of the previous one, so those
    /// rows are tried one by one before the binary search over the rest.
    static func nextLowerBound(_ key: Int64, in keys: [Int64], from start: Int) -> Int {
        var i = start
        let stop = Swift.min(start + 8, keys.count)
        while i < stop {
            if keys[i] >= key { return i }
            i += 1
        }
        return lowerBound(key, in: keys, from: i)
    }

    /// The committed ref of the column array with `leafIndex`, nil when absent.
    func originalColumnRef(_ leafIndex: Int) -> Int? {
        let slot = 1 + leafIndex
        guard slot < originalSlots.count else { return nil }
        let v = originalSlots[slot]
        return v != 0 && v & 1 == 0 ? Int(v) : nil
    }

    /// The committed keys array (general form), nil in the compact form.
    var originalKeysRef: Int? {
        guard let v = originalSlots.first, v != 0, v & 1 == 0 else { return nil }
        return Int(v)
    }
}
