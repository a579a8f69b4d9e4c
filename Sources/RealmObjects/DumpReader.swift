/// Reads a canonical dump (fixtures/README.md: `formatVersion`, `schemaVersion`, `classes`,
/// then `objects` by class) — what `export` writes and `import` reads back — handing over
/// the header first and then one object at a time, so that a dump of a large file never
/// exists as one tree in memory (as `JSONParser.forEachElement` does for arrays).
public enum DumpReader {
    /// The members before the objects.
    public struct Header: Sendable {
        public var formatVersion: Int?
        public var schemaVersion: Int?
        /// The `classes` array, as `schema --format json` prints it.
        public var classes: JSONValue?
    }

    /// Whether `bytes` look like a dump: a JSON object whose first member is `formatVersion`.
    public static func isDump(_ bytes: [UInt8]) -> Bool {
        var reader = JSONParser.Reader(bytes: bytes)
        reader.skipSpace()
        guard reader.current == UInt8(ascii: "{") else { return false }
        reader.position += 1
        reader.skipSpace()
        return (try? reader.memberName()) == "formatVersion"
    }

    /// Calls `header` once the members before `objects` are read, then `object` with each
    /// object's class, the object and the offset just past it (for progress). Errors of the
    /// closures pass through; a syntax error is a `JSONError`.
    public static func read(_ bytes: [UInt8], header: (Header) throws -> Void,
                            object: (_ className: String, _ object: JSONValue, _ offset: Int) throws -> Void) throws {
        var reader = JSONParser.Reader(bytes: bytes)
        var top = Header()
        var headerGiven = false
        try reader.members(depth: 0) { reader, name throws in
            switch name {
            case "formatVersion": top.formatVersion = try reader.value(depth: 1).intValue
            case "schemaVersion": top.schemaVersion = try reader.value(depth: 1).intValue
            case "classes": top.classes = try reader.value(depth: 1)
            case "objects":
                headerGiven = true
                try header(top)
                try reader.members(depth: 1) { reader, className throws in
                    try reader.elements(depth: 2) { reader throws in
                        let value = try reader.value(depth: 3)
                        try object(className, value, reader.position)
                    }
                }
            default:
                throw reader.error("not a canonical dump: unexpected member '\(name)'")
            }
        }
        if !headerGiven { try header(top) }
        reader.skipSpace()
        guard reader.position == bytes.count else { throw reader.error("unexpected text after the JSON value") }
    }
}

extension JSONValue {
    /// An integer member (`formatVersion`); nil for null or anything else.
    var intValue: Int? {
        if case let .number(text) = self { return Int(text) }
        return nil
    }
}

extension JSONParser.Reader {
    /// The members of the object at the current position, each handed to `body` with the
    /// reader at its value, which `body` must read whole.
    mutating func members(depth: Int, _ body: (inout JSONParser.Reader, String) throws -> Void) throws {
        guard depth < JSONParser.maxDepth else { throw error("JSON nested more than \(JSONParser.maxDepth) levels deep") }
        skipSpace()
        guard current == UInt8(ascii: "{") else { throw error("expected an object") }
        position += 1
        skipSpace()
        if current == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let name = try memberName()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            skipSpace()
            try body(&self, name)
            skipSpace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard current == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            position += 1
            return
        }
    }

    /// The elements of the array at the current position, each handed to `body` with the
    /// reader at it.
    mutating func elements(depth: Int, _ body: (inout JSONParser.Reader) throws -> Void) throws {
        guard depth < JSONParser.maxDepth else { throw error("JSON nested more than \(JSONParser.maxDepth) levels deep") }
        skipSpace()
        guard current == UInt8(ascii: "[") else { throw error("expected an array") }
        position += 1
        skipSpace()
        if current == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            skipSpace()
            try body(&self)
            skipSpace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard current == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            position += 1
            return
        }
    }
}
