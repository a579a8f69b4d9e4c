import RealmFormat
import RealmObjects

/// RFC 4180 CSV of one class: a header row, then one row per object. Scalars are written as
/// text (dates ISO 8601, binary base64, ids as hex), links as the target's identity, and
/// collections, embedded objects and Mixed values as compact JSON (a Mixed value's type is in
/// its JSON, so `"5"` and `5` stay apart). Null is an empty field and the empty string `""`,
/// as sqlite3 writes them, so `import` tells them apart (`CSVReader`).
struct CSVWriter {
    let file: RealmFile
    let objectClass: ObjectClass
    let json: ObjectJSON

    init(file: RealmFile, objectClass: ObjectClass) {
        self.file = file
        self.objectClass = objectClass
        json = ObjectJSON(file: file)
    }

    /// Every object of the class; `eachObject` after each (progress, cancellation). Rows are
    /// written a cluster leaf at a time, each field straight into the buffer (`appendRow`);
    /// `general`: through `field` and `append` instead, one array per field — the plain path
    /// the direct one is pinned against (CSVExportFastPathTests).
    func write(to sink: ByteSink, general: Bool = false, eachObject: () throws -> Void) throws {
        var buffer = header()
        buffer.reserveCapacity(1 << 17)
        let layout = RowLayout(objectClass)
        try file.forEachLeaf(of: objectClass) { keys, columns in
            for (r, key) in keys.enumerated() {
                try eachObject()
                if general {
                    try appendRow(key, columns.lazy.map { $0[r] }, to: &buffer)
                } else {
                    try appendRow(key, fields: columns.count, layout, to: &buffer) { columns[$0][r] }
                }
            }
            if buffer.count > 1 << 16 {
                sink.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        sink.write(buffer)
    }

    /// Only the given objects, in the given order (query results).
    func write(objects: [(key: Int64, values: [Value])], to sink: ByteSink) throws {
        var buffer = header()
        let layout = RowLayout(objectClass)
        for (key, values) in objects {
            try Platform.checkCancellation()
            try appendRow(key, fields: values.count, layout, to: &buffer) { values[$0] }
            if buffer.count > 1 << 16 {
                sink.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        sink.write(buffer)
    }

    private func header() -> [UInt8] {
        var buffer = [UInt8]()
        var header = [String]()
        if objectClass.primaryKey == nil { header.append("_key") }
        header += objectClass.properties.map(\.name)
        append(header.map { Array($0.utf8) }, to: &buffer)
        return buffer
    }

    /// The general path: every field built apart (`field`), then quoted as needed (`append`).
    private func appendRow<Row: Collection<Value>>(_ key: Int64, _ values: Row, to buffer: inout [UInt8]) throws {
        var fields = [[UInt8]?]()
        if objectClass.primaryKey == nil { fields.append(Array(String(key).utf8)) }
        for (p, v) in zip(objectClass.properties, values) { fields.append(try field(p, v)) }
        append(fields, to: &buffer)
    }

    /// What the direct path needs of the class, worked out once rather than per field.
    struct RowLayout {
        let properties: [Property]
        /// Per property: Mixed (its values are JSON, `field`).
        let mixed: [Bool]
        let keyColumn: Bool

        init(_ c: ObjectClass) {
            properties = c.properties
            mixed = c.properties.map { $0.type == "mixed" }
            keyColumn = c.primaryKey == nil
        }
    }

    /// The direct path: the object whose value of property `c` is `value(c)` (a row of a leaf's
    /// decoded columns, or a query result's values); fields past the class's properties are
    /// not written.
    private func appendRow(_ key: Int64, fields: Int, _ layout: RowLayout, to buffer: inout [UInt8], value: (Int) -> Value) throws {
        if layout.keyColumn { NumberText.appendInt(key, to: &buffer) }
        for c in 0..<min(fields, layout.properties.count) {
            if c > 0 || layout.keyColumn { buffer.append(UInt8(ascii: ",")) }
            try appendField(c, value(c), layout, to: &buffer)
        }
        buffer.append(13)
        buffer.append(10)
    }

    /// The bytes `field` then `append` give for the value of property `c`, written in place for
    /// the scalars that fill most tables: numbers, booleans and dates never need quotes (digits,
    /// `.`, `-`, `+`, `e`, letters, `:`); strings are quoted only when `append` would.
    private func appendField(_ c: Int, _ v: Value, _ layout: RowLayout, to buffer: inout [UInt8]) throws {
        if layout.mixed[c] {
            if case .null = v { return }
            Self.appendQuotingIfNeeded(try compactJSON(layout.properties[c], v), to: &buffer)
            return
        }
        switch v {
        case .null: return
        case let .string(b): Self.appendQuotingIfNeeded(b, to: &buffer)
        case let .int(i): NumberText.appendInt(i, to: &buffer)
        case let .bool(b): buffer.append(contentsOf: b ? Self.trueText : Self.falseText)
        case let .double(d):
            if !NumberText.append(d, to: &buffer) { buffer.append(contentsOf: NumberText.nonFinite(d).utf8) }
        case let .float(f):
            if !NumberText.append(f, to: &buffer) { buffer.append(contentsOf: NumberText.nonFinite(Double(f)).utf8) }
        case let .timestamp(t): DateText.append(t, to: &buffer)
        default:
            if let f = try field(layout.properties[c], v) { Self.appendQuotingIfNeeded(f, to: &buffer) }
        }
    }

    private static let trueText = Array("true".utf8), falseText = Array("false".utf8)

    /// A field's text; nil for null.
    func field(_ p: Property, _ v: Value) throws -> [UInt8]? {
        if p.type == "mixed", !(v == .null) { return try compactJSON(p, v) }
        switch v {
        case .null: return nil
        case let .string(b): return b
        case let .binary(b): return Array(Base64.encode(b).utf8)
        case let .bool(b): return Array((b ? "true" : "false").utf8)
        case let .int(i): return Array(String(i).utf8)
        case let .double(d): return Array((NumberText.double(d) ?? NumberText.nonFinite(d)).utf8)
        case let .float(f): return Array((NumberText.float(f) ?? NumberText.nonFinite(Double(f))).utf8)
        case let .timestamp(t): return Array(DateText.iso8601(t).utf8)
        case let .decimal(d): return Array(d.text.utf8)
        case let .objectId(o): return Array(o.hexString.utf8)
        case let .uuid(u): return Array(u.uuidString.utf8)
        default:
            // Links and collections: the dump's encoding, on one line.
            var bytes = try compactJSON(p, v)
            if p.collection == nil, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\""), bytes.count >= 2 {
                bytes = Array(bytes.dropFirst().dropLast())     // a link by a string primary key, as plain text
            }
            return bytes
        }
    }

    private func compactJSON(_ p: Property, _ v: Value) throws -> [UInt8] {
        let memory = MemorySink()
        var out = JSONEmitter(sink: memory, pretty: false)
        try json.writeProperty(p, v, to: &out)
        out.flush()
        return memory.bytes
    }

    func append(_ fields: [[UInt8]?], to buffer: inout [UInt8]) {
        for (i, field) in fields.enumerated() {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            guard let f = field else { continue }
            let needsQuotes = f.isEmpty || f.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            if needsQuotes {
                buffer.append(UInt8(ascii: "\""))
                for b in f {
                    if b == UInt8(ascii: "\"") { buffer.append(b) }
                    buffer.append(b)
                }
                buffer.append(UInt8(ascii: "\""))
            } else {
                buffer += f
            }
        }
        buffer += [13, 10]
    }

    /// A non-null field as `append` writes it: RFC 4180 quotes when it is empty or holds a
    /// comma, quote, CR or LF (quotes doubled inside), else the bytes as they are.
    static func appendQuotingIfNeeded(_ f: [UInt8], to buffer: inout [UInt8]) {
        var needsQuotes = f.isEmpty
        var i = 0
        while i < f.count, !needsQuotes {    // by index: no iterator (and no retain) per field
            let b = f[i]
            needsQuotes = b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || b == 10 || b == 13
            i += 1
        }
        guard needsQuotes else {
            buffer.append(contentsOf: f)
            return
        }
        buffer.append(UInt8(ascii: "\""))
        for b in f {
            if b == UInt8(ascii: "\"") { buffer.append(b) }
            buffer.append(b)
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
