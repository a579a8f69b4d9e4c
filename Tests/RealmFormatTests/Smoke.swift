import XCTest
@testable import RealmFormat
final class RealmFormatSmokeTests: XCTestCase { func testNothing() {} }
