import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// Seeded random writes on a copy of realm-core's alltypes.realm (issue 19): imports, upserts,
/// updates, deletes and refused writes over every property type of AllTypes — float and
/// double sets with NaN, ±0 and ±inf, dictionaries with keys of every shape (unsorted, NUL,
/// non-ASCII, shared prefixes, empty) at the top level and inside Mixed values, indexed
/// strings and ints with many duplicates, links by every primary-key form export writes.
/// After every step the file verifies, every object of every class reads back exactly (to
/// the bit, collections in order) as a model of the writes says — so objects and properties
/// no step touched keep their values and their stored set order — and every 25 steps the
/// canonical dump is written.
///
/// `REALMSH_RANDOM_WRITE_STEPS` (default 200), `REALMSH_RANDOM_WRITE_SEED` (19) and
/// `REALMSH_RANDOM_WRITE_OBJECTS` (live AllTypes objects kept around, default 60) make long
/// runs; `REALMSH_RANDOM_WRITE_CHECK` names a program run on the file after every step (a
/// Realm Core verifier built outside the repository, say), whose non-zero exit fails the step.
final class RandomWriteModelTests: XCTestCase {
    struct Stop: Error {}

    var dir = ""
    var path = ""
    var random = SeededRandom(seed: 19)
    var seed: UInt64 = 19

    /// AllTypes objects by primary key (24 hex digits): one value per property.
    var model: [String: [Value]] = [:]
    /// Objects of every other class by ObjKey, as first read; NoPK's `allTypes` link is
    /// checked against `noPKTarget`, embedded objects only while an AllTypes object owns them.
    var others: [String: [Int64: [Value]]] = [:]
    var noPKTarget: [Int64: String?] = [:]
    /// ObjKeys of the AllTypes objects, by primary key, as last read.
    var keyOfPK: [String: Int64] = [:]

    var allTypes: ObjectClass!
    var properties: [Property] { allTypes.properties }
    var linkTargets: [(pk: String, key: Int64)] = []
    var intPKs: [(pk: Int64, key: Int64)] = []
    var uuidPKs: [(pk: [UInt8], key: Int64)] = []
    var noPKKeys: [Int64] = []
    var linkTargetTable = TableKey(value: 0)
    var embeddedTables: Set<TableKey> = []

    override func setUpWithError() throws {
        let environment = ProcessInfo.processInfo.environment
        seed = environment["REALMSH_RANDOM_WRITE_SEED"].flatMap { UInt64($0) } ?? 19
        random = SeededRandom(seed: seed)
        dir = Fixtures.temporaryDirectory()
        path = try Fixtures.copy("realm-core/alltypes.realm", into: dir)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testRandomWritesKeepTheFileEqualToTheModel() throws {
        let environment = ProcessInfo.processInfo.environment
        let steps = environment["REALMSH_RANDOM_WRITE_STEPS"].flatMap { Int($0) } ?? 200
        let objectLimit = environment["REALMSH_RANDOM_WRITE_OBJECTS"].flatMap { Int($0) } ?? 60
        try readInitialState()
        var counts: [String: Int] = [:]
        for step in 0..<steps {
            let roll = Int.random(in: 0..<100, using: &random)
            let kind: String
            switch roll {
            case ..<5: kind = "refused"
            case ..<30: kind = model.count > objectLimit ? "delete" : "import"
            case ..<55: kind = "upsert"
            case ..<80: kind = "update"
            default: kind = model.isEmpty ? "import" : "delete"
            }
            counts[kind, default: 0] += 1
            let what = "seed \(seed), step \(step) (\(kind))"
            do {
                switch kind {
                case "import": try importObjects()
                case "upsert": try upsertObjects()
                case "update": try updateObjects()
                case "delete": try deleteObjects()
                default: try refusedWrite(what)
                }
            } catch {
                XCTFail("\(what): \(error)")
                throw Stop()
            }
            try check(what, dump: step % 25 == 24 || step == steps - 1)
            if step % 500 == 499 { print("random writes: seed \(seed), \(step + 1) steps clean, \(model.count) AllTypes objects") }
        }
        print("random writes: seed \(seed), \(steps) steps clean (\(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), \(model.count) AllTypes objects at the end")
    }

    // MARK: steps

    func importObjects() throws {
        var objects: [JSONValue] = []
        var rows: [(String, [Value])] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let pk = newPrimaryKey()
            var members: [(key: String, value: JSONValue)] = [("_id", .object([("$oid", .text(pk))]))]
            var row = properties.map(defaultValue)
            row[pkIndex] = .objectId(ObjectId(bytes: hexBytes(pk)))
            for (i, p) in properties.enumerated() where i != pkIndex && isWritable(p) {
                guard isRequired(p) || Bool.random(using: &random) else { continue }
                let (json, value) = generate(p)
                members.append((p.name, json))
                row[i] = value
            }
            objects.append(.object(members.shuffled(using: &random)))
            rows.append((pk, row))
        }
        try transaction { w in try w.write(className: "AllTypes", objects: objects, policy: .insert) }
        for (pk, row) in rows { model[pk] = row }
    }

