@testable import RealmMigration
import XCTest

final class LexerAndParserTests: XCTestCase {
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
    }
}
