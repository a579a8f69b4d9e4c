/// The line at the bottom where a query, a search term or a new value is typed: the usual
/// editing keys (←/→, Home/End or Ctrl-A/E, Backspace, Delete, Ctrl-U, Ctrl-K, Ctrl-W), ↑/↓
/// through earlier entries, Tab for completion (queries), Enter to submit, Esc to cancel.
struct InputLine {
    enum Outcome: Equatable { case editing, submit, cancel, complete }

    var prompt: String
    private(set) var characters: [Character]
    /// Cursor position in `characters`.
    private(set) var point: Int
    private let history: [String]
    private var historyIndex: Int

    init(prompt: String, text: String = "", history: [String] = []) {
        self.prompt = prompt
        characters = Array(text)
        point = characters.count
        self.history = history
        historyIndex = history.count
    }

    var text: String { String(characters) }
    /// The text before the cursor (what completion looks at).
    var beforeCursor: String { String(characters[0..<point]) }

    mutating func set(_ text: String) {
        characters = Array(text)
        point = characters.count
    }

    /// Replaces the `count` characters before the cursor with `replacement`.
    mutating func replaceBeforeCursor(_ count: Int, with replacement: String) {
        let start = max(0, point - count)
        characters.replaceSubrange(start..<point, with: Array(replacement))
        point = start + replacement.count
    }

    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .enter: return .submit
        case .escape, .control("c"), .control("g"): return .cancel
        case .tab: return .complete
        case let .character(c):
            characters.insert(c, at: point)
            point += 1
        case .left, .control("b"): point = max(0, point - 1)
        case .right, .control("f"): point = min(characters.count, point + 1)
        case .home, .control("a"): point = 0
        case .end, .control("e"): point = characters.count
        case .backspace:
            if point > 0 {
                characters.remove(at: point - 1)
                point -= 1
            }
        case .delete, .control("d"):
            if point < characters.count { characters.remove(at: point) }
        case .control("u"):
            characters.removeSubrange(0..<point)
            point = 0
        case .control("k"):
            characters.removeSubrange(point...)
        case .control("w"):
            var start = point
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<point)
            point = start
        case .up:
            guard historyIndex > 0 else { break }
            historyIndex -= 1
            set(history[historyIndex])
        case .down:
            guard historyIndex < history.count else { break }
            historyIndex += 1
            set(historyIndex < history.count ? history[historyIndex] : "")
        default:
            break
        }
        return .editing
    }

    /// The line as drawn in `width` columns, scrolled so the cursor shows; and the cursor's column.
    func line(width: Int) -> (Line, Int) {
        let promptWidth = TextWidth.of(prompt)
        let room = max(1, width - promptWidth - 1)
        let before = TextWidth.printable(beforeCursor)
        var start = 0
        var shownBefore = before
        while TextWidth.of(shownBefore) > room - 1, start < before.count {
            start += 1
            shownBefore = String(before.dropFirst(start))
        }
        let after = TextWidth.printable(String(characters[point...]))
        var line = Line()
        line.append(prompt, .bold)
        line.append(start > 0 ? "…" + shownBefore.dropFirst() : shownBefore)
        line.append(after)
        return (line.fitted(to: width), promptWidth + TextWidth.of(shownBefore))
    }
}
