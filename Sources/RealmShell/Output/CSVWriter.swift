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

    /// Every object of the class; `eachObject` after each (progress, cancellation).
    func write(to sink: ByteSink, eachObject: () throws -> Void) throws {
        var buffer = header()
        try file.forEachObject(of: objectClass) { key, values in
            try eachObject()
            try appendRow(key, values, to: &buffer)
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
        for (key, values) in objects {
            try Platform.checkCancellation()
            try appendRow(key, values, to: &buffer)
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

    private func appendRow<Row: Collection<Value>>(_ key: Int64, _ values: Row, to buffer: inout [UInt8]) throws {
        var fields = [[UInt8]?]()
        if objectClass.primaryKey == nil { fields.append(Array(String(key).utf8)) }
        for (p, v) in zip(objectClass.properties, values) { fields.append(try field(p, v)) }
        append(fields, to: &buffer)
    }

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

    private func append(_ fields: [[UInt8]?], to buffer: inout [UInt8]) {
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
}
