/// A JSON value as parsed, keeping what Extended JSON needs to tell apart: numbers keep their
/// text (`42` is an int, `42.0` a double), objects keep their member order, strings are UTF-8
/// bytes.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string([UInt8])
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of a member of an object.
    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    public var stringValue: String? {
        if case let .string(s) = self { return String(decoding: s, as: UTF8.self) }
        return nil
    }

    /// Compact JSON text (strings escaped minimally, as the canonical dump does).
    public var compactText: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(n): return n
        case let .string(s): return JSONParser.quote(s)
        case let .array(a): return "[" + a.map(\.compactText).joined(separator: ",") + "]"
        case let .object(o): return "{" + o.map { JSONParser.quote(Array($0.key.utf8)) + ":" + $0.value.compactText }.joined(separator: ",") + "}"
        }
    }
}

public struct JSONError: Error, Sendable, Equatable {
    public let message: String
    public let offset: Int
}

/// A strict RFC 8259 parser. Input is hostile: nesting is limited, every error is a
/// `JSONError` with the byte offset, nothing traps.
public enum JSONParser {
    static let maxDepth = 512

    public static func parse(_ text: String) throws(JSONError) -> JSONValue { try parse(Array(text.utf8)) }

    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.position == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses `bytes` and hands over the elements of a top-level array one at a time (or the
    /// top-level value when it is not an array), so that a large import never exists as one
    /// tree in memory. A syntax error is thrown as a `JSONError`, even after elements were
    /// handed over; `body`'s errors pass through.
    public static func forEachElement(_ bytes: [UInt8], _ body: (JSONValue) throws -> Void) throws {
        try forEachElement(bytes, withOffsets: { value, _ in try body(value) })
    }

    /// `forEachElement`, with the offset just past each element (for progress).
    public static func forEachElement(_ bytes: [UInt8], withOffsets body: (JSONValue, Int) throws -> Void) throws {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        if reader.current == UInt8(ascii: "[") {
            reader.position += 1
            reader.skipSpace()
            if reader.current == UInt8(ascii: "]") {
                reader.position += 1
            } else {
                while true {
                    reader.skipSpace()
                    let value = try reader.value(depth: 1)
                    try body(value, reader.position)
                    reader.skipSpace()
                    if reader.current == UInt8(ascii: ",") {
                        reader.position += 1
                        continue
                    }
                    guard reader.current == UInt8(ascii: "]") else { throw reader.error("expected ',' or ']'") }
                    reader.position += 1
                    break
                }
            }
        } else {
            let value = try reader.value(depth: 0)
            try body(value, reader.position)
        }
        reader.skipSpace()
        guard reader.position == bytes.count else { throw reader.error("unexpected text after the JSON value") }
    }

    static func quote(_ s: [UInt8]) -> String {
        var out: [UInt8] = [0x22]
        let hex = Array("0123456789abcdef".utf8)
        for b in s {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x08: out += [0x5C, UInt8(ascii: "b")]
            case 0x0C: out += [0x5C, UInt8(ascii: "f")]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    struct Reader {
        let bytes: [UInt8]
        var position = 0

        func error(_ message: String) -> JSONError { JSONError(message: message, offset: position) }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { position += 1 }
        }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard depth < JSONParser.maxDepth else { throw error("JSON nested more than \(JSONParser.maxDepth) levels deep") }
            guard let c = current else { throw error("unexpected end of JSON") }
            switch c {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try word("true", .bool(true))
            case UInt8(ascii: "f"): return try word("false", .bool(false))
            case UInt8(ascii: "n"): return try word("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character '\(String(decoding: [c], as: UTF8.self))'")
            }
        }

        mutating func word(_ w: StaticString, _ v: JSONValue) throws(JSONError) -> JSONValue {
            let count = w.utf8CodeUnitCount
            guard position + count <= bytes.count,
                  w.withUTF8Buffer({ bytes[position..<(position + count)].elementsEqual($0) }) else {
                throw error("invalid literal")
            }
            position += count
            return v
        }

        mutating func object(depth: Int) throws(JSONError) -> JSONValue {
            position += 1
            var members = [(key: String, value: JSONValue)]()
            skipSpace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try memberName()
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard current == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                position += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(JSONError) -> JSONValue {
            position += 1
            var elements = [JSONValue]()
            skipSpace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard current == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                position += 1
                return .array(elements)
            }
        }

        mutating func number() throws(JSONError) -> JSONValue {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            func digits() -> Int {
                let s = position
                while let c = current, c >= 0x30, c <= 0x39 { position += 1 }
                return position - s
            }
            if current == UInt8(ascii: "0") {
                position += 1
            } else if digits() == 0 {
                throw error("invalid number")
            }
            if current == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw error("invalid number") }
            }
            if let e = current, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                position += 1
                if let s = current, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw error("invalid number") }
            }
            return .number(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        /// A member name: straight from the text when it has no escapes (the usual case).
        mutating func memberName() throws(JSONError) -> String {
            var end = position + 1
            while end < bytes.count {
                let c = bytes[end]
                if c == UInt8(ascii: "\"") {
                    let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
                    position = end + 1
                    return name
                }
                if c == UInt8(ascii: "\\") || c < 0x20 { break }
                end += 1
            }
            return String(decoding: try string(), as: UTF8.self)
        }

        mutating func string() throws(JSONError) -> [UInt8] {
            position += 1
            // Most strings have no escapes: find the closing quote and copy the bytes at once.
            let start = position
            while position < bytes.count {
                let c = bytes[position]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                position += 1
            }
            if position < bytes.count && bytes[position] == UInt8(ascii: "\"") {
                position += 1
                return Array(bytes[start..<(position - 1)])
            }
            var out = Array(bytes[start..<position])
            while true {
                guard let c = current else { throw error("unterminated string") }
                position += 1
                switch c {
                case UInt8(ascii: "\""):
                    return out
                case UInt8(ascii: "\\"):
                    guard let e = current else { throw error("unterminated string") }
                    position += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if scalar >= 0xD800 && scalar < 0xDC00, current == UInt8(ascii: "\\"),
                           position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") {
                            let save = position
                            position += 2
                            let low = try hex4()
                            if low >= 0xDC00 && low < 0xE000 {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                position = save
                            }
                        }
                        out += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                    default:
                        throw error("invalid escape in string")
                    }
                case 0..<0x20:
                    throw error("control character in string")
                default:
                    out.append(c)
                }
            }
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("invalid \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[position]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
                default: throw error("invalid \\u escape")
                }
                v = v << 4 | d
                position += 1
            }
            return v
        }
    }
}

extension JSONValue {
    /// What kind of value this is, for error messages ("a string", "an array").
    public var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public static func text(_ s: String) -> JSONValue { .string(Array(s.utf8)) }
}
