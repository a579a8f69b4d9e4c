import RealmFormat
import RealmObjects

/// Objects read back from what `export` writes, into one write transaction (`RealmWriter`).
///
/// The dump and JSON Lines name objects by identity: links are the target's primary key or
/// `{"$key": N}`, and may point at objects later in the input (or in a cycle). So for those
/// (`identities`), every object is created first with its `_key` kept (classes without
/// primary key: the identities `{"$key": N}` links use) and without its links, which are set
/// once every object exists — all in the same transaction, so nothing lands unless all of it
/// does. Other inputs (JSON arrays of one class, CSV) are written as `insert` writes them:
/// links resolve on the spot and nested objects are created.
final class ObjectImport {
    let writer: RealmWriter
    let policy: RealmWriter.Policy
    /// The input names objects by identity: keep `_key`s, set links last.
    let identities: Bool
    /// How an object is named in messages, from its position in the input (`line 3`).
    let place: (Int) -> String
    private(set) var count = 0
    /// How many objects `add(_:values:object:)` wrote by their values (the CSV fast path).
    private(set) var typedCount = 0
    /// Links to set once every object exists: class, ObjKey, the link members, position.
    private var deferred: [(ObjectClass, Int64, [(key: String, value: JSONValue)], Int)] = []

    init(writer: RealmWriter, policy: RealmWriter.Policy, identities: Bool, place: @escaping (Int) -> String) {
        self.writer = writer
        self.policy = policy
        self.identities = identities
        self.place = place
    }

    /// Writes one object of class `className`.
    func add(_ object: JSONValue, className: String) throws(ShellError) {
        let index = count
        count += 1
        do {
            guard identities, let c = writer.file.objectClass(named: className), case let .object(members) = object else {
                try writer.write(className: className, object: object, policy: policy, index: index)
                return
            }
            var now = [(key: String, value: JSONValue)](), later = [(key: String, value: JSONValue)]()
            for member in members {
                if let p = c.property(named: member.key), Self.dependsOnOthers(p, member.value) {
                    later.append(member)
                } else {
                    now.append(member)
                }
            }
            let key = try writer.write(className: className, object: .object(now), policy: policy, index: index, keepingKey: true)
            if !later.isEmpty { deferred.append((c, key, later, index)) }
        } catch {
            throw failure(error, at: index)
        }
    }

    /// Writes every row of CSV of class `c` (`CSVReader`); `row` hears of each row's line
    /// (before it is written) and the offset after it. With `typed` (and the insert policy),
    /// rows of a class of plain scalars whose every field `CSVTypedRow` can type go straight
    /// to a `ScalarRowInserter`. If that insert fails — a duplicate primary key, say —
    /// nothing was changed (`TableEditor.insert` refuses before it changes anything), and
    /// the row goes the general way, as do all other rows: a JSON object through `add`,
    /// which names any problem as every other input's objects are named.
    func addCSV(_ bytes: [UInt8], of c: ObjectClass, typed: Bool, row: (_ line: Int, _ offset: Int) -> Void) throws {
        var records = CSVReader.Records(bytes)
        try addCSV(&records, of: c, typed: typed, row: row)
    }

    /// `addCSV` of records read as they come (`CSVReader.Records(chunks:)`): each row is
    /// written before the next is read, so only a window of the input is held.
    func addCSV(_ records: inout CSVReader.Records, of c: ObjectClass, typed: Bool, row: (_ line: Int, _ offset: Int) -> Void) throws {
        let reader = CSVReader(objectClass: c, file: writer.file)
        guard try records.next() else { return }
        let columns = try reader.header(records.record, records.bytes, line: records.line)
        var typedRows = 0
        defer { typedCount += typedRows }
        /// The current record's line, once its field count is checked.
        func checkedLine() throws(CSVReader.Failure) -> Int {
            guard records.record.count == columns.count else {
                throw CSVReader.Failure(line: records.line, message: "\(records.record.count) fields, but the header has \(columns.count)")
            }
            row(records.line, records.offset)
            return records.line
        }
        // Bound once, outside the loop (a binding per row would copy the inserter each time).
        if typed && policy == .insert, let inserter = try writer.scalarRowInserter(c),
           var fast = CSVTypedRow(objectClass: c, header: columns, inserter: inserter) {
            while try records.next() {
                let line = try checkedLine()
                if fast.read(records.record, records.bytes), (try? inserter.insert(fast.cells, key: fast.key)) != nil {
                    count += 1
                    typedRows += 1
                    continue
                }
                try add(try reader.object(records.record, records.bytes, columns, line: line), className: c.name)
            }
        } else {
            while try records.next() {
                let line = try checkedLine()
                try add(try reader.object(records.record, records.bytes, columns, line: line), className: c.name)
            }
        }
    }

    /// Sets the links deferred by `add` and commits. Returns what the input did (the second
    /// pass's updates are not counted: they complete objects the first pass created).
    func commit() throws(ShellError) -> RealmWriter.Summary {
        var summary = writer.summary
        for (c, key, members, index) in deferred {
            do { try writer.update(className: c.name, keys: [key], values: .object(members)) } catch {
                throw failure(error, at: index)
            }
        }
        do { try writer.commit() } catch { throw WriteSupport.failure(error, path: writer.path) }
        summary.deleted = writer.summary.deleted
        return summary
    }

    /// A writer error named by the object's place in the input (the writer's own index is the
    /// one `add` gave it, or 0 for the deferred links' update).
    private func failure(_ error: Error, at index: Int) -> ShellError {
        if let e = error as? ShellError { return e }
        if let e = error as? InputError {
            let located = InputError(objectIndex: nil, className: e.className, property: e.property, e.reason)
            return ShellError("\(writer.path): \(place(index)): \(located.message); nothing was written", code: .dataError)
        }
        return WriteSupport.failure(error, path: writer.path)
    }

    /// Whether a member names other objects: a link (embedded objects too, which may hold
    /// links), or a Mixed value holding a `$link`.
    static func dependsOnOthers(_ p: Property, _ value: JSONValue) -> Bool {
        if case .null = value { return false }
        if p.type == "object" { return true }
        return p.type == "mixed" && mentionsLink(value)
    }

    static func mentionsLink(_ json: JSONValue) -> Bool {
        switch json {
        case let .object(members): return members.contains { $0.key == "$link" || mentionsLink($0.value) }
        case let .array(elements): return elements.contains(where: mentionsLink)
        default: return false
        }
    }
}
