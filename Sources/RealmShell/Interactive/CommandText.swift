/// The text of shell commands: when a command typed over several lines is complete, and how a
/// command line splits into words.
enum CommandText {
    /// Whether `text` still needs lines: a quote or bracket is open, or the last line ends with
    /// a backslash. Dot-commands are always one line.
    static func needsMoreLines(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix(".") || trimmed.hasPrefix("#") || trimmed.hasPrefix("--") { return false }
        var quote: Character?
        var depth = 0
        var escaped = false
        for c in text {
            if escaped {
                escaped = false
                continue
            }
            if c == "\\" {
                escaped = true
                continue
            }
            if let q = quote {
                if c == q { quote = nil }
                continue
            }
            switch c {
            case "'", "\"": quote = c
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth = max(0, depth - 1)
            default: break
            }
        }
        if quote != nil || depth > 0 { return true }
        return text.hasSuffix("\\") && !text.hasSuffix("\\\\")
    }

    /// Joins a continuation line to the command so far: a trailing backslash is dropped (and
    /// the lines joined with a space); otherwise the newline is kept.
    static func join(_ text: String, _ line: String) -> String {
        if text.hasSuffix("\\") && !text.hasSuffix("\\\\") && !inQuote(text) { return String(text.dropLast()) + " " + line }
        return text + "\n" + line
    }

    static func inQuote(_ text: String) -> Bool {
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if let q = quote { if c == q { quote = nil } } else if c == "'" || c == "\"" { quote = c }
        }
        return quote != nil
    }

    /// A word of a command line and where it starts (a UTF-8 offset into the line).
    struct Word: Equatable {
        var text: String
        var start: Int
    }

    /// Splits a command line into words as a Unix shell would, with one addition for JSON: a
    /// word that starts with `{` or `[` runs to its matching bracket with quotes kept, so
    /// `insert Dog {"name": "Rex", "age": 3}` passes the object as one word.
    /// - `'…'` is literal, `"…"` takes `\"` and `\\`, a backslash outside quotes escapes the
    ///   next character; quotes join with adjacent text (`--where="age > 3"`).
    static func words(_ line: String) throws(ShellError) -> [String] { try wordsWithOffsets(line).map(\.text) }

    static func wordsWithOffsets(_ line: String) throws(ShellError) -> [Word] {
        let bytes = Array(line.utf8)
        var out = [Word]()
        var i = 0
        func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
        while i < bytes.count {
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { break }
            let start = i
            var word = [UInt8]()
            if bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") {
                // A JSON value: up to the matching bracket, strings respected.
                var depth = 0
                var inString = false
                while i < bytes.count {
                    let b = bytes[i]
                    word.append(b)
                    i += 1
                    if inString {
                        if b == UInt8(ascii: "\\"), i < bytes.count { word.append(bytes[i]); i += 1 }
                        else if b == UInt8(ascii: "\"") { inString = false }
                        continue
                    }
                    if b == UInt8(ascii: "\"") { inString = true }
                    else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { depth += 1 }
                    else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                }
                if depth != 0 { throw ShellError("unbalanced brackets in \(String(decoding: word, as: UTF8.self))", code: .usage) }
            }
            while i < bytes.count, !isSpace(bytes[i]) {
                let b = bytes[i]
                if b == UInt8(ascii: "'") {
                    guard let close = bytes[(i + 1)...].firstIndex(of: b) else { throw ShellError("unterminated ' quote", code: .usage) }
                    word += bytes[(i + 1)..<close]
                    i = close + 1
                } else if b == UInt8(ascii: "\"") {
                    i += 1
                    var closed = false
                    while i < bytes.count {
                        let c = bytes[i]
                        if c == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") || bytes[i + 1] == UInt8(ascii: "\\") {
                            word.append(bytes[i + 1])
                            i += 2
                            continue
                        }
                        i += 1
                        if c == UInt8(ascii: "\"") { closed = true; break }
                        word.append(c)
                    }
                    if !closed { throw ShellError("unterminated \" quote", code: .usage) }
                } else if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
                    word.append(bytes[i + 1])
                    i += 2
                } else {
                    word.append(b)
                    i += 1
                }
            }
            out.append(Word(text: String(decoding: word, as: UTF8.self), start: start))
        }
        return out
    }
}
