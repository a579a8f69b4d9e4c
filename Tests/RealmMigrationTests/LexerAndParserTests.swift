@testable import RealmMigration
import XCTest

/// The script language: statements, comments, types, expressions, and errors with their place.
final class LexerAndParserTests: XCTestCase {
    func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ScriptError? {
        do {
            _ = try ScriptParser.parse(text)
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testIssueExampleParses() throws {
        let script = try ScriptParser.parse("""
            version 1 {
              class Person {
                add fullName: string = firstName + " " + lastName
                remove firstName, lastName
              }
            }
            version 2 {
              class Person { add email: string = "" }
            }
            """)
        XCTAssertEqual(script.versions.map(\.number), [1, 2])
        guard case let .modify(name, ops) = script.versions[0].steps[0] else { return XCTFail() }
        XCTAssertEqual(name.text, "Person")
        XCTAssertEqual(ops.count, 2)
        guard case let .add(d) = ops[0], case let .remove(names) = ops[1] else { return XCTFail() }
        XCTAssertEqual(d.name.text, "fullName")
        XCTAssertEqual(d.type, TypeReference(base: "string", optional: false, collection: nil, location: SourceLocation(line: 3, column: 19)))
        XCTAssertEqual(d.value?.description, #"(firstName + " ") + lastName"#)
        XCTAssertEqual(names.map(\.text), ["firstName", "lastName"])
        XCTAssertEqual(names[1].location, SourceLocation(line: 4, column: 23))
    }

    func testEveryStatementAndComment() throws {
        let script = try ScriptParser.parse("""
            # a comment
            version 3 { /* a block
                           comment */
              add embedded class Address { city: string; zip: string? }
              add class Tag { label: string primary key, weight: int indexed }
              remove class Old, Older
              rename class Person -> Human   // trailing comment
              class Human {
                rename email to mail
                change age: int? indexed = age
                set score = score * 2 where "age > 3"
                delete where 'name == "x"'
                index name, mail
                unindex score
                primary key none
                primary key name
                add tags: List<Tag>
                add counts: Map<string, int?>
                add seen: Set<date>
                add friend: Human?
                add `odd name`: data
              }
            }
            """)
        let steps = script.versions[0].steps
        XCTAssertEqual(steps.count, 5)
        guard case let .addClass(address, embedded, properties) = steps[0] else { return XCTFail() }
        XCTAssertEqual(address.text, "Address")
        XCTAssertTrue(embedded)
        XCTAssertEqual(properties.map(\.name.text), ["city", "zip"])
        XCTAssertTrue(properties[1].type.optional)
        guard case let .addClass(_, false, tag) = steps[1] else { return XCTFail() }
        XCTAssertTrue(tag[0].primaryKey)
        XCTAssertTrue(tag[1].indexed)
        guard case let .removeClass(removed) = steps[2], case let .renameClass(from, to) = steps[3] else { return XCTFail() }
        XCTAssertEqual(removed.map(\.text), ["Old", "Older"])
        XCTAssertEqual([from.text, to.text], ["Person", "Human"])
        guard case let .modify(_, ops) = steps[4] else { return XCTFail() }
        XCTAssertEqual(ops.count, 13)
        guard case let .set(property, value, filter) = ops[2] else { return XCTFail() }
        XCTAssertEqual(property.text, "score")
        XCTAssertEqual(value.description, "score * 2")
        XCTAssertEqual(filter?.text, "age > 3")
        XCTAssertEqual(filter?.location, SourceLocation(line: 11, column: 33))
        guard case let .delete(predicate, _) = ops[3] else { return XCTFail() }
        XCTAssertEqual(predicate.text, #"name == "x""#)
        guard case let .primaryKey(none, _) = ops[6], case let .primaryKey(pk?, _) = ops[7] else { return XCTFail() }
        XCTAssertNil(none)
        XCTAssertEqual(pk.text, "name")
        guard case let .add(tags) = ops[8], case let .add(counts) = ops[9], case let .add(seen) = ops[10],
              case let .add(friend) = ops[11], case let .add(odd) = ops[12] else { return XCTFail() }
        XCTAssertEqual(tags.type.collection, .list)
        XCTAssertEqual(counts.type.collection, .dictionary)
        XCTAssertTrue(counts.type.optional)
        XCTAssertEqual(seen.type.collection, .set)
        XCTAssertEqual(friend.type.base, "Human")
        XCTAssertEqual(odd.name.text, "odd name")
    }

    func testExpressionPrecedence() throws {
        let cases = [
            ("a + b * c", "a + (b * c)"),
            ("a * b + c", "(a * b) + c"),
            ("-a * b", "-a * b"),
            ("a ?? b ?? c", "a ?? (b ?? c)"),
            ("a == 1 && b != 2 || !c", "((a == 1) && (b != 2)) || !c"),
            ("x > 0 ? x : -x", "(x > 0) ? x : -x"),
            ("int(age) + length(trim(name))", "int(age) + length(trim(name))"),
            ("owner.name", "owner.name"),
            (#""it's \"quoted\"\n""#, #""it's \"quoted\"\n""#),
            ("-9223372036854775808", "-9223372036854775808"),
            ("1.5e3 - .5".replacingOccurrences(of: " .5", with: " 0.5"), "1500.0 - 0.5"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try ScriptParser.parseExpression(text).description, expected, text)
        }
    }

    func testErrorsNameTheirLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("version 1 {\n  class A {\n    add x: int = \"oops\n  }\n}", 3, 18, "unterminated string"),
            ("version 1 { class A { frobnicate x } }", 1, 23, "unknown operation 'frobnicate'"),
            ("version 2 { }\nversion 1 { }", 2, 9, "versions must increase"),
            ("version 1 {\n  class A {\n    add x int\n  }\n}", 3, 11, "expected ':'"),
            ("version 1 { class A { add x: int = 1 +  } }", 1, 41, "expected a value"),
            ("version 1 { class A { add x: List<int = 1 } }", 1, 39, "expected '>'"),
            ("version x { }", 1, 9, "expected a schema version number"),
            ("version 1 { class A { add x: int = a < b < c } }", 1, 42, "comparisons do not chain"),
            ("version 1 {\n class A {", 2, 8, "class A is not closed"),
            ("version 1 { class A { add x: int = 99999999999999999999 } }", 1, 36, "out of range"),
            ("version 1 { class A { delete where age > 3 } }", 1, 36, "expected the predicate as a string"),
            ("version 1 { add class T { a: int = 3 } }", 1, 36, "a new class has no objects"),
            ("version 1 { class A { add x: int = @ } }", 1, 36, "unexpected character '@'"),
            ("/* never closed", 1, 1, "unterminated /* comment"),
            ("version 1 { class A { add x: string = \"\\q\" } }", 1, 40, "unknown escape"),
        ]
        for (text, line, column, message) in cases {
            guard let error = parseError(text) else { continue }
            XCTAssertEqual(error.location, SourceLocation(line: line, column: column), "\(text): \(error)")
            XCTAssertTrue(error.message.contains(message), "\(text): \(error)")
        }
    }

    func testHostileNestingIsRefused() {
        for text in [String(repeating: "(", count: 100_000) + "1", String(repeating: "-", count: 100_000) + "x",
                     String(repeating: "!", count: 100_000) + "x", String(repeating: "a ? ", count: 100_000) + "b"] {
            XCTAssertThrowsError(try ScriptParser.parseExpression(text)) { error in
                XCTAssertTrue("\(error)".contains("nested more than 200 levels"), "\(error)")
            }
        }
        // Long flat chains are fine: they nest on the left (or are built without recursion).
        let chain = (0..<10_000).map { "x\($0)" }.joined(separator: " + ")
        XCTAssertNoThrow(try ScriptParser.parseExpression(chain))
        XCTAssertNoThrow(try ScriptParser.parseExpression((0..<10_000).map { "x\($0)" }.joined(separator: " ?? ")))
    }

    func testColumnsCountCharactersNotBytes() {
        let error = parseError("version 1 { class Ä { add é: int = ü @ } }")
        XCTAssertEqual(error?.location, SourceLocation(line: 1, column: 38))
    }
}
