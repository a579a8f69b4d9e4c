import RealmObjects

/// Realm Swift model classes an app could paste (`class Dog: Object { @Persisted … }`).
enum SwiftModels {
    static func render(_ classes: [ObjectClass]) -> String {
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
            for b in c.backlinks {
                guard let origin = b.originClass, let property = b.originProperty else { continue }
                // LinkingObjects are not stored in the file, so their names are ours to choose.
                var name = lowerFirst(origin) + "s"
                if used.contains(name) { name = lowerFirst(origin) + upperFirst(property) }
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

    static func lowerFirst(_ s: String) -> String { s.prefix(1).lowercased() + s.dropFirst() }
    static func upperFirst(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}
