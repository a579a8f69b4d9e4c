@testable import RealmFormat
import RealmObjects
@testable import RealmQuery
import RealmTestSupport
import XCTest

/// The in-place string scans (StringScanPlan → `StringScanTest`, run by `StringColumn` over
/// checked leaves and by `StringLeafReader.mark` leaf by leaf) against the general matcher
/// (`DirectCondition.matchesBytes` on decoded values), on generated data built to reach every
/// path: short, medium and big leaves (the form follows a leaf's longest value, §9.4), nulls
/// and empty strings, ASCII next to Latin-1 and other non-ASCII characters (Realm's `[c]`
/// folds only ASCII and Latin-1), needles at the start, end and across the 16-byte blocks of
/// the vector search, embedded NUL bytes (a medium blob's terminator), patterns longer than
/// any value.
final class StringScanTests: XCTestCase {
    static let rows = 256 * 12

    /// Row `i`'s string; the leaf it lies in (`i / 256`) decides how long values get there.
    static func text(_ i: Int, _ random: inout SeededRandom) -> [UInt8]? {
        let pieces: [[UInt8]] = ["a", "A", "r", "R", "ar", "AR", "b", "z", " ", "*", "?", "é", "É", "ß", "ÿ", "Ÿ", "日",
                                 "İ", "\u{0}", "x", "Ar", "aR"].map { Array($0.utf8) }
        let leaf = i / 256
        if leaf % 4 == 3, i % 7 == 0 { return nil }
        if i % 29 == 0 { return [] }
        let longest = [15, 63, 200, 40][leaf % 4]
        var out = [UInt8]()
        let target = Int.random(in: 0...longest, using: &random)
        while out.count < target {
            let p = pieces[Int.random(in: 0..<pieces.count, using: &random)]
            if out.count + p.count > longest { break }
            out += p
        }
        return out
    }

    static let values: [[UInt8]?] = {
        var random = SeededRandom(seed: 16)
        return (0..<rows).map { text($0, &random) }
    }()

    static let fileBytes: [UInt8] = {
        let schema = """
            [{"name": "Text", "primaryKey": null, "embedded": false, "properties": [
              {"name": "s", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
              {"name": "r", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}]}]
            """
        let (names, models) = try! SchemaBuilder.tables(fromClassesJSON: try! JSONParser.parse(schema), schemaVersion: 1)
        var all = models
        let t = all.firstIndex { $0.name == "class_Text" }!
        for i in 0..<rows {
            let key = all[t].nextObjectKey()
            let s = values[i].map(Value.string) ?? .null
            all[t].insertObject(key: key, values: [s, .string(values[i] ?? Array("null".utf8))])
        }
        return NewFile.bytes(tableNames: names, tables: try! all.map { try TableEncoder.encode($0) })
    }()

    static let patterns: [[UInt8]?] = ([nil, "", "a", "A", "ar", "AR", "aR", "é", "É", "Éa", "ß", "ÿ", "日", "İ", "\u{0}", "a\u{0}",
                                        "*", "**", "a*", "*a", "*ar*", "a*r", "*a*R*", "a?", "?", "*É*", "ar*ar*", "z*", "a**",
                                        String(repeating: "ar", count: 9), String(repeating: "a", count: 70)] as [String?])
        .map { $0.map { Array($0.utf8) } } + [[0xFF], [0x61, 0xC3]]

    static let ops: [DirectCondition.Operator] = [.equal, .notEqual, .equalIns, .notEqualIns, .beginsWith, .beginsWithIns,
                                                  .endsWith, .endsWithIns, .contains, .containsIns, .like, .likeIns]

    static func describe(_ bytes: [UInt8]?) -> String {
        bytes.map { "\"" + String(decoding: $0, as: UTF8.self) + "\" \($0)" } ?? "null"
    }

    func testFileHasEveryLeafForm() throws {
        let snapshot = try Snapshot(image: ByteImage(bytes: Self.fileBytes))
        let table = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Text"))
        for name in ["s", "r"] {
            let column = try XCTUnwrap(table.stringColumn(try XCTUnwrap(table.column(named: name))), "\(name) reads whole")
            var forms = Set<String>()
            for leaf in column.leaves {
                switch leaf {
                case .short: forms.insert("short")
                case .medium: forms.insert("medium")
                case .general: forms.insert("big")
                }
            }
            XCTAssertEqual(forms, ["short", "medium", "big"], name)
        }
    }

