import Foundation
import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// realm-core/large.realm cut down to its first 3,000 Items (keys 0 ..< 3000, about a dozen
/// cluster leaves): enough to cross leaf boundaries, small enough for a debug-build test.
/// The Items keep every column type the write-path tests change (double, int, bool, date,
/// int? with nulls, string, string?, an indexed string) and the Buckets' links to them.
enum SmallItemsFile {
    static let itemCount = 3000

    /// A new copy in `directory` (made by deleting the other Items from the fixture).
    static func make(in directory: String) throws -> String {
        let path = try Fixtures.copy("realm-core/large.realm", into: directory)
        var keys: [Int64] = []
        let file = try RealmFile(path: path)
        try file.forEachObject(of: try XCTUnwrap(file.objectClass(named: "Item")), properties: []) { key, _ in keys.append(key) }
        let writer = try RealmWriter(path: path)
        try writer.delete(className: "Item", keys: keys.filter { $0 >= Int64(itemCount) })
        try writer.commit()
        return path
    }

    /// A copy of `path` at `path + suffix`.
    static func copy(_ path: String, suffix: String) throws -> String {
        try FileManager.default.copyItem(atPath: path, toPath: path + suffix)
        return path + suffix
    }

    /// Every object of `className`: key and values, in key order.
    static func rows(_ path: String, _ className: String = "Item") throws -> [String] {
        let file = try RealmFile(path: path)
        let c = try XCTUnwrap(file.objectClass(named: className))
        var rows: [String] = []
        try file.forEachObject(of: c) { key, values in rows.append("\(key): \(Array(values))") }
        return rows
    }

    /// Every Item key, ascending.
    static func itemKeys(_ path: String) throws -> [Int64] {
        var keys: [Int64] = []
        let file = try RealmFile(path: path)
        try file.forEachObject(of: try XCTUnwrap(file.objectClass(named: "Item")), properties: []) { key, _ in keys.append(key) }
        return keys
    }

    /// Our verifier finds nothing, and realm-core 14's own `Group::verify` passes when the
    /// check tool is installed.
    static func assertVerifies(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(Verifier.verify(try Snapshot(path: path)).problems.map(\.description), [], path, file: file, line: line)
        let check = "/tmp/realm-check/realm-check"
        guard FileManager.default.isExecutableFile(atPath: check) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: check)
        process.arguments = ["verify", path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "realm-core's Group::verify on \(path)", file: file, line: line)
    }
}
