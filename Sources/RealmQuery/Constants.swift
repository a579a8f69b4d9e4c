import RealmFormat

/// Literals and arguments typed by the other side of their comparison (query-language.md §4,
/// realm-core's `ConstantNode::visit`).
extension TypeChecker {
    func constant(_ node: ConstantNode, hint: DataType?) throws(QueryError) -> Operand {
        // What an argument is, for its error messages (literals need none).
        var explain = ""
        var value: QValue
        if node.kind == .argument {
            explain = node.string
            let n = Parser.argumentNumber(node.text.dropFirst())
            if node.quantifier != nil, !(try arguments.isList(n, at: node.range)) {
                throw .invalidQuery(message: "ANY/ALL/NONE are only allowed on arguments which contain a list but '\(explain)' is not a list.", at: node.range)
            }
            if try arguments.isList(n, at: node.range) {
                var values = try arguments.list(n, at: node.range)
                for i in values.indices where !values[i].isNull {
                    values[i] = try convert(values[i], hint: hint, node: node)
                }
                let description = "{" + values.map(ValueText.describe).joined(separator: ", ") + "}"
                return .constant(Constant(values: values, fromList: true, type: .mixed, quantifier: node.quantifier,
                                          isMixedList: true, description: description))
            }
            value = try arguments.value(n, at: node.range)
            if value.isNull {
                explain = "argument '\(explain)' which is NULL"
            } else if case let .typedLink(t, k) = value {
                explain = "\(explain) which links to '\(store.table(key: t)?.className ?? "?")' with key \(k)"
            } else {
                explain = "argument \(explain) with value '\(ValueText.describe(value))'"
            }
        } else {
            value = try TypeChecker.literal(node)
        }

        if let cls = node.objectClass {
            let name = String(decoding: cls, as: UTF8.self)
            guard let table = store.table(className: name) else {
                throw .invalidQuery(message: "Unknown object type '\(name)'", at: node.range)
            }
            guard table.table.primaryKeyColumn != nil else {
                throw .invalidQuery(message: "Class '\(table.className)' has no primary key, so obj('\(name)', …) cannot find an object", at: node.range)
            }
            let key: Int64?
            do { key = try table.find(primaryKey: value) } catch { throw .invalidQuery(message: "\(error)", at: node.range) }
            value = key.map { .typedLink(table.table.key, $0) } ?? .null
            if key == nil { return .constant(Constant(values: [.null], fromList: false, type: nil, quantifier: nil, description: "NULL")) }
        }

        if value.isNull {
            switch hint {
            case .string?: return .constant(Constant(values: [.null], fromList: false, type: .string, quantifier: nil, description: "NULL"))
            case .binary?: return .constant(Constant(values: [.null], fromList: false, type: .binary, quantifier: nil, description: "NULL"))
            default: return .constant(Constant(values: [.null], fromList: false, type: nil, quantifier: nil, description: "NULL"))
            }
        }
        value = try convert(value, hint: hint, node: node)
        if node.kind == .argument, node.objectClass == nil {
            let ok: Bool
            if let t = value.type, let h = hint {
                ok = DataType.comparable(t, h) || (t == .typedLink && h == .link) || (t == .string && h == .typeOfValue)
            } else {
                ok = false
            }
            if !ok {
                throw .invalidArgument(message: "Cannot compare \(explain) to a \(DataType.name(hint))", at: node.range)
            }
        }
        if hint == .typeOfValue, case let .string(s) = value {
            switch TypeOfValue.parse(s) {
            case let .success(bits):
                return .constant(Constant(values: [.typeOfValue(bits)], fromList: false, type: .typeOfValue, quantifier: nil,
                                          description: ValueText.describe(.typeOfValue(bits))))
            case let .failure(e):
                throw .invalidArgument(message: e.message, at: node.range)
            }
        }
        return .constant(Constant(single: value, type: value.type))
    }

    /// `convert_if_needed`: numbers and numeric strings take the other side's numeric type.
    func convert(_ value: QValue, hint: DataType?, node: ConstantNode) throws(QueryError) -> QValue {
        switch value {
        case let .int(i):
            return hint == .decimal ? .decimal(DecimalMath.from(i)) : value
        case let .double(d):
            if d.isInfinite, hint == .int || !(hint.map { $0.isNumeric || $0 == .mixed } ?? false) {
                throw .invalidQuery(message: "Infinity not supported for \(DataType.name(hint))", at: node.range)
            }
            switch hint {
            case .float?: return .float(Float(d))
            case .decimal?:
                if node.kind == .argument { return .decimal(DecimalMath.from(d)) }
                return .decimal(DecimalMath.parse(literalNumberText(node)) ?? DecimalMath.nan)
            case .int?:
                if let i = exactInt(d) { return .int(i) }
                return value
            default:
                return value
            }
        case let .float(f):
            if hint == .int {
                if f.isInfinite { throw .invalidQuery(message: "Infinity not supported for int", at: node.range) }
                if f.isNaN { throw .invalidQuery(message: "NaN not supported for int", at: node.range) }
                if let i = exactInt(Double(f)) { return .int(i) }
            }
            return value
        case let .string(s):
            switch hint {
            case .int?: return Numbers.streamInt(s).map(QValue.int) ?? value
            case .float?: return Numbers.streamFloat(s).map(QValue.float) ?? value
            case .double?: return Numbers.streamDouble(s).map(QValue.double) ?? value
            case .decimal?: return DecimalMath.parse(s).map(QValue.decimal) ?? value
            default: return value
            }
        default:
            return value
        }
    }

