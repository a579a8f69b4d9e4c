import RealmFormat

/// Strict conversion of input JSON to a property's value (issue #4): Extended JSON as the
/// canonical dump writes it, plus plain JSON where the type makes the meaning clear (an ISO 8601
/// string for a date, hex for an ObjectId, base64 for data). A value of the wrong type is an
/// error, never a silent conversion. Links are resolved by `RealmWriter`, not here: a link
/// inside a Mixed value (`{"$link": {"class": C, "id": identity}}`, fixtures/README.md) is
/// handed to the `LinkResolver` the writer passes in.
enum ValueCoercion {
    enum Failure: Error { case mismatch(String) }

    /// Turns a `$link`'s class name and identity (the target's primary key as the dump writes
    /// it, or `{"$key": N}`) into the `.typedLink` a Mixed value stores (§9.12); throws
    /// `Failure.mismatch` for a class or object that is not there.
    typealias LinkResolver = (_ className: String, _ identity: JSONValue) throws -> Value

    /// A scalar of `type` (not a link, not a collection).
    static func scalar(_ json: JSONValue, type: ColumnType, nullable: Bool) throws(Failure) -> Value {
        if case .null = json {
            guard nullable || type == .mixed else { throw .mismatch("is required; null is not allowed") }
            return .null
        }
        switch type {
        case .int:
            if case let .number(text) = json, let v = Int64(text) { return .int(v) }
            if let text = wrapped(json, "$numberLong") ?? wrapped(json, "$numberInt"), let v = Int64(text) { return .int(v) }
            throw .mismatch("expects an int, got \(describe(json))")
        case .bool:
            if case let .bool(b) = json { return .bool(b) }
            throw .mismatch("expects a bool, got \(describe(json))")
        case .string:
            if case let .string(s) = json { return .string(s) }
            throw .mismatch("expects a string, got \(describe(json))")
        case .double:
            if let d = double(json) { return .double(d) }
            throw .mismatch("expects a double, got \(describe(json))")
        case .float:
            if let d = double(json) {
                let f = Float(d)
                guard f.isFinite || !d.isFinite else { throw .mismatch("\(d) does not fit a float") }
                return .float(f)
            }
            throw .mismatch("expects a float, got \(describe(json))")
        case .binary:
            if case let .object(members) = json, members.count == 1, members[0].0 == "$binary",
               let b64 = members[0].1["base64"], let text = b64.stringValue, let bytes = Base64.decode(text) {
                return .binary(bytes)
            }
            if let text = json.stringValue, let bytes = Base64.decode(text) { return .binary(bytes) }
            throw .mismatch("expects data ({\"$binary\": …} or a base64 string), got \(describe(json))")
        case .timestamp:
            if let text = wrapped(json, "$date") ?? json.stringValue,
               let t = ValueParsing.date(text) {
                return .timestamp(t)
            }
            if case let .object(members) = json, members.count == 1, members[0].0 == "$date",
               let ms = wrapped(members[0].1, "$numberLong"), let millis = Int64(ms) {
                // Seconds and nanoseconds with the same sign (§9.7): −1500 ms is (−1 s, −500,000,000 ns).
                return .timestamp(Timestamp(seconds: millis / 1000, nanoseconds: Int32(millis % 1000 * 1_000_000)))
            }
            throw .mismatch("expects a date ({\"$date\": \"2020-01-01T00:00:00Z\"} or an ISO 8601 string), got \(describe(json))")
        case .decimal:
            var text: String?
            if let t = wrapped(json, "$numberDecimal") { text = t }
            if case let .number(t) = json { text = t }
            if let t = json.stringValue { text = t }
            if let text, let d = ValueParsing.decimal(text) { return .decimal(d) }
            throw .mismatch("expects a decimal128, got \(describe(json))")
        case .objectId:
            if let text = wrapped(json, "$oid") ?? string(json), let o = ValueParsing.objectId(text) { return .objectId(o) }
            throw .mismatch("expects an objectId ({\"$oid\": \"…\"} or 24 hex digits), got \(describe(json))")
        case .uuid:
            if let text = wrapped(json, "$uuid") ?? string(json), let u = ValueParsing.uuid(text) { return .uuid(u) }
            throw .mismatch("expects a uuid, got \(describe(json))")
        case .mixed:
            // Without a writer to resolve them, links are refused (the only errors are Failures).
            do {
                return try mixed(json, depth: 0) { _, _ in throw Failure.mismatch("$link values cannot be stored here") }
            } catch let failure as Failure {
                throw failure
            } catch {
                throw .mismatch("\(error)")
            }
        default:
            throw .mismatch("columns of type \(type.propertyTypeName) cannot be written")
        }
    }

