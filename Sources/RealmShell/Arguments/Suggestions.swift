/// "Did you mean …?" for mistyped names: the closest candidate within a small edit distance.
public enum Suggestions {
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            let limit = max(1, min(3, c.count / 3))
            if d <= limit, best == nil || d < best!.1 { best = (c, d) }
        }
        if best == nil, word.count >= 3 {
            return candidates.first { $0.lowercased().hasPrefix(word.lowercased()) }
        }
        return best?.0
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
