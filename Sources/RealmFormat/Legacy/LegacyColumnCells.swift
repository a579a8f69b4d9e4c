/// One column's cells of a table the dump writes straight from the conversion (legacy-formats.md
/// §8.5): kept by type, or the conversion's values. `value(_:)` is the value the image's leaf
/// decodes to (`Snapshot.decodeLeaf`): a bool 3 and the reserved float and double bit
/// patterns are null, as there.
///
/// The typed cells are moved into blocks this object owns and frees, read through
/// `@inlinable` accessors: the dump reads a cell per property per object from another module,
/// and reading an element of an array stored in a class costs a call, a retain and a release
/// of the array each time — a third of an old file's export (issue #18's speed clause). A
/// class, so the blocks have one owner; nothing outside sees a pointer beyond a `withString`
/// call. Every kind holds exactly `count` cells (the conversion checks each column's row
/// count against the table's), and rows past it trap as an array's would.
public final class LegacyColumnCells {
    @usableFromInline enum Kind { case integers, bools, nullableIntegers, floats, doubles, strings, timestamps, values }

    @usableFromInline let kind: Kind
    /// Cells of this column (one per object).
    public let count: Int
    @usableFromInline let integers: UnsafeMutableBufferPointer<Int64>
    @usableFromInline let nullableIntegers: UnsafeMutableBufferPointer<Int64?>
    /// Float or double cells as stored: 4 or 8 little-endian bytes each.
    @usableFromInline let bytes: UnsafeMutableRawBufferPointer
    /// String cells: their bytes back to back, each one's end, whether it is null.
    @usableFromInline let stringBytes: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline let stringEnds: UnsafeMutableBufferPointer<Int>
    @usableFromInline let stringNulls: UnsafeMutableBufferPointer<Bool>
    @usableFromInline let timestamps: UnsafeMutableBufferPointer<Timestamp?>
    @usableFromInline let values: [Value]

    init(type: ColumnType, typed: LegacyTypedColumn.Cells?, values: [Value]) {
        var kind = Kind.values
        var count = values.count
        var integers = [Int64](), nullableIntegers = [Int64?](), bytes = [UInt8](), strings = StringCells()
        var timestamps = [Timestamp?](), rest = [Value]()
        switch typed {
        case let .integers(a)?:
            kind = type == .bool ? .bools : .integers
            (integers, count) = (a, a.count)
        case let .nullableIntegers(a)?:
            kind = .nullableIntegers
            (nullableIntegers, count) = (a, a.count)
        case let .bytes(b, width)?:
            kind = width == 4 ? .floats : .doubles
            (bytes, count) = (b, b.count / (width == 4 ? 4 : 8))
        case let .strings(s)?:
            kind = .strings
            (strings, count) = (s, s.count)
        case let .timestamps(a)?:
            kind = .timestamps
            (timestamps, count) = (a, a.count)
        case nil:
            rest = values
        }
        self.kind = kind
        self.count = count
        self.integers = Self.block(integers)
        self.nullableIntegers = Self.block(nullableIntegers)
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        raw.copyBytes(from: bytes)
        self.bytes = raw
        stringBytes = Self.block(strings.bytes)
        stringEnds = Self.block(strings.ends)
        stringNulls = Self.block(strings.nulls)
        self.timestamps = Self.block(timestamps)
        self.values = rest
    }

    deinit {
        integers.deallocate()
        nullableIntegers.deallocate()
        bytes.deallocate()
        stringBytes.deallocate()
        stringEnds.deallocate()
        stringNulls.deallocate()
        timestamps.deallocate()
    }

    /// A block holding `array`'s elements (all of trivial types: nothing to deinitialize).
    private static func block<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
        let block = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
        _ = block.initialize(from: array)
        return block
    }

    @inlinable public func value(_ row: Int) -> Value {
        precondition(row >= 0 && row < count, "cell \(row) of \(count)")
        switch kind {
        case .values: return values[row]
        case .integers: return .int(integers[row])
        case .bools:
            let v = integers[row]
            return v == 0 ? .bool(false) : v == 1 ? .bool(true) : .null
        case .nullableIntegers: return nullableIntegers[row].map(Value.int) ?? .null
        case .floats:
            let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * row, as: UInt32.self))
            return bits == Snapshot.floatNull ? .null : .float(Float(bitPattern: bits))
        case .doubles:
            let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * row, as: UInt64.self))
            return bits == Snapshot.doubleNull ? .null : .double(Double(bitPattern: bits))
        case .strings: return withStringCell(row) { $0.map { .string(Array($0)) } ?? .null }
        case .timestamps: return timestamps[row].map(Value.timestamp) ?? .null
        }
    }

    /// For a string column kept by type: calls `body` with row `row`'s bytes (nil for null),
    /// without copying them, and returns true; false (body not called) for any other column.
    @inlinable public func withString(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) -> Bool {
        guard kind == .strings else { return false }
        precondition(row >= 0 && row < count, "cell \(row) of \(count)")
        withStringCell(row, body)
        return true
    }

    @inlinable func withStringCell<R>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        if stringNulls[row] { return body(nil) }
        let start = row == 0 ? 0 : stringEnds[row - 1]
        return body(UnsafeBufferPointer(rebasing: stringBytes[start..<stringEnds[row]]))
    }
}
