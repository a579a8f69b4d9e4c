/// A command's options and arguments are declared once each, as typed values next to the
/// command (in the manner of swift-argument-parser's `@Option`, `@Flag`, `@Argument`): the
/// declaration carries the name, the help text and the conversion, builds the command's
/// `CommandSpec`, and is what the command reads its value with (`arguments[Self.force]`), so
/// no option name is spelled twice.
public protocol OptionDeclaration: Sendable {
    var descriptor: CommandSpec.Option { get }
}

/// `--force`: true when given.
public struct Flag: OptionDeclaration {
    public let descriptor: CommandSpec.Option
    public init(_ long: String, short: Character? = nil, help: String) {
        descriptor = .init(long: long, short: short, valueName: nil, help: help, repeatable: false, choices: nil)
    }
}

/// `--format json`: a value, converted (a usage error when it does not convert).
public struct Option<Value>: OptionDeclaration {
    public let descriptor: CommandSpec.Option
    let convert: @Sendable (String) throws(ShellError) -> Value

    public init(_ long: String, short: Character? = nil, value name: String, help: String, choices: [String]? = nil,
                convert: @escaping @Sendable (String) throws(ShellError) -> Value) {
        descriptor = .init(long: long, short: short, valueName: name, help: help, repeatable: false, choices: choices)
        self.convert = convert
    }
}

extension Option where Value == String {
    public init(_ long: String, short: Character? = nil, value name: String, help: String, choices: [String]? = nil) {
        self.init(long, short: short, value: name, help: help, choices: choices) { (text: String) throws(ShellError) -> String in text }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`; `what` names it in the error ("a number of objects").
    public static func integer(_ long: String, value name: String, help: String, range: ClosedRange<Int>,
                               what: String) -> Option<Int> {
        Option<Int>(long, value: name, help: help) { (text: String) throws(ShellError) -> Int in
            guard let n = Int(text), range.contains(n) else {
                throw ShellError("--\(long) needs \(what), not '\(text)'", code: .usage)
            }
            return n
        }
    }
}

/// `--class A --class B`: every value given, in order.
public struct Repeated: OptionDeclaration {
    public let descriptor: CommandSpec.Option
    public init(_ long: String, short: Character? = nil, value name: String, help: String) {
        descriptor = .init(long: long, short: short, valueName: name, help: help, repeatable: true, choices: nil)
    }
}

/// A positional argument (`FILE`, `CLASS`).
public struct Positional: Sendable {
    public let descriptor: CommandSpec.Argument
    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        descriptor = CommandSpec.Argument(name, help: help, optional: optional, variadic: variadic)
    }
    public var name: String { descriptor.name }
}
