import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// One rendering of values for people, shared by the shell's tables and the browser's cells;
/// the two differ only in their `Style`.
final class DisplayTextTests: XCTestCase {
    func firstWithEmbeddedList() throws -> (RealmFile, ObjectClass, [Value]) {
        let file = try RealmFile(path: Fixtures.path("realm-core/alltypes.realm"))
        let c = try XCTUnwrap(file.objectClass(named: "AllTypes"))
        var found: [Value]?
        try file.forEachObject(of: c) { _, values in
            guard found == nil, let i = c.properties.firstIndex(where: { $0.name == "embeddedList" }),
                  case let .list(items) = values[i], !items.isEmpty else { return }
            found = Array(values)
        }
        return (file, c, try XCTUnwrap(found))
    }

    func testLinksShowTheTargetsPrimaryKeyAndEmbeddedObjectsInline() throws {
        let (file, c, values) = try firstWithEmbeddedList()
        let text = DisplayText(file: file)
        func cell(_ name: String) throws -> String {
            let i = try XCTUnwrap(c.properties.firstIndex { $0.name == name })
            return try text.text(c.properties[i], values[i])
        }
        XCTAssertEqual(try cell("embeddedList"), "[{street: List St 0, number: NULL, inner: NULL, tags: []}]")
        XCTAssertEqual(try cell("intPkCol"), "→ IntPK(-1)")
        XCTAssertEqual(try cell("objectSet"), "[1 LinkTarget]")
        XCTAssertEqual(try cell("noPkCol"), "NULL")
    }

    func testADanglingLinkSaysMissingInsteadOfFailing() throws {
        let (file, c, _) = try firstWithEmbeddedList()
        let p = try XCTUnwrap(c.property(named: "intPkCol"))
        XCTAssertEqual(try DisplayText(file: file).text(p, .link(987_654)), "→ IntPK(missing #987654)")
        XCTAssertEqual(try DisplayText(file: file).text(p, .link(-5)), "→ IntPK(deleted)")
    }

    func testTheStyleDecidesNullNestingAndHowManyElements() throws {
        let (file, _, _) = try firstWithEmbeddedList()
        let short = DisplayText(file: file, style: .init(nullText: "null", maxDepth: 2, maxInline: 2))
        let list = Value.list([.int(1), .int(2), .int(3)])
        XCTAssertEqual(try short.text(list, collection: .list, target: nil, depth: 0), "[1, 2, …]")
        XCTAssertEqual(try DisplayText(file: file).text(list, collection: .list, target: nil, depth: 0), "[1, 2, 3]")
        XCTAssertEqual(try short.text(.list([.list([.list([.int(1)])])]), collection: nil, target: nil, depth: 0), "[[…]]")
        XCTAssertEqual(short.element(.string(Array("null".utf8))), "\"null\"", "a string reading as the null text is quoted")
        XCTAssertEqual(short.scalar(.string(Array("a\nb\tc".utf8))), "a↵b·c")
    }
}
