/// One object (or one class) that stops the migration: which version, class, object and
/// property, the value that failed, and the script line it comes from.
public struct Problem: Sendable, CustomStringConvertible {
    public let version: Int64
    public let className: String
    /// The object's position in its class (ObjKey order) before the version block, and its
    /// identity: `_key N` or the primary key.
    public let object: (index: Int, identity: String)?
    public let property: String?
    public let message: String
    public let location: SourceLocation?

    public var description: String {
        var place = "version \(version): \(className)"
        if let object { place += " object \(object.index) (\(object.identity))" }
        if let property { place += ", \(property)" }
        var text = "\(place): \(message)"
        if let location { text += " [script \(location)]" }
        return text
    }
}

/// What one version block does to one class.
public struct ClassReport: Sendable {
    public let name: String
    /// One line per change: `+ firstName: string = …`, `- fullName`, `~ phone: int → string`, ….
    public let lines: [String]
    /// Objects before the block, objects rewritten (every object of a changed class), deleted.
    public let objects: Int
    public let rewritten: Int
    public let deleted: Int
}

/// What one version block does.
public struct StepReport: Sendable {
    public let version: Int64
    public let classes: [ClassReport]
}

/// The outcome of running a script on a file.
public struct MigrationResult: Sendable {
    /// The file's schema version before (nil: no metadata table, or not versioned).
    public let fromVersion: Int64?
    /// The schema version after (the highest block that ran, or the file's when none ran).
    public let toVersion: Int64?
    public let steps: [StepReport]
    /// The first problems found (the migration stops at the block where they occur).
    public let problems: [Problem]
    /// All problems, including those not kept in `problems`.
    public let problemCount: Int
    /// The migrated file (logical bytes, normal form), when there were no problems and at least
    /// one block ran.
    public let bytes: [UInt8]?

    public var isUpToDate: Bool { steps.isEmpty && problemCount == 0 }

    /// The plan as `realmsh migrate --dry-run` prints it.
    public func planText(file: String) -> String {
        var lines = [String]()
        let from = fromVersion.map(String.init) ?? "none"
        if steps.isEmpty && problemCount == 0 {
            return "\(file): schema version \(from); no version block above it, nothing to do\n"
        }
        lines.append("\(file): schema version \(from) → \(toVersion.map(String.init) ?? from)")
        for step in steps {
            lines.append("")
            lines.append("version \(step.version):")
            if step.classes.isEmpty { lines.append("  (no changes; the schema version is set)") }
            for c in step.classes {
                var counts = "\(c.objects) object\(c.objects == 1 ? "" : "s")"
                if c.rewritten > 0 { counts += ", \(c.rewritten) rewritten" }
                if c.deleted > 0 { counts += ", \(c.deleted) deleted" }
                lines.append("  class \(c.name) (\(counts))")
                for l in c.lines { lines.append("    " + l) }
            }
        }
        lines.append("")
        if problemCount == 0 {
            lines.append("No problems found.")
        } else {
            lines.append("\(problemCount) problem\(problemCount == 1 ? "" : "s"):")
            for p in problems { lines.append("  " + p.description) }
            if problemCount > problems.count { lines.append("  … and \(problemCount - problems.count) more") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
