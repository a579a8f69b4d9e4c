import RealmFormat

/// What the parser found on the command line for one subcommand, read through the command's
/// declarations (`arguments[Self.force]`, `try arguments.value(Self.limit)`).
public struct ParsedArguments: Sendable {
    public internal(set) var positionals: [String] = []
    var argumentNames: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    public var wantsHelp = false

    public init() {}

    public subscript(_ flag: Flag) -> Bool { flags.contains(flag.descriptor.long) }

    public subscript(_ option: Option<String>) -> String? { values[option.descriptor.long]?.last }

    public subscript(_ option: Repeated) -> [String] { values[option.descriptor.long] ?? [] }

    /// The argument's value ("" for an optional one not given).
    public subscript(_ argument: Positional) -> String { self.argument(argument) ?? "" }

    public func argument(_ argument: Positional) -> String? {
        guard let i = argumentNames.firstIndex(of: argument.name), i < positionals.count else { return nil }
        return positionals[i]
    }

    /// A variadic argument's values: every positional from its place on.
    public func arguments(_ argument: Positional) -> [String] {
        guard let i = argumentNames.firstIndex(of: argument.name), i < positionals.count else { return [] }
        return Array(positionals[i...])
    }

    /// The option's value, converted; nil when it was not given.
    public func value<V>(_ option: Option<V>) throws(ShellError) -> V? {
        guard let text = values[option.descriptor.long]?.last else { return nil }
        return try option.convert(text)
    }

    /// Sets an option as if it had been typed (the shell's open file's key).
    mutating func set<V>(_ option: Option<V>, to value: String) { values[option.descriptor.long] = [value] }

    func isGiven(_ option: any OptionDeclaration) -> Bool {
        values[option.descriptor.long] != nil || flags.contains(option.descriptor.long)
    }
}

/// Parses arguments against a `CommandSpec`: `--opt value`, `--opt=value`, `-o value`,
/// `-ovalue`, flags, `--` to end options, `-h`/`--help`.
public enum ArgumentParser {
    /// `file`: the value of the spec's file argument when the caller supplies it (the shell's
    /// open file), not typed among `args`.
    public static func parse(_ args: [String], spec: CommandSpec, file: String? = nil) throws(ShellError) -> ParsedArguments {
        var result = ParsedArguments()
        result.argumentNames = spec.arguments.map(\.name)
        var i = 0
        var optionsEnded = false
        func fail(_ message: String) -> ShellError { ShellError(message, code: .usage, usageOf: spec.name) }

        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") {
                result.positionals.append(arg)
                continue
            }
            if arg == "--" {
                optionsEnded = true
                continue
            }
            if arg == "-h" || arg == "--help" {
                result.wantsHelp = true
                continue
            }
            var name: String
            var inlineValue: String?
            let option: CommandSpec.Option?
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inlineValue = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
                option = spec.options.first { $0.long == name }
            } else {
                let letter = arg.dropFirst().first!
                option = spec.options.first { $0.short == letter }
                name = option?.long ?? String(arg.dropFirst())
                let rest = arg.dropFirst(2)
                if !rest.isEmpty { inlineValue = String(rest.hasPrefix("=") ? rest.dropFirst() : rest) }
            }
            guard let option else {
                let names = spec.options.map { "--" + $0.long } + ["--help"]
                throw fail("unknown option '\(arg)'" + NameSuggestion.didYouMean(arg.hasPrefix("--") ? "--" + name : arg, among: names))
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw fail("option '--\(option.long)' takes no value") }
                result.flags.insert(option.long)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < args.count else { throw fail("option '--\(option.long)' needs a value <\(valueName)>") }
                value = args[i]
                i += 1
            }
            if let choices = option.choices, !choices.contains(value) {
                throw fail("'\(value)' is not a valid value for '--\(option.long)' (expected \(choices.joined(separator: ", ")))"
                           + NameSuggestion.didYouMean(value, among: choices))
            }
            if !option.repeatable && result.values[option.long] != nil {
                throw fail("option '--\(option.long)' given more than once")
            }
            result.values[option.long, default: []].append(value)
        }
        if result.wantsHelp { return result }
        if let file, let index = spec.fileIndex {
            result.positionals.insert(file, at: min(index, result.positionals.count))
        }
        let required = spec.arguments.filter { !$0.isOptional }
        if result.positionals.count < required.count {
            throw fail("missing argument \(required[result.positionals.count].name)")
        }
        if result.positionals.count > spec.arguments.count && spec.arguments.last?.isVariadic != true {
            throw fail("unexpected argument '\(result.positionals[spec.arguments.count])'")
        }
        return result
    }
}
