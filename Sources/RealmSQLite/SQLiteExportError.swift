import RealmFormat

/// Why an export stopped, with what a user needs to act on it.
public enum SQLiteExportError: Error, Sendable {
    /// The realm could not be read.
    case reading(FormatError)
    /// SQLite refused a statement; `context` names the class, object or table being written.
    case database(SQLiteError, context: String)
    /// The target database is not empty (the exporter writes only into a new file).
    case notEmpty(path: String)
    /// `--class` named a class the file does not have.
    case unknownClass(String)
    /// `--class` named an embedded class: its objects live in their owners' tables.
    case embeddedClass(String)
    /// Embedded classes that contain each other (realm-core refuses such a schema).
    case embeddingCycle(path: String)
    /// The schema's embedded paths would need more tables than any real schema has.
    case tooManyTables(Int)

    public var message: String {
        switch self {
        case let .reading(e): return e.message
        case let .database(e, context):
            return "\(context): SQLite: \(e.message)"
        case let .notEmpty(path): return "\(path) already holds an SQLite database; write to a new file"
        case let .unknownClass(name): return "no class '\(name)'"
        case let .embeddedClass(name):
            return "'\(name)' is an embedded class: its objects are exported with the classes that own them"
        case let .embeddingCycle(path):
            return "embedded classes contain each other (\(path)); realm-core does not allow such a schema"
        case let .tooManyTables(n): return "the schema's embedded objects would need more than \(n) tables"
        }
    }
}
