import RealmObjects

/// The schema for people: one block per class, one line per property.
enum SchemaText {
    static func render(_ classes: [ObjectClass], io: ShellIO) -> String {
        var lines = [String]()
        for c in classes {
            var title = "class \(c.name)"
            var notes = [String]()
            if c.isEmbedded { notes.append("embedded") }
            if c.isAsymmetric { notes.append("asymmetric") }
            if let pk = c.primaryKey { notes.append("primary key: \(pk)") }
            if !notes.isEmpty { title += " (" + notes.joined(separator: ", ") + ")" }
            lines.append(io.bold(title))
            let width = c.properties.map { $0.name.count }.max() ?? 0
            for p in c.properties {
                var attributes = [String]()
                if p.isPrimaryKey { attributes.append("primary key") } else if p.isIndexed { attributes.append("indexed") }
                if p.column.attributes.contains(.fullText) { attributes.append("full-text indexed") }
                let suffix = attributes.isEmpty ? "" : "  " + io.dim("[" + attributes.joined(separator: ", ") + "]")
                lines.append("  " + (p.name + ":").padding(to: width + 2) + typeText(p) + suffix)
            }
            for b in c.backlinks {
                lines.append("  " + io.dim("← linked from \(b.originClass ?? "?").\(b.originProperty ?? "?")"))
            }
            lines.append("")
        }
        if classes.isEmpty { lines.append("(no classes)") }
        return lines.joined(separator: "\n")
    }

    /// `int?`, `List<Dog>`, `Set<string?>`, `Map<string, Dog?>`.
    static func typeText(_ p: Property) -> String {
        let element = p.objectType ?? p.type
        let optional = p.isOptional && p.type != "mixed"
        switch p.collection {
        case .list?: return "List<\(element)\(optional ? "?" : "")>"
        case .set?: return "Set<\(element)\(optional ? "?" : "")>"
        case .dictionary?: return "Map<string, \(element)\(optional ? "?" : "")>"
        case nil: return element + (optional ? "?" : "")
        }
    }
}
