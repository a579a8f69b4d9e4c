import XCTest
@testable import RealmObjects
final class RealmObjectsSmokeTests: XCTestCase { func testNothing() {} }
