import RealmFormat
import RealmObjects

/// How a Realm value becomes an SQLite value (Docs/commands.md, "export --format sqlite"):
///
/// | Realm | column type | stored as |
/// |---|---|---|
/// | int | INTEGER | the integer |
/// | bool | BOOLEAN (numeric affinity) | 0 / 1 |
/// | float, double | REAL | the number, ±inf as REAL ±Inf; NaN, which SQLite cannot hold as a REAL (a bound NaN becomes NULL), as the TEXT `NaN`. A REAL column stores −0.0 as the integer 0, so it reads back as 0.0 (equal to it, in Realm's comparisons too); a Mixed column keeps −0.0 |
/// | string | TEXT | the bytes as stored (also invalid UTF-8) |
/// | data | BLOB | the bytes (an empty blob, never NULL) |
/// | date | TEXT | `YYYY-MM-DDTHH:MM:SS.fffffffffZ`, UTC, always nine fraction digits, so the texts sort as the dates do |
/// | decimal128 | TEXT | Realm's text (`1.50`, `-1E10`, `NaN`, `Inf`): every digit and the exponent kept |
/// | objectId | TEXT | 24 lowercase hex digits |
/// | uuid | TEXT | `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase |
/// | mixed | (none) + `<name>_type` TEXT | the value as its own type says, the Realm type name beside it |
enum ValueMapping {
    /// The declared column type of a property type (`Property.type`); links take the type of
    /// their target's key column instead.
    static func declaredType(_ propertyType: String) -> String {
        switch propertyType {
        case "int": return "INTEGER"
        case "bool": return "BOOLEAN"
        case "float", "double": return "REAL"
        case "data": return "BLOB"
        case "string", "date", "decimal128", "objectId", "uuid": return "TEXT"
        default: return ""     // mixed, typedLink: no affinity, SQLite keeps each value's own type
        }
    }

    /// The Mixed type tag of a value: the Realm type name (`int`, `string`, `date`, …, `list`,
    /// `dictionary`); nil for null. Links are tagged `object:<Class>` by the writer.
    static func mixedTag(_ value: Value) -> [UInt8]? {
        switch value {
        case .null: return nil
        case .int: return Tags.int
        case .bool: return Tags.bool
        case .float: return Tags.float
        case .double: return Tags.double
        case .string: return Tags.string
        case .binary: return Tags.data
        case .timestamp: return Tags.date
        case .decimal: return Tags.decimal
        case .objectId: return Tags.objectId
        case .uuid: return Tags.uuid
        case .link, .typedLink: return Tags.object
        case .list: return Tags.list
        case .dictionary: return Tags.dictionary
        }
    }

    enum Tags {
        static let int = Array("int".utf8), bool = Array("bool".utf8), float = Array("float".utf8)
        static let double = Array("double".utf8), string = Array("string".utf8), data = Array("data".utf8)
        static let date = Array("date".utf8), decimal = Array("decimal128".utf8), objectId = Array("objectId".utf8)
        static let uuid = Array("uuid".utf8), object = Array("object".utf8), list = Array("list".utf8)
        static let dictionary = Array("dictionary".utf8)
    }

    static let nanText = Array("NaN".utf8)
}

/// Binds scalar Realm values to statement parameters as `ValueMapping` says, formatting dates
/// and ids into one reused buffer (no allocation per value).
struct ValueBinder {
    private var scratch: [UInt8] = []
    private static let hexDigits = Array("0123456789abcdef".utf8)

    init() { scratch.reserveCapacity(64) }

    /// Any value but links and nested collections, which the writer resolves first.
    mutating func bind(_ value: Value, to statement: SQLiteStatement, at index: Int32) {
        switch value {
        case .null: statement.bindNull(index)
        case let .int(v): statement.bind(index, v)
        case let .bool(b): statement.bind(index, Int64(b ? 1 : 0))
        case let .float(f): bindDouble(Double(f), statement, index)
        case let .double(d): bindDouble(d, statement, index)
        case let .string(bytes): statement.bindText(index, bytes)
        case let .binary(bytes): statement.bindBlob(index, bytes)
        case let .timestamp(t):
            scratch.removeAll(keepingCapacity: true)
            DateText.append(t, to: &scratch, fullFraction: true)
            statement.bindText(index, scratch)
        case let .decimal(d): statement.bindText(index, Array(d.text.utf8))
        case let .objectId(o):
            scratch.removeAll(keepingCapacity: true)
            appendHex(o.bytes, dashes: [])
            statement.bindText(index, scratch)
        case let .uuid(u):
            scratch.removeAll(keepingCapacity: true)
            appendHex(u.bytes, dashes: [4, 6, 8, 10])
            statement.bindText(index, scratch)
        case .link, .typedLink, .list, .dictionary:
            // The writer resolves these before binding; reaching here is a bug of this module.
            statement.bindNull(index)
        }
    }

    private func bindDouble(_ d: Double, _ statement: SQLiteStatement, _ index: Int32) {
        if d.isNaN { statement.bindText(index, ValueMapping.nanText) } else { statement.bind(index, d) }
    }

    private mutating func appendHex(_ bytes: [UInt8], dashes: [Int]) {
        for (i, b) in bytes.enumerated() {
            if dashes.contains(i) { scratch.append(UInt8(ascii: "-")) }
            scratch.append(Self.hexDigits[Int(b >> 4)])
            scratch.append(Self.hexDigits[Int(b & 15)])
        }
    }
}