    /// Every operator and pattern, with every row a candidate, every third, and a few rows
    /// (the whole-leaf CONTAINS search gives way to the value-by-value test there): the scan
    /// marks exactly the rows the general matcher accepts.
    func testScansAgreeWithTheGeneralMatcher() throws {
        let snapshot = try Snapshot(image: ByteImage(bytes: Self.fileBytes))
        let table = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Text"))
        let n = Self.rows
        var candidateSets = [Bitset(count: n, filled: true), Bitset(count: n), Bitset(count: n)]
        for r in stride(from: 0, to: n, by: 3) { candidateSets[1].insert(r) }
        for r in stride(from: 5, to: n, by: 41) { candidateSets[2].insert(r) }
        var planned = 0, conditions = 0
        for name in ["s", "r"] {
            let column = try XCTUnwrap(table.column(named: name))
            let decoded = try table.values(column)
            for op in Self.ops {
                for pattern in Self.patterns {
                    let d = DirectCondition(column: column, type: .string, op: op, value: pattern.map(QValue.string) ?? .null)
                    conditions += 1
                    if d.scanTest != nil { planned += 1 }
                    for (c, candidates) in candidateSets.enumerated() {
                        snapshot.resetWorkBudget()          // one scan is one top-level operation
                        let scanned = try XCTUnwrap(try Evaluator(table: table).scan(d, candidates))
                        var expected = Bitset(count: n)
                        candidates.forEach { r in if d.matches(decoded[r]) { expected.insert(r) } }
                        if scanned != expected {
                            let row = (0..<n).first { scanned.contains($0) != expected.contains($0) }!
                            XCTFail("Text.\(name) \(op) \(Self.describe(pattern)), candidates \(c): row \(row) (\(Self.describe(Self.values[row]))) "
                                    + "scanned \(scanned.contains(row)), general \(expected.contains(row))")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(planned, conditions * 3 / 4, "most conditions run as byte tests")
    }

    /// The leaf-by-leaf path (`StringLeafReader.mark`, for big leaves and columns that fail a
    /// check) marks what the column scan marks.
    func testLeafByLeafMarkingAgreesWithTheColumn() throws {
        let snapshot = try Snapshot(image: ByteImage(bytes: Self.fileBytes))
        let table = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Text"))
        let column = try XCTUnwrap(table.column(named: "s"))
        let whole = try XCTUnwrap(table.stringColumn(column))
        let refs = try table.columnRefs(column)
        let leaves = try table.leaves()
        let all = Bitset(count: Self.rows, filled: true)
        for op in Self.ops {
            for pattern in Self.patterns {
                let d = DirectCondition(column: column, type: .string, op: op, value: pattern.map(QValue.string) ?? .null)
                guard let test = d.scanTest else { continue }
                snapshot.resetWorkBudget()
                var byColumn = [UInt64](repeating: 0, count: all.words.count)
                try whole.mark(test, candidates: all.words, into: &byColumn, snapshot: snapshot)
                var byLeaf = [UInt64](repeating: 0, count: all.words.count)
                for (l, (_, start)) in leaves.enumerated() {
                    try StringLeafReader(snapshot, ref: refs[l]).mark(test, candidates: all.words, into: &byLeaf, first: start)
                }
                if byColumn != byLeaf {
                    let row = (0..<Self.rows).first { Bitset.test(byColumn, $0) != Bitset.test(byLeaf, $0) }!
                    XCTFail("Text.s \(op) \(Self.describe(pattern)): row \(row) (\(Self.describe(Self.values[row]))) "
                            + "column \(Bitset.test(byColumn, row)), leaf by leaf \(Bitset.test(byLeaf, row))")
                }
            }
        }
    }

    /// The byte tests against the general matcher on random texts and patterns over a small
    /// alphabet with case pairs and multi-byte characters: values up to 100 bytes (so the
    /// vector search meets hits in every lane and at block edges), LIKE patterns with stars
    /// anywhere (split into parts; those with `?` or `**` have no plan).
    func testByteTestsAgreeOnRandomTextsAndPatterns() throws {
        let snapshot = try Snapshot(image: ByteImage(bytes: Self.fileBytes))
        let table = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Text"))
        let column = try XCTUnwrap(table.column(named: "s"))
        let alphabet: [[UInt8]] = ["a", "A", "b", "B", "*", "é", "É", "\u{0}"].map { Array($0.utf8) }
        var random = SeededRandom(seed: 7)
        func word(_ maxPieces: Int) -> [UInt8] {
            (0..<Int.random(in: 0...maxPieces, using: &random)).flatMap { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        }
        let texts = (0..<300).map { _ in word(60) }
        var planned = 0
        for _ in 0..<400 {
            let pattern = word(5)
            for op in Self.ops {
                let d = DirectCondition(column: column, type: .string, op: op, value: .string(pattern))
                guard let test = d.scanTest else { continue }
                planned += 1
                for t in texts {
                    XCTAssertEqual(test.matches(t), d.matchesBytes(t.span), "\(op) \(pattern) on \(t)")
                }
                XCTAssertEqual(test.matches(nil), d.matchesBytes(nil), "\(op) \(pattern) on null")
            }
        }
        XCTAssertGreaterThan(planned, 400 * 8)
    }

    /// A vector search over a buffer: every start the pattern matches at, found in order from
    /// any `from`, with `readable` at the end of the range (the bytes after it are left to the
    /// byte-by-byte tail) or further.
    func testFirstMatchFindsEveryPlaceInOrder() throws {
        var random = SeededRandom(seed: 3)
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...90, using: &random)).map { _ in UInt8.random(in: 0x60...0x63, using: &random) }
            let pattern = (0..<Int.random(in: 1...5, using: &random)).map { _ in UInt8.random(in: 0x60...0x62, using: &random) }
            let upper: [UInt8] = pattern.map { $0 == 0x61 ? 0x41 : $0 }
            let bytes = try XCTUnwrap(BytePattern(either: pattern, or: upper))
            let padded = text + [UInt8](repeating: 0x61, count: 32)
            for readable in [text.count, padded.count] {
                let lo = Int.random(in: 0...text.count, using: &random)
                let found = padded.withUnsafeBytes { b in bytes.firstMatch(in: b.baseAddress!, from: lo, to: text.count, readable: readable) }
                func matchesAt(_ s: Int) -> Bool {
                    for k in 0..<pattern.count where text[s + k] != pattern[k] && text[s + k] != upper[k] { return false }
                    return true
                }
                let naive = (lo..<max(lo, text.count - pattern.count + 1)).first(where: matchesAt)
                XCTAssertEqual(found, naive, "\(pattern) in \(text) from \(lo), readable \(readable)")
            }
        }
    }

    /// A string column with a damaged medium leaf (an end past its blob) is not read whole;
    /// the scan goes leaf by leaf and reports the damage, and the file's other column still
    /// reads whole.
    func testDamagedStringLeafFallsBackToTheLeafByLeafError() throws {
        let clean = try Snapshot(image: ByteImage(bytes: Self.fileBytes))
        let table = try XCTUnwrap(ObjectStore(snapshot: clean).table(className: "Text"))
        let s = try XCTUnwrap(table.column(named: "s"))
        // Leaf 1 holds values up to 63 bytes: a medium leaf [offsets, blob, nulls].
        let leafRef = try table.columnRefs(s)[1]
        let leaf = try clean.node(leafRef)
        XCTAssertTrue(leaf.hasRefs && !leaf.context)
        let offsets = try clean.node(try XCTUnwrap(leaf.ref(0)))
        var bytes = Self.fileBytes
        // The last end's top byte set: far past the blob, whatever the width.
        bytes[offsets.ref + 8 + (offsets.count * offsets.width + 7) / 8 - 1] |= 0x40
        let damaged = try Snapshot(image: ByteImage(bytes: bytes))
        let store = ObjectStore(snapshot: damaged)
        let t = try XCTUnwrap(store.table(className: "Text"))
        XCTAssertNil(t.stringColumn(s))
        XCTAssertNotNil(t.stringColumn(try XCTUnwrap(t.column(named: "r"))))
        for q in ["s CONTAINS[c] 'ar'", "s BEGINSWITH 'a'", "s LIKE '*a*b'", "s ==[c] 'AR'"] {
            XCTAssertThrowsError(try Query(store: store, className: "Text", q).count(), q) { error in
                guard case FormatError.corrupt = error else { return XCTFail("\(q): \(error)") }
            }
        }
    }

    /// SORT … LIMIT by a string property decided by 8-byte prefixes (BoundedSort over
    /// `StringColumn.prefixKeys`) is the prefix of the full sort, ascending and descending,
    /// with nulls, empty strings, values equal in their first 8 bytes or entirely, and a
    /// second key to break those ties; also after a filter (candidates in some rows only).
    func testSortThenLimitByPrefixIsThePrefixOfTheFullSort() throws {
        let store = ObjectStore(snapshot: try Snapshot(image: ByteImage(bytes: Self.fileBytes)))
        for filter in ["TRUEPREDICATE", "r CONTAINS 'a'"] {
            for keys in ["s ASC", "s DESC", "s ASC, r DESC", "r DESC, s ASC", "s DESC, r ASC"] {
                let full = try Query(store: store, className: "Text", "\(filter) SORT(\(keys))").rows()
                for n in [1, 9, 300] {
                    let limited = try Query(store: store, className: "Text", "\(filter) SORT(\(keys)) LIMIT(\(n))").rows()
                    XCTAssertEqual(limited, Array(full.prefix(n)), "\(filter) SORT(\(keys)) LIMIT(\(n))")
                }
            }
        }
    }

    /// `prefixKeys` orders like the bytes: for every pair of values, keys that differ agree
    /// with the byte order, from offset 0 and 8, and rows in any order get their own keys.
    func testPrefixKeysOrderLikeTheBytes() throws {
        let snapshot = try Snapshot(image: ByteImage(bytes: Self.fileBytes))
        let table = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Text"))
        let column = try XCTUnwrap(table.stringColumn(try XCTUnwrap(table.column(named: "s"))))
        let rows = Array(0..<Self.rows)
        var shuffled = rows
        var random = SeededRandom(seed: 5)
        shuffled.shuffle(using: &random)
        for offset in [0, 8] {
            let keys = try column.prefixKeys(of: rows, offset: offset, snapshot: snapshot)
            let again = try column.prefixKeys(of: shuffled, offset: offset, snapshot: snapshot)
            for (k, row) in shuffled.enumerated() { XCTAssertEqual(again[k], keys[row], "row \(row) looked up out of order") }
            for row in rows {
                XCTAssertEqual(keys[row], StringColumn.prefixKey(of: Self.values[row], offset: offset), "row \(row)")
                XCTAssertEqual(try column.value(ofRow: row, snapshot: snapshot), Self.values[row], "row \(row)")
            }
            for _ in 0..<20_000 {
                let a = Int.random(in: 0..<Self.rows, using: &random), b = Int.random(in: 0..<Self.rows, using: &random)
                guard keys[a] != keys[b] else { continue }
                let x = Array((Self.values[a] ?? []).dropFirst(offset)), y = Array((Self.values[b] ?? []).dropFirst(offset))
                XCTAssertEqual(keys[a] < keys[b], x.lexicographicallyPrecedes(y), "rows \(a) and \(b) from \(offset)")
            }
        }
    }

    /// A full SORT by plain string and int properties read in place (`ColumnSort`) gives the
    /// general sort's order (`SortTable` over decoded values): ascending and descending, nulls,
    /// ties on the whole string broken by the next key or by position, rows in any order.
    func testColumnSortAgreesWithTheGeneralSort() throws {
        let store = ObjectStore(snapshot: try Snapshot(image: ByteImage(bytes: Self.fileBytes)))
        let table = try XCTUnwrap(store.table(className: "Text"))
        var shuffled = Array(0..<Self.rows)
        var random = SeededRandom(seed: 9)
        shuffled.shuffle(using: &random)
        for keys in ["s ASC", "s DESC", "r ASC, s DESC", "s DESC, r ASC", "r DESC"] {
            let q = try Query(store: store, className: "Text", "TRUEPREDICATE SORT(\(keys))")
            guard case let .sort(sortKeys)? = q.orderings.first else { return XCTFail("no SORT in \(keys)") }
            for rows in [Array(0..<Self.rows), shuffled, Array(shuffled.prefix(100))] {
                let sort = try XCTUnwrap(try ColumnSort.make(table: table, keys: sortKeys, rows: rows))
                let general = try SortTable(rows, sortKeys).sortedRows(prefix: nil)
                XCTAssertEqual(sort.sorted(rows, prefix: nil), general, "SORT(\(keys)) of \(rows.count) rows")
                XCTAssertEqual(sort.sorted(rows, prefix: 7), Array(general.prefix(7)), "SORT(\(keys)) LIMIT(7)")
            }
        }
    }

    /// Damaged copies of the file (a few bytes changed at random past the header) make the
    /// string scans, the whole-leaf CONTAINS, the prefix-key selection and the full sort throw
    /// or answer, never trap.
    func testDamagedFilesThrowInsteadOfTrapping() throws {
        var random = SeededRandom(seed: 20261202)
        var opened = 0, answered = 0
        let queries = ["s CONTAINS[c] 'ar'", "r CONTAINS 'a'", "s BEGINSWITH 'a'", "r LIKE '*a*r'", "s ==[c] 'AR'", "r ENDSWITH[c] 'ß'",
                       "s != 'a'", "TRUEPREDICATE SORT(s ASC) LIMIT(5)", "TRUEPREDICATE SORT(r DESC, s ASC)"]
        for n in 0..<120 {
            var bytes = Self.fileBytes
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 24..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let snapshot = try? Snapshot(image: ByteImage(bytes: bytes)) else { continue }
            opened += 1
            let store = ObjectStore(snapshot: snapshot)
            guard store.table(className: "Text") != nil else { continue }
            // (The full sort on every fourth copy: it is the slowest, and its reads are the others'.)
            for q in queries where n % 4 == 0 || !q.hasSuffix("s ASC)") {
                if (try? Query(store: store, className: "Text", q).rows()) != nil { answered += 1 }
            }
        }
        XCTAssertGreaterThan(opened, 60)
        XCTAssertGreaterThan(answered, opened)
    }
}
