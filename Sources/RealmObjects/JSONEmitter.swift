/// Streams JSON in exactly the layout of JavaScript's `JSON.stringify(value, null, 2)`
/// (fixtures/README.md): one member or element per line, two-space indentation, `[]` and `{}`
/// for empty containers. Output goes to a `ByteSink` in large chunks.
import RealmFormat

public struct JSONEmitter: ~Copyable {
    private var buffer = OutputBytes(capacity: 1 << 17)
    /// Numbers and dates are formatted here first (`NumberText`, `DateText` write arrays).
    private var scratch: [UInt8] = []
    /// The open container (when `depth > 0`): an object or an array, and how many members or
    /// elements it has so far; the containers around it wait in `enclosing`. Kept apart so
    /// that the separator before each value touches two fields, not an array's last element.
    private var depth = 0
    private var topIsObject = false
    private var topCount = 0
    private var enclosing: [(isObject: Bool, count: Int)] = []
    private let sink: ByteSink
    /// Indentation of the outermost container (to stream a document piece by piece).
    private let baseIndent: Int
    /// false: compact single-line output (`jsonl`).
    private let pretty: Bool

    public init(sink: ByteSink, baseIndent: Int = 0, pretty: Bool = true) {
        self.sink = sink
        self.baseIndent = baseIndent
        self.pretty = pretty
        scratch.reserveCapacity(64)
    }

    public mutating func beginObject() { begin(isObject: true, UInt8(ascii: "{")) }

    public mutating func beginArray() { begin(isObject: false, UInt8(ascii: "[")) }

    private mutating func begin(isObject: Bool, _ bracket: UInt8) {
        beforeValue()
        buffer.append(bracket)
        if depth > 0 { enclosing.append((topIsObject, topCount)) }
        depth += 1
        topIsObject = isObject
        topCount = 0
    }

    public mutating func end() {
        precondition(depth > 0, "JSONEmitter.end() without an open container")
        let wasObject = topIsObject, count = topCount
        depth -= 1
        if depth > 0 { (topIsObject, topCount) = enclosing.removeLast() }
        if count > 0 && pretty { newline(depth) }
        buffer.append(UInt8(ascii: wasObject ? "}" : "]"))
        flushIfLarge()
    }

    /// A member name; the next value written is its value.
    public mutating func key(_ name: String) {
        separator()
        var name = name
        name.withUTF8 { writeString($0) }
        afterKey()
    }

    /// A member name given as its already-escaped, quoted bytes (see `quoted(_:)`).
    public mutating func key(quoted name: [UInt8]) {
        separator()
        buffer.append(name)
        afterKey()
    }

    /// `"name"` escaped once, for member names written many times.
    public static func quoted(_ name: String) -> [UInt8] {
        var e = JSONEmitter(sink: MemorySink())
        var name = name
        name.withUTF8 { e.writeString($0) }
        return e.buffer.bytes
    }

    public mutating func key(bytes name: [UInt8]) {
        separator()
        name.withUnsafeBufferPointer { writeString($0) }
        afterKey()
    }

    private mutating func afterKey() {
        if pretty {
            buffer.append(UInt8(ascii: ":"))
            buffer.append(UInt8(ascii: " "))
        } else {
            buffer.append(UInt8(ascii: ":"))
        }
    }

    public mutating func string(_ value: String) {
        beforeValue()
        var value = value
        value.withUTF8 { writeString($0) }
    }

    public mutating func string(bytes: [UInt8]) {
        beforeValue()
        bytes.withUnsafeBufferPointer { writeString($0) }
    }

    /// A string from bytes the caller lends for the call (the legacy dump's string cells).
    public mutating func string(buffer bytes: UnsafeBufferPointer<UInt8>) {
        beforeValue()
        writeString(bytes)
    }

    /// A number, `true`, `false` or `null`: text written as it is.
    public mutating func literal(_ text: String) {
        beforeValue()
        var text = text
        text.withUTF8 { buffer.append($0) }
    }

    public mutating func null() {
        beforeValue()
        buffer.append(Self.nullText)
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        buffer.append(value ? Self.trueText : Self.falseText)
    }

    public mutating func int(_ value: Int64) {
        beforeValue()
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        buffer.appendDecimal(value.magnitude)
    }

    /// A finite double as a number; false (nothing written) when it is not finite.
    public mutating func double(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        beforeValue()
        scratch.removeAll(keepingCapacity: true)
        _ = NumberText.append(value, to: &scratch)
        buffer.append(scratch)
        return true
    }

    public mutating func float(_ value: Float) -> Bool {
        guard value.isFinite else { return false }
        beforeValue()
        scratch.removeAll(keepingCapacity: true)
        _ = NumberText.append(value, to: &scratch)
        buffer.append(scratch)
        return true
    }

    /// A timestamp as an ISO 8601 string.
    public mutating func date(_ value: Timestamp) {
        beforeValue()
        scratch.removeAll(keepingCapacity: true)
        scratch.append(UInt8(ascii: "\""))
        DateText.append(value, to: &scratch)
        scratch.append(UInt8(ascii: "\""))
        buffer.append(scratch)
    }

    /// Raw bytes outside any JSON structure (newlines between documents).
    public mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append($0) }
    }

    public mutating func flush() {
        if !buffer.isEmpty {
            buffer.withContents { sink.write(buffer: $0) }
            buffer.removeAll()
        }
    }

    private mutating func flushIfLarge() {
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Element separators live in arrays; in objects `key` already wrote them.
    @inline(__always) private mutating func beforeValue() {
        if depth > 0 && !topIsObject { separator() }
    }

    @inline(__always) private mutating func separator() {
        guard depth > 0 else { return }
        if topCount > 0 { buffer.append(UInt8(ascii: ",")) }
        topCount += 1
        if pretty { newline(depth) }
    }

    @inline(__always) private mutating func newline(_ depth: Int) {
        buffer.append(UInt8(ascii: "\n"), then: UInt8(ascii: " "), count: 2 * (depth + baseIndent))
    }

    private static let nullText: [UInt8] = Array("null".utf8)
    private static let trueText: [UInt8] = Array("true".utf8)
    private static let falseText: [UInt8] = Array("false".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Minimal escaping (fixtures/README.md): `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other
    /// bytes below 0x20 as `\u00xx`; all other bytes, invalid UTF-8 included, as they are.
    fileprivate mutating func writeString(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            buffer.append(bytes)
            buffer.append(UInt8(ascii: "\""))
            return
        }
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): buffer.append(92); buffer.append(34)
            case UInt8(ascii: "\\"): buffer.append(92); buffer.append(92)
            case 0x08: buffer.append(92); buffer.append(UInt8(ascii: "b"))
            case 0x0C: buffer.append(92); buffer.append(UInt8(ascii: "f"))
            case 0x0A: buffer.append(92); buffer.append(UInt8(ascii: "n"))
            case 0x0D: buffer.append(92); buffer.append(UInt8(ascii: "r"))
            case 0x09: buffer.append(92); buffer.append(UInt8(ascii: "t"))
            case 0..<0x20:
                for c in "\\u00".utf8 { buffer.append(c) }
                buffer.append(Self.hexDigits[Int(b >> 4)])
                buffer.append(Self.hexDigits[Int(b & 15)])
            default: buffer.append(b)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
