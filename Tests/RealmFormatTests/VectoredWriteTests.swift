import Foundation
import RealmFormat
import RealmTestSupport
import XCTest

/// `Platform.writeAll(_:buffers:at:)`, the commit's vectored write: buffers land back to back
/// from the offset, in groups of 64 per call, empty buffers included, the rest of the file
/// untouched.
final class VectoredWriteTests: XCTestCase {
    func testBuffersLandBackToBackFromTheOffset() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/vectored.bin"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0xEE, count: 100)))
        var random = SeededRandom(seed: 64)
        // 150 buffers: three groups, some empty, some large.
        let buffers: [[UInt8]] = (0..<150).map { i in
            let length = i % 7 == 0 ? 0 : Int.random(in: 1...(i % 10 == 1 ? 70_000 : 300), using: &random)
            return (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        let fd = try Platform.openReadWrite(path).get()
        XCTAssertTrue(Platform.writeAll(fd, buffers: buffers, at: 40))
        XCTAssertTrue(Platform.closeFile(fd))
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let expected = Array(repeating: UInt8(0xEE), count: 40) + buffers.flatMap { $0 }
        XCTAssertEqual(written.count, max(100, expected.count))
        XCTAssertEqual(Array(written.prefix(expected.count)), expected)
    }
}
