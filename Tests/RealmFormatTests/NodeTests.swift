@testable import RealmFormat
import XCTest

/// Node headers and element packing (realm-format.md §4), on hand-made bytes.
final class NodeTests: XCTestCase {
    /// An image with 24 header bytes followed by `node`.
    func image(_ node: [UInt8]) -> ByteImage { ByteImage(bytes: [UInt8](repeating: 0, count: 24) + node) }

    func testFourBitElementsFromTheSpecExample() throws {
        // §4.3 worked example: has_refs, width 4, size 6 → 1, 3, 5, 7, 11, 13.
        let node = try Node(image: image([0x41, 0x41, 0x41, 0x41, 0x43, 0, 0, 6, 0x31, 0x75, 0xDB, 0, 0, 0, 0, 0]), ref: 24)
        XCTAssertTrue(node.hasRefs)
        XCTAssertEqual(node.width, 4)
        XCTAssertEqual(node.ints(), [1, 3, 5, 7, 11, 13])
        XCTAssertEqual(node.tagged(4), 5)
        XCTAssertNil(node.ref(0))
        XCTAssertEqual(node.header.byteSize, 16)
    }

    func testByteWidthsAreSignedExceptForUnsignedArrays() throws {
        let node = try Node(image: image([0x41, 0x41, 0x41, 0x41, 0x04, 0, 0, 2, 0xC8, 0x10, 0, 0, 0, 0, 0, 0]), ref: 24)
        XCTAssertEqual(node.int(0), -56)
        XCTAssertEqual(node.unsigned(0), 200)
        XCTAssertEqual(node.int(1), 16)
    }

    func testSixtyFourBitElements() throws {
        var bytes: [UInt8] = [0x41, 0x41, 0x41, 0x41, 0x07, 0, 0, 1]
        bytes += withUnsafeBytes(of: Int64.min.littleEndian, Array.init)
        XCTAssertEqual(try Node(image: image(bytes), ref: 24).int(0), Int64.min)
    }

    func testNodesThatDoNotFitTheFileAreRejected() {
        // Header says 1000 elements of 64 bits, but the file ends after 8 payload bytes.
        let bytes: [UInt8] = [0x41, 0x41, 0x41, 0x41, 0x07, 0, 0x03, 0xE8, 0, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertThrowsError(try Node(image: image(bytes), ref: 24))
        XCTAssertThrowsError(try Node(image: image(bytes), ref: 28), "misaligned")
        XCTAssertThrowsError(try Node(image: image(bytes), ref: 8), "inside the header")
        XCTAssertThrowsError(try Node(image: image(bytes), ref: 4096), "past the end")
        XCTAssertThrowsError(try Node(image: image([0x41, 0x41, 0x41, 0x41, 0x18, 0, 0, 0]), ref: 24), "width type 3")
    }

    func testElementIndexesFromDiskAreChecked() throws {
        let node = try Node(image: image([0x41, 0x41, 0x41, 0x41, 0x04, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0]), ref: 24)
        XCTAssertEqual(try node.element(0), 7)
        XCTAssertThrowsError(try node.element(1))
        XCTAssertThrowsError(try node.element(-1))
    }
}
