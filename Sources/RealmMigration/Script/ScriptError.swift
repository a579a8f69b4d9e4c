/// A place in a migration script: 1-based line and column (columns count characters).
public struct SourceLocation: Sendable, Equatable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool { (a.line, a.column) < (b.line, b.column) }
}

/// A mistake in a script, found before any object is touched: syntax, an unknown class or
/// property, a type that does not fit. Always carries the place it concerns.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public let location: SourceLocation
    public let message: String

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `12:7: message`
    public var description: String { "\(location): \(message)" }
}

/// The nearest of `candidates` to a misspelt `name` (same letters ignoring case, a prefix, or
/// at most two edits), for "did you mean" hints.
func nearestName(_ name: String, _ candidates: [String]) -> String? {
    let lower = name.lowercased()
    if let same = candidates.first(where: { $0.lowercased() == lower }) { return same }
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(Array(lower.utf8), Array(c.lowercased().utf8))
        if d <= max(1, min(2, name.count / 3)), d < (best?.1 ?? Int.max) { best = (c, d) }
    }
    if let best { return best.0 }
    return candidates.first { $0.lowercased().hasPrefix(lower) && !lower.isEmpty }
}

/// Edits (insert, delete, replace, swap two neighbours) between two byte strings.
func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
        }
    }
    return d[a.count][b.count]
}

/// " (did you mean 'x'?)" or "".
func didYouMean(_ name: String, _ candidates: [String]) -> String {
    nearestName(name, candidates).map { "; did you mean '\($0)'?" } ?? ""
}
