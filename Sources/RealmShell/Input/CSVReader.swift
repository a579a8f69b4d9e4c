import RealmFormat
import RealmObjects

/// CSV as `export --format csv` writes it (`CSVWriter`), read back as one JSON object per row
/// for the writer, typed by the class's schema: RFC 4180 quoting (CRLF or LF line ends), a
/// header row naming properties (and `_key`, passed on as the object's key), an empty field for null and
/// `""` for the empty string. Numbers and booleans become JSON numbers and booleans only when
/// they are written as such, so the writer's strict types refuse anything else by name;
/// links, collections, embedded objects and Mixed values are the JSON in their field.
struct CSVReader {
    /// One field: its text, and whether it was quoted (an empty quoted field is "").
    struct Field {
        var text: [UInt8]
        var quoted: Bool
    }

    struct Failure: Error {
        let line: Int
        let message: String
    }

    let objectClass: ObjectClass
    let file: RealmFile

    /// Calls `body` with each row's object, the line it starts on, and the offset after it.
    func forEachObject(_ bytes: [UInt8], _ body: (JSONValue, Int, Int) throws -> Void) throws {
        // nil: the `_key` column.
        var header: [Property?]?
        try Self.forEachRow(bytes) { fields, line, offset in
            guard let columns = header else {
                header = try fields.map { f throws(Failure) -> Property? in
                    let name = String(decoding: f.text, as: UTF8.self)
                    if name == "_key", objectClass.primaryKey == nil { return nil }
                    guard let p = objectClass.property(named: name) else {
                        throw Failure(line: line, message: "\(objectClass.name) has no property '\(name)' (a header names properties)"
                                      + NameSuggestion.didYouMean(name, among: objectClass.properties.map(\.name)))
                    }
                    return p
                }
                return
            }
            guard fields.count == columns.count else {
                throw Failure(line: line, message: "\(fields.count) fields, but the header has \(columns.count)")
            }
            var members = [(key: String, value: JSONValue)]()
            for (p, f) in zip(columns, fields) {
                guard let p else {
                    guard let key = Int64(String(decoding: f.text, as: UTF8.self)), key >= 0 else {
                        throw Failure(line: line, message: "_key: not an object key: '\(String(decoding: f.text, as: UTF8.self))'")
                    }
                    members.append(("_key", .number(String(key))))
                    continue
                }
                members.append((p.name, try value(f, for: p, line: line)))
            }
            try body(.object(members), line, offset)
        }
    }

    /// The JSON a field stands for, as the writer reads a property's value.
    func value(_ f: Field, for p: Property, line: Int) throws(Failure) -> JSONValue {
        if f.text.isEmpty && !f.quoted { return .null }
        let text = String(decoding: f.text, as: UTF8.self)
        func json() throws(Failure) -> JSONValue {
            do { return try JSONParser.parse(f.text) } catch {
                throw Failure(line: line, message: "\(objectClass.name).\(p.name): invalid JSON at byte \(error.offset): \(error.message)")
            }
        }
        if p.collection != nil || p.type == "mixed" { return try json() }
        switch p.type {
        case "object":
            guard let target = p.objectType.flatMap(file.objectClass(named:)) else { return try json() }
            // A link by a string primary key is its text (CSVWriter drops the quotes).
            if !target.isEmbedded, let pk = target.primaryKey.flatMap(target.property(named:)), pk.type == "string" {
                return (try? JSONParser.parse(Array(("\"" + text + "\"").utf8))) ?? .text(text)
            }
            return try json()
        case "int", "float", "double":
            if ["NaN", "Infinity", "-Infinity"].contains(text) { return .object([("$numberDouble", .text(text))]) }
            if case let .number(n)? = try? JSONParser.parse(f.text) { return .number(n) }
            return .text(text)
        case "bool":
            return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .text(text)
        default:
            // string, data (base64), date (ISO 8601), decimal128, objectId, uuid: their text.
            return .text(text)
        }
    }

    /// RFC 4180 records: fields separated by commas, `"…"` quoting with `""` for a quote,
    /// records ended by CRLF or LF; a last record without a line end counts.
    static func forEachRow(_ bytes: [UInt8], _ body: ([Field], Int, Int) throws -> Void) throws {
        var i = 0, line = 1
        // The header's field count: in a one-column file an empty line is a record whose one
        // field is null (what CSVWriter writes for it), not a blank line.
        var headerFields: Int?
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        while i < bytes.count {
            let start = line
            var fields = [Field]()
            var field = Field(text: [], quoted: false)
            var ended = false
            while i < bytes.count, !ended {
                let b = bytes[i]
                if b == quote && field.text.isEmpty && !field.quoted {
                    field.quoted = true
                    i += 1
                    var closed = false
                    while i < bytes.count {
                        if bytes[i] == quote {
                            if i + 1 < bytes.count, bytes[i + 1] == quote {
                                field.text.append(quote)
                                i += 2
                                continue
                            }
                            i += 1
                            closed = true
                            break
                        }
                        if bytes[i] == 10 { line += 1 }
                        field.text.append(bytes[i])
                        i += 1
                    }
                    if !closed { throw Failure(line: start, message: "a quoted field is not closed") }
                    if i < bytes.count, ![comma, 10, 13].contains(bytes[i]) {
                        throw Failure(line: line, message: "text after a quoted field's closing quote")
                    }
                    continue
                }
                switch b {
                case comma:
                    fields.append(field)
                    field = Field(text: [], quoted: false)
                    i += 1
                case 13 where i + 1 < bytes.count && bytes[i + 1] == 10, 10:
                    i += b == 13 ? 2 : 1
                    line += 1
                    ended = true
                default:
                    field.text.append(b)
                    i += 1
                }
            }
            fields.append(field)
            // A blank line (a trailing one, say) is not a record, unless the file has one column.
            if fields.count == 1, fields[0].text.isEmpty, !fields[0].quoted, headerFields != 1 { continue }
            if headerFields == nil { headerFields = fields.count }
            try body(fields, start, i)
        }
    }
}
