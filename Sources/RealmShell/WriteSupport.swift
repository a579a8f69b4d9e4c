import RealmFormat
import RealmObjects

/// What write commands share: turning writer errors into one line and an exit status, reading
/// JSON input, and `--set prop=VALUE` literals.
enum WriteSupport {
    static func failure(_ error: Error, path: String) -> ShellError {
        switch error {
        case let e as InputError: return ShellError("\(path): \(e.message); nothing was written", code: .dataError)
        case let e as JSONError: return ShellError("invalid JSON at byte \(e.offset): \(e.message); nothing was written", code: .dataError)
        case let e as FormatError:
            switch e {
            case .locked: return ShellError(e.message, code: .tempFail)
            case .cannotWrite: return ShellError("\(path): \(e.message)", code: .unavailable)
            case .duplicateKey: return ShellError("\(path): \(e.message); nothing was written", code: .dataError)
            default: return ShellError.reading(path, e)
            }
        default: return ShellError.from(error, path: path)
        }
    }

    /// The bytes of a JSON input: a file, or standard input for `-`.
    static func readBytes(_ source: String) throws(ShellError) -> [UInt8] {
        do { return try source == "-" ? Platform.readStandardInput() : Platform.readFile(source) } catch {
            throw ShellError.reading(source == "-" ? "standard input" : source, error)
        }
    }

    static func readJSON(_ source: String) throws(ShellError) -> JSONValue {
        let bytes = try readBytes(source)
        do { return try JSONParser.parse(bytes) } catch {
            throw ShellError("\(source): invalid JSON at byte \(error.offset): \(error.message)", code: .dataError)
        }
    }

    static func parseJSON(_ text: String, what: String) throws(ShellError) -> JSONValue {
        do { return try JSONParser.parse(text) } catch { throw ShellError("\(what): invalid JSON at byte \(error.offset): \(error.message)", code: .dataError) }
    }

    /// `prop=VALUE` where VALUE is a literal of the query language: `'text'`, `42`, `-1.5`,
    /// `true`, `null`, `2020-01-01@10:00:00`, `T1600000000:0`, `oid(…)`, `uuid(…)`; anything
    /// else is taken as a string.
    static func assignment(_ text: String) throws(ShellError) -> (key: String, value: JSONValue) {
        guard let eq = text.firstIndex(of: "=") else {
            throw ShellError("--set expects prop=VALUE, got '\(text)'", code: .usage)
        }
        let name = String(text[..<eq]).trimmingSpaces()
        return (name, literal(String(text[text.index(after: eq)...]).trimmingSpaces()))
    }

    static func literal(_ raw: String) -> JSONValue {
        if raw.count >= 2, let q = raw.first, q == "'" || q == "\"", raw.last == q {
            return .text(String(raw.dropFirst().dropLast()))
        }
        switch raw {
        case "true", "TRUE": return .bool(true)
        case "false", "FALSE": return .bool(false)
        case "null", "nil", "NULL": return .null
        default: break
        }
        if Int64(raw) != nil || (Double(raw) != nil && raw.first.map { $0.isNumber || $0 == "-" || $0 == "." } == true) {
            return .number(raw)
        }
        if raw.hasPrefix("oid("), raw.hasSuffix(")") { return .object([(key: "$oid", value: .text(String(raw.dropFirst(4).dropLast())))]) }
        if raw.hasPrefix("uuid("), raw.hasSuffix(")") { return .object([(key: "$uuid", value: .text(String(raw.dropFirst(5).dropLast())))]) }
        if let date = queryDate(raw) { return .object([(key: "$date", value: .text(date))]) }
        return .text(raw)
    }

    /// `YYYY-MM-DD@HH:MM:SS[:NANOS]` → ISO 8601 text; `Tseconds:nanos` → ISO 8601 text.
    static func queryDate(_ raw: String) -> String? {
        if raw.hasPrefix("T"), let colon = raw.firstIndex(of: ":"),
           let s = Int64(raw[raw.index(after: raw.startIndex)..<colon]), let ns = Int32(raw[raw.index(after: colon)...]) {
            return DateText.iso8601(Timestamp(seconds: s, nanoseconds: ns))
        }
        guard let at = raw.firstIndex(of: "@") else { return nil }
        let parts = raw[raw.index(after: at)...].split(separator: ":")
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var text = raw[..<at] + "T" + parts[0] + ":" + parts[1] + ":" + parts[2]
        if parts.count == 4, let ns = Int(parts[3]) {
            let digits = String(ns)
            text += "." + String(repeating: "0", count: max(0, 9 - digits.count)) + digits
        }
        return ValueParsing.date(String(text) + "Z") != nil ? String(text) + "Z" : nil
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
