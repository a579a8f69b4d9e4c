import RealmFormat

/// The functions of the expression language (Docs/migrations.md lists them). Each checks its
/// arguments' types when the script is read; a null argument gives null unless said otherwise.
enum Functions {
    typealias Implementation = ([Value], SourceLocation) throws(EvalError) -> Value

    static let conversions: [String: ValueKind] = [
        "int": .int, "double": .double, "float": .float, "decimal": .decimal, "decimal128": .decimal, "string": .string,
        "bool": .bool, "date": .date, "objectId": .objectId, "uuid": .uuid, "data": .binary,
    ]

    static let names = (Array(conversions.keys) + ["lower", "upper", "trim", "length", "count", "substring", "replace",
                                                   "contains", "startsWith", "endsWith", "split", "abs", "round", "min", "max"]).sorted()

    static func compile(_ name: Name, _ args: [CompiledExpression], _ locations: [SourceLocation]) throws(ScriptError) -> CompiledExpression {
        let at = name.location
        func arity(_ range: ClosedRange<Int>) throws(ScriptError) {
            guard range.contains(args.count) else {
                let wanted = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw ScriptError("\(name.text)() takes \(wanted) argument\(range.upperBound == 1 ? "" : "s"), not \(args.count)", at: at)
            }
        }
        func expect(_ i: Int, _ kinds: [ValueKind], _ what: String) throws(ScriptError) {
            let k = args[i].type.kind
            guard kinds.contains(k) || k == .mixed || k == .null else {
                throw ScriptError("argument \(i + 1) of \(name.text)() must be \(what), not \(args[i].type.text)", at: locations[i])
            }
        }
        let nullable = args.contains { $0.type.nullable }
        let evaluators = args.map(\.evaluate)
        func make(_ kind: ValueKind, nullable: Bool = nullable, _ body: @escaping Implementation) -> CompiledExpression {
            CompiledExpression(type: StaticType(kind: kind, nullable: nullable)) { row throws(EvalError) in
                var values = [Value]()
                values.reserveCapacity(evaluators.count)
                for e in evaluators { values.append(try e(row)) }
                return try body(values, at)
            }
        }
        /// Like `make`, but null in, null out.
        func strict(_ kind: ValueKind, _ body: @escaping Implementation) -> CompiledExpression {
            make(kind) { values, at throws(EvalError) in
                if values.contains(where: \.isNull) { return .null }
                return try body(values, at)
            }
        }

        if let target = conversions[name.text] {
            try arity(1...1)
            let from = args[0].type.kind
            guard Conversion.possible(from: from, to: target) else {
                throw ScriptError("\(from.name) cannot be converted to \(target.name)", at: locations[0])
            }
            return strict(target) { values, at throws(EvalError) in
                switch Conversion.convert(values[0], to: target) {
                case let .success(v): return v
                case let .failure(refusal): throw EvalError(message: refusal.message, location: at)
                }
            }
        }
        switch name.text {
        case "lower", "upper", "trim":
            try arity(1...1)
            try expect(0, [.string], "a string")
            let which = name.text
            return strict(.string) { values, _ throws(EvalError) in
                let s = text(values[0])
                let out = which == "lower" ? s.lowercased() : which == "upper" ? s.uppercased() : Conversion.trimmed(s)
                return .string(Array(out.utf8))
            }
        case "length":
            try arity(1...1)
            try expect(0, [.string], "a string")
            return strict(.int) { values, _ throws(EvalError) in .int(Int64(text(values[0]).count)) }
        case "count":
            try arity(1...1)
            guard case .collection = args[0].type.kind else {
                throw ScriptError("count() counts the elements of a list, set or dictionary property", at: locations[0])
            }
            return make(.int, nullable: false) { values, _ throws(EvalError) in
                switch values[0] {
                case let .list(e): return .int(Int64(e.count))
                case let .dictionary(e): return .int(Int64(e.count))
                default: return .int(0)
                }
            }
        case "substring":
            try arity(2...3)
            try expect(0, [.string], "a string")
            try expect(1, [.int], "an int")
            if args.count == 3 { try expect(2, [.int], "an int") }
            return strict(.string) { values, at throws(EvalError) in
                let chars = Array(text(values[0]))
                guard case var .int(start) = values[1] else { return .null }
                if start < 0 { start = max(0, Int64(chars.count) + start) }
                let from = Int(min(start, Int64(chars.count)))
                var to = chars.count
                if values.count == 3, case let .int(length) = values[2] {
                    guard length >= 0 else { throw EvalError(message: "substring() length is negative (\(length))", location: at) }
                    to = Int(min(Int64(chars.count), Int64(from) + min(length, Int64(chars.count))))
                }
                return .string(Array(String(chars[from..<to]).utf8))
            }
        case "replace":
            try arity(3...3)
            for i in 0..<3 { try expect(i, [.string], "a string") }
            return strict(.string) { values, at throws(EvalError) in
                let (s, a, b) = (bytes(values[0]), bytes(values[1]), bytes(values[2]))
                guard !a.isEmpty else { throw EvalError(message: "replace() cannot replace the empty string", location: at) }
                return .string(join(split(s, by: a), with: b))
            }
        case "contains", "startsWith", "endsWith":
            try arity(2...2)
            try expect(0, [.string], "a string")
            try expect(1, [.string], "a string")
            let which = name.text
            return strict(.bool) { values, _ throws(EvalError) in
                let (s, t) = (bytes(values[0]), bytes(values[1]))
                switch which {
                case "startsWith": return .bool(s.starts(with: t))
                case "endsWith": return .bool(s.count >= t.count && Array(s[(s.count - t.count)...]) == t)
                default: return .bool(t.isEmpty || split(s, by: t).count > 1)
                }
            }
        case "split":
            try arity(3...3)
            try expect(0, [.string], "a string")
            try expect(1, [.string], "a string")
            try expect(2, [.int], "an int")
            return strict(.string) { values, at throws(EvalError) in
                let separator = bytes(values[1])
                guard !separator.isEmpty else { throw EvalError(message: "split() needs a non-empty separator", location: at) }
                let parts = split(bytes(values[0]), by: separator)
                guard case let .int(n) = values[2] else { return .null }
                let i = n < 0 ? Int64(parts.count) + n : n
                return .string(i >= 0 && i < Int64(parts.count) ? parts[Int(i)] : [])
            }
        case "abs", "round":
            try arity(1...1)
            try expect(0, [.int, .double, .float], "a number")
            let which = name.text
            return strict(args[0].type.kind == .mixed ? .mixed : args[0].type.kind) { values, at throws(EvalError) in
                switch values[0] {
                case let .int(i):
                    if which == "round" { return .int(i) }
                    guard i != .min else { throw EvalError(message: "integer overflow (abs(\(i)))", location: at) }
                    return .int(Swift.abs(i))
                case let .double(d): return .double(which == "abs" ? Swift.abs(d) : d.rounded(.toNearestOrAwayFromZero))
                case let .float(f): return .float(which == "abs" ? Swift.abs(f) : f.rounded(.toNearestOrAwayFromZero))
                default: throw EvalError(message: "\(which)() needs a number, got \(Conversion.describe(values[0]))", location: at)
                }
            }
        case "min", "max":
            try arity(2...2)
            let type = try Operators.unify(args[0].type, args[1].type, at: at, what: "the arguments of \(name.text)()")
            if case .collection = type.kind { throw ScriptError("\(name.text)() compares two values, not collections", at: at) }
            let isMin = name.text == "min"
            return strict(type.kind) { values, at throws(EvalError) in
                guard let c = Operators.compare(values[0], values[1]) else {
                    throw EvalError(message: "cannot compare \(Conversion.describe(values[0])) with \(Conversion.describe(values[1]))", location: at)
                }
                return (c <= 0) == isMin ? values[0] : values[1]
            }
        default:
            throw ScriptError("unknown function \(name.text)()\(didYouMean(name.text, names))", at: at)
        }
    }

    static func text(_ v: Value) -> String {
        if case let .string(s) = v { return String(decoding: s, as: UTF8.self) }
        return Conversion.text(v) ?? ""
    }

    static func bytes(_ v: Value) -> [UInt8] {
        if case let .string(s) = v { return s }
        return Array(text(v).utf8)
    }

    /// `s` cut at every occurrence of `separator` (non-empty).
    static func split(_ s: [UInt8], by separator: [UInt8]) -> [[UInt8]] {
        var parts = [[UInt8]]()
        var start = 0, i = 0
        while i + separator.count <= s.count {
            if s[i] == separator[0] && Array(s[i..<(i + separator.count)]) == separator {
                parts.append(Array(s[start..<i]))
                i += separator.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(Array(s[start...]))
        return parts
    }

    static func join(_ parts: [[UInt8]], with separator: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        for (i, p) in parts.enumerated() {
            if i > 0 { out += separator }
            out += p
        }
        return out
    }
}
