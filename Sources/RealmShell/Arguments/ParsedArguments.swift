/// What the parser found on the command line for one subcommand.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    public var wantsHelp = false

    public func flag(_ long: String) -> Bool { flags.contains(long) }
    public func value(_ long: String) -> String? { values[long]?.last }
    public func values(_ long: String) -> [String] { values[long] ?? [] }
}

/// Parses arguments against a `CommandSpec`: `--opt value`, `--opt=value`, `-o value`,
/// `-ovalue`, flags, `--` to end options, `-h`/`--help`.
public enum ArgumentParser {
    public static func parse(_ args: [String], spec: CommandSpec) throws(ShellError) -> ParsedArguments {
        var result = ParsedArguments()
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
                var message = "unknown option '\(arg)'"
                let names = spec.options.map { "--" + $0.long } + ["--help"]
                if let near = Suggestions.nearest(to: arg.hasPrefix("--") ? "--" + name : arg, among: names) {
                    message += "; did you mean '\(near)'?"
                }
                throw fail(message)
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
                var message = "'\(value)' is not a valid value for '--\(option.long)' (expected \(choices.joined(separator: ", ")))"
                if let near = Suggestions.nearest(to: value, among: choices) { message += "; did you mean '\(near)'?" }
                throw fail(message)
            }
            if !option.repeatable && result.values[option.long] != nil {
                throw fail("option '--\(option.long)' given more than once")
            }
            result.values[option.long, default: []].append(value)
        }
        if result.wantsHelp { return result }
        let required = spec.arguments.filter { !$0.isOptional }.count
        if result.positionals.count < required {
            throw fail("missing argument \(spec.arguments[result.positionals.count].name)")
        }
        if result.positionals.count > spec.arguments.count && spec.arguments.last?.isVariadic != true {
            throw fail("unexpected argument '\(result.positionals[spec.arguments.count])'")
        }
        return result
    }
}
