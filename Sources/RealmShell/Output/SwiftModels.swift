import RealmObjects

/// Realm Swift model classes an app could paste (`class Dog: Object { @Persisted … }`).
enum SwiftModels {
    static func render(_ classes: [ObjectClass]) -> String {
        let byName = Dictionary(classes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var lines = ["import Foundation", "import RealmSwift", ""]
        for c in classes {
            let base = c.isEmbedded ? "EmbeddedObject" : (c.isAsymmetric ? "AsymmetricObject" : "Object")
            lines.append("class \(identifier(c.name)): \(base) {")
            var used = Set(c.properties.map(\.name))
            for p in c.properties {
                var arguments = [String]()
                if p.isPrimaryKey { arguments.append("primaryKey: true") } else if p.column.attributes.contains(.fullText) {
                    arguments.append("indexed: true")
                } else if p.isIndexed { arguments.append("indexed: true") }
                let wrapper = arguments.isEmpty ? "@Persisted" : "@Persisted(\(arguments.joined(separator: ", ")))"
                lines.append("    \(wrapper) var \(identifier(p.name)): \(swiftType(p))")
            }
            let origins = linkingOrigins(of: c, classes: byName)
            for (origin, property) in origins {
                // LinkingObjects are not stored in the file, so their names are ours to choose:
                // the origin class in the plural (`dogs`), and by which property when that
                // class links here by several or the plural is taken (`dogsViaOwner`).
                var name = plural(lowerCamel(origin))
                if origins.filter({ $0.origin == origin }).count > 1 || used.contains(name) { name += "Via" + upperFirst(property) }
                used.insert(name)
                lines.append("    @Persisted(originProperty: \"\(property)\") var \(identifier(name)): LinkingObjects<\(identifier(origin))>")
            }
            lines.append("}")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    static func swiftType(_ p: Property) -> String {
        let base: String
        switch p.type {
        case "int": base = "Int"
        case "bool": base = "Bool"
        case "string": base = "String"
        case "data": base = "Data"
        case "date": base = "Date"
        case "float": base = "Float"
        case "double": base = "Double"
        case "decimal128": base = "Decimal128"
        case "objectId": base = "ObjectId"
        case "uuid": base = "UUID"
        case "mixed": base = "AnyRealmValue"
        case "object": base = identifier(p.objectType ?? "Object")
        default: base = "AnyRealmValue"
        }
        let optional = p.isOptional && p.type != "mixed"
        switch p.collection {
        case .list?: return "List<\(base)\(optional ? "?" : "")>"
        case .set?: return "MutableSet<\(base)\(optional ? "?" : "")>"
        case .dictionary?: return "Map<String, \(base)\(optional ? "?" : "")>"
        case nil: return base + (optional ? "?" : "")
        }
    }

    static let keywords: Set<String> = ["class", "struct", "enum", "protocol", "var", "let", "func", "default", "in",
                                        "self", "Self", "true", "false", "nil", "import", "return", "where", "is", "as",
                                        "if", "else", "for", "while", "switch", "case", "repeat", "do", "try", "catch",
                                        "throw", "throws", "init", "deinit", "extension", "operator", "static", "public",
                                        "private", "internal", "fileprivate", "open", "subscript", "typealias", "guard",
                                        "defer", "break", "continue", "fallthrough", "inout", "super", "Type", "Any"]

    /// A Swift identifier for a stored name: backticks for keywords, `_` for other characters.
    static func identifier(_ name: String) -> String {
        var s = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if s.isEmpty { s = "_" }
        if s.first!.isNumber { s = "_" + s }
        return keywords.contains(s) ? "`\(s)`" : s
    }

    /// The backlinks Realm Swift can declare as `LinkingObjects`: those whose origin is a link,
    /// a list or a set of links of a class in `classes` (not a dictionary, which Realm Swift
    /// refuses as an origin, nor a Mixed value, whose links realm-core tracks with backlinks too).
    static func linkingOrigins(of c: ObjectClass, classes: [String: ObjectClass]) -> [(origin: String, property: String)] {
        c.backlinks.compactMap { b in
            guard let origin = b.originClass, let name = b.originProperty,
                  let p = classes[origin]?.property(named: name),
                  p.type == "object", p.objectType == c.name, p.collection != .dictionary else { return nil }
            return (origin, name)
        }
    }

    /// `Person` → `person`, `NoPK` → `noPK`, `URLItem` → `urlItem`, `UUIDPK` → `uuidpk`.
    static func lowerCamel(_ s: String) -> String {
        let chars = Array(s)
        var upper = 0
        while upper < chars.count, chars[upper].isUppercase { upper += 1 }
        if upper == chars.count { return s.lowercased() }
        let lowered = upper > 1 ? upper - 1 : upper        // `URLItem`: the I starts the next word
        return String(chars[..<lowered]).lowercased() + String(chars[lowered...])
    }

    /// English plural of a class name's last word: `dogs`, `people`, `categories`, `boxes`;
    /// a name that already ends in a plural `s` (`allTypes`) stays.
    static func plural(_ s: String) -> String {
        let lower = s.lowercased()
        for (singular, plural) in [("person", "people"), ("child", "children"), ("man", "men"), ("mouse", "mice")] where lower.hasSuffix(singular) {
            return String(s.dropLast(singular.count)) + (s.suffix(singular.count).first!.isUppercase ? upperFirst(plural) : plural)
        }
        if lower.hasSuffix("s") && !lower.hasSuffix("ss") && !lower.hasSuffix("us") && !lower.hasSuffix("is") { return s }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return s.dropLast() + "ies" }
        if ["s", "x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { return s + "es" }
        return s + "s"
    }

    static func upperFirst(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}
