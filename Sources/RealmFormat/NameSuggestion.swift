/// "Did you mean …?" for a mistyped name — a command, an option, a class, a property, a
/// function — the one helper every module's messages use.
public enum NameSuggestion {
    /// The candidate `word` most likely meant: the same name in other letter case; else the
    /// nearest within a small edit distance (insertions, deletions, substitutions and swaps of
    /// neighbours, so "Dgo" is one edit from "Dog"; at most a third of the candidate's length,
    /// 1 to 3); else, for a word of three letters or more, a candidate it begins.
    public static func nearest(_ word: String, among candidates: [String]) -> String? {
        let lower = word.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == lower }) { return same }
        let w = Array(lower)
        var best: (String, Int)?
        for c in candidates where !c.isEmpty {
            let d = distance(w, Array(c.lowercased()))
            if d <= max(1, min(3, c.count / 3)), best == nil || d < best!.1 { best = (c, d) }
        }
        if best == nil, word.count >= 3 {
            return candidates.first { $0.lowercased().hasPrefix(lower) }
        }
        return best?.0
    }

    /// "; did you mean 'NAME'?" (NAME written with `prefix`, e.g. "." or "--"), or "".
    public static func didYouMean(_ word: String, among candidates: [String], prefix: String = "") -> String {
        nearest(word, among: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }

    /// Optimal string alignment distance.
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
