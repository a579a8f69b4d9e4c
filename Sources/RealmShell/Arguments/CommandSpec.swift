/// The command-line interface of one subcommand: its arguments and options with their help
/// text side by side (each declared once, see `OptionDeclaration`), which argument is the
/// file it works on, and its effect on files (`Effect`) — what `CommandPipeline` checks
/// before the command runs.
public struct CommandSpec: Sendable {
    /// What the parser, the help and Tab need to know of an option.
    public struct Option: Sendable {
        public let long: String
        public let short: Character?
        /// nil: a flag without a value.
        public let valueName: String?
        public let help: String
        public let repeatable: Bool
        /// Accepted values, when the set is closed (checked by the parser).
        public let choices: [String]?

        /// The value is a file name (Tab, completion scripts): options whose value is named
        /// `path`, `out` (an output) or `other` (a file to compare with).
        public var takesPath: Bool { ["path", "out", "other"].contains(valueName ?? "") }
    }

    public struct Argument: Sendable {
        public let name: String
        public let help: String
        public let isOptional: Bool
        /// Takes every remaining positional (only the last argument).
        public let isVariadic: Bool
        public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
            self.name = name
            self.help = help
            isOptional = optional || variadic
            isVariadic = variadic
        }
    }

    public let name: String
    public let abstract: String
    public let discussion: String
    public let arguments: [Argument]
    public let options: [Option]
    public let examples: [String]
    /// The argument naming the Realm file the command works on (the shell fills in its open
    /// file); nil for commands without one (keygen, create's FILE is its output, help).
    public let file: Positional?
    /// Whether the key options (if any) are FILE's key, which the shell fills in; false for
    /// encrypt, whose key is the copy's.
    public let fileKeyed: Bool
    public let effect: Effect

    public init(name: String, abstract: String, discussion: String = "", arguments: [Positional] = [],
                file: Positional? = nil, fileKeyed: Bool = true, effect: Effect = .reads,
                options: [any OptionDeclaration] = [], examples: [String] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments.map(\.descriptor)
        self.file = file
        self.fileKeyed = fileKeyed
        self.effect = effect
        self.options = options.map(\.descriptor)
        self.examples = examples
    }

    /// Where the file argument is among the positionals.
    var fileIndex: Int? { file.flatMap { f in arguments.firstIndex { $0.name == f.name } } }

    /// `realmsh export FILE [--class C]... [--format F] [-o OUT]`
    public var usage: String {
        var parts = ["realmsh", name]
        for a in arguments { parts.append((a.isOptional ? "[\(a.name)]" : a.name) + (a.isVariadic ? "..." : "")) }
        for o in options {
            var text = "--\(o.long)"
            if let s = o.short { text = "-\(s)|" + text }
            if let v = o.valueName { text += " \(v)" }
            parts.append("[\(text)]" + (o.repeatable ? "..." : ""))
        }
        return parts.joined(separator: " ")
    }

    /// The full help text of `realmsh help NAME` / `NAME --help`.
    public var help: String {
        var lines = ["OVERVIEW: \(abstract)", ""]
        if !discussion.isEmpty { lines += [discussion, ""] }
        lines += ["USAGE: \(usage)", ""]
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            for a in arguments { lines.append(Self.row(a.name, a.help)) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for o in options {
            var left = (o.short.map { "-\($0), " } ?? "") + "--\(o.long)"
            if let v = o.valueName { left += " <\(v)>" }
            var text = o.help
            if let c = o.choices { text += " (\(c.joined(separator: ", ")))" }
            lines.append(Self.row(left, text))
        }
        lines.append(Self.row("-h, --help", "Show help information."))
        if !examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            lines += examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func row(_ left: String, _ right: String) -> String {
        let padded = left.count < 24 ? left + String(repeating: " ", count: 24 - left.count) : left + "\n" + String(repeating: " ", count: 26)
        return "  " + padded + right
    }
}
