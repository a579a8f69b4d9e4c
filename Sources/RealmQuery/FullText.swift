import RealmFormat

/// `prop TEXT 'words'` (query-language.md §5.16): full-text search as realm-core's index does
/// it, computed here by tokenizing the stored strings.
///
/// A token is a run of ASCII letters and digits and Latin-1 letters; ASCII is lower-cased,
/// Latin-1 letters are lower-cased and stripped of diacritics (é→e; å, æ, ð, ø, þ, ß kept),
/// 3- and 4-byte characters and punctuation separate tokens, and tokens keep at most 64 bytes.
/// An object matches when its text has every include word (a word ending in `*` matches any
/// token with that prefix) and no exclude word (`-word`).
struct FullTextCondition {
    let links: LinkMap
    let column: Column
    let includes: [[UInt8]]
    let prefixes: [[UInt8]]
    let excludes: [[UInt8]]

    static let maxTokenBytes = 64

    /// Latin-1 U+00C0…U+00FF to their lower-case form without diacritics (0: not a letter).
    static let latin1Map: [UInt8] = [
        0x61, 0x61, 0x61, 0x61, 0x61, 0xE5, 0xE6, 0x63, 0x65, 0x65, 0x65, 0x65, 0x69, 0x69, 0x69, 0x69,
        0xF0, 0x6E, 0x6F, 0x6F, 0x6F, 0x6F, 0x6F, 0x00, 0xF8, 0x75, 0x75, 0x75, 0x75, 0x79, 0xFE, 0xDF,
        0x61, 0x61, 0x61, 0x61, 0x61, 0xE5, 0xE6, 0x63, 0x65, 0x65, 0x65, 0x65, 0x69, 0x69, 0x69, 0x69,
        0xF0, 0x6E, 0x6F, 0x6F, 0x6F, 0x6F, 0x6F, 0x00, 0xF8, 0x75, 0x75, 0x75, 0x75, 0x79, 0xFE, 0xFF,
    ]

    /// The tokens of a text, in order.
    static func tokens(_ text: [UInt8]) -> [[UInt8]] {
        var out = [[UInt8]]()
        var current = [UInt8]()
        var building = false
        var i = 0
        func finish() {
            if building { out.append(current) }
            current = []
            building = false
        }
        func append(_ bytes: [UInt8]) {
            if current.count + bytes.count <= maxTokenBytes { current += bytes }
        }
        while i < text.count {
            let c = text[i]
            var letter = false
            if Lexer.isDigit(c) || (c >= 0x61 && c <= 0x7A) {
                letter = true
                append([c])
            } else if c >= 0x41 && c <= 0x5A {
                letter = true
                append([c + 0x20])
            } else if c > 0x7F {
                if c & 0xE0 == 0xC0 {
                    i += 1
                    let next = i < text.count ? text[i] : 0
                    let u = ((Int(c) << 6) + Int(next & 0x3F)) & 0x7FF
                    if u >= 0xC0 && u < 0xFF {
                        letter = true
                        let o = latin1Map[u & 0x3F]
                        if o != 0 {
                            if o < 0x80 {
                                append([o])
                            } else {
                                append([(o >> 6) | 0xC0, (o & 0x3F) | 0x80])
                            }
                        }
                    }
                } else if c & 0xF0 == 0xE0 {
                    i += 2
                } else if c & 0xF8 == 0xF0 {
                    i += 3
                }
            }
            if letter {
                building = true
            } else {
                finish()
            }
            i += 1
        }
        finish()
        return out
    }

    /// Splits the search text into include words, prefix words and exclude words.
    static func parse(_ text: [UInt8]) -> Result<(includes: [[UInt8]], prefixes: [[UInt8]], excludes: [[UInt8]]), QueryError> {
        let words = text.split(whereSeparator: { Numbers.isSpace($0) }).map(Array.init)
        var includes = [[UInt8]](), prefixes = [[UInt8]](), excludes = [[UInt8]]()
        let inside = QueryError.illegalOperation(message: "Non alphanumeric characters not allowed inside search word", at: nil)
        for word in words where word.first != UInt8(ascii: "-") {
            let t = tokens(word)
            guard t.count <= 1 else { return .failure(inside) }
            let token = t.first ?? []
            if word.last == UInt8(ascii: "*") { prefixes.append(token) } else { includes.append(token) }
        }
        for word in words where word.first == UInt8(ascii: "-") {
            let t = tokens(Array(word.dropFirst()))
            guard t.count <= 1 else { return .failure(inside) }
            let token = t.first ?? []
            if includes.contains(token) {
                return .failure(.illegalOperation(message: "You can't include and exclude the same token", at: nil))
            }
            excludes.append(token)
        }
        if includes.isEmpty && prefixes.isEmpty && excludes.isEmpty {
            return .failure(.illegalOperation(message: "Missing search token", at: nil))
        }
        return .success((includes, prefixes, excludes))
    }

    func textMatches(_ value: Value) -> Bool {
        var tokenSet = Set<[UInt8]>()
        if case let .string(s) = value { tokenSet = Set(FullTextCondition.tokens(s)) }
        for t in includes where !tokenSet.contains(t) { return false }
        for p in prefixes where !tokenSet.contains(where: { $0.starts(with: p) }) { return false }
        for e in excludes where tokenSet.contains(e) { return false }
        return true
    }

    func evaluate(_ table: TableData, _ candidates: Bitset) throws -> Bitset {
        var out = Bitset(count: candidates.count)
        let target = links.target
        let values = try target.values(column)
        if !links.hasLinks {
            candidates.forEach { row in if textMatches(values[row]) { out.insert(row) } }
            return out
        }
        var matchingKeys = Set<Int64>()
        for (row, key) in try target.keys().enumerated() where textMatches(values[row]) { matchingKeys.insert(key) }
        try candidates.forEach { row in
            if try links.links(row: row).contains(where: matchingKeys.contains) { out.insert(row) }
        }
        return out
    }
}