    /// A double that is exactly an int64.
    func exactInt(_ d: Double) -> Int64? {
        guard d.isFinite, d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0, d == d.rounded(.towardZero) else { return nil }
        return Int64(d)
    }

    /// The source text of a number literal, for exact decimals.
    func literalNumberText(_ node: ConstantNode) -> [UInt8] {
        node.text.last == UInt8(ascii: "f") ? Array(node.text.dropLast()) : node.text
    }

    /// The value of a literal (`ConstantNode::get_value`).
    static func literal(_ node: ConstantNode) throws(QueryError) -> QValue {
        let text = node.text
        switch node.kind {
        case .number:
            return .int(Numbers.strtoll(text))
        case .float:
            if text.last == UInt8(ascii: "f") { return .float(Numbers.strtof(text)) }
            return .double(Numbers.strtod(text))
        case .infinity:
            return .double(text.first == UInt8(ascii: "-") ? -Double.infinity : Double.infinity)
        case .nan:
            return .double(Double(bitPattern: 0x7FF8_0000_0000_0000))
        case .string:
            return .string(Array(text.dropFirst().dropLast()))
        case .base64String:
            guard let bytes = Base64.decode(text.dropFirst(4).dropLast()) else {
                throw .malformedLiteral(message: "Invalid base64 value", at: node.range)
            }
            return .string(bytes)
        case .binaryString:
            return .binary(Array(text.dropFirst().dropLast()))
        case .binaryBase64:
            guard let bytes = Base64.decode(text.dropFirst(4).dropLast()) else {
                throw .malformedLiteral(message: "Invalid base64 value", at: node.range)
            }
            return .binary(bytes)
        case .timestamp:
            return .timestamp(try timestamp(node))
        case .uuid:
            return .uuid(UUID(bytes: TypeChecker.hexBytes(text.dropFirst(5).dropLast().filter { $0 != UInt8(ascii: "-") })))
        case .objectId:
            return .objectId(ObjectId(bytes: TypeChecker.hexBytes(text.dropFirst(4).dropLast())))
        case .objectKey:
            return .link(Numbers.strtoll(text.dropFirst()))
        case .typedLink:
            let parts = text.dropFirst().split(separator: UInt8(ascii: ":"), maxSplits: 1)
            let table = UInt32(truncatingIfNeeded: Numbers.strtoll(parts[0]))
            let key = parts.count > 1 ? Numbers.strtoll(parts[1]) : 0
            return .typedLink(TableKey(value: table), key)
        case .null: return .null
        case .trueValue: return .bool(true)
        case .falseValue: return .bool(false)
        case .argument: return .null
        }
    }

    static func hexBytes<C: Collection<UInt8>>(_ hex: C) -> [UInt8] {
        var out = [UInt8]()
        var high: UInt8?
        for c in hex {
            let v: UInt8 = Lexer.isDigit(c) ? c - 48 : (c | 0x20) - 87
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return out
    }

    /// `T<seconds>:<nanos>` or `YYYY-MM-DD@HH:MM:SS[:NANOS]` (§5.8): readable dates are UTC,
    /// normalised like `timegm`, before 1900 refused, and (realm-core quirk) truncated to 32-bit
    /// seconds.
    static func timestamp(_ node: ConstantNode) throws(QueryError) -> Timestamp {
        let text = node.text
        var seconds: Int64
        var nanos: Int32
        if text.first == UInt8(ascii: "T") {
            let parts = text.dropFirst().split(separator: UInt8(ascii: ":"), maxSplits: 1)
            seconds = Numbers.strtoll(parts[0])
            nanos = Int32(truncatingIfNeeded: parts.count > 1 ? Numbers.strtoll(parts[1]) : 0)
        } else {
            let fields = text.split(whereSeparator: { !Lexer.isDigit($0) }).map { Int32(truncatingIfNeeded: Numbers.decimal($0)) }
            let year = fields[0] &- 1900
            nanos = fields.count > 6 ? fields[6] : 0
            if year < 0 {
                throw .invalidQuery(message: "Conversion of dates before 1900 is not supported.", at: node.range)
            }
            seconds = Int64(Int32(truncatingIfNeeded: Platform.timegm(tmYear: year, tmMonth: fields[1] &- 1, day: fields[2],
                                                                         hour: fields[3], minute: fields[4], second: fields[5])))
            if nanos < 0 {
                throw .malformedLiteral(message: "The nanoseconds of a Timestamp cannot be negative.", at: node.range)
            }
            if seconds < 0 { nanos = 0 &- nanos }
        }
        guard (seconds >= 0 && nanos >= 0) || (seconds <= 0 && nanos <= 0) else {
            throw .malformedLiteral(message: "Invalid timestamp format", at: node.range)
        }
        return Timestamp(seconds: seconds, nanoseconds: nanos)
    }
}
