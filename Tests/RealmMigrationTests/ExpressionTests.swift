import RealmFormat
@testable import RealmMigration
import RealmTestSupport
import XCTest

/// Expressions over the objects of basic.realm: typing (errors before anything runs, with
/// their place), operators, null, links, functions and conversions.
final class ExpressionTests: XCTestCase {
    lazy var group: ModelGroup = {
        let snapshot = try! Snapshot(path: Fixtures.path("realm-core/basic.realm"))
        return try! ModelGroup(snapshot: snapshot)
    }()

    func compiler(_ className: String = "Person") -> ExpressionCompiler {
        ExpressionCompiler(group: group, position: group.position(ofClass: className)!)
    }

    /// The value for the object in `row` (Person rows 0–9: Alice … Judy).
    func value(_ text: String, row: Int = 0, className: String = "Person", file: StaticString = #filePath, line: UInt = #line) -> Value? {
        do {
            let compiled = try compiler(className).compile(try ScriptParser.parseExpression(text))
            return try compiled.evaluate(row)
        } catch let error as ScriptError {
            XCTFail("\(text): \(error)", file: file, line: line)
        } catch let error as EvalError {
            XCTFail("\(text): \(error.message)", file: file, line: line)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
        }
        return nil
    }

    func type(_ text: String, className: String = "Person") throws -> StaticType {
        try compiler(className).compile(try ScriptParser.parseExpression(text)).type
    }

    func staticError(_ text: String, className: String = "Person") -> ScriptError? {
        do {
            _ = try compiler(className).compile(try ScriptParser.parseExpression(text))
            XCTFail("\(text) should not compile")
        } catch {
            return error
        }
        return nil
    }

    func runtimeError(_ text: String, row: Int = 0) -> String? {
        do {
            _ = try compiler().compile(try ScriptParser.parseExpression(text)).evaluate(row)
            XCTFail("\(text) should fail")
        } catch let error as EvalError {
            return error.message
        } catch {
            XCTFail("\(error)")
        }
        return nil
    }

    func s(_ text: String) -> Value { .string(Array(text.utf8)) }

    func testPropertiesAndLinks() {
        XCTAssertEqual(value("name"), s("Alice"))
        XCTAssertEqual(value("age", row: 1), .int(25))
        XCTAssertEqual(value("email", row: 0), .null)
        XCTAssertEqual(value("bestFriend.name"), s("Diana"))
        XCTAssertEqual(value("bestFriend.bestFriend.name"), .null, "Diana has no best friend")
        XCTAssertEqual(value("bestFriend.name", row: 1), .null, "Bob has none")
        XCTAssertEqual(value("owner.name", row: 4, className: "Dog"), s("Alice"))
        XCTAssertEqual(value("_key", row: 7), .int(7))
        XCTAssertEqual(value("count(dogs)", row: 2), .int(3))
        XCTAssertEqual(value("count(nicknames)", row: 5), .int(2))
        XCTAssertEqual(try type("bestFriend.age"), StaticType(kind: .int, nullable: true))
        XCTAssertEqual(try type("age"), StaticType(kind: .int, nullable: false))
        XCTAssertEqual(try type("height"), StaticType(kind: .double, nullable: true))
    }

