/// What one screen shows, as the view model lays it out: lines of styled text, each exactly as
/// wide as the screen, and where the cursor is (while a line is being typed). The terminal
/// draws it; tests read it as text.
public struct Frame: Sendable {
    public var lines: [Line]
    public var cursor: (row: Int, column: Int)?

    /// The screen as plain text, one line per row (trailing spaces kept: every line is as wide
    /// as the screen).
    public var text: String { lines.map(\.text).joined(separator: "\n") }
}

/// One screen line: spans of text with a style each.
public struct Line: Sendable {
    public var spans: [Span] = []

    public init(_ spans: [Span] = []) { self.spans = spans }

    public var text: String { spans.map(\.text).joined() }
    public var width: Int { spans.reduce(0) { $0 + TextWidth.of($1.text) } }

    mutating func append(_ text: String, _ style: Style = .plain) {
        guard !text.isEmpty else { return }
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].text += text
        } else {
            spans.append(Span(text: text, style: style))
        }
    }

    mutating func append(_ line: Line) { for s in line.spans { append(s.text, s.style) } }

    /// Padded with spaces (in `style`) or cut to exactly `width` columns.
    func fitted(to width: Int, style: Style = .plain) -> Line {
        var out = Line()
        var used = 0
        for span in spans {
            let w = TextWidth.of(span.text)
            if used + w <= width {
                out.append(span.text, span.style)
                used += w
            } else {
                let cut = TextWidth.prefix(span.text, width - used)
                out.append(cut, span.style)
                used += TextWidth.of(cut)
                break
            }
        }
        if used < width { out.append(String(repeating: " ", count: width - used), style) }
        return out
    }

    /// Every span with `attributes` added (a selected row).
    func adding(_ attributes: Style.Attributes, tone: Style.Tone? = nil) -> Line {
        var out = Line()
        for s in spans {
            var style = s.style
            style.attributes.formUnion(attributes)
            if let tone { style.tone = tone }
            out.append(s.text, style)
        }
        return out
    }
}

public struct Span: Sendable, Equatable {
    public var text: String
    public var style: Style
}

/// How a span looks: attributes every terminal has (also under NO_COLOR) and a tone that
/// becomes a colour where colours are used.
public struct Style: Sendable, Equatable {
    public struct Attributes: OptionSet, Sendable, Equatable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1)
        public static let dim = Attributes(rawValue: 2)
        public static let reverse = Attributes(rawValue: 4)
        public static let underline = Attributes(rawValue: 8)
    }

    public enum Tone: Sendable, Equatable { case plain, title, accent, link, error, success, selection, warning }

    public var attributes: Attributes
    public var tone: Tone

    public init(_ attributes: Attributes = [], _ tone: Tone = .plain) {
        self.attributes = attributes
        self.tone = tone
    }

    public static let plain = Style()
    public static let bold = Style(.bold)
    public static let dim = Style(.dim)
    public static let title = Style(.reverse, .title)
    public static let header = Style(.bold, .accent)
    public static let link = Style([], .link)
    public static let error = Style(.bold, .error)
    public static let success = Style([], .success)
    public static let warning = Style(.bold, .warning)
}
