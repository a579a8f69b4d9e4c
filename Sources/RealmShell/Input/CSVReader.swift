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

    /// The properties a header record names, in its order (nil: the `_key` column of a
    /// class without primary key).
    func header(_ record: Record, _ bytes: [UInt8], line: Int) throws(Failure) -> [Property?] {
        try (0..<record.count).map { i throws(Failure) -> Property? in
            let name = String(decoding: record.text(i, bytes), as: UTF8.self)
            if name == "_key", objectClass.primaryKey == nil { return nil }
            guard let p = objectClass.property(named: name) else {
                throw Failure(line: line, message: "\(objectClass.name) has no property '\(name)' (a header names properties)"
                              + NameSuggestion.didYouMean(name, among: objectClass.properties.map(\.name)))
            }
            return p
        }
    }

    /// The JSON object a record stands for, as the writer reads one (`_key` as a number).
    func object(_ record: Record, _ bytes: [UInt8], _ columns: [Property?], line: Int) throws(Failure) -> JSONValue {
        var members = [(key: String, value: JSONValue)]()
        members.reserveCapacity(columns.count)
        for (i, p) in columns.enumerated() {
            let f = Field(text: Array(record.text(i, bytes)), quoted: record.spans[i].quoted)
            guard let p else {
                guard let key = Int64(String(decoding: f.text, as: UTF8.self)), key >= 0 else {
                    throw Failure(line: line, message: "_key: not an object key: '\(String(decoding: f.text, as: UTF8.self))'")
                }
                members.append(("_key", .number(String(key))))
                continue
            }
            members.append((p.name, try value(f, for: p, line: line)))
        }
        return .object(members)
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

    /// One record's fields: an unquoted field is a range of the input; a quoted one's text
    /// (quotes undone) is a range of `arena`. Reused from record to record.
    struct Record {
        struct Span {
            var start: Int, end: Int
            /// Quoted (its text is in `arena`); an empty quoted field is "", not null.
            var quoted: Bool
        }
        var spans: [Span] = []
        var arena: [UInt8] = []
        var count: Int { spans.count }

        func text(_ i: Int, _ bytes: [UInt8]) -> ArraySlice<UInt8> {
            let s = spans[i]
            return s.quoted ? arena[s.start..<s.end] : bytes[s.start..<s.end]
        }
    }

    /// RFC 4180 records, one at a time (`next()`): fields separated by commas, `"…"` quoting
    /// with `""` for a quote, records ended by CRLF or LF; a last record without a line end
    /// counts. A quote opens a quoted field only as its first byte; after the closing quote
    /// only a comma or line end may follow (a CR without LF is kept as text).
    ///
    /// The input is either all in memory or read in chunks (`init(chunks:)`), so that an
    /// import holds a window of it, not a copy of the file (issue #16): `bytes` is the window,
    /// from the current record on, and the record's spans index it until the next `next()`.
    struct Records {
        /// The input from `windowStart` on (all of it when given whole).
        private(set) var bytes: [UInt8]
        /// The current record, its first line, and the offset after it (in the whole input).
        private(set) var record = Record()
        private(set) var line = 1
        var offset: Int { windowStart + position }
        /// Where the next record starts in `bytes`, and the input offset of `bytes[0]`.
        private var position = 0, windowStart = 0
        private var nextLine = 1
        /// The header's field count: in a one-column file an empty line is a record whose
        /// one field is null (what CSVWriter writes for it), not a blank line.
        private var headerFields: Int?
        /// The next chunk of the input, empty at its end; nil once it ended (or when whole).
        private var source: (() throws -> [UInt8])?

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The input read chunk by chunk from `chunks` (an empty chunk ends it; what it throws,
        /// `next()` throws).
        init(chunks: @escaping () throws -> [UInt8]) {
            bytes = []
            source = chunks
        }

        /// Field `i` of the current record.
        func text(_ i: Int) -> ArraySlice<UInt8> { record.text(i, bytes) }

        /// Reads the next record; false at the end of the input. A record the window ends
        /// inside (or at a CR or quote whose meaning the next byte decides) is read again
        /// once the next chunk is in, from its start: the scan below is the whole input's.
        mutating func next() throws -> Bool {
            while true {
                let line = nextLine
                if let found = try scan(final: source == nil) { return found }
                nextLine = line
                guard let read = source else { continue }
                // Keep the rest of the window (the record read again), then the next chunk.
                bytes.removeSubrange(0..<position)
                windowStart += position
                position = 0
                let chunk = try read()
                if chunk.isEmpty { source = nil } else { bytes += chunk }
            }
        }

        /// The next record in the window; nil when more input is needed to know it (not
        /// `final`: the input may go on past the window).
        private mutating func scan(final: Bool) throws(Failure) -> Bool? {
            let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), n = bytes.count
            var i = position
            while i < n {
                let start = nextLine
                record.spans.removeAll(keepingCapacity: true)
                record.arena.removeAll(keepingCapacity: true)
                var field = Record.Span(start: i, end: i, quoted: false)
                var ended = false
                while i < n, !ended {
                    let b = bytes[i]
                    if b == quote && !field.quoted && i == field.start {
                        field = Record.Span(start: record.arena.count, end: record.arena.count, quoted: true)
                        i += 1
                        var closed = false
                        while i < n {
                            let c = bytes[i]
                            if c == quote {
                                if i + 1 < n, bytes[i + 1] == quote {
                                    record.arena.append(quote)
                                    i += 2
                                    continue
                                }
                                i += 1
                                closed = true
                                break
                            }
                            if c == 10 { nextLine += 1 }
                            record.arena.append(c)
                            i += 1
                        }
                        if !closed {
                            if !final { return nil }
                            throw Failure(line: start, message: "a quoted field is not closed")
                        }
                        if i < n, bytes[i] != comma, bytes[i] != 10, bytes[i] != 13 {
                            throw Failure(line: nextLine, message: "text after a quoted field's closing quote")
                        }
                        continue
                    }
                    switch b {
                    case comma:
                        field.end = field.quoted ? record.arena.count : i
                        record.spans.append(field)
                        i += 1
                        field = Record.Span(start: i, end: i, quoted: false)
                    case 13 where i + 1 < n && bytes[i + 1] == 10, 10:
                        field.end = field.quoted ? record.arena.count : i
                        i += b == 13 ? 2 : 1
                        nextLine += 1
                        ended = true
                    default:
                        i += 1
                        if field.quoted {
                            // Text after a quoted field's closing quote (a lone CR) stays in its text.
                            record.arena.append(b)
                        } else {
                            // The rest of an unquoted field, up to a comma or a line end (a
                            // quote inside it is text), in one tight loop.
                            while i < n {
                                let c = bytes[i]
                                if c == comma || c == 10 || c == 13 { break }
                                i += 1
                            }
                        }
                    }
                }
                if !ended {
                    // The window ends inside the record (or the input ends without a line end).
                    if !final { return nil }
                    field.end = field.quoted ? record.arena.count : i
                }
                record.spans.append(field)
                // A blank line (a trailing one, say) is not a record, unless the file has one column.
                if record.count == 1, !field.quoted, field.end == field.start, headerFields != 1 { continue }
                if headerFields == nil { headerFields = record.count }
                line = start
                position = i
                return true
            }
            if !final { return nil }
            position = i
            return false
        }
    }
}
