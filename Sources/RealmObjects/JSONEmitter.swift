/// Streams JSON in exactly the layout of JavaScript's `JSON.stringify(value, null, 2)`
/// (fixtures/README.md): one member or element per line, two-space indentation, `[]` and `{}`
/// for empty containers. Output goes to a `ByteSink` in large chunks.
import RealmFormat

public struct JSONEmitter: ~Copyable {
    private var buffer: [UInt8] = []
    private var stack: [(isObject: Bool, count: Int)] = []
    private let sink: ByteSink
    /// Indentation of the outermost container (to stream a document piece by piece).
    private let baseIndent: Int
    /// false: compact single-line output (`jsonl`).
    private let pretty: Bool

    public init(sink: ByteSink, baseIndent: Int = 0, pretty: Bool = true) {
        self.sink = sink
        self.baseIndent = baseIndent
        self.pretty = pretty
        buffer.reserveCapacity(1 << 17)
    }

    public mutating func beginObject() {
        beforeValue()
        buffer.append(UInt8(ascii: "{"))
        stack.append((true, 0))
    }

    public mutating func beginArray() {
        beforeValue()
        buffer.append(UInt8(ascii: "["))
        stack.append((false, 0))
    }

    public mutating func end() {
        let top = stack.removeLast()
        if top.count > 0 && pretty { newline(stack.count) }
        buffer.append(UInt8(ascii: top.isObject ? "}" : "]"))
        flushIfLarge()
    }

    /// A member name; the next value written is its value.
    public mutating func key(_ name: String) {
        separator()
        writeString(Array(name.utf8))
        buffer.append(UInt8(ascii: ":"))
        if pretty { buffer.append(UInt8(ascii: " ")) }
    }

    /// A member name given as its already-escaped, quoted bytes (see `quoted(_:)`).
    public mutating func key(quoted name: [UInt8]) {
        separator()
        buffer.append(contentsOf: name)
        buffer.append(UInt8(ascii: ":"))
        if pretty { buffer.append(UInt8(ascii: " ")) }
    }

    /// `"name"` escaped once, for member names written many times.
    public static func quoted(_ name: String) -> [UInt8] {
        var e = JSONEmitter(sink: MemorySink())
        e.writeString(Array(name.utf8))
        return e.buffer
    }

    public mutating func key(bytes name: [UInt8]) {
        separator()
        writeString(name)
        buffer.append(UInt8(ascii: ":"))
        if pretty { buffer.append(UInt8(ascii: " ")) }
    }

    public mutating func string(_ value: String) {
        beforeValue()
        writeString(Array(value.utf8))
    }

    public mutating func string(bytes: [UInt8]) {
        beforeValue()
        writeString(bytes)
    }

    /// A string from bytes the caller lends for the call (the legacy dump's string cells).
    public mutating func string(buffer: UnsafeBufferPointer<UInt8>) {
        beforeValue()
        writeString(buffer)
    }

    /// A number, `true`, `false` or `null`: text written as it is.
    public mutating func literal(_ text: String) {
        beforeValue()
        buffer.append(contentsOf: text.utf8)
    }

    public mutating func null() {
        beforeValue()
        buffer.append(contentsOf: [110, 117, 108, 108])
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        buffer.append(contentsOf: value ? [116, 114, 117, 101] : [102, 97, 108, 115, 101])
    }

    public mutating func int(_ value: Int64) {
        beforeValue()
        NumberText.appendInt(value, to: &buffer)
    }

    /// A finite double as a number; false (nothing written) when it is not finite.
    public mutating func double(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        beforeValue()
        return NumberText.append(value, to: &buffer)
    }

    public mutating func float(_ value: Float) -> Bool {
        guard value.isFinite else { return false }
        beforeValue()
        return NumberText.append(value, to: &buffer)
    }

    /// A timestamp as an ISO 8601 string.
    public mutating func date(_ value: Timestamp) {
        beforeValue()
        buffer.append(UInt8(ascii: "\""))
        DateText.append(value, to: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Raw bytes outside any JSON structure (newlines between documents).
    public mutating func raw(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    public mutating func flush() {
        if !buffer.isEmpty {
            sink.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private mutating func flushIfLarge() {
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Element separators live in arrays; in objects `key` already wrote them.
    private mutating func beforeValue() {
        if let top = stack.last, !top.isObject { separator() }
    }

    private mutating func separator() {
        guard !stack.isEmpty else { return }
        if stack[stack.count - 1].count > 0 { buffer.append(UInt8(ascii: ",")) }
        stack[stack.count - 1].count += 1
        if pretty { newline(stack.count) }
    }

    private mutating func newline(_ depth: Int) {
        let spaces = 2 * (depth + baseIndent)
        if spaces < Self.newlineAndSpaces.count {
            buffer.append(contentsOf: Self.newlineAndSpaces[0...spaces])
        } else {
            buffer.append(UInt8(ascii: "\n"))
            buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
        }
    }

    private static let newlineAndSpaces: [UInt8] = [10] + [UInt8](repeating: 32, count: 64)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Minimal escaping (fixtures/README.md): `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other
    /// bytes below 0x20 as `\u00xx`; all other bytes, invalid UTF-8 included, as they are.
    fileprivate mutating func writeString<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        buffer.append(UInt8(ascii: "\""))
        if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            buffer.append(contentsOf: bytes)
            buffer.append(UInt8(ascii: "\""))
            return
        }
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [92, 92])
            case 0x08: buffer.append(contentsOf: [92, UInt8(ascii: "b")])
            case 0x0C: buffer.append(contentsOf: [92, UInt8(ascii: "f")])
            case 0x0A: buffer.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                buffer.append(contentsOf: Array("\\u00".utf8))
                buffer.append(Self.hexDigits[Int(b >> 4)])
                buffer.append(Self.hexDigits[Int(b & 15)])
            default: buffer.append(b)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
