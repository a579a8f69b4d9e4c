/// Realm's string operators on raw UTF-8 bytes (query-language.md §5.6, §5.7).
///
/// Case-insensitive matching (`[c]`) uses Realm's fixed case table only: ASCII A–Z ↔ a–z and
/// Latin-1 U+00C0–U+00DE ↔ U+00E0–U+00FE except × (U+00D7) and ÷ (U+00F7). Every other character
/// (ß, ÿ/Ÿ, Greek, Cyrillic, µ, dotted/dotless i) matches only itself. Mapping never changes a
/// character's byte length, so a pattern is compared byte position by byte position against its
/// upper- and lower-case forms.
enum StringMatching {
    /// The pattern mapped to upper or lower case, nil when it is not valid UTF-8 (realm-core's
    /// `case_map`; 3- and 4-byte characters are copied unchanged).
    static func caseMap(_ s: [UInt8], upper: Bool) -> [UInt8]? {
        var out = s
        var i = 0
        while i < s.count {
            let c = s[i]
            if c < 0x80 {
                if upper, c >= 0x61, c <= 0x7A { out[i] = c - 0x20 }
                if !upper, c >= 0x41, c <= 0x5A { out[i] = c + 0x20 }
                i += 1
            } else if c & 0xE0 == 0xC0 {
                guard i + 2 <= s.count, s[i + 1] & 0xC0 == 0x80 else { return nil }
                var u = (Int(c) << 6 + Int(s[i + 1] & 0x3F)) & 0x7FF
                if upper, u >= 0xE0, u <= 0xFE, u != 0xF7 { u -= 0x20 }
                if !upper, u >= 0xC0, u <= 0xDE, u != 0xD7 { u += 0x20 }
                out[i] = UInt8((u >> 6) | 0xC0)
                out[i + 1] = UInt8((u & 0x3F) | 0x80)
                i += 2
            } else {
                let n: Int
                if c & 0xF0 == 0xE0 { n = 3 } else if c & 0xF8 == 0xF0 { n = 4 } else { return nil }
                guard i + n <= s.count else { return nil }
                for k in 1..<n where s[i + k] & 0xC0 != 0x80 { return nil }
                i += n
            }
        }
        return out
    }

    /// A `[c]` pattern with its case forms computed once.
    struct Folded {
        let pattern: [UInt8]
        let upper: [UInt8]
        let lower: [UInt8]
        /// Every byte of the pattern is ASCII (then so are both case forms).
        let isASCII: Bool

        /// nil for invalid UTF-8.
        init?(_ pattern: [UInt8]) {
            guard let u = StringMatching.caseMap(pattern, upper: true),
                  let l = StringMatching.caseMap(pattern, upper: false) else { return nil }
            self.pattern = pattern
            upper = u
            lower = l
            isASCII = pattern.allSatisfy { $0 < 0x80 }
        }
    }

    /// Whether `text[start..<start+count]` equals the pattern case-insensitively: every byte
    /// equals the pattern's upper or lower byte at that position, and every character of the
    /// text equals the pattern's upper or lower character there (`equal_case_fold`).
    static func equalFold(_ text: Span<UInt8>, _ start: Int, _ p: Folded) -> Bool {
        let n = p.lower.count
        for i in 0..<n {
            let c = text[start + i]
            if p.lower[i] != c && p.upper[i] != c { return false }
        }
        var i = 0
        while i < n {
            guard let next = equalSequence(text, start, i, n, p.lower) ?? equalSequence(text, start, i, n, p.upper) else {
                return false
            }
            i = next
        }
        return true
    }

    /// The UTF-8 sequence at text offset `i` (its lead byte plus continuation bytes) equals the
    /// bytes of `needle` at the same offset: the offset after it, else nil.
    private static func equalSequence(_ text: Span<UInt8>, _ start: Int, _ i: Int, _ n: Int, _ needle: [UInt8]) -> Int? {
        guard text[start + i] == needle[i] else { return nil }
        var k = 1
        if text[start + i] & 0x80 != 0 {
            while i + k < n, text[start + i + k] & 0xC0 == 0x80 {
                guard text[start + i + k] == needle[i + k] else { return nil }
                k += 1
            }
        }
        return i + k
    }

