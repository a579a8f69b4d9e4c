import RealmFormat

/// What an expression's value may be stored into: checked once against the property's type
/// when the script is read, then value by value.
enum Storing {
    /// nil when a value of type `t` fits property `p` (perhaps after a check per value), else why not.
    /// `linkTarget`: the position of `p`'s target class among the old tables (nil: a new class).
    static func mismatch(_ t: StaticType, into p: PropertySpec, linkTarget: Int?) -> String? {
        if t.kind == .null {
            if p.collection != nil { return "null cannot be stored in a collection property" }
            return PropertySpec.storedNullability(type: p.type, collection: nil, optional: p.nullable) ? nil
                : "\(p.name) is required (\(p.typeText)); null cannot be stored"
        }
        if let kind = p.collection {
            guard case let .collection(source) = t.kind else { return "\(p.name) is a \(p.typeText); give it another \(kind.rawValue) property" }
            let sameKind = source.collection == kind || (source.collection != .dictionary && kind != .dictionary)
            guard sameKind, source.type == p.type, source.objectType == p.objectType else {
                return "\(source.typeText) cannot be stored in \(p.name) (\(p.typeText))"
            }
            return nil
        }
        if case let .collection(source) = t.kind { return "\(source.typeText) cannot be stored in \(p.name) (\(p.typeText))" }
        if p.type == .link {
            guard case let .link(from) = t.kind else { return "\(p.name) links to \(p.objectType ?? "?"); \(t.text) cannot be stored in it" }
            return from == linkTarget ? nil : "\(p.name) links to \(p.objectType ?? "?"); a link to another class cannot be stored in it"
        }
        if case .link = t.kind { return "\(p.name) is a \(p.typeText); a link cannot be stored in it" }
        if p.type == .mixed || t.kind == .mixed { return nil }
        let target = ValueKind(p.type)
        if t.kind == target || widens(t.kind, to: target) { return nil }
        return "\(p.name) is a \(p.typeText); a \(t.kind.name) cannot be stored in it (convert with \(PropertySpec.typeNames[p.type] ?? target.name)(…))"
    }

    static func widens(_ from: ValueKind, to: ValueKind) -> Bool {
        switch (from, to) {
        case (.int, .double), (.int, .float), (.int, .decimal), (.float, .double), (.double, .float): return true
        default: return false
        }
    }

    /// The value to store in `column` for `v`, or why it cannot be stored.
    static func value(_ v: Value, for column: TableModel.ColumnModel) -> Result<Value, Refusal> {
        if let kind = column.collection {
            switch v {
            case .null: return .success(kind == .dictionary ? .dictionary([]) : .list([]))
            case let .list(elements):
                guard kind != .dictionary else { return .failure("a list cannot be stored in a dictionary") }
                var out = [Value]()
                out.reserveCapacity(elements.count)
                for e in elements {
                    switch element(e, column) {
                    case let .success(x):
                        if kind == .set && out.contains(where: { Operators.equal($0, x) && ValueKind.of($0) == ValueKind.of(x) }) { continue }
                        out.append(x)
                    case let .failure(why): return .failure(why)
                    }
                }
                return .success(.list(out))
            case let .dictionary(entries):
                guard kind == .dictionary else { return .failure("a dictionary cannot be stored in a \(kind.rawValue)") }
                var out = [DictionaryEntry]()
                for e in entries {
                    switch element(e.value, column) {
                    case let .success(x): out.append(DictionaryEntry(key: e.key, value: x))
                    case let .failure(why): return .failure(why)
                    }
                }
                return .success(.dictionary(out))
            default:
                return .failure("expects a \(kind.rawValue), got \(Conversion.describe(v))")
            }
        }
        return scalar(v, column)
    }

    private static func element(_ v: Value, _ column: TableModel.ColumnModel) -> Result<Value, Refusal> {
        if column.type == .link {
            if case .link = v { return .success(v) }
            if case .typedLink = v { return .success(v) }
            if v.isNull && column.collection == .dictionary { return .success(v) }
            return .failure("expects a link, got \(Conversion.describe(v))")
        }
        return scalar(v, column)
    }

    private static func scalar(_ v: Value, _ column: TableModel.ColumnModel) -> Result<Value, Refusal> {
        if v.isNull {
            return column.isNullable || column.type == .mixed || (column.type == .link && column.collection == nil)
                ? .success(.null) : .failure("the value is null, but the property is required")
        }
        switch column.type {
        case .mixed:
            switch v {
            case .list, .dictionary, .link: return .failure("\(Conversion.describe(v)) cannot be stored in a mixed property")
            default: return .success(v)
            }
        case .link:
            if case .link = v { return .success(v) }
            return .failure("expects a link, got \(Conversion.describe(v))")
        default:
            let target = ValueKind(column.type)
            let from = ValueKind.of(v)
            if from == target { return .success(v) }
            if widens(from, to: target) { return Conversion.convert(v, to: target) }
            return .failure("the property is a \(target.name); \(Conversion.describe(v)) cannot be stored in it")
        }
    }
}
