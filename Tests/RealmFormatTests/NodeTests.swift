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

    /// `forEachRef` (the width chosen once per node) visits exactly the slots `ref(_:)` calls
    /// refs — not 0, not tagged — in order, at every width (§3.4, §4.3).
    func testForEachRefVisitsTheSlotsRefReadsAsRefsAtEveryWidth() throws {
        for (code, width) in [0, 1, 2, 4, 8, 16, 32, 64].enumerated() {
            let limit: Int64 = width == 0 ? 0 : width < 8 ? (1 << width) - 1 : width == 64 ? Int64.max : (1 << (width - 1)) - 1
            var values: [Int64] = []
            var rng: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(width)
            for _ in 0..<37 {
                rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let v = width == 64 ? Int64(bitPattern: rng >> 1) : Int64(bitPattern: rng >> 1) % (limit + 1)
                values.append(width >= 8 && rng & 0x100 != 0 ? -v : v)
            }
            if width > 0 { values += width >= 2 ? [0, 2, 1, limit & ~1] : [0, 1] }
            var payload = [UInt8](repeating: 0, count: (values.count * width + 7) / 8)
            for (i, v) in values.enumerated() where width > 0 {
                let bits = UInt64(bitPattern: v) & (width == 64 ? ~0 : (1 << width) - 1)
                for b in 0..<width where bits >> b & 1 == 1 { payload[(i * width + b) / 8] |= 1 << UInt8((i * width + b) % 8) }
            }
            payload += [UInt8](repeating: 0, count: (8 - payload.count % 8) % 8)
            let header: [UInt8] = [0x41, 0x41, 0x41, 0x41, 0x40 | UInt8(code), 0, 0, UInt8(values.count)]
            let node = try Node(image: image(header + payload), ref: 24)
            XCTAssertEqual(node.ints(), width == 0 ? Array(repeating: 0, count: values.count) : values, "width \(width)")
            var visited: [Int] = []
            node.forEachRef { visited.append($0) }
            XCTAssertEqual(visited, (0..<node.count).compactMap { node.ref($0) }, "width \(width)")
            if width >= 2 { XCTAssertFalse(visited.isEmpty, "width \(width): the values include refs") }
        }
    }
}