    /// Any JSON as a Mixed value: numbers by their text (integer → int, else double), Extended
    /// JSON wrappers by their type, `$link` through `links`, arrays and plain objects as nested
    /// collections (§10.5). Realm stores links at any level of a Mixed value, each with its
    /// backlink (§10.6); realm-core 14.14's debug verifier only checks those at most one
    /// collection deep (fixtures/README.md), which is not a limit of the format.
    static func mixed(_ json: JSONValue, depth: Int, links: LinkResolver) throws -> Value {
        guard depth < 100 else { throw Failure.mismatch("nests collections more than 100 levels deep") }
        switch json {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .string(s): return .string(s)
        case let .number(text):
            if let i = Int64(text) { return .int(i) }
            if let d = Double(text) { return .double(d) }
            throw Failure.mismatch("number \(text) is out of range")
        case let .array(elements):
            var out = [Value]()
            for e in elements { out.append(try mixed(e, depth: depth + 1, links: links)) }
            return .list(out)
        case let .object(members):
            if members.count == 1, members[0].0.hasPrefix("$") {
                let tag = members[0].0
                if tag == "$link" { return try link(members[0].1, links) }
                let types: [String: ColumnType] = ["$date": .timestamp, "$oid": .objectId, "$uuid": .uuid,
                                                   "$numberDecimal": .decimal, "$binary": .binary, "$numberDouble": .double,
                                                   "$numberLong": .int, "$numberInt": .int]
                guard let type = types[tag] else { throw Failure.mismatch("\(tag) values cannot be stored in a mixed property") }
                return try scalar(json, type: type, nullable: false)
            }
            var entries = [DictionaryEntry]()
            for (k, v) in members {
                try checkDictionaryKey(k)
                entries.append(DictionaryEntry(key: .string(Array(k.utf8)), value: try mixed(v, depth: depth + 1, links: links)))
            }
            // Keys in Realm's order, as for a dictionary property (§10.3).
            return .dictionary(LeafEncoder.dictionaryOrder(entries))
        }
    }

    /// The body of `{"$link": {"class": C, "id": identity}}`, resolved by `links`.
    static func link(_ body: JSONValue, _ links: LinkResolver) throws -> Value {
        guard case let .object(fields) = body, fields.count == 2,
              let className = body["class"]?.stringValue, let identity = body["id"] else {
            throw Failure.mismatch("$link expects {\"class\": \"ClassName\", \"id\": <primary key, or {\"$key\": N}>}, got \(describe(body))")
        }
        return try links(className, identity)
    }

    /// Whether `json` holds a `$link` anywhere (such Mixed values are stored after their
    /// object exists, with the link rules).
    static func mentionsLink(_ json: JSONValue) -> Bool {
        switch json {
        case let .array(elements): return elements.contains(where: mentionsLink)
        case let .object(members):
            if members.count == 1 && members[0].0 == "$link" { return true }
            return members.contains { mentionsLink($0.1) }
        default: return false
        }
    }

    /// Dictionary keys may not be empty... nor start with `$` or contain `.` (§10.3).
    static func checkDictionaryKey(_ key: String) throws(Failure) {
        if key.hasPrefix("$") || key.contains(".") {
            throw .mismatch("dictionary key '\(key)' may not start with '$' or contain '.'")
        }
    }

    static func double(_ json: JSONValue) -> Double? {
        if case let .number(text) = json { return Double(text) }
        if let text = wrapped(json, "$numberDouble") {
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: return Double(text)
            }
        }
        return nil
    }

    static func string(_ json: JSONValue) -> String? { json.stringValue }

    /// The text of `{"<tag>": "text"}`.
    static func wrapped(_ json: JSONValue, _ tag: String) -> String? {
        guard case let .object(members) = json, members.count == 1, members[0].0 == tag else { return nil }
        if let s = members[0].1.stringValue { return s }
        if case let .number(s) = members[0].1 { return s }
        return nil
    }

    static func describe(_ json: JSONValue) -> String {
        switch json {
        case let .number(t): return "the number \(t)"
        case let .string(b):
            let s = String(decoding: b, as: UTF8.self)
            return "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case let .bool(b): return "\(b)"
        default: return json.kind
        }
    }
}
