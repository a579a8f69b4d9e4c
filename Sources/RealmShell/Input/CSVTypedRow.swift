import RealmFormat
import RealmObjects

/// The fast path of a CSV import (issue #16): a record's fields typed straight into the
/// table cells a `ScalarRowInserter` takes, without a JSON object per row. It applies
/// when the header names every property of the class once and each is a plain int, bool,
/// float, double, string or date (no links, collections or Mixed values); a class without
/// primary key may have its `_key` column (the ObjKey kept, as the general path keeps it).
///
/// It only ever accepts what the general path (`CSVReader.value` → the writer's strict
/// coercion) reads as the same value: a field in any other form (an int written `+5` or
/// `1.0`, a required field left empty, a date that does not parse, a number out of range)
/// gives nil, and the row goes the general way, which writes it or names the problem —
/// so messages and results are the general path's by construction.
struct CSVTypedRow {
    enum Kind { case int, bool, float, double, string, date }

    struct Column {
        let kind: Kind
        let nullable: Bool
        /// Where the field's value goes: its property's table column (`ScalarRowInserter.columns`).
        let cell: Int
        /// The field's position in the record.
        let field: Int
    }

    let columns: [Column]
    /// The position of the `_key` field (a class without primary key, as export writes it).
    let keyField: Int?
    /// The row's cells, reused from row to row: what was not set is the inserter's default.
    private(set) var cells: [Value]
    /// The ObjKey the row's `_key` field names (nil without a `_key` column).
    private(set) var key: Int64?

    /// Nil when the fast path does not apply to this class and header (nil: `_key`).
    init?(objectClass c: ObjectClass, header: [Property?], inserter: ScalarRowInserter) {
        var seen = [Bool](repeating: false, count: c.properties.count)
        var columns: [Column] = [], keyField: Int?
        for (field, p) in header.enumerated() {
            guard let p else {
                // `_key` (CSVReader.header allows it only without a primary key), once.
                guard c.primaryKey == nil, keyField == nil else { return nil }
                keyField = field
                continue
            }
            guard let position = c.properties.firstIndex(where: { $0.name == p.name }), !seen[position],
                  p.collection == nil else { return nil }
            seen[position] = true
            let kind: Kind
            switch p.column.type {
            case .int: kind = .int
            case .bool: kind = .bool
            case .float: kind = .float
            case .double: kind = .double
            case .string: kind = .string
            case .timestamp: kind = .date
            default: return nil
            }
            columns.append(Column(kind: kind, nullable: p.isOptional, cell: inserter.columns[position], field: field))
        }
        guard columns.count == c.properties.count else { return nil }
        self.columns = columns
        self.keyField = keyField
        cells = inserter.defaultRow
    }

    /// Sets `cells` from the record; false if a field is not in a form this path reads
    /// exactly as the general one does.
    mutating func read(_ record: CSVReader.Record, _ bytes: [UInt8]) -> Bool {
        if let keyField {
            // As `CSVReader.object` reads `_key`: Int64 of its text, not negative.
            guard let k = Int64(String(decoding: record.text(keyField, bytes), as: UTF8.self)), k >= 0 else { return false }
            key = k
        }
        for i in columns.indices {
            let span = record.spans[columns[i].field]
            // Fields are read in place (an index range of the input or of the record's
            // arena), not as slices: no reference counting per field.
            let ok = span.quoted ? set(columns[i], record.arena, span.start..<span.end, quoted: true)
                                 : set(columns[i], bytes, span.start..<span.end, quoted: false)
            guard ok else { return false }
        }
        return true
    }

    /// Sets the column's cell from the field `t[r]`; false if the general path must read it.
    private mutating func set(_ column: Column, _ t: [UInt8], _ r: Range<Int>, quoted: Bool) -> Bool {
        if column.kind == .string, !r.isEmpty, isASCII(t, r), case .string(var previous) = cells[column.cell] {
            // ASCII text into the previous row's array: the editor copied its bytes into the
            // column, so the array is ours alone again — no allocation per string. Unless an
            // index's pending entries keep the value (an indexed string property): then each
            // row gets a new array, which must not inherit a capacity the allocator rounded
            // up, row after row (it crept to 700 bytes per name in a 200,000-row import).
            cells[column.cell] = .null
            if previous.capacity > 2 * Swift.max(r.count, 32) {
                previous = []
            } else {
                previous.removeAll(keepingCapacity: true)
            }
            previous.append(contentsOf: t[r])
            cells[column.cell] = .string(previous)
            return true
        }
        guard let v = Self.value(t, r, quoted: quoted, column) else { return false }
        cells[column.cell] = v
        return true
    }

    private func isASCII(_ t: [UInt8], _ r: Range<Int>) -> Bool {
        for i in r where t[i] >= 0x80 { return false }
        return true
    }

