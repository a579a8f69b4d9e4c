import RealmFormat
import RealmObjects

/// The screen: a title line (file, format, version, READ-ONLY or WRITABLE), the class list on
/// the left and the current pane on the right under a line naming where it is (the history,
/// the filter and sort), a status line (`4 of 10 Person`, the row), and the bottom line (what
/// is being typed, a message, or the keys).
extension BrowserSession {
    public func render() -> Frame {
        file.snapshot.resetWorkBudget()
        let (rows, width) = size
        guard rows >= 6, width >= 24 else {
            var lines = [Line([Span(text: TextWidth.fit("Too small", width), style: .bold)])]
            while lines.count < rows { lines.append(Line().fitted(to: width)) }
            return Frame(lines: lines, cursor: nil)
        }
        var lines = [titleLine(width)]
        let sidebar = sidebarWidth
        let left = sidebar > 0 ? classes.lines(width: sidebar, height: bodyHeight, focused: focus == .classes) : []
        let main = showingHelp ? helpLines(width: mainWidth, height: bodyHeight) : mainLines(width: mainWidth, height: bodyHeight)
        for i in 0..<bodyHeight {
            var line = Line()
            if sidebar > 0 {
                line.append(left[i])
                line.append("│", .dim)
            }
            line.append(i < main.count ? main[i] : Line().fitted(to: mainWidth))
            lines.append(line.fitted(to: width))
        }
        // While a line is typed, the status line carries the message about it (a refused
        // value, completions, what the prompt takes), since the bottom line is the input.
        if input != nil, pendingWork == nil, let message {
            lines.append(Line([Span(text: TextWidth.cut(TextWidth.printable(message.text), width), style: message.style)]).fitted(to: width))
        } else {
            lines.append(statusLine(width))
        }
        var cursor: (row: Int, column: Int)?
        if let input, pendingWork == nil {
            let (line, column) = input.line(width: width)
            lines.append(line)
            cursor = (rows - 1, column)
        } else if let confirmation {
            // A long question is cut in the middle: the answer it waits for stays in sight.
            let answer = " [y/N]"
            var question = confirmation.question
            if question.hasSuffix(answer), TextWidth.of(question) > width { question = TextWidth.cut(String(question.dropLast(answer.count)), width - answer.count) + answer }
            lines.append(Line([Span(text: TextWidth.cut(question, width), style: .warning)]).fitted(to: width))
        } else if let message {
            lines.append(Line([Span(text: TextWidth.cut(TextWidth.printable(message.text), width), style: message.style)]).fitted(to: width))
        } else {
            lines.append(Line([Span(text: TextWidth.cut(hints, width), style: .dim)]).fitted(to: width))
        }
        return Frame(lines: lines, cursor: cursor)
    }

    private func titleLine(_ width: Int) -> Line {
        let name = options.path.split(separator: "/").last.map(String.init) ?? options.path
        var left = " realmsh browse · \(name) · format \(file.snapshot.fileFormat) · version \(version)"
        if file.snapshot.isEncrypted { left += " · encrypted" }
        if writerActive { left += " · open in another process" }
        let mode = writable ? " WRITABLE " : " READ-ONLY "
        var line = Line()
        line.append(TextWidth.fit(left, max(0, width - TextWidth.of(mode))), .title)
        line.append(mode, Style([.reverse, .bold], writable ? .warning : .title))
        return line.fitted(to: width, style: .title)
    }

    private func mainLines(width: Int, height: Int) -> [Line] {
        guard let pane = current else {
            return [Line([Span(text: "No classes in this file.", style: .dim)]).fitted(to: width)]
        }
        var heading = Line()
        let path = stack.map(\.title).joined(separator: " › ")
        var detail = ""
        if let table = pane as? TablePane, let q = table.queryDescription { detail = "  " + q }
        let pathText = TextWidth.of(path) + TextWidth.of(detail) > width
            ? "…" + String(path.suffix(max(1, width / 2))) : path
        heading.append(pathText, Style(.bold, .accent))
        heading.append(detail, .dim)
        pane.clamp(height: height - 1)
        return [heading.fitted(to: width)] + pane.lines(width: width, height: height - 1, focused: focus == .main)
    }

    private func statusLine(_ width: Int) -> Line {
        guard let pane = current else { return Line().fitted(to: width, style: .title) }
        let right = pane.rowCount == 0 ? "no rows " : "row \(grouped(pane.cursor + 1)) of \(grouped(pane.rowCount)) "
        var line = Line()
        let left = " " + pane.countLine
        line.append(TextWidth.fit(left, max(0, width - TextWidth.of(right))), Style(.reverse))
        line.append(right, Style(.reverse))
        return line.fitted(to: width, style: Style(.reverse))
    }

    var hints: String {
        var keys = ["q quit", "Tab classes", "↵ open", "d detail", "b backlinks", "⌫ back", ": filter", "s sort", "/ search"]
        if writable { keys += ["e edit", "n new", "D delete"] }
        keys.append("? help")
        return " " + keys.joined(separator: "  ")
    }

    static let helpText: [(String, String)] = [
        ("↑ ↓  k j", "move"), ("PgUp PgDn  Ctrl-B Ctrl-F  Space", "a page"), ("g G  Home End", "first, last"),
        ("← →  h l", "column"), ("Tab", "between the classes and the table"),
        ("Enter", "open the link, list, set, dictionary or embedded object; on other values the detail view"),
        ("d", "detail view of the object"), ("b", "backlinks: what links to the object"),
        ("Backspace  Esc", "back to where you came from"),
        (":  f", "filter with a Realm query (Tab completes)"), ("s", "sort by the column (again: descending, again: off)"),
        ("/", "search the column (Enter on an empty line: next)"),
        ("e", "edit the value (--write)"), ("n", "new object (--write)"), ("D", "delete the object (--write)"),
        ("R  Ctrl-L", "read the file again"), ("Ctrl-Z", "suspend"), ("q  Ctrl-C", "quit"),
        ("mouse", "click selects, double-click opens, the wheel scrolls"),
    ]

    private func helpLines(width: Int, height: Int) -> [Line] {
        var out = [Line([Span(text: "Keys (any key closes this)", style: Style(.bold, .accent))]).fitted(to: width)]
        let keyWidth = min(32, Self.helpText.map { TextWidth.of($0.0) }.max() ?? 0)
        for (keys, what) in Self.helpText {
            var line = Line()
            line.append(" " + TextWidth.fit(keys, keyWidth), .bold)
            line.append("  " + what)
            out.append(line.fitted(to: width))
        }
        return Array(out.prefix(height))
    }
}
