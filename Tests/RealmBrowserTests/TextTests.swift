import XCTest
import RealmFormat
import RealmObjects
@testable import RealmBrowser
import RealmTestSupport

/// Widths as the terminal draws them (wcwidth) and the strict parsing of typed values.
final class TextTests: XCTestCase {
    func testWidthsAreTerminalColumns() {
        XCTAssertEqual(TextWidth.of("abc"), 3)
        XCTAssertEqual(TextWidth.of("日本語"), 6)
        XCTAssertEqual(TextWidth.of("e\u{301}"), 1)          // a combining accent takes no column
        XCTAssertEqual(TextWidth.of("👍"), 2)
        XCTAssertEqual(TextWidth.fit("日本語テキスト", 7), "日本語…")
        XCTAssertEqual(TextWidth.fit("日本語テキスト", 8), "日本語… ", "a wide character that does not fit leaves a space")
        XCTAssertEqual(TextWidth.fit("42", 5, right: true), "   42")
        XCTAssertEqual(TextWidth.of(TextWidth.fit("👨‍👩‍👧 family", 6)), 6)
        XCTAssertEqual(TextWidth.printable("a\nb\tc\u{7F}"), "a↵b·c·")
    }

    func testScreensWithWideCharactersLineUp() throws {
        let session = try BrowserFixtures.session(Fixtures.path("realm-core/alltypes.realm"), className: "AllTypes", columns: 131)
        let frame = session.render()
        XCTAssertTrue(frame.text.contains("日本語"), frame.text)
        for line in frame.lines { XCTAssertEqual(line.width, 131, line.text) }
    }

    func property(_ name: String, _ className: String = "AllTypes") throws -> Property {
        let file = try RealmFile(path: Fixtures.path("realm-core/alltypes.realm"))
        return try XCTUnwrap(file.objectClass(named: className)?.property(named: name))
    }

    func parse(_ text: String, _ p: Property, target: ObjectClass? = nil) -> Result<EditValue, EditText.Refusal> {
        Result { () throws(EditText.Refusal) in try EditText.parse(text, for: p, target: target) }
    }

    func testTypedValuesAreParsedStrictly() throws {
        let int = try property("intCol")
        XCTAssertEqual(try parse(" 42 ", int).get(), .value(.int(42)))
        XCTAssertEqual(try parse("-9223372036854775808", int).get(), .value(.int(.min)))
        for bad in ["123abc", "4.5", "9223372036854775808", "", "null", "0x10"] {
            XCTAssertThrowsError(try parse(bad, int).get(), bad)
        }
        XCTAssertEqual(try parse("null", try property("optIntCol")).get(), .value(.null))
        XCTAssertEqual(try parse("true", try property("boolCol")).get(), .value(.bool(true)))
        XCTAssertThrowsError(try parse("yes", try property("boolCol")).get())
        XCTAssertEqual(try parse("1e3", try property("doubleCol")).get(), .value(.double(1000)))
        XCTAssertEqual(try parse("-inf", try property("doubleCol")).get(), .value(.double(-.infinity)))
        XCTAssertThrowsError(try parse("0x1p3", try property("doubleCol")).get())
        XCTAssertThrowsError(try parse("1e39", try property("floatCol")).get(), "does not fit a float")
        XCTAssertEqual(try parse("\"null\"", try property("stringCol")).get(), .value(.string(Array("null".utf8))))
        XCTAssertEqual(try parse(" spaced ", try property("stringCol")).get(), .value(.string(Array(" spaced ".utf8))))
        XCTAssertEqual(try parse("2024-05-01", try property("dateCol")).get(), .value(.timestamp(Timestamp(seconds: 1_714_521_600, nanoseconds: 0))))
        XCTAssertThrowsError(try parse("May 1st", try property("dateCol")).get())
        XCTAssertThrowsError(try parse("abc", try property("objectIdCol")).get())
        XCTAssertEqual(try parse("1.25E3", try property("decimalCol")).get(), .value(.decimal(ValueParsing.decimal("1.25E3")!)))
        XCTAssertThrowsError(try parse("1.2.3", try property("decimalCol")).get())
        let mixed = try property("mixedCol")
        XCTAssertEqual(try parse("'text'", mixed).get(), .value(.string(Array("text".utf8))))
        XCTAssertEqual(try parse("42", mixed).get(), .value(.int(42)))
        XCTAssertEqual(try parse("1.5", mixed).get(), .value(.double(1.5)))
        XCTAssertThrowsError(try parse("bare words", mixed).get())
        // A link: the target's primary key in its type, #ObjKey, or null.
        let link = try property("objectCol")
        let file = try RealmFile(path: Fixtures.path("realm-core/alltypes.realm"))
        let target = file.objectClass(named: "LinkTarget")
        XCTAssertEqual(try parse("alpha", link, target: target).get(), .linkByPrimaryKey(.string(Array("alpha".utf8))))
        XCTAssertEqual(try parse("#3", link, target: target).get(), .linkByKey(3))
        XCTAssertEqual(try parse("null", link, target: target).get(), .value(.null))
        let intLink = try property("intPkCol")
        XCTAssertThrowsError(try parse("x1", intLink, target: file.objectClass(named: "IntPK")).get())
    }

    func testEditStartsFromTheValueInTheFormItTakesBack() throws {
        let file = try RealmFile(path: Fixtures.path("realm-core/basic.realm"))
        let cells = CellText(readers: ObjectRowsCache(file: file))
        let person = try XCTUnwrap(file.objectClass(named: "Person"))
        let name = try XCTUnwrap(person.property(named: "name"))
        let email = try XCTUnwrap(person.property(named: "email"))
        XCTAssertEqual(EditText.initial(.string(Array("null".utf8)), property: name, cells: cells), "\"null\"")
        XCTAssertEqual(EditText.initial(.null, property: email, cells: cells), "null")
        XCTAssertEqual(EditText.initial(.link(3), property: try XCTUnwrap(person.property(named: "bestFriend")), cells: cells), "#3")
        // Whatever is stored comes back as the text that stores it again.
        for stored in ["null", "\"quoted\"", "plain", "\"", ""] {
            let value = Value.string(Array(stored.utf8))
            XCTAssertEqual(try EditText.parse(EditText.initial(value, property: name, cells: cells), for: name, target: nil), .value(value), stored)
        }
    }
}
