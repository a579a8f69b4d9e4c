import XCTest
@testable import RealmShell
final class RealmShellSmokeTests: XCTestCase { func testNothing() {} }