    // The operators take the text as a `Span`, so that scans can test a value where it lies in
    // the file (StringLeafReader); the `[UInt8]` forms are the same functions.

    static func equalIns(_ text: [UInt8], _ p: Folded) -> Bool { equalIns(text.span, p) }
    static func equalIns(_ text: Span<UInt8>, _ p: Folded) -> Bool {
        text.count == p.pattern.count && equalFold(text, 0, p)
    }

    static func beginsWithIns(_ text: [UInt8], _ p: Folded) -> Bool { beginsWithIns(text.span, p) }
    static func beginsWithIns(_ text: Span<UInt8>, _ p: Folded) -> Bool {
        p.pattern.count <= text.count && equalFold(text, 0, p)
    }

    static func endsWithIns(_ text: [UInt8], _ p: Folded) -> Bool { endsWithIns(text.span, p) }
    static func endsWithIns(_ text: Span<UInt8>, _ p: Folded) -> Bool {
        p.pattern.count <= text.count && equalFold(text, text.count - p.pattern.count, p)
    }

    static func containsIns(_ text: [UInt8], _ p: Folded) -> Bool { containsIns(text.span, p) }
    /// Tries every byte offset (`search_case_fold`); the empty pattern is found everywhere.
    static func containsIns(_ text: Span<UInt8>, _ p: Folded) -> Bool {
        let n = p.pattern.count
        if n == 0 { return true }
        guard n <= text.count else { return false }
        if p.isASCII {
            // An ASCII pattern byte can only equal an ASCII text byte, and each ASCII byte is a
            // whole character, so `equalFold` reduces to comparing bytes with the pattern's
            // upper or lower byte.
            let lower = p.lower, upper = p.upper
            let l0 = lower[0], u0 = upper[0]
            var start = 0
            let last = text.count - n
            while start <= last {
                let c = text[start]
                if c == l0 || c == u0 {
                    var k = 1
                    while k < n {
                        let t = text[start + k]
                        if t != lower[k] && t != upper[k] { break }
                        k += 1
                    }
                    if k == n { return true }
                }
                start += 1
            }
            return false
        }
        for start in 0...(text.count - n) where equalFold(text, start, p) { return true }
        return false
    }

    static func beginsWith(_ text: [UInt8], _ p: [UInt8]) -> Bool { beginsWith(text.span, p) }
    static func beginsWith(_ text: Span<UInt8>, _ p: [UInt8]) -> Bool {
        guard p.count <= text.count else { return false }
        for i in 0..<p.count where text[i] != p[i] { return false }
        return true
    }

    static func endsWith(_ text: [UInt8], _ p: [UInt8]) -> Bool { endsWith(text.span, p) }
    static func endsWith(_ text: Span<UInt8>, _ p: [UInt8]) -> Bool {
        guard p.count <= text.count else { return false }
        let base = text.count - p.count
        for i in 0..<p.count where text[base + i] != p[i] { return false }
        return true
    }

    static func equal(_ text: Span<UInt8>, _ p: [UInt8]) -> Bool {
        text.count == p.count && beginsWith(text, p)
    }

    /// Unsigned byte-wise order, a proper prefix smaller (as `ValueOrder.bytes`).
    static func compare(_ text: Span<UInt8>, _ p: [UInt8]) -> Int {
        let n = Swift.min(text.count, p.count)
        for i in 0..<n where text[i] != p[i] { return text[i] < p[i] ? -1 : 1 }
        return text.count == p.count ? 0 : (text.count < p.count ? -1 : 1)
    }

    static func contains(_ text: [UInt8], _ p: [UInt8]) -> Bool { contains(text.span, p) }
    static func contains(_ text: Span<UInt8>, _ p: [UInt8]) -> Bool {
        if p.isEmpty { return true }
        guard p.count <= text.count else { return false }
        let first = p[0]
        var i = 0
        let last = text.count - p.count
        while i <= last {
            if text[i] == first {
                var k = 1
                while k < p.count, text[i + k] == p[k] { k += 1 }
                if k == p.count { return true }
            }
            i += 1
        }
        return false
    }

    /// The bytes of a span, copied (for the operators that have no span form).
    static func array(_ text: Span<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(text.count)
        for i in text.indices { out.append(text[i]) }
        return out
    }

