/// What a command does to files, declared in its `CommandSpec` next to its options and
/// checked by `CommandPipeline` before the command runs — the read-only shell, `--force`,
/// Realm's session lock. A command never decides these itself.
public indirect enum Effect: Sendable {
    /// Reads FILE (and whatever else it names); writes nothing but standard output.
    case reads
    /// Changes FILE in place in a write transaction, which takes Realm's session lock itself
    /// (insert, update, delete, …).
    case changesFile
    /// Writes a new file, named by an option or an argument.
    case writes(Output)
    /// `flag` given: the first effect, else the second (`delete --dry-run` reads).
    case when(Flag, Effect, otherwise: Effect)

    /// The output a command writes.
    public struct Output: Sendable {
        public enum Source: Sendable {
            case option(Option<String>)
            /// `create FILE`: the argument is the file created.
            case argument(Positional)
        }

        /// What it means when the option is not given.
        public enum WhenAbsent: Sendable {
            /// The output goes to standard output (export, migrate --generate).
            case standardOutput
            /// FILE itself is rewritten: an in-place write (compact, migrate).
            case replacesFile
            /// The option must be given (encrypt, keygen).
            case required
        }

        let source: Source
        let whenAbsent: WhenAbsent
        /// The flag that allows replacing an existing file (`--force`).
        let force: Flag
        /// Whether the output is FILE's own content in another form (compacted, migrated,
        /// encrypted, …), so that an output naming FILE — by any path — is an in-place write
        /// of FILE. Otherwise (an export, a key, a script) such an output is refused: it would
        /// destroy the file it was made from.
        let canReplaceFile: Bool

        public init(_ source: Source, whenAbsent: WhenAbsent, force: Flag, canReplaceFile: Bool) {
            self.source = source
            self.whenAbsent = whenAbsent
            self.force = force
            self.canReplaceFile = canReplaceFile
        }

        public static func option(_ option: Option<String>, whenAbsent: WhenAbsent, force: Flag,
                                  canReplaceFile: Bool) -> Output {
            Output(.option(option), whenAbsent: whenAbsent, force: force, canReplaceFile: canReplaceFile)
        }
    }

    /// The effect for these arguments (`when` decided).
    func resolved(_ arguments: ParsedArguments) -> Effect {
        if case let .when(flag, then, otherwise) = self { return (arguments[flag] ? then : otherwise).resolved(arguments) }
        return self
    }

    /// Every output this effect can write, whatever the flags (for the tests that walk the
    /// command list).
    public var possibleOutputs: [Output] {
        switch self {
        case .reads, .changesFile: return []
        case let .writes(output): return [output]
        case let .when(_, a, b): return a.possibleOutputs + b.possibleOutputs
        }
    }

    /// Whether some arguments make the command change FILE in a transaction.
    public var canChangeFile: Bool {
        switch self {
        case .changesFile: return true
        case .reads, .writes: return false
        case let .when(_, a, b): return a.canChangeFile || b.canChangeFile
        }
    }
}