    func upsertObjects() throws {
        var objects: [JSONValue] = []
        var changes: [(String, [(Int, Value)])] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let existing = !model.isEmpty && Int.random(in: 0..<4, using: &random) > 0
            let pk = existing ? model.keys.sorted().randomElement(using: &random)! : newPrimaryKey()
            var members: [(key: String, value: JSONValue)] = [("_id", .object([("$oid", .text(pk))]))]
            var changed: [(Int, Value)] = []
            for (i, p) in properties.enumerated() where i != pkIndex && isWritable(p) {
                guard (!existing && isRequired(p)) || Int.random(in: 0..<4, using: &random) == 0 else { continue }
                let (json, value) = generate(p)
                members.append((p.name, json))
                changed.append((i, value))
            }
            objects.append(.object(members))
            changes.append((pk, changed))
        }
        try transaction { w in try w.write(className: "AllTypes", objects: objects, policy: .upsert) }
        for (pk, changed) in changes {
            if model[pk] == nil {
                var row = properties.map(defaultValue)
                row[pkIndex] = .objectId(ObjectId(bytes: hexBytes(pk)))
                model[pk] = row
            }
            for (i, value) in changed { model[pk]![i] = mergedSet(old: model[pk]![i], new: value, properties[i]) }
        }
    }

    func updateObjects() throws {
        guard !model.isEmpty else { return try importObjects() }
        let pks = Array(model.keys.sorted().shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
        var members: [(key: String, value: JSONValue)] = []
        var changed: [(Int, Value)] = []
        for (i, p) in properties.enumerated() where i != pkIndex && isWritable(p) && Int.random(in: 0..<5, using: &random) == 0 {
            let (json, value) = generate(p)
            members.append((p.name, json))
            changed.append((i, value))
        }
        let keys = try objectKeys(pks)
        try transaction { w in try w.update(className: "AllTypes", keys: keys, values: .object(members)) }
        for pk in pks {
            for (i, value) in changed { model[pk]![i] = mergedSet(old: model[pk]![i], new: value, properties[i]) }
        }
    }

    func deleteObjects() throws {
        guard !model.isEmpty else { return }
        let pks = Array(model.keys.sorted().shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
        let keys = try objectKeys(pks)
        try transaction { w in try w.delete(className: "AllTypes", keys: keys) }
        for pk in pks { model[pk] = nil }
        for (key, target) in noPKTarget where target.map({ pks.contains($0) }) ?? false { noPKTarget[key] = .some(nil) }
    }

    /// A write that must be refused leaves the file byte for byte (and the model) as it was.
    func refusedWrite(_ what: String) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let bad: JSONValue
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !model.isEmpty:
            bad = .object([("_id", .object([("$oid", .text(model.keys.sorted().randomElement(using: &random)!))])), ("intCol", .number("1"))])
        case 1: bad = .object([("_id", .object([("$oid", .text(newPrimaryKey()))])), ("mixedSet", .array([.array([.number("1")])]))])
        case 2: bad = .object([("_id", .object([("$oid", .text(newPrimaryKey()))])), ("intDict", .object([("$key", .number("1"))]))])
        default: bad = .object([("_id", .object([("$oid", .text(newPrimaryKey()))])), ("floatSet", .array([.text("1")]))])
        }
        let writer = try RealmWriter(path: path)
        XCTAssertThrowsError(try writer.write(className: "AllTypes", objects: [bad], policy: .insert), "\(what): \(bad.compactText)")
        writer.rollback()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(what): a refused write changed the file")
    }

    func transaction(_ body: (RealmWriter) throws -> Void) throws {
        let writer = try RealmWriter(path: path)
        do {
            try body(writer)
            try writer.commit()
        } catch {
            writer.rollback()
            throw error
        }
    }

    /// An upsert or update giving a set the elements it has keeps the stored set.
    func mergedSet(old: Value, new: Value, _ p: Property) -> Value {
        guard p.collection == .set, case let .list(x) = old, case let .list(y) = new, x.count == y.count else { return new }
        let order = { (a: Value, b: Value) in LeafEncoder.setCompare(a, b, type: p.column.type) < 0 }
        let same = zip(x.sorted(by: order), y.sorted(by: order)).allSatisfy { LeafEncoder.setCompare($0, $1, type: p.column.type) == 0 }
        return same ? old : new
    }

    // MARK: values

    var pkIndex: Int { properties.firstIndex { $0.isPrimaryKey }! }

    /// Embedded objects are left alone (their owners' links are checked).
    func isWritable(_ p: Property) -> Bool {
        guard p.type == "object", let target = p.column.targetTable else { return true }
        return !embeddedTables.contains(target)
    }

    func isRequired(_ p: Property) -> Bool {
        !p.isOptional && p.collection == nil && p.type != "object" && p.type != "mixed"
    }

    func defaultValue(_ p: Property) -> Value {
        switch p.collection {
        case .dictionary?: return .dictionary([])
        case .list?, .set?: return .list([])
        case nil: return .null
        }
    }

    func newPrimaryKey() -> String {
        while true {
            let pk = (0..<12).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
            if model[pk] == nil { return pk }
        }
    }

    /// A random value of property `p`: its JSON and what the file then holds.
    func generate(_ p: Property) -> (JSONValue, Value) {
        if p.type == "object" { return link(p) }
        let type = p.column.type
        switch p.collection {
        case nil:
            if p.name == "indexedString" { return pick([(.null, .null), (.text(""), .string([])), (.text("dup"), .string(Array("dup".utf8))),
                                                        (.text("日本"), .string(Array("日本".utf8)))]) }
            if p.name == "indexedInt" { let v = Int64.random(in: -1...2, using: &random); return (.number("\(v)"), .int(v)) }
            return element(type, nullable: p.isOptional, depth: 0)
        case .list?, .set?:
            var json: [JSONValue] = [], values: [Value] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let (j, v) = element(type, nullable: p.isOptional, depth: p.collection == .set ? 3 : 0)
                json.append(j)
                values.append(v)
            }
            return (.array(json), .list(p.collection == .set ? StoredValueModel.expectedSet(values, type: type) : values))
        case .dictionary?:
            let (json, entries) = dictionary { self.element(type, nullable: p.isOptional, depth: 0) }
            return (json, .dictionary(entries))
        }
    }

    /// Keys of every shape, some given twice (the later one counts), in random order.
    func dictionary(_ value: () -> (JSONValue, Value)) -> (JSONValue, [DictionaryEntry]) {
        let keys = ["b", "a", "ab", "abc", "a\u{0}b", "é", "日本", "Z", "_", "", "zz"]
        var members: [(key: String, value: JSONValue)] = [], entries: [DictionaryEntry] = []
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let key = keys.randomElement(using: &random)!
            let (j, v) = value()
            members.append((key, j))
            entries.append(DictionaryEntry(key: .string(Array(key.utf8)), value: v))
        }
        return (.object(members), StoredValueModel.expectedDictionary(entries))
    }

    func pick(_ choices: [(JSONValue, Value)]) -> (JSONValue, Value) { choices.randomElement(using: &random)! }

    /// One value of a column type; `depth` limits Mixed nesting (3: no nested collection).
    func element(_ type: ColumnType, nullable: Bool, depth: Int) -> (JSONValue, Value) {
        if nullable && Int.random(in: 0..<6, using: &random) == 0 { return (.null, .null) }
        func special(_ name: String) -> JSONValue { .object([("$numberDouble", .text(name))]) }
        switch type {
        case .bool:
            let b = Bool.random(using: &random)
            return (.bool(b), .bool(b))
        case .int:
            let v = [0, -1, 1, 7, .min, .max, Int64.random(in: -1000...1000, using: &random)].randomElement(using: &random)!
            return (.number("\(v)"), .int(v))
        case .float:
            let f: Float = [.nan, 0, -0.0, 1.5, -2.25, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                            Float.random(in: -100...100, using: &random)].randomElement(using: &random)!
            return (f.isNaN ? special("NaN") : f.isInfinite ? special(f > 0 ? "Infinity" : "-Infinity") : .number("\(f)"), .float(f))
        case .double:
            let d: Double = [.nan, 0, -0.0, 1.5, -2.25, .infinity, -.infinity, 5e-324, .greatestFiniteMagnitude, 1e21,
                             Double.random(in: -100...100, using: &random)].randomElement(using: &random)!
            return (d.isNaN ? special("NaN") : d.isInfinite ? special(d > 0 ? "Infinity" : "-Infinity") : .number("\(d)"), .double(d))
        case .string:
            let s = ["", "a", "ab", "abc", "é", "日本語", "nul\u{0}inside", "emoji 👩‍👩‍👧", String(repeating: "x", count: 70),
                     "s\(Int.random(in: 0..<1000, using: &random))"].randomElement(using: &random)!
            return (.text(s), .string(Array(s.utf8)))
        case .binary:
            let bytes = random.bytes(Int.random(in: 0...20, using: &random))
            return (.object([("$binary", .object([("base64", .text(Data(bytes).base64EncodedString())), ("subType", .text("00"))]))]), .binary(bytes))
        case .timestamp:
            let millis = [0, -1500, 1500, -1, Int64.random(in: -4_000_000_000_000...4_000_000_000_000, using: &random)].randomElement(using: &random)!
            return (.object([("$date", .object([("$numberLong", .text("\(millis)"))]))]),
                    .timestamp(Timestamp(seconds: millis / 1000, nanoseconds: Int32(millis % 1000) * 1_000_000)))
        case .decimal:
            let choices: [(String, Decimal128)] = [
                ("1.5", Decimal128(negative: false, coefficient: 15, exponent: -1)),
                ("1.50", Decimal128(negative: false, coefficient: 150, exponent: -2)),
                ("-123.456", Decimal128(negative: true, coefficient: 123_456, exponent: -3)),
                ("0", Decimal128(negative: false, coefficient: 0, exponent: 0)),
                ("-0", Decimal128(negative: true, coefficient: 0, exponent: 0)),
                ("1E10", Decimal128(negative: false, coefficient: 1, exponent: 10)),
                ("NaN", Decimal128(kind: .nan, negative: false, coefficient: 0, exponent: 0)),
                ("-Inf", Decimal128(kind: .infinity, negative: true, coefficient: 0, exponent: 0)),
            ]
            let (text, d) = choices.randomElement(using: &random)!
            return (.object([("$numberDecimal", .text(text))]), .decimal(d))
        case .objectId:
            let bytes = Bool.random(using: &random) ? [UInt8](repeating: 0, count: 11) + [UInt8.random(in: 0...3, using: &random)] : random.bytes(12)
            return (.object([("$oid", .text(hex(bytes)))]), .objectId(ObjectId(bytes: bytes)))
        case .uuid:
            let bytes = Bool.random(using: &random) ? [UInt8](repeating: 0, count: 15) + [UInt8.random(in: 0...3, using: &random)] : random.bytes(16)
            let h = hex(bytes)
            let text = [h.prefix(8), h.dropFirst(8).prefix(4), h.dropFirst(12).prefix(4), h.dropFirst(16).prefix(4), h.dropFirst(20)].joined(separator: "-")
            return (.object([("$uuid", .text(text))]), .uuid(RealmFormat.UUID(bytes: bytes)))
        case .mixed:
            return mixed(depth: depth)
        default:
            return (.null, .null)
        }
    }

    /// A Mixed value: any scalar, a nested list or dictionary (keys unsorted) while `depth`
    /// allows, or a link to a LinkTarget at the top.
    func mixed(depth: Int) -> (JSONValue, Value) {
        switch Int.random(in: 0..<14, using: &random) {
        case 0: return (.null, .null)
        case 1: return (.number("2.5"), .double(2.5))
        case 2: return (.number("-0.0"), .double(-0.0))
        case 3: return element(.int, nullable: false, depth: 0)
        case 4: return (.object([("$numberDouble", .text("NaN"))]), .double(.nan))
        case 5: return element(.string, nullable: false, depth: 0)
        case 6: return element(.bool, nullable: false, depth: 0)
        case 7: return element(.objectId, nullable: false, depth: 0)
        case 8: return element(.timestamp, nullable: false, depth: 0)
        case 9: return element(.decimal, nullable: false, depth: 0)
        case 10 where depth < 2:
            var json: [JSONValue] = [], values: [Value] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let (j, v) = mixed(depth: depth + 1)
                json.append(j)
                values.append(v)
            }
            return (.array(json), .list(values))
        case 11 where depth < 2:
            let (json, entries) = dictionary { self.mixed(depth: depth + 1) }
            return (json, .dictionary(entries))
        case 12 where depth == 0 || depth == 3:
            let target = linkTargets.randomElement(using: &random)!
            return (.object([("$link", .object([("class", .text("LinkTarget")), ("id", .text(target.pk))]))]),
                    .typedLink(table: linkTargetTable, key: target.key))
        default: return element(.uuid, nullable: false, depth: 0)
        }
    }

    /// A link value of `p` in an export form: a string, int or `{"$uuid": …}` primary key,
    /// or `{"$key": N}`.
    func link(_ p: Property) -> (JSONValue, Value) {
        func one() -> (JSONValue, Int64) {
            switch p.name {
            case "intPkCol":
                let t = intPKs.randomElement(using: &random)!
                return (.number("\(t.pk)"), t.key)
            case "uuidPkList":
                let t = uuidPKs.randomElement(using: &random)!
                let h = hex(t.pk)
                let text = [h.prefix(8), h.dropFirst(8).prefix(4), h.dropFirst(12).prefix(4), h.dropFirst(16).prefix(4), h.dropFirst(20)].joined(separator: "-")
                return (.object([("$uuid", .text(text))]), t.key)
            case "noPkCol":
                let k = noPKKeys.randomElement(using: &random)!
                return (.object([("$key", .number("\(k)"))]), k)
            default:
                let t = linkTargets.randomElement(using: &random)!
                return (.text(t.pk), t.key)
            }
        }
        switch p.collection {
        case nil:
            if Int.random(in: 0..<4, using: &random) == 0 { return (.null, .null) }
            let (j, k) = one()
            return (j, .link(k))
        case .list?, .set?:
            var json: [JSONValue] = [], values: [Value] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let (j, k) = one()
                json.append(j)
                values.append(.link(k))
            }
            return (.array(json), .list(p.collection == .set ? StoredValueModel.expectedSet(values, type: .link) : values))
        case .dictionary?:
            let (json, entries) = dictionary {
                if Int.random(in: 0..<4, using: &random) == 0 { return (.null, .null) }
                let (j, k) = one()
                return (j, .typedLink(table: linkTargetTable, key: k))
            }
            return (json, .dictionary(entries))
        }
    }

    // MARK: checking

    func readInitialState() throws {
        let file = try RealmFile(path: path)
        allTypes = try XCTUnwrap(file.objectClass(named: "AllTypes"))
        embeddedTables = Set(file.classes.filter(\.isEmbedded).map(\.table.key))
        for c in file.classes where c.name != "AllTypes" {
            var rows: [Int64: [Value]] = [:]
            try file.forEachObject(of: c) { key, row in rows[key] = Array(row) }
            others[c.name] = rows
        }
        func column(_ className: String, _ name: String) throws -> Int {
            try XCTUnwrap(file.objectClass(named: className)?.properties.firstIndex { $0.name == name })
        }
        let target = try XCTUnwrap(file.objectClass(named: "LinkTarget"))
        linkTargetTable = target.table.key
        let targetPK = try column("LinkTarget", "_id"), intPK = try column("IntPK", "_id"), uuidPK = try column("UUIDPK", "_id")
        linkTargets = others["LinkTarget"]!.compactMap { key, row in
            if case let .string(s) = row[targetPK] { return (String(decoding: s, as: UTF8.self), key) } else { return nil }
        }.sorted { $0.key < $1.key }
        intPKs = others["IntPK"]!.compactMap { key, row in if case let .int(v) = row[intPK] { return (v, key) } else { return nil } }.sorted { $0.key < $1.key }
        uuidPKs = others["UUIDPK"]!.compactMap { key, row in if case let .uuid(u) = row[uuidPK] { return (u.bytes, key) } else { return nil } }.sorted { $0.key < $1.key }
        noPKKeys = others["NoPK"]!.keys.sorted()
        let keyToPK = try allTypesByKey(file).mapValues(\.pk)
        let noPKLink = try column("NoPK", "allTypes")
        for (key, row) in others["NoPK"]! {
            if case let .link(k) = row[noPKLink] { noPKTarget[key] = keyToPK[k] } else { noPKTarget[key] = .some(nil) }
        }
        let stored = try allTypesByKey(file)
        model = Dictionary(uniqueKeysWithValues: stored.values.map { ($0.pk, $0.row) })
        keyOfPK = Dictionary(uniqueKeysWithValues: stored.map { ($0.value.pk, $0.key) })
        XCTAssertEqual(model.count, 8)
    }

    func allTypesByKey(_ file: RealmFile) throws -> [Int64: (pk: String, row: [Value])] {
        var out: [Int64: (pk: String, row: [Value])] = [:]
        let pk = pkIndex
        try file.forEachObject(of: try XCTUnwrap(file.objectClass(named: "AllTypes"))) { key, row in
            guard case let .objectId(id) = row[pk] else { return }
            out[key] = (hex(id.bytes), Array(row))
        }
        return out
    }

    /// ObjKeys of AllTypes objects, as the last check read them.
    func objectKeys(_ pks: [String]) throws -> [Int64] {
        try pks.map { try XCTUnwrap(keyOfPK[$0], "AllTypes \($0)") }
    }

    /// `dump`: also write the canonical dump (the slowest part of a check).
    func check(_ what: String, dump: Bool) throws {
        let snapshot = try Snapshot(path: path)
        let problems = Verifier.verify(snapshot).problems
        guard problems.isEmpty else {
            XCTFail("\(what): verify: \(problems.prefix(5).map(\.description))")
            throw Stop()
        }
        let file = try RealmFile(path: path, snapshot: snapshot)
        let stored = try allTypesByKey(file)
        var failures: [String] = []
        for (_, object) in stored.sorted(by: { $0.key < $1.key }) {
            guard let expected = model[object.pk] else {
                failures.append("AllTypes \(object.pk) should not exist")
                continue
            }
            for (i, p) in properties.enumerated() where !StoredValueModel.same(object.row[i], expected[i]) {
                failures.append("AllTypes \(object.pk).\(p.name): expected \(expected[i]), read \(object.row[i])")
            }
        }
        if stored.count != model.count { failures.append("\(stored.count) AllTypes objects, the model has \(model.count)") }
        // Other classes: as first read; NoPK's link follows deletions; embedded objects live
        // while their AllTypes owner does.
        let pkOfKey = stored.mapValues(\.pk)
        keyOfPK = Dictionary(uniqueKeysWithValues: stored.map { ($0.value.pk, $0.key) })
        var owned = Set<Int64>()
        for row in model.values {
            for (i, p) in properties.enumerated() where p.type == "object" && !isWritable(p) { owned.formUnion(Self.linkedKeys(row[i])) }
        }
        for c in file.classes where c.name != "AllTypes" {
            var rows: [Int64: [Value]] = [:]
            try file.forEachObject(of: c) { key, row in rows[key] = Array(row) }
            var expected = others[c.name] ?? [:]
            if c.name == "EmbeddedObj" { expected = expected.filter { owned.contains($0.key) } }
            if c.name == "EmbeddedInner" {
                let inner = try XCTUnwrap(file.objectClass(named: "EmbeddedObj")?.properties.firstIndex { $0.name == "inner" })
                let reachable = Set((others["EmbeddedObj"] ?? [:]).filter { owned.contains($0.key) }.flatMap { Self.linkedKeys($0.value[inner]) })
                expected = expected.filter { reachable.contains($0.key) }
            }
            if rows.count != expected.count { failures.append("\(c.name): \(rows.count) objects, expected \(expected.count)") }
            let noPKLink = c.name == "NoPK" ? c.properties.firstIndex { $0.name == "allTypes" } : nil
            for (key, row) in rows.sorted(by: { $0.key < $1.key }) {
                guard var want = expected[key] else {
                    failures.append("\(c.name) \(key) should not exist")
                    continue
                }
                if let noPKLink {
                    let target = noPKTarget[key] ?? nil
                    want[noPKLink] = target.flatMap { pk in pkOfKey.first { $0.value == pk }.map { Value.link($0.key) } } ?? .null
                }
                for i in row.indices where !StoredValueModel.same(row[i], want[i]) {
                    failures.append("\(c.name) \(key).\(c.properties[i].name): expected \(want[i]), read \(row[i])")
                }
            }
        }
        if let checker = ProcessInfo.processInfo.environment["REALMSH_RANDOM_WRITE_CHECK"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: checker)
            process.arguments = [path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus != 0 { failures.append("\(checker) exits \(process.terminationStatus): \(text)") }
        }
        if dump {
            let sink = MemorySink()
            try CanonicalDump.write(file, to: sink)
            if sink.bytes.isEmpty { failures.append("empty export") }
        }
        guard failures.isEmpty else {
            XCTFail("\(what): \(failures.count) differences from the model:\n" + failures.prefix(8).joined(separator: "\n"))
            throw Stop()
        }
    }

    static func linkedKeys(_ value: Value) -> [Int64] {
        switch value {
        case let .link(k), let .typedLink(_, k): return [k]
        case let .list(elements): return elements.flatMap(linkedKeys)
        case let .dictionary(entries): return entries.flatMap { linkedKeys($0.value) }
        default: return []
        }
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func hexBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            let j = text.index(i, offsetBy: 2)
            out.append(UInt8(text[i..<j], radix: 16)!)
            i = j
        }
        return out
    }
}
