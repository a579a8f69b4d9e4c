/// What a general search index is built from (realm-format.md §12.3): the index bytes of a
/// value, and the signed 32-bit key cut from them for each level of sub-indexes.
public enum IndexKey {
    /// `s_max_offset`: no sub-index starts beyond this byte offset; values that still share
    /// their key chain there go into one duplicate list, ordered by value (§12.4).
    public static let maxOffset = 200

    /// The column types a general index can be built on (§12.1).
    public static func isIndexable(_ type: ColumnType) -> Bool {
        switch type {
        case .int, .bool, .string, .timestamp, .objectId, .uuid, .mixed: return true
        default: return false
        }
    }

    /// The index bytes of `value` in a column of `columnType`; nil when the value cannot be in
    /// such an index (wrong type, or a Mixed payload the format defines no index bytes for).
    public static func bytes(of value: Value, columnType: ColumnType) -> IndexBytes? {
        if case .null = value { return .null }
        if columnType == .mixed { return mixedBytes(value).map(IndexBytes.bytes) }
        switch (columnType, value) {
        case let (.int, .int(i)): return .bytes(intBytes(i))
        case let (.bool, .bool(b)): return .bytes(intBytes(b ? 1 : 0))
        case let (.string, .string(s)): return .bytes(s)
        case let (.timestamp, .timestamp(t)): return .bytes(timestampBytes(t))
        case let (.objectId, .objectId(o)): return .bytes(o.bytes)
        case let (.uuid, .uuid(u)): return .bytes(u.bytes)
        default: return nil
        }
    }

    /// The key of level `offset / 4` (§12.3): 0 for null or past the end; a short tail gets
    /// an `X` appended and zero padding; the four bytes are read big-endian as a signed int32.
    public static func key(_ data: IndexBytes, offset: Int) -> Int32 {
        guard case let .bytes(bytes) = data, offset >= 0, offset <= bytes.count else { return 0 }
        let remaining = bytes.count - offset
        var word: UInt32 = 0
        for j in 0..<4 {
            let byte: UInt8 = j < remaining ? bytes[offset + j] : (j == remaining ? 0x58 : 0)   // "X"
            word = word << 8 | UInt32(byte)
        }
        return Int32(bitPattern: word)
    }

    /// `key(bytes(of: .int(value)), offset:)` without building the bytes: the eight bytes are
    /// the int64 little-endian (§12.3), so level 0 is the low half and level 1 the high half,
    /// each read big-endian (byte-swapped); at offset 8 nothing remains (`X` alone), past it 0.
    @inline(__always)
    public static func key(int value: Int64, offset: Int) -> Int32 {
        let bits = UInt64(bitPattern: value)
        switch offset {
        case 0: return Int32(bitPattern: UInt32(truncatingIfNeeded: bits).byteSwapped)
        case 4: return Int32(bitPattern: UInt32(truncatingIfNeeded: bits >> 32).byteSwapped)
        case 8: return 0x5800_0000
        default: return 0
        }
    }

    /// The number of index bytes of an int (or bool) value: a key chain that reached a leaf
    /// entry at offset 4 has compared all of them.
    public static let intByteCount = 8

    /// The keys of levels 0 … `levels` − 1.
    public static func keyChain(_ data: IndexBytes, levels: Int) -> [Int32] {
        (0..<levels).map { key(data, offset: 4 * $0) }
    }

    // MARK: encodings

    /// The index bytes of a null value are none at all, which differs from zero bytes ("").

    static func intBytes(_ i: Int64) -> [UInt8] { withUnsafeBytes(of: i.littleEndian, Array.init) }

    static func timestampBytes(_ t: Timestamp) -> [UInt8] {
        intBytes(t.seconds) + withUnsafeBytes(of: t.nanoseconds.littleEndian, Array.init)
    }

    /// Mixed payloads (§12.3 table): numbers that are whole 32-bit integers (floats, doubles)
    /// or whole int64s (decimals) share the Int encoding, so equal numbers of different types
    /// meet under one key.
    static func mixedBytes(_ value: Value) -> [UInt8]? {
        switch value {
        case .null: return []          // not reached: null is handled by the caller
        case let .int(i): return intBytes(i)
        case let .bool(b): return intBytes(b ? 1 : 0)
        case let .string(s): return s
        case let .binary(b): return b
        case let .timestamp(t): return timestampBytes(t)
        case let .objectId(o): return o.bytes
        case let .uuid(u): return u.bytes
        case let .float(f):
            if let i = wholeInt32(Double(f)) { return intBytes(i) }
            return withUnsafeBytes(of: f.bitPattern.littleEndian, Array.init)
        case let .double(d):
            if let i = wholeInt32(d) { return intBytes(i) }
            return withUnsafeBytes(of: d.bitPattern.littleEndian, Array.init)
        case let .decimal(d):
            if let i = d.exactInt64 { return intBytes(i) }
            let (low, high) = d.bidWords
            return intBytes(Int64(bitPattern: low)) + intBytes(Int64(bitPattern: high))
        case let .typedLink(table, key):
            return withUnsafeBytes(of: table.value.littleEndian, Array.init) + intBytes(key)
        case .list: return Array("__List__".utf8)
        case .dictionary: return Array("__Dictionary__".utf8)
        case .link: return nil
        }
    }

    /// `d` as an int when it equals its truncation to a 32-bit integer.
    static func wholeInt32(_ d: Double) -> Int64? {
        guard d.isFinite, d >= -2_147_483_648, d <= 2_147_483_647 else { return nil }
        let t = d.rounded(.towardZero)
        return t == d ? Int64(t) : nil
    }
}

extension Decimal128 {
    /// The value as an int64 when it is a whole number in range.
    var exactInt64: Int64? {
        guard kind == .finite else { return nil }
        if coefficient == 0 { return 0 }
        var c = coefficient
        var e = exponent
        while e < 0 {
            guard c % 10 == 0 else { return nil }
            c /= 10
            e += 1
        }
        while e > 0 {
            guard c <= UInt128(UInt64.max) else { return nil }
            c *= 10
            e -= 1
        }
        if negative {
            guard c <= UInt128(1) << 63 else { return nil }
            return c == UInt128(1) << 63 ? Int64.min : -Int64(c)
        }
        guard c <= UInt128(Int64.max) else { return nil }
        return Int64(c)
    }

    /// The BID encoding (low word, high word) of this value in canonical form (§9.9).
    var bidWords: (UInt64, UInt64) {
        let sign: UInt64 = negative ? 1 << 63 : 0
        switch kind {
        case .nan: return (0, sign | 0x7C00_0000_0000_0000)
        case .infinity: return (0, sign | 0x7800_0000_0000_0000)
        case .finite:
            let biased = UInt64(max(0, min(exponent + 6176, 0x3FFF)))
            let high = sign | biased << 49 | UInt64(truncatingIfNeeded: coefficient >> 64) & 0x1_FFFF_FFFF_FFFF
            return (UInt64(truncatingIfNeeded: coefficient), high)
        }
    }
}

/// A value's index bytes (§12.3): none for null, else the bytes of its encoding.
public enum IndexBytes: Sendable, Hashable {
    case null
    case bytes([UInt8])
}
