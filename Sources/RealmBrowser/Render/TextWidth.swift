/// Text measured in terminal columns, as the terminal will draw it: each character takes the
/// columns `wcwidth` gives it (2 for CJK and emoji, 0 for combining marks), so columns of
/// mixed scripts line up. Cuts end in `…`.
public enum TextWidth {
    /// Columns `text` takes. Characters the terminal cannot draw count as the replacement
    /// `printable` puts there.
    public static func of(_ text: String) -> Int {
        var n = 0
        for scalar in text.unicodeScalars { n += max(Terminal.width(of: scalar), 0) }
        return n
    }

    /// The text with what a terminal cannot draw on one line replaced: newlines as ↵, tabs
    /// and other control characters as ·, unassigned characters as �.
    public static func printable(_ text: String) -> String {
        var needs = false
        for s in text.unicodeScalars where s.value < 0x20 || s.value >= 0x7F {
            if s.value < 0x20 || Terminal.width(of: s) < 0 { needs = true; break }
        }
        guard needs else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s == "\n" { out.append("↵") }
            else if s.value < 0x20 || s.value == 0x7F || (s.value >= 0x80 && s.value < 0xA0) { out.append("·") }
            else if Terminal.width(of: s) < 0 { out.append("\u{FFFD}") }
            else { out.append(s) }
        }
        return String(out)
    }

    /// The longest start of `text` that fits in `width` columns (whole characters; combining
    /// marks stay with their base).
    public static func prefix(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        var used = 0
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            let w = max(Terminal.width(of: s), 0)
            if used + w > width { break }
            used += w
            out.append(s)
        }
        return String(out)
    }

    /// `text` in exactly `width` columns: padded (left- or right-aligned) or cut with `…`.
    public static func fit(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard width > 0 else { return "" }
        let w = of(text)
        if w > width {
            let cut = prefix(text, width - 1) + "…"
            let rest = width - of(cut)
            return rest > 0 ? cut + String(repeating: " ", count: rest) : cut
        }
        let fill = String(repeating: " ", count: width - w)
        return right ? fill + text : text + fill
    }

    /// `text` cut with `…` to at most `width` columns, not padded.
    public static func cut(_ text: String, _ width: Int) -> String {
        of(text) <= width ? text : prefix(text, width - 1) + "…"
    }

    /// Lines of at most `width` columns (a long value in the detail view).
    public static func wrap(_ text: String, _ width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines = [String]()
        var current = String.UnicodeScalarView()
        var used = 0
        for s in text.unicodeScalars {
            let w = max(Terminal.width(of: s), 0)
            if used + w > width && !current.isEmpty {
                lines.append(String(current))
                current = String.UnicodeScalarView()
                used = 0
            }
            current.append(s)
            used += w
        }
        lines.append(String(current))
        return lines
    }
}
