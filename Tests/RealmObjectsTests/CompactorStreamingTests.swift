import Foundation
@testable import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// `Compactor` streaming into a file (Compactor+File.swift) writes exactly the bytes
/// `Compactor.compact` returns, on every fixture it can compact, plain and encrypted, with and
/// without padding, with the real stretch size and with stretches so small that most nodes
/// end one (the writer thread then has a stretch in flight nearly all the time); and an I/O failure leaves nothing under the final name and no temporary file.
final class CompactorStreamingTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The streamed file's bytes (a new file written with `chunk`-sized stretches).
    func streamed(_ snapshot: Snapshot, options: Compactor.Options, enumeration: StringEnumerationPlan? = nil,
                  chunk: Int) throws -> (bytes: [UInt8], size: Int) {
        let path = dir + "/streamed-\(chunk).realm"
        try? FileManager.default.removeItem(atPath: path)
        let file = try Platform.createNew(path)
        let size: Int
        do {
            size = try Compactor.compact(snapshot, options: options, enumeration: enumeration,
                                         streamingTo: CompactedFileSink(file), chunk: chunk)
        } catch {
            file.closeQuietly()
            throw error
        }
        try file.close()
        return (try Platform.readFile(path), size)
    }

    func assertSame(_ streamed: [UInt8], _ expected: [UInt8], _ what: String) {
        XCTAssertEqual(streamed.count, expected.count, "\(what): size")
        if let i = zip(streamed, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            XCTFail("\(what): first different byte at \(i)")
        }
    }

    func testStreamedFileHoldsTheBytesOfCompactOnEveryFixture() throws {
        var compared = 0, encrypted = 0, multiStretch = 0
        var padded = Compactor.Options()
        padded.keepVersionAndHistory = false
        padded.padForEncryption = true
        for (name, path, key) in try CompactorFastPathTests.fixtures() {
            guard let probe = try? Snapshot(path: path, key: key), probe.legacy == nil else { continue }
            for options in [Compactor.Options(), padded] {
                let expected: [UInt8]
                do { expected = try Compactor.compact(try Snapshot(path: path, key: key), options: options) } catch { continue }
                // Stretches of 256 bytes end after almost every node (only on the smaller files:
                // a write per node is slow).
                for chunk in [Compactor.streamChunk, 4096] + (expected.count < 1 << 20 ? [256] : []) {
                    let (bytes, size) = try streamed(try Snapshot(path: path, key: key), options: options, chunk: chunk)
                    XCTAssertEqual(size, expected.count, "\(name): returned size")
                    assertSame(bytes, expected, "\(name) (stretches of \(chunk), padded: \(options.padForEncryption))")
                }
                compared += 1
                if key != nil { encrypted += 1 }
                if expected.count > 2 * 4096 { multiStretch += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 40, "too few fixtures compacted")
        XCTAssertGreaterThan(encrypted, 2, "no encrypted fixture compacted")
        XCTAssertGreaterThan(multiStretch, 10, "too few fixtures span several stretches")
    }

    func testStreamedEnumeratedCopyHoldsTheBytesOfCompact() throws {
        var compared = 0
        for (name, path, key) in try CompactorFastPathTests.fixtures() where key == nil {
            guard let snapshot = try? Snapshot(path: path), snapshot.legacy == nil, snapshot.fileFormat == 24,
                  let plan = try? EnumeratedCopy.plan(for: snapshot, maxDistinctPercent: 100).plan,
                  !plan.replacements.isEmpty else { continue }
            let expected = try Compactor.compact(snapshot, enumeration: plan)
            for chunk in [Compactor.streamChunk, 512] {
                let (bytes, _) = try streamed(snapshot, options: Compactor.Options(), enumeration: plan, chunk: chunk)
                assertSame(bytes, expected, "\(name) enumerated (stretches of \(chunk))")
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, 5, "too few fixtures with strings to enumerate")
    }

    func testCompactToFileWritesTheBytesOfCompactAndLeavesOnlyTheFile() throws {
        let source = Fixtures.path("realm-core/churn.realm")
        let out = dir + "/out.realm"
        let size = try Compactor.compact(try Snapshot(path: source), toFile: out)
        let expected = try Compactor.compact(try Snapshot(path: source))
        XCTAssertEqual(size, expected.count)
        assertSame(try Platform.readFile(out), expected, "churn.realm to a file")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["out.realm"])
        // An existing file at the name is replaced whole.
        try Compactor.compact(try Snapshot(path: Fixtures.path("realm-core/basic.realm")), toFile: out)
        assertSame(try Platform.readFile(out), try Compactor.compact(try Snapshot(path: Fixtures.path("realm-core/basic.realm"))),
                   "basic.realm over churn's copy")
    }

    func testAWriteFailureThrowsAndLeavesNoOutputNorTemporaryFile() throws {
        let source = Fixtures.path("realm-core/churn.realm")    // compacts to 844,896 bytes
        let out = dir + "/out.realm"
        // A real failing write: past the process's file-size limit, write returns EFBIG.
        XCTAssertThrowsError(try FileSizeLimit.with(64 << 10) { try Compactor.compact(try Snapshot(path: source), toFile: out) }) {
            guard case let FormatError.io(_, code, action) = $0 else { return XCTFail("not an I/O error: \($0)") }
            XCTAssertEqual(code, EFBIG)
            XCTAssertEqual(action, "write")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "a half output or its temporary file is left")
        // An existing file at the name stays as it was.
        let existing = try Platform.createFile(out)
        try existing.write(Array("before".utf8))
        try existing.close()
        XCTAssertThrowsError(try FileSizeLimit.with(64 << 10) { try Compactor.compact(try Snapshot(path: source), toFile: out) })
        XCTAssertEqual(try Platform.readFile(out), Array("before".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["out.realm"])
    }

    func testStreamingIntoAFullDeviceReportsTheWrite() throws {
        let full = try FileDescriptor.open("/dev/full", .writeOnly)
        defer { full.closeQuietly() }
        XCTAssertThrowsError(try Compactor.compact(try Snapshot(path: Fixtures.path("realm-core/churn.realm")), into: full)) {
            guard case let FormatError.io(path, code, _) = $0 else { return XCTFail("not an I/O error: \($0)") }
            XCTAssertEqual(path, "/dev/full")
            XCTAssertEqual(code, ENOSPC)
        }
    }
}

/// Runs a body with the process's file-size limit (RLIMIT_FSIZE) lowered and SIGXFSZ ignored,
/// so that a write past `bytes` fails with EFBIG instead of killing the process.
enum FileSizeLimit {
    static func with<T>(_ bytes: Int, _ body: () throws -> T) throws -> T {
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        let previous = signal(SIGXFSZ, SIG_IGN)
        var limited = saved
        limited.rlim_cur = rlim_t(bytes)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited)
        defer {
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
            signal(SIGXFSZ, previous)
        }
        return try body()
    }
}
