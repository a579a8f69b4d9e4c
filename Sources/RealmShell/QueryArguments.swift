import RealmFormat
import RealmObjects
import RealmQuery

/// Query arguments from the command line: `--arg VALUE` (a query-language literal, or else a
/// string) and `--args-json '[…]'` in the Extended JSON of the canonical dump, as
/// `queries.json` writes them (plain integers are ints, other numbers doubles; `{"$date": …}`,
/// `{"$oid": …}`, `{"$numberDecimal": …}` …; a nested array is a list argument).
enum QueryArguments {
    struct Failure: Error {
        let message: String
    }

    static func parseJSON(_ text: String, store: ObjectStore) throws(Failure) -> [QueryArgument] {
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch {
            throw Failure(message: "--args-json is not valid JSON: \(error.message) at byte \(error.offset)")
        }
        guard case let .array(elements) = json else {
            throw Failure(message: "--args-json must be a JSON array of arguments, e.g. '[42, \"Fido\"]'")
        }
        return try elements.map { e throws(Failure) -> QueryArgument in
            if case let .array(list) = e {
                return .list(try list.map { v throws(Failure) in try value(v, store: store) })
            }
            return .value(try value(e, store: store))
        }
    }

    /// One Extended JSON value.
    static func value(_ json: JSONValue, store: ObjectStore) throws(Failure) -> QValue {
        switch json {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .string(s): return .string(s)
        case let .number(text):
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let i = Int64(text) { return .int(i) }
            guard let d = Double(text) else { throw Failure(message: "number out of range in --args-json: \(text)") }
            return .double(d)
        case .array:
            throw Failure(message: "lists can only be arguments themselves, not elements of a list argument")
        case let .object(members):
            guard members.count == 1 else { throw Failure(message: "unsupported Extended JSON object \(json.compactText)") }
            let (key, inner) = members[0]
            let text = inner.stringValue
            switch key {
            case "$date":
                guard let text, let t = date(text) else { throw Failure(message: "invalid $date \(inner.compactText) (expected YYYY-MM-DDTHH:MM:SS[.fff]Z)") }
                return .timestamp(t)
            case "$numberDouble":
                switch text {
                case "NaN"?: return .double(.nan)
                case "Infinity"?: return .double(.infinity)
                case "-Infinity"?: return .double(-.infinity)
                default:
                    guard let text, let d = Double(text) else { throw Failure(message: "invalid $numberDouble \(inner.compactText)") }
                    return .double(d)
                }
            case "$numberDecimal":
                guard let text, let d = QueryArgument.decimal(text) else { throw Failure(message: "invalid $numberDecimal \(inner.compactText)") }
                return d
            case "$numberInt", "$numberLong":
                guard let text, let i = Int64(text) else { throw Failure(message: "invalid \(key) \(inner.compactText)") }
                return .int(i)
            case "$oid":
                guard let text, let bytes = hex(text), bytes.count == 12 else { throw Failure(message: "invalid $oid \(inner.compactText)") }
                return .objectId(ObjectId(bytes: bytes))
            case "$uuid":
                guard let text, let bytes = hex(text.filter { $0 != "-" }), bytes.count == 16 else { throw Failure(message: "invalid $uuid \(inner.compactText)") }
                return .uuid(UUID(bytes: bytes))
            case "$binary":
                guard let b64 = inner["base64"]?.stringValue, let bytes = Base64.decode(b64) else {
                    throw Failure(message: "invalid $binary \(inner.compactText)")
                }
                return .binary(bytes)
            case "$key":
                guard case let .number(n) = inner, let k = Int64(n) else { throw Failure(message: "invalid $key \(inner.compactText)") }
                return .link(k)
            case "$link":
                guard let className = inner["class"]?.stringValue, let id = inner["id"],
                      let table = store.table(className: className) else {
                    throw Failure(message: "invalid $link \(inner.compactText) (expected {\"class\": C, \"id\": identity})")
                }
                if case let .object(m) = id, m.count == 1, m[0].key == "$key", case let .number(n) = m[0].value, let k = Int64(n) {
                    return .typedLink(table.table.key, k)
                }
                let pk = try value(id, store: store)
                guard let key = try? table.find(primaryKey: pk) else {
                    throw Failure(message: "no \(className) object with primary key \(id.compactText)")
                }
                return .typedLink(table.table.key, key)
            default:
                throw Failure(message: "unsupported Extended JSON type \(key)")
            }
        }
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        var i = 0
        while i < digits.count {
            guard let h = nibble(digits[i]), let l = nibble(digits[i + 1]) else { return nil }
            out.append(h << 4 | l)
            i += 2
        }
        return out
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - 55
        default: return nil
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (also `±YYYYYY`), proleptic Gregorian, UTC; seconds
    /// and nanoseconds with the same sign, as Realm stores them.
    static func date(_ text: String) -> Timestamp? {
        var s = Array(text.utf8)
        guard s.last == UInt8(ascii: "Z") else { return nil }
        s.removeLast()
        var sign: Int64 = 1
        var i = 0
        if let c = s.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            sign = c == UInt8(ascii: "-") ? -1 : 1
            i = 1
        }
        func number(_ width: Int?) -> Int64? {
            let start = i
            while i < s.count, s[i] >= 48, s[i] <= 57, width.map({ i - start < $0 }) ?? true { i += 1 }
            guard i > start, width.map({ i - start == $0 }) ?? true else { return nil }
            return Int64(String(decoding: s[start..<i], as: UTF8.self))
        }
        func expect(_ c: Character) -> Bool {
            guard i < s.count, s[i] == UInt8(ascii: c.unicodeScalars.first!) else { return false }
            i += 1
            return true
        }
        guard let year = number(nil), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("T"), let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var nanos: Int64 = 0
        if i < s.count {
            guard expect("."), let start = Optional(i), let fraction = number(nil), i - start <= 9 else { return nil }
            nanos = fraction
            for _ in 0..<(9 - (i - start)) { nanos *= 10 }
        }
        guard i == s.count else { return nil }
        let days = daysFromCivil(sign * year, month, day)
        var seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        if seconds < 0 && nanos > 0 {
            seconds += 1
            nanos -= 1_000_000_000
        }
        return Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (inverse of `DateText.civil`).
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