    /// One field `t[r]` as `CSVReader.value` and `ValueCoercion.scalar` read it, or nil.
    static func value(_ t: [UInt8], _ r: Range<Int>, quoted: Bool, _ column: Column) -> Value? {
        // An empty unquoted field is null (`CSVReader.value`); a required property refuses it.
        if r.isEmpty && !quoted { return column.nullable ? .null : nil }
        switch column.kind {
        case .int:
            return int(t, r).map(Value.int)
        case .bool:
            if t[r] == trueText { return .bool(true) }
            if t[r] == falseText { return .bool(false) }
            return nil
        case .double:
            return double(t, r).map(Value.double)
        case .float:
            // As `ValueCoercion.scalar`: a finite double that overflows a float is refused.
            guard let d = double(t, r) else { return nil }
            let f = Float(d)
            return f.isFinite || !d.isFinite ? .float(f) : nil
        case .string:
            // The general path reads the field as a String (invalid UTF-8 becomes U+FFFD).
            if t[r].allSatisfy({ $0 < 0x80 }) { return .string(Array(t[r])) }
            return .string(Array(String(decoding: t[r], as: UTF8.self).utf8))
        case .date:
            return ValueParsing.date(utf8: t[r]).map(Value.timestamp)
        }
    }

    /// A JSON integer (`-?(0|[1-9][0-9]*)`, what the general path parses as a JSON number)
    /// that fits an Int64, else nil. Accumulated negatively so that Int64.min fits.
    static func int(_ t: [UInt8], _ r: Range<Int>) -> Int64? {
        var i = r.lowerBound
        let end = r.upperBound
        let negative = i < end && t[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end else { return nil }
        if t[i] == UInt8(ascii: "0") { return i + 1 == end ? 0 : nil }
        var v: Int64 = 0
        while i < end {
            let d = t[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            v = s
            i += 1
        }
        if negative { return v }
        return v == .min ? nil : -v
    }

    /// A double as the general path reads one: `NaN`, `Infinity`, `-Infinity`, or text of
    /// JSON's number grammar converted by `Double(String)` (as `ValueCoercion.double`).
    static func double(_ t: [UInt8], _ r: Range<Int>) -> Double? {
        guard isJSONNumber(t, r) else {
            if t[r] == nanText { return .nan }
            if t[r] == infinityText { return .infinity }
            if t[r] == minusInfinityText { return -.infinity }
            return nil
        }
        return decimal(t, r) ?? Double(String(decoding: t[r], as: UTF8.self))
    }

    /// Powers of ten a double holds exactly (10^22 is the last).
    static let exactPowersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }

    /// JSON number text without an exponent and with at most 15 digits, as `Double(String)`
    /// reads it, without making a String: its digits m < 10^15 < 2^53 and 10^k (k ≤ 15
    /// fraction digits) are exact doubles, so the one IEEE division m / 10^k is the correctly
    /// rounded value of the text — what the correctly rounding strtod gives (Clinger 1990's
    /// fast path). Nil for anything else (the caller's `Double(String)` reads it).
    static func decimal(_ t: [UInt8], _ r: Range<Int>) -> Double? {
        var i = r.lowerBound
        let negative = t[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var m: UInt64 = 0, digits = 0, fraction = 0, inFraction = false
        while i < r.upperBound {
            let b = t[i]
            if b == UInt8(ascii: ".") {
                inFraction = true
            } else {
                let d = b &- UInt8(ascii: "0")
                guard d < 10 else { return nil }  // an exponent
                m = m * 10 + UInt64(d)
                digits += 1
                if inFraction { fraction += 1 }
                guard digits <= 15 else { return nil }
            }
            i += 1
        }
        let v = Double(m) / exactPowersOfTen[fraction]
        return negative ? -v : v
    }

    /// The words a field is compared with, as bytes (no String made per field).
    static let trueText = Array("true".utf8)[...], falseText = Array("false".utf8)[...]
    static let nanText = Array("NaN".utf8)[...], infinityText = Array("Infinity".utf8)[...], minusInfinityText = Array("-Infinity".utf8)[...]

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` (RFC 8259 §6), as `JSONParser` reads numbers.
    static func isJSONNumber(_ t: [UInt8], _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        let end = r.upperBound
        func isDigit(_ at: Int) -> Bool { at < end && t[at] >= UInt8(ascii: "0") && t[at] <= UInt8(ascii: "9") }
        func digits() -> Int {
            let s = i
            while isDigit(i) { i += 1 }
            return i - s
        }
        if i < end && t[i] == UInt8(ascii: "-") { i += 1 }
        if i < end && t[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return false
        }
        if i < end && t[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < end && (t[i] == UInt8(ascii: "e") || t[i] == UInt8(ascii: "E")) {
            i += 1
            if i < end && (t[i] == UInt8(ascii: "+") || t[i] == UInt8(ascii: "-")) { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == end
    }
}