    /// LIKE: `*` matches any run of bytes, `?` one UTF-8 character, anything else itself (or,
    /// with `alternate`, the byte of the other case at the same position). Greedy with
    /// backtracking to the latest `*`. As in realm-core, when the text runs out the match
    /// succeeds only if the pattern is also exhausted or exactly one `*` remains, so a pattern
    /// ending in `**` fails where the stars would have to match the empty tail.
    static func like(_ text: [UInt8], _ pattern: [UInt8], alternate: [UInt8]? = nil) -> Bool {
        // realm-core backtracks, which is exponential in the number of stars for hostile
        // patterns; past a budget the same match is decided by dynamic programming.
        var budget = 16 * (text.count + 1) * (pattern.count + 1) + 1024
        if let result = likeBacktracking(text, pattern, alternate, budget: &budget) { return result }
        return likeTable(text, pattern, alternate)
    }

    /// realm-core's `matchlike`; nil when the step budget runs out.
    static func likeBacktracking(_ text: [UInt8], _ pattern: [UInt8], _ alternate: [UInt8]?, budget: inout Int) -> Bool? {
        var t = 0, p = 0
        var backtrack = [(text: Int, pattern: Int)]()
        let star = UInt8(ascii: "*"), question = UInt8(ascii: "?")
        while true {
            budget -= 1
            if budget < 0 { return nil }
            var matched = false
            if t == text.count {
                if p == pattern.count { return true }
                if p == pattern.count - 1 && pattern[p] == star { return true }
            } else if p < pattern.count {
                let c = pattern[p]
                if c == star {
                    p += 1
                    backtrack.append((t, p))
                    continue
                }
                if c == question {
                    t += 1
                    if text[t - 1] & 0x80 != 0 {
                        while t < text.count, text[t] & 0xC0 == 0x80 { t += 1 }
                    }
                    p += 1
                    continue
                }
                if c == text[t] || alternate.map({ $0[p] == text[t] }) == true {
                    t += 1
                    p += 1
                    matched = true
                }
            }
            if matched { continue }
            // No match here: retry from the latest star one byte further on.
            if backtrack.isEmpty { return false }
            if t == text.count { backtrack.removeLast() }
            if backtrack.isEmpty { return false }
            backtrack[backtrack.count - 1].text += 1
            t = backtrack[backtrack.count - 1].text
            p = backtrack[backtrack.count - 1].pattern
        }
    }

    /// The same decision as `likeBacktracking`, as reachability over (text, pattern)
    /// positions: a star may consume any run of bytes, `?` one character, other bytes must
    /// match; at the end of the text only an exhausted pattern or a single final `*` succeeds.
    static func likeTable(_ text: [UInt8], _ pattern: [UInt8], _ alternate: [UInt8]?) -> Bool {
        let n = text.count, m = pattern.count
        let star = UInt8(ascii: "*"), question = UInt8(ascii: "?")
        // next[i]: accept(i, j + 1); computed for j from m down to 0.
        var next = [Bool](repeating: false, count: n + 1)
        var current = [Bool](repeating: false, count: n + 1)
        // j == m: accept only at the end of the text.
        for i in 0...n { next[i] = i == n }
        if m == 0 { return n == 0 }
        for j in stride(from: m - 1, through: 0, by: -1) {
            let c = pattern[j]
            current[n] = j == m - 1 && c == star
            if c == star {
                var any = next[n]
                for i in stride(from: n - 1, through: 0, by: -1) {
                    any = any || next[i]
                    current[i] = any
                }
            } else {
                for i in 0..<n {
                    if c == question {
                        var k = i + 1
                        if text[i] & 0x80 != 0 {
                            while k < n, text[k] & 0xC0 == 0x80 { k += 1 }
                        }
                        current[i] = next[k]
                    } else {
                        current[i] = (c == text[i] || alternate.map { $0[j] == text[i] } == true) && next[i + 1]
                    }
                }
            }
            swap(&next, &current)
        }
        return next[0]
    }

    static func likeIns(_ text: [UInt8], _ p: Folded) -> Bool {
        like(text, p.lower, alternate: p.upper)
    }
}
