import Foundation
import RealmFormat
import RealmObjects
@testable import RealmShell
import RealmTestSupport
import XCTest

/// The CSV import's fast path (`CSVTypedRow`, issue #16) against the general one (a JSON
/// object per row through the writer's coercion): the same CSV gives the same file, byte for
/// byte, and the same one-line error with nothing written — for edge-case fields the fast
/// path types itself, fields it hands back to the general path, bad fields of every type,
/// duplicate primary keys (within the CSV and with an object already there), unknown columns.
final class CSVFastPathTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let schema = #"""
        [{"name": "Person", "primaryKey": "id", "embedded": false, "properties": [
          {"name": "id", "type": "int", "optional": false, "indexed": true, "primaryKey": true, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "name", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "age", "type": "int", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "score", "type": "double", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "ratio", "type": "float", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "active", "type": "bool", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "created", "type": "date", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "email", "type": "string", "optional": true, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}]},
         {"name": "Note", "primaryKey": null, "embedded": false, "properties": [
          {"name": "text", "type": "string", "optional": false, "indexed": false, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null},
          {"name": "n", "type": "int", "optional": true, "indexed": true, "primaryKey": false, "collection": null, "objectType": null, "linkOrigin": null}]}]
        """#

    func newFile(_ name: String) throws -> String { try Self.newFile(name, in: dir) }

    /// A new file `name` in `dir` of `schema`, made by `realmsh create` (also for
    /// `CSVStreamedImportTests`).
    static func newFile(_ name: String, in dir: String) throws -> String {
        let schemaPath = dir + "/schema.json"
        try Data(schema.utf8).write(to: URL(fileURLWithPath: schemaPath))
        let path = dir + "/" + name
        let run = realmsh("create", "--schema", schemaPath, path)
        XCTAssertEqual(run.code, 0, run.stderr)
        return path
    }

    /// Imports `csv` into `path` as `import` does, typed or all the general way: the summary
    /// and how many rows the fast path wrote, or the error message as `import` prints it.
    func load(_ csv: [UInt8], into path: String, typed: Bool, className: String = "Person") throws -> Result<(String, Int), ShellError> {
        let writer = try RealmWriter(path: path)
        let c = try XCTUnwrap(writer.file.objectClass(named: className))
        var lines = [Int]()
        let load = ObjectImport(writer: writer, policy: .insert, identities: true) { i in "line \(lines[i])" }
        do {
            do {
                try load.addCSV(csv, of: c, typed: typed) { line, _ in lines.append(line) }
            } catch let failure as CSVReader.Failure {
                throw ShellError("line \(failure.line): \(failure.message); nothing was written", code: .dataError)
            }
            let summary = try load.commit()
            return .success((summary.description, load.typedCount))
        } catch {
            writer.rollback()
            return .failure(ShellError.from(error, path: path))
        }
    }

    let header = "id,name,age,score,ratio,active,created,email\r\n"

    func testEdgeCaseFieldsGiveTheFileTheGeneralPathWrites() throws {
        // Typed by the fast path: quoting, escaped quotes, a quoted line break, UTF-8 and a
        // byte that is not UTF-8, "" against null, Int64's ends, -0, JSON number forms, NaN
        // and the infinities, a float that underflows, dates with fractions and offsets, LF
        // and CRLF, a trailing blank line; columns in another order than the schema's.
        var rows = [
            #"0,"Smith, Ann",0,0,,true,2020-01-01T00:00:00Z,"#,
            #"1,"Say ""hi""",-0,-0.0,1.5,false,1970-01-01,"""#,
            "2,\"two\nlines\",9223372036854775807,1e3,3.4e38,true,2021-06-30T12:34:56.123456789Z,a@b.c",
            "3,Zoë Ünïcode ✓,-9223372036854775808,1.5E-3,1e-50,false,-0001-03-01T00:00:00+02:00,x",
            "4,plain,42,NaN,NaN,true,1969-12-31 23:59:59.5,",
            "5,inf,7,Infinity,-Infinity,false,2000-02-29T10:00,",
            "6,neg,8,-Infinity,0,true,2038-01-19T03:14:08-05:30,",
        ].joined(separator: "\r\n")
        rows += "\n7,\u{1}ctl,9,0.1,2.5,true,2020-01-01T00:00:00Z,\"\"\n\r\n"
        var csv = Array((header + rows).utf8)
        // A byte that is not UTF-8 in a name: the general path reads it as U+FFFD.
        csv.append(contentsOf: Array("8,bad".utf8) + [0xFF] + Array(",1,2,3,true,2020-01-01,\n".utf8))
        // Handed back to the general path (which writes them): a space before a number.
        csv.append(contentsOf: Array("9,spaced, 5,2,,false,2020-01-01,\n".utf8))
        try compare(csv, typedRows: 9, total: 10)
        // The columns in another order.
        let reordered = "email,created,active,ratio,score,age,name,id\n,2020-01-01T00:00:00Z,true,,1,2,Ann,10\nq@r,1999-12-31,false,0.5,2,,Bob,11\n"
        try compare(Array(reordered.utf8), typedRows: 2, total: 2)
    }

    /// Imports `csv` both ways into new files: the same summary, the same bytes.
    func compare(_ csv: [UInt8], typedRows: Int, total: Int, className: String = "Person",
                 file: StaticString = #filePath, line: UInt = #line) throws {
        let fast = try newFile("fast-\(line).realm"), general = try newFile("general-\(line).realm")
        let a = try load(csv, into: fast, typed: true, className: className), b = try load(csv, into: general, typed: false, className: className)
        switch (a, b) {
        case let (.success(x), .success(y)):
            XCTAssertEqual(x.0, "inserted \(total), updated 0, deleted 0", file: file, line: line)
            XCTAssertEqual(x.0, y.0, file: file, line: line)
            XCTAssertEqual(x.1, typedRows, "rows the fast path wrote", file: file, line: line)
            XCTAssertEqual(y.1, 0, file: file, line: line)
        default:
            XCTFail("\(a) / \(b)", file: file, line: line)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fast)), try Data(contentsOf: URL(fileURLWithPath: general)),
                       "the same file", file: file, line: line)
        XCTAssertEqual(Data(realmsh("export", fast).stdout), Data(realmsh("export", general).stdout), file: file, line: line)
    }

    /// A class without primary key keeps the ObjKeys of its `_key` column (as export writes
    /// it) on the fast path too, and a key in use or not a key fails as the general path does.
    func testKeyColumnOfAClassWithoutPrimaryKey() throws {
        let csv = "_key,text,n\n5,five,1\n+7,seven,\n2,two,2\n\"9\",nine,3\n1,\"\",4\n"
        try compare(Array(csv.utf8), typedRows: 5, total: 5, className: "Note")
        // Without `_key`: keys from the counter, on both paths alike.
        try compare(Array("n,text\n1,a\n,b\n".utf8), typedRows: 2, total: 2, className: "Note")
        let path = try newFile("notes.realm")
        XCTAssertEqual(try load(Array("_key,text,n\n3,there,\n".utf8), into: path, typed: true, className: "Note").map(\.1).get(), 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let cases: [(String, String)] = [
            ("_key,text,n\n4,a,\n4,b,\n", "line 3: Note._key: an object with key 4 exists already"),
            ("_key,text,n\n4,a,\n3,b,\n", "line 3: Note._key: an object with key 3 exists already"),
            ("_key,text,n\n4,a,\n-1,b,\n", "line 3: _key: not an object key: '-1'"),
            ("_key,text,n\n4,a,\nx,b,\n", "line 3: _key: not an object key: 'x'"),
        ]
        for (text, expected) in cases {
            let fast = try load(Array(text.utf8), into: path, typed: true, className: "Note")
            let general = try load(Array(text.utf8), into: path, typed: false, className: "Note")
            guard case let .failure(f) = fast, case let .failure(g) = general else {
                XCTFail("\(text): should fail: \(fast) / \(general)")
                continue
            }
            XCTAssertEqual(f.message, g.message, text)
            XCTAssertEqual(f.code, g.code, text)
            XCTAssertTrue(f.message.contains(expected), "\(f.message) should contain \(expected)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(text): a failed import changes nothing")
        }
    }

    func testBadFieldsDuplicateKeysAndUnknownColumnsFailAsTheGeneralPathDoes() throws {
        let path = try newFile("bad.realm")
        // One object there already: a row with its primary key is a duplicate too.
        XCTAssertEqual(try load(Array((header + "100,there,1,1,,true,2020-01-01,\n").utf8), into: path, typed: true).map(\.1).get(), 1)
        let good = "1,Ann,30,1.5,,true,2020-01-01T00:00:00Z,a@b.c\n"
        let cases: [(String, String)] = [
            (header + good + "2,Bob,forty,1,,true,2020-01-01,\n", "line 3: Person.age: expects an int, got the string \"forty\""),
            (header + good + "2,Bob,1.5,1,,true,2020-01-01,\n", "line 3: Person.age: expects an int, got the number 1.5"),
            (header + good + "2,Bob,+5,1,,true,2020-01-01,\n", "line 3: Person.age: expects an int"),
            (header + good + "2,Bob,9223372036854775808,1,,true,2020-01-01,\n", "line 3: Person.age: expects an int"),
            (header + good + "2,Bob,1,abc,,true,2020-01-01,\n", "line 3: Person.score: expects a double"),
            (header + good + "2,Bob,1,,,true,2020-01-01,\n", "line 3: Person.score: is required; null is not allowed"),
            (header + good + "2,Bob,1,1,1e39,true,2020-01-01,\n", "line 3: Person.ratio: 1e+39 does not fit a float"),
            (header + good + "2,Bob,1,1,,yes,2020-01-01,\n", "line 3: Person.active: expects a bool"),
            (header + good + "2,Bob,1,1,,true,yesterday,\n", "line 3: Person.created: expects a date"),
            (header + good + "2,,1,1,,true,2020-01-01,\n", "line 3: Person.name: is required; null is not allowed"),
            (header + good + "x,Bob,1,1,,true,2020-01-01,\n", "line 3: Person.id: expects an int"),
            (header + good + "1,Bob,1,1,,true,2020-01-01,\n", "line 3: Person.id: an object with primary key 1 already exists"),
            (header + good + "100,Bob,1,1,,true,2020-01-01,\n", "line 3: Person.id: an object with primary key 100 already exists"),
            (header + good + "2,Bob,1,1,,true\n", "line 3: 6 fields, but the header has 8"),
            ("id,nmae,age,score,ratio,active,created,email\n" + good, "line 1: Person has no property 'nmae' (a header names properties); did you mean 'name'?"),
            // Not every property in the header: the general path for every row.
            ("id,name,age,active,created,email\n1,Ann,1,true,2020-01-01,\n", "line 2: Person.score: is required but missing"),
        ]
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for (text, expected) in cases {
            let fast = try load(Array(text.utf8), into: path, typed: true)
            let general = try load(Array(text.utf8), into: path, typed: false)
            guard case let .failure(f) = fast, case let .failure(g) = general else {
                XCTFail("\(text): should fail: \(fast) / \(general)")
                continue
            }
            XCTAssertEqual(f.message, g.message, text)
            XCTAssertEqual(f.code, g.code, text)
            XCTAssertEqual(f.code, .dataError, text)
            XCTAssertTrue(f.message.contains(expected), "\(f.message) should contain \(expected)")
            XCTAssertTrue(f.message.hasSuffix("nothing was written"), f.message)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(text): a failed import changes nothing")
        }
    }

    /// Numbers typed by the fast path are the general path's: an int only in JSON's integer
    /// form within Int64, and a double bit for bit what `Double(String)` reads (its
    /// division fast path for short decimals included), over generated numbers.
    func testNumbersAreReadAsTheGeneralPathReadsThem() {
        func slice(_ s: String) -> ([UInt8], Range<Int>) {
            // In the middle of other bytes, as a field is.
            let b = Array(",\(s),".utf8)
            return (b, 1..<(b.count - 1))
        }
        func int(_ s: String) -> Int64? { let (b, r) = slice(s); return CSVTypedRow.int(b, r) }
        func double(_ s: String) -> Double? { let (b, r) = slice(s); return CSVTypedRow.double(b, r) }
        func decimal(_ s: String) -> Double? { let (b, r) = slice(s); return CSVTypedRow.decimal(b, r) }
        for (text, expected) in [("0", Int64(0)), ("-0", 0), ("42", 42), ("9223372036854775807", .max), ("-9223372036854775808", .min)] {
            XCTAssertEqual(int(text), expected, text)
        }
        for text in ["", "-", "01", "+1", "1.0", "1e2", " 1", "9223372036854775808", "-9223372036854775809", "0x10"] {
            XCTAssertNil(int(text), text)
        }
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "0.0", "-0.0", "69.503", "0.1", "0.3", "123456789012345", "1234567890123456", "0.000000000000001",
                     "9007199254740993", "1.7976931348623157e308", "5e-324", "1e23", "1E-7", "2.5e+3", "100000000000000000000000"]
        for _ in 0..<20_000 {
            let digits = (0..<Int.random(in: 1...18, using: &generator)).map { _ in String(Int.random(in: 0...9, using: &generator)) }
            var text = digits.joined()
            while text.count > 1 && text.hasPrefix("0") { text.removeFirst() }
            let point = Int.random(in: 0...text.count, using: &generator)
            if point > 0 && point < text.count { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if Bool.random(using: &generator) { text = "-" + text }
            texts.append(text)
        }
        var fast = 0
        for text in texts {
            let general = Double(text)
            XCTAssertEqual(double(text)?.bitPattern, general?.bitPattern, text)
            if decimal(text) != nil { fast += 1 }
        }
        XCTAssertGreaterThan(fast, texts.count / 2, "most of these take the division fast path")
        XCTAssertEqual(double("NaN")?.isNaN, true)
        XCTAssertEqual(double("-Infinity"), -.infinity)
        for text in [".5", "5.", "1e", "--1", "Inf", "nan", "1,5"] { XCTAssertNil(double(text), text) }
    }

    /// The command line's CSV import takes the fast path and fails as it always did: exit 65,
    /// one line naming line, class and property, the file unchanged.
    func testTheImportCommandFailsWithOneLineAndWritesNothing() throws {
        let path = try newFile("cli.realm")
        let csv = dir + "/people.csv"
        try Data((header + "1,Ann,30,1.5,,true,2020-01-01T00:00:00Z,a@b.c\n2,Bob,31,2.5,,false,2020-01-02T00:00:00Z,\n").utf8)
            .write(to: URL(fileURLWithPath: csv))
        let ok = realmsh("import", path, "Person", csv)
        XCTAssertEqual(ok.code, 0, ok.stderr)
        XCTAssertEqual(ok.stderr, "inserted 2, updated 0, deleted 0\n")
        XCTAssertEqual(realmsh("export", "--format", "csv", "--class", "Person", path).out,
                       "id,name,age,score,ratio,active,created,email\r\n1,Ann,30,1.5,,true,2020-01-01T00:00:00Z,a@b.c\r\n2,Bob,31,2.5,,false,2020-01-02T00:00:00Z,\r\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try Data((header + "3,Cy,30,1.5,,true,2020-01-01,\n2,Bob,31,2.5,,false,2020-01-02,\n").utf8).write(to: URL(fileURLWithPath: csv))
        let dup = realmsh("import", path, "Person", csv)
        XCTAssertEqual(dup.code, 65)
        XCTAssertEqual(dup.stderr, "Error: \(path): line 3: Person.id: an object with primary key 2 already exists (use upsert to update it); nothing was written\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        // --upsert takes the general path: the existing object is updated, the new one inserted.
        let upsert = realmsh("import", path, "Person", csv, "--upsert")
        XCTAssertEqual(upsert.code, 0, upsert.stderr)
        XCTAssertEqual(upsert.stderr, "inserted 1, updated 1, deleted 0\n")
        XCTAssertEqual(realmsh("export", "--format", "csv", "--class", "Person", path).out,
                       "id,name,age,score,ratio,active,created,email\r\n1,Ann,30,1.5,,true,2020-01-01T00:00:00Z,a@b.c\r\n"
                       + "2,Bob,31,2.5,,false,2020-01-02T00:00:00Z,\r\n3,Cy,30,1.5,,true,2020-01-01T00:00:00Z,\r\n")
    }
}