    func testOperators() {
        XCTAssertEqual(value(#"name + " " + string(age)"#), s("Alice 18"))
        XCTAssertEqual(value("age * 2 + 1"), .int(37))
        XCTAssertEqual(value("age / 4"), .int(4), "int division truncates")
        XCTAssertEqual(value("age % 5"), .int(3))
        XCTAssertEqual(value("age / 4.0"), .double(4.5))
        XCTAssertEqual(value("-age"), .int(-18))
        XCTAssertEqual(value("height + 1", row: 0), .double(151))
        XCTAssertEqual(value("height + 1", row: 1), .null, "null in, null out")
        XCTAssertEqual(value("height ?? 0.0", row: 1), .double(0))
        XCTAssertEqual(value("email ?? name", row: 0), s("Alice"))
        XCTAssertEqual(value("age >= 18 && isAdmin"), .bool(true))
        XCTAssertEqual(value("age > 18 || !isAdmin"), .bool(false))
        XCTAssertEqual(value("age > 20 ? \"adult\" : \"young\"", row: 1), s("adult"))
        XCTAssertEqual(value("email == null"), .bool(true))
        XCTAssertEqual(value("email != null", row: 1), .bool(true))
        XCTAssertEqual(value("height > 100", row: 1), .bool(false), "ordering with null is false")
        XCTAssertEqual(value("name < \"Bob\""), .bool(true))
        XCTAssertEqual(value("age == 18.0"), .bool(true))
        XCTAssertEqual(value("bestFriend == null", row: 1), .bool(true))
        XCTAssertEqual(value("birthday < date(\"1961-01-01\")"), .bool(true))
    }

    func testFunctions() {
        XCTAssertEqual(value("lower(name)"), s("alice"))
        XCTAssertEqual(value("upper(name)"), s("ALICE"))
        XCTAssertEqual(value("trim(\"  a b \")"), s("a b"))
        XCTAssertEqual(value("length(\"Zoë\")"), .int(3))
        XCTAssertEqual(value("substring(name, 1, 3)"), s("lic"))
        XCTAssertEqual(value("substring(name, -2)"), s("ce"))
        XCTAssertEqual(value("replace(email, \"example.com\", \"x.org\")", row: 1), s("Bob@x.org"))
        XCTAssertEqual(value("contains(email, \"@\")", row: 1), .bool(true))
        XCTAssertEqual(value("startsWith(name, \"Al\") && endsWith(name, \"ce\")"), .bool(true))
        XCTAssertEqual(value("split(\"Ada King Lovelace\", \" \", 0)"), s("Ada"))
        XCTAssertEqual(value("split(\"Ada King Lovelace\", \" \", -1)"), s("Lovelace"))
        XCTAssertEqual(value("split(\"Ada\", \" \", 1)"), s(""))
        XCTAssertEqual(value("abs(-3)"), .int(3))
        XCTAssertEqual(value("round(2.5)"), .double(3))
        XCTAssertEqual(value("min(age, 10)"), .int(10))
        XCTAssertEqual(value("max(\"a\", name)"), s("a"))
    }

    func testConversions() {
        XCTAssertEqual(value("int(\" 42 \")"), .int(42))
        XCTAssertEqual(value("int(isAdmin)"), .int(1))
        XCTAssertEqual(value("int(3.0)"), .int(3))
        XCTAssertEqual(value("int(birthday)"), .int(-315_360_000), "1960-01-04 is 3650 days before 1970")
        XCTAssertEqual(value("double(\"2.5\")"), .double(2.5))
        XCTAssertEqual(value("float(1)"), .float(1))
        XCTAssertEqual(value("string(height)"), s("150.0"))
        XCTAssertEqual(value("string(2.5)"), s("2.5"))
        XCTAssertEqual(value("string(isAdmin)"), s("true"))
        XCTAssertEqual(value("string(birthday)", row: 1), s("1961-02-06T23:59:59.999999Z"))
        XCTAssertEqual(value("bool(\"yes\")"), .bool(true))
        XCTAssertEqual(value("bool(0)"), .bool(false))
        XCTAssertEqual(value("date(\"2020-01-02T03:04:05Z\")"), .timestamp(Timestamp(seconds: 1_577_934_245, nanoseconds: 0)))
        XCTAssertEqual(value("date(86400)"), .timestamp(Timestamp(seconds: 86_400, nanoseconds: 0)))
        XCTAssertEqual(value("string(objectId(\"0123456789abcdef01234567\"))"), s("0123456789abcdef01234567"))
        XCTAssertEqual(value("string(uuid(\"3b241101-e2bb-4255-8caf-4136c566a962\"))"), s("3b241101-e2bb-4255-8caf-4136c566a962"))
        XCTAssertEqual(value("string(decimal(\"1.50\"))"), s("1.50"))
        XCTAssertEqual(value("int(email)"), .null, "null converts to null")
    }

    func testRuntimeFailuresNameTheValue() {
        XCTAssertEqual(runtimeError("int(name)"), #"cannot convert "Alice" to int"#)
        XCTAssertEqual(runtimeError("int(2.5)"), "cannot convert 2.5 to int")
        XCTAssertEqual(runtimeError("age / 0"), "division by zero (18 / 0)")
        XCTAssertEqual(runtimeError("9223372036854775807 + age"), "integer overflow (9223372036854775807 + 18)")
        XCTAssertEqual(runtimeError("date(\"yesterday\")"), #"cannot convert "yesterday" to date"#)
        XCTAssertEqual(runtimeError("split(name, \"\", 0)"), "split() needs a non-empty separator")
    }

    func testStaticErrorsNameTheirPlace() {
        let cases: [(String, Int, String)] = [
            ("nmae", 1, "Person has no property 'nmae'; did you mean 'name'?"),
            ("name + 1", 6, "'+' joins two strings"),
            ("age + \"x\"", 5, "'+' joins two strings"),
            ("age && isAdmin", 5, "'&&' needs bools"),
            ("name < 3", 6, "cannot compare string with int"),
            ("bestFriend.nope", 12, "Person has no property 'nope'"),
            ("age.name", 5, "Person.age is not a to-one link"),
            ("frobnicate(age)", 1, "unknown function frobnicate()"),
            ("lower(age)", 7, "argument 1 of lower() must be a string, not int"),
            ("int(dogs)", 5, "object cannot be converted to int".replacingOccurrences(of: "object", with: "List<Dog>")),
            ("uuid(age)", 6, "int cannot be converted to uuid"),
            ("substring(name)", 1, "substring() takes 2 to 3 arguments, not 1"),
            ("isAdmin ? 1 : \"x\"", 9, "different types"),
            ("count(name)", 7, "count() counts the elements"),
            ("bestFriend < bestFriend", 12, "objects can only be compared with == and !="),
        ]
        for (text, column, message) in cases {
            guard let error = staticError(text) else { continue }
            XCTAssertEqual(error.location.column, column, "\(text): \(error)")
            XCTAssertTrue(error.message.contains(message), "\(text): \(error.message)")
        }
    }
}
