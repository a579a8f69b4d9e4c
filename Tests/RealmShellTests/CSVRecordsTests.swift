import Foundation
@testable import RealmShell
import XCTest

/// `CSVReader.Records` (fields as spans of the input, quoted ones in an arena; issue #16)
/// against the plain reader it replaced, kept here as the model: a byte at a time into one
/// array per field. Over hand-made and generated inputs of commas, quotes, CR and LF, both
/// give the same records (text, quoted or not), the same first lines and offsets, and the
/// same errors — and so do the records read in chunks of 1, 2, 3 and 7 bytes, as `import`
/// reads a CSV file (a window of it held, not the file).
final class CSVRecordsTests: XCTestCase {
    struct Row: Equatable {
        var fields: [[UInt8]], quoted: [Bool], line: Int, offset: Int
    }

    /// The reader before issue #16, unchanged but for collecting its records.
    static func model(_ bytes: [UInt8]) -> Result<[Row], CSVReader.Failure> {
        var rows = [Row]()
        var i = 0, line = 1
        var headerFields: Int?
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        while i < bytes.count {
            let start = line
            var fields = [([UInt8], Bool)]()
            var text = [UInt8](), quoted = false
            var ended = false
            while i < bytes.count, !ended {
                let b = bytes[i]
                if b == quote && text.isEmpty && !quoted {
                    quoted = true
                    i += 1
                    var closed = false
                    while i < bytes.count {
                        if bytes[i] == quote {
                            if i + 1 < bytes.count, bytes[i + 1] == quote {
                                text.append(quote)
                                i += 2
                                continue
                            }
                            i += 1
                            closed = true
                            break
                        }
                        if bytes[i] == 10 { line += 1 }
                        text.append(bytes[i])
                        i += 1
                    }
                    if !closed { return .failure(CSVReader.Failure(line: start, message: "a quoted field is not closed")) }
                    if i < bytes.count, ![comma, 10, 13].contains(bytes[i]) {
                        return .failure(CSVReader.Failure(line: line, message: "text after a quoted field's closing quote"))
                    }
                    continue
                }
                switch b {
                case comma:
                    fields.append((text, quoted))
                    text = []
                    quoted = false
                    i += 1
                case 13 where i + 1 < bytes.count && bytes[i + 1] == 10, 10:
                    i += b == 13 ? 2 : 1
                    line += 1
                    ended = true
                default:
                    text.append(b)
                    i += 1
                }
            }
            fields.append((text, quoted))
            if fields.count == 1, fields[0].0.isEmpty, !fields[0].1, headerFields != 1 { continue }
            if headerFields == nil { headerFields = fields.count }
            rows.append(Row(fields: fields.map(\.0), quoted: fields.map(\.1), line: start, offset: i))
        }
        return .success(rows)
    }

    static func records(_ bytes: [UInt8]) -> Result<[Row], CSVReader.Failure> {
        var records = CSVReader.Records(bytes)
        var rows = [Row]()
        do {
            while try records.next() {
                let r = records.record
                rows.append(Row(fields: (0..<r.count).map { Array(r.text($0, bytes)) }, quoted: r.spans.map(\.quoted),
                                line: records.line, offset: records.offset))
            }
        } catch let failure as CSVReader.Failure {
            return .failure(failure)
        } catch {
            XCTFail("\(error)")
        }
        return .success(rows)
    }

    /// The records of `bytes` read `chunk` bytes at a time, as `import` reads a CSV file.
    static func chunkedRecords(_ bytes: [UInt8], chunk: Int) -> Result<[Row], CSVReader.Failure> {
        var next = 0
        var records = CSVReader.Records { () -> [UInt8] in
            let end = min(next + chunk, bytes.count)
            defer { next = end }
            return Array(bytes[next..<end])
        }
        var rows = [Row]()
        do {
            while try records.next() {
                let r = records.record
                rows.append(Row(fields: (0..<r.count).map { Array(records.text($0)) }, quoted: r.spans.map(\.quoted),
                                line: records.line, offset: records.offset))
            }
        } catch let failure as CSVReader.Failure {
            return .failure(failure)
        } catch {
            XCTFail("\(error)")
        }
        return .success(rows)
    }

    func same(_ text: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        // Read in chunks (a record split anywhere, a CR or quote at a chunk's end), the same.
        for chunk in [1, 2, 3, 7] {
            switch (Self.records(text), Self.chunkedRecords(text, chunk: chunk)) {
            case let (.success(a), .success(b)):
                XCTAssertEqual(a, b, "chunks of \(chunk): " + String(decoding: text, as: UTF8.self).debugDescription, file: file, line: line)
            case let (.failure(a), .failure(b)):
                XCTAssertEqual(a.line, b.line, String(decoding: text, as: UTF8.self).debugDescription, file: file, line: line)
                XCTAssertEqual(a.message, b.message, file: file, line: line)
            case let (a, b):
                XCTFail("chunks of \(chunk): \(String(decoding: text, as: UTF8.self).debugDescription): \(a) / \(b)", file: file, line: line)
            }
        }
        switch (Self.model(text), Self.records(text)) {
        case let (.success(a), .success(b)):
            XCTAssertEqual(a, b, String(decoding: text, as: UTF8.self).debugDescription, file: file, line: line)
        case let (.failure(a), .failure(b)):
            XCTAssertEqual(a.line, b.line, String(decoding: text, as: UTF8.self).debugDescription, file: file, line: line)
            XCTAssertEqual(a.message, b.message, file: file, line: line)
        case let (a, b):
            XCTFail("\(String(decoding: text, as: UTF8.self).debugDescription): \(a) / \(b)", file: file, line: line)
        }
    }

    func testRecordsAreThePlainReadersRecords() {
        let cases = [
            "", "\n", "a", "a,b\n1,2\n", "a,b\r\n1,2\r\n\r\n", "a,b\n\n1,2", "a\n\n\nb\n", "a\r\rb\n", "\"a\"\r,b\n",
            "\"x\"\"y\",\"\"\n\"\",\n", "\"two\nlines\",x\ny,z\n", "a,\"b\"c\n", "a,\"open\n", "a\"b\",c\n", "a,b\r", ",,\n,,\n",
            "\"\"\"\"\n", "\"a\"\r\n\"b\"\r", "h\n\"\"\n\n",
        ]
        for c in cases { same(Array(c.utf8)) }
        // Generated: short runs of the bytes that matter, and a little text.
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("ab,\"\r\n".utf8) + [0xC3, 0xA9]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            same(text)
        }
    }
}
