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

    /// Edit distance counting insertions, deletions, substitutions and swaps of neighbours
    /// (optimal string alignment), so "Dgo" is one edit from "Dog".
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
