import RealmFormat
import RealmObjects

/// Values as the browser shows them: `DisplayText` (shared with the shell's tables) in the
/// browser's style — `null`, eight elements and four levels spelled out, text made printable by
/// the terminal's `wcwidth` — never failing a screen: a value that cannot be read shows as `⚠`.
/// The detail view's full forms live here too.
final class CellText {
    let display: DisplayText
    static let style = DisplayText.Style(nullText: "null", maxDepth: 4, maxInline: 8, printable: TextWidth.printable)
    static let unreadable = "⚠"

    init(readers: ObjectRowsCache) { display = DisplayText(readers: readers, style: Self.style) }

    var readers: ObjectRowsCache { display.readers }
    var file: RealmFile { display.file }

    func target(of p: Property) -> ObjectClass? { display.target(of: p) }

    /// A property's value in a table cell.
    func text(_ p: Property, _ v: Value) -> String {
        (try? display.text(p, v)) ?? Self.unreadable
    }

    func text(_ v: Value, collection: CollectionKind?, target: ObjectClass?, depth: Int) -> String {
        (try? display.text(v, collection: collection, target: target, depth: depth)) ?? Self.unreadable
    }

    func element(_ v: Value) -> String { display.element(v) }

    func scalar(_ v: Value) -> String { display.scalar(v) }

    /// What names an object: its primary key, or `#ObjKey`.
    func identity(_ c: ObjectClass, _ key: Int64) -> String {
        (try? display.identity(c, key)) ?? "#\(key)"
    }

    func objectValues(_ c: ObjectClass, _ key: Int64) throws(FormatError) -> [Value]? {
        try display.objectValues(c, key)
    }

    // MARK: the detail view

    /// A value in full: strings whole, dates with all nine digits of nanoseconds, Mixed values
    /// with their type.
    func full(_ v: Value, mixed: Bool) -> String {
        let text: String
        switch v {
        case let .timestamp(t): text = Self.fullDate(t)
        case .string, .binary, .int, .bool, .double, .float, .decimal, .objectId, .uuid, .null: text = scalar(v)
        default: text = self.text(v, collection: nil, target: nil, depth: 0)
        }
        guard mixed, !v.isNull else { return text }
        return Self.typeName(v) + " " + text
    }

    /// `YYYY-MM-DD HH:MM:SS.nnnnnnnnn UTC`.
    static func fullDate(_ t: Timestamp) -> String {
        // Floor division of the total nanoseconds, so the fraction is never negative (§9.7:
        // 1969-12-31T23:59:58.5Z is seconds −1, nanoseconds −500000000).
        let total = Int128(t.seconds) * 1_000_000_000 + Int128(t.nanoseconds)
        var fraction = total % 1_000_000_000
        if fraction < 0 { fraction += 1_000_000_000 }
        let whole = DateText.iso8601(Timestamp(seconds: Int64(clamping: (total - fraction) / 1_000_000_000), nanoseconds: 0))
        let digits = String(Int(fraction))
        return whole.dropLast().replacing("T", with: " ") + "." + String(repeating: "0", count: 9 - digits.count) + digits + " UTC"
    }

    /// The type of a Mixed value.
    static func typeName(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .int: return "int"
        case .bool: return "bool"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .binary: return "data"
        case .timestamp: return "date"
        case .decimal: return "decimal128"
        case .objectId: return "objectId"
        case .uuid: return "uuid"
        case .link, .typedLink: return "link"
        case .list: return "list"
        case .dictionary: return "dictionary"
        }
    }
}

/// Property types as headers show them: `age int?`, `dogs List<Dog>`, `owner → Person`.
enum TypeLabel {
    static func of(_ p: Property, target: ObjectClass?) -> String {
        let element: String
        if p.type == "object" {
            element = target?.name ?? "object"
        } else {
            element = p.type + (p.isOptional && p.type != "mixed" ? "?" : "")
        }
        switch p.collection {
        case .list?: return "List<\(element)>"
        case .set?: return "Set<\(element)>"
        case .dictionary?: return "Dictionary<\(element)>"
        case nil: return p.type == "object" ? "→ " + element : element
        }
    }
}
