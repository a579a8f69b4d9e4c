import Foundation
@testable import RealmFormat
import RealmObjects
import RealmTestSupport
import XCTest

/// A mass removal rebuilds an int column's index from the committed index's own entries, read
/// in index order with the removed objects dropped (`TableEditor.rebuiltFromCommittedEntries`),
/// when every entry is one object under its own level-0 key; otherwise (duplicate lists,
/// sub-indexes, an index the transaction already changed) it takes the general path, which
/// reads and sorts the kept values. Pinned against the general path
/// (`Options.rebuildsIndexesFromCommittedEntries` off): the same transactions give
/// byte-identical files, which verify (ours, and realm-core's check when installed).
final class IndexRebuildFromEntriesTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Rows with an int primary key `id` and three indexed ints: `code` (distinct values,
    /// negative and past 32 bits: single entries), `group` (20 values: duplicate lists) and
    /// `tag` (pairs whose low 32 bits agree: sub-indexes).
    func makeFile(_ path: String, rows: Int) throws {
        func property(_ name: String, _ type: String, indexed: Bool = false, pk: Bool = false) -> String {
            """
            {"name": "\(name)", "type": "\(type)", "optional": false, "indexed": \(indexed || pk), "primaryKey": \(pk),
             "collection": null, "objectType": null, "linkOrigin": null}
            """
        }
        let schema = """
            [{"name": "Row", "primaryKey": "id", "embedded": false, "properties": [
                \(property("id", "int", pk: true)), \(property("code", "int", indexed: true)),
                \(property("group", "int", indexed: true)), \(property("tag", "int", indexed: true)), \(property("name", "string"))]}]
            """
        let (names, models) = try SchemaBuilder.tables(fromClassesJSON: try JSONParser.parse(schema), schemaVersion: 1)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(NewFile.bytes(tableNames: names, tables: try models.map { try TableEncoder.encode($0) }))))
        let writer = try RealmWriter(path: path)
        let c = try XCTUnwrap(writer.file.objectClass(named: "Row"))
        for id in Int64(0)..<Int64(rows) { _ = try writer.create(c, values: values(id)) }
        try writer.commit()
    }

    func values(_ id: Int64) -> [Value] {
        [.int(id), .int((id * 7919 - 20_000) * (id % 3 == 0 ? 1 << 33 + 1 : 1)), .int(id % 20),
         .int(id % 2 == 0 ? id : (id - 1) + 1 << 32), .string(Array("row \(id)".utf8))]
    }

    func keys(_ path: String) throws -> [Int64] {
        var keys: [Int64] = []
        let file = try RealmFile(path: path)
        try file.forEachObject(of: try XCTUnwrap(file.objectClass(named: "Row")), properties: []) { key, _ in keys.append(key) }
        return keys
    }

    /// The same transactions on two copies, the fast path on and off.
    func testRebuiltIndexesMatchTheGeneralPathByteForByte() throws {
        let base = dir + "/base.realm"
        try makeFile(base, rows: 8000)
        let fast = dir + "/fast.realm", general = dir + "/general.realm"
        try FileManager.default.copyItem(atPath: base, toPath: fast)
        try FileManager.default.copyItem(atPath: base, toPath: general)
        var random = SeededRandom(seed: 11)
        let all = try keys(base)
        let steps: [(String, (RealmWriter, ObjectClass, [Int64]) throws -> Void)] = [
            ("half of the objects, at random (committed indexes read in order)", { w, c, keys in
                try w.delete(className: "Row", keys: keys.filter { _ in Bool.random(using: &random) })
            }),
            ("inserts and changes, then a mass removal (indexes already changed: the general path)", { w, c, keys in
                for id in Int64(9000)..<Int64(9300) { _ = try w.create(c, values: self.values(id)) }
                let code = try XCTUnwrap(c.property(named: "code"))
                for key in keys.prefix(50) { try w.set(c, key: key, code, .int(-key - 1_000_000)) }
                try w.delete(className: "Row", keys: keys.filter { $0 % 3 != 1 })
            }),
            ("all but three (a rebuild that keeps few)", { w, c, keys in
                try w.delete(className: "Row", keys: Array(keys.dropFirst(3)))
            }),
        ]
        for (what, step) in steps {
            let keys = try keys(fast)
            XCTAssertEqual(keys, try self.keys(general), what)
            let start = random
            for (path, on) in [(fast, true), (general, false)] {
                random = start
                let writer = try RealmWriter(path: path, editorOptions: TableEditor.Options(rebuildsIndexesFromCommittedEntries: on))
                try step(writer, try XCTUnwrap(writer.file.objectClass(named: "Row")), keys)
                try writer.commit()
                try SmallItemsFile.assertVerifies(path)
            }
            XCTAssertEqual(FileManager.default.contents(atPath: fast), FileManager.default.contents(atPath: general), "after '\(what)'")
        }
        XCTAssertEqual(try keys(fast).count, 3)
        XCTAssertLessThan(try keys(fast).count, all.count)
    }

    /// Which indexes the fast path takes: the primary key's and `code`'s (one object per
    /// level-0 key), not `group`'s (duplicate lists) or `tag`'s (sub-indexes); and none once
    /// the transaction has changed the index.
    func testOnlyIndexesOfSingleEntriesAreReadInOrder() throws {
        let path = dir + "/rows.realm"
        try makeFile(path, rows: 3000)
        let keys = try keys(path)
        let table = try XCTUnwrap(try Snapshot(path: path).table(named: "class_Row"))
        func column(_ editor: TableEditor, _ name: String) throws -> Int {
            try XCTUnwrap(editor.columns.firstIndex { $0.name == name })
        }
        do {
            let txn = try WriteTransaction(path: path)
            defer { txn.rollback() }
            let editor = try TableEditor(transaction: txn, table: table)
            try editor.removeRows(keys.filter { $0 % 4 != 0 }, eraseFromIndexes: false)
            XCTAssertNotNil(try editor.rebuiltFromCommittedEntries(try column(editor, "id")), "primary key")
            XCTAssertNotNil(try editor.rebuiltFromCommittedEntries(try column(editor, "code")), "distinct codes")
            XCTAssertNil(try editor.rebuiltFromCommittedEntries(try column(editor, "group")), "duplicate lists")
            XCTAssertNil(try editor.rebuiltFromCommittedEntries(try column(editor, "tag")), "sub-indexes")
        }
        do {
            let txn = try WriteTransaction(path: path)
            defer { txn.rollback() }
            let editor = try TableEditor(transaction: txn, table: table)
            let id = try column(editor, "id")
            try editor.set(keys[0], column: try column(editor, "code"), .int(-77))
            try editor.flushPendingIndex(try column(editor, "code"))
            try editor.removeRows(keys.filter { $0 % 4 != 0 }, eraseFromIndexes: false)
            XCTAssertNotNil(try editor.rebuiltFromCommittedEntries(id), "an index the transaction did not change")
            XCTAssertNil(try editor.rebuiltFromCommittedEntries(try column(editor, "code")), "an index changed in the transaction")
        }
    }
}
