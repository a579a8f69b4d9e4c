/// NSPredicate-style placeholders (query-language.md §9): `%@` is the next argument (`$n`) and
/// `%K` the next argument used as a key path (`$Kn`), numbered in order of appearance. Text in
/// string literals is left alone. Errors are reported against the text as the user wrote it.
struct Placeholders {
    let original: String
    let rewritten: String
    /// For each replacement: its position in the rewritten text after it, and how many bytes
    /// longer the rewritten text is from there on.
    private let shifts: [(position: Int, delta: Int)]

    init(_ text: String) {
        original = text
        // Most queries have none: then the text is used as it is.
        let hasPercent = text.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "%")) }
            ?? text.utf8.contains(UInt8(ascii: "%"))
        guard hasPercent else {
            rewritten = text
            shifts = []
            return
        }
        let bytes = Array(text.utf8)
        var out = [UInt8]()
        var shifts = [(position: Int, delta: Int)]()
        var next = 0
        var delta = 0
        var i = 0
        var quote: UInt8?
        while i < bytes.count {
            let c = bytes[i]
            if let q = quote {
                out.append(c)
                if c == UInt8(ascii: "\\"), i + 1 < bytes.count {
                    out.append(bytes[i + 1])
                    i += 2
                    continue
                }
                if c == q { quote = nil }
                i += 1
                continue
            }
            if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") { quote = c }
            if c == UInt8(ascii: "%"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "@") || bytes[i + 1] == UInt8(ascii: "K") {
                let replacement = Array((bytes[i + 1] == UInt8(ascii: "@") ? "$\(next)" : "$K\(next)").utf8)
                next += 1
                out += replacement
                delta += replacement.count - 2
                shifts.append((out.count, delta))
                i += 2
                continue
            }
            out.append(c)
            i += 1
        }
        rewritten = String(decoding: out, as: UTF8.self)
        self.shifts = shifts
    }

    var changed: Bool { !shifts.isEmpty }

    /// A position in the rewritten text as a position in the original.
    func originalPosition(_ p: Int) -> Int {
        var delta = 0
        for s in shifts where s.position <= p { delta = s.delta }
        return max(0, p - delta)
    }

    func remap(_ e: QueryError) -> QueryError {
        guard changed else { return e }
        func r(_ range: SourceRange?) -> SourceRange? {
            range.map { SourceRange(originalPosition($0.start), originalPosition($0.end)) }
        }
        switch e {
        case let .syntax(detail, _, range): return .syntax(detail: detail, query: original, at: r(range)!)
        case let .malformedLiteral(m, range): return .malformedLiteral(message: m, at: r(range)!)
        case let .unknownProperty(c, p, range, s): return .unknownProperty(className: c, property: p, at: r(range)!, suggestion: s)
        case let .invalidQuery(m, range): return .invalidQuery(message: m, at: r(range))
        case let .invalidArgument(m, range): return .invalidArgument(message: m, at: r(range))
        case let .illegalOperation(m, range): return .illegalOperation(message: m, at: r(range))
        }
    }
}
