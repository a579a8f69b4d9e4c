import Foundation
import RealmTestSupport
import XCTest

/// Links stored in Mixed values as write input (issue #4): `{"$link": {"class": C, "id": …}}`,
/// as the canonical dump writes them, in a `mixed` property and in Mixed lists, sets and
/// dictionaries of a copy of realm-core's `alltypes.realm`. The first such link from an origin
/// column into a table creates that table's backlink column (realm-format.md §10.6); every
/// commit verifies (backlinks both ways) and exports the links as they were given.
final class MixedLinkWriteTests: XCTestCase {
    var dir = ""
    var file = ""
    /// AllTypes object 1 of the fixture.
    let first = #"_id == oid(4611861c629efb5e254809e1)"#

    override func setUpWithError() throws {
        dir = Fixtures.temporaryDirectory()
        file = dir + "/alltypes.realm"
        try FileManager.default.copyItem(atPath: Fixtures.path("realm-core/alltypes.realm"), toPath: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func assertVerifies(_ line: UInt = #line) {
        let run = realmsh("verify", file)
        XCTAssertEqual(run.code, 0, run.out, line: line)
    }

    /// The canonical dump of the file.
    func dump() throws -> [String: Any] {
        let run = realmsh("export", file)
        XCTAssertEqual(run.code, 0, run.stderr)
        return try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as! [String: Any]
    }

    func object(_ dump: [String: Any], _ className: String, id: String) -> [String: Any]? {
        let objects = (dump["objects"] as? [String: Any])?[className] as? [[String: Any]] ?? []
        return objects.first { ($0["_id"] as? [String: Any])?["$oid"] as? String == id }
    }

    /// The `backlinks` of a class in the dump's schema, as "Origin.property".
    func backlinks(_ dump: [String: Any], _ className: String) -> [String] {
        let classes = dump["classes"] as? [[String: Any]] ?? []
        let c = classes.first { $0["name"] as? String == className }
        return (c?["backlinks"] as? [[String: String]] ?? []).map { "\($0["originClass"]!).\($0["originProperty"]!)" }
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) }

    func assertSameJSON(_ a: Any?, _ b: Any?, _ message: String, line: UInt = #line) throws {
        func text(_ v: Any?) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: v ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
        }
        XCTAssertEqual(try text(a), try text(b), message, line: line)
    }

    static let links = #"""
        {"mixedCol": {"$link": {"class": "IntPK", "id": 7}},
         "mixedList": [{"$link": {"class": "LinkTarget", "id": "alpha"}}, {"$link": {"class": "NoPK", "id": {"$key": 2}}}, 5,
                       {"$link": {"class": "LinkTarget", "id": "alpha"}}],
         "mixedSet": [3, {"$link": {"class": "OptIntPK", "id": null}}],
         "mixedDict": {"a": {"$link": {"class": "IntPK", "id": -1}}, "b": {"$link": {"class": "OptIntPK", "id": 5}}, "c": "text"}}
        """#

    func testLinksInAMixedPropertyAndMixedCollectionsExportAsTheyWereWritten() throws {
        let run = realmsh("update", file, "AllTypes", "--where", first, "--json", Self.links)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("updated 1"), run.stderr)
        assertVerifies()
        let written = try XCTUnwrap(object(try dump(), "AllTypes", id: "4611861c629efb5e254809e1"))
        let given = try XCTUnwrap(try json(Self.links) as? [String: Any])
        for property in ["mixedCol", "mixedList", "mixedSet", "mixedDict"] {
            try assertSameJSON(written[property], given[property], property)
        }
    }

    func testTheFirstMixedLinkIntoATableCreatesItsBacklinkColumnOnce() throws {
        let before = try dump()
        XCTAssertEqual(backlinks(before, "IntPK"), ["AllTypes.intPkCol"])
        XCTAssertEqual(backlinks(before, "OptIntPK"), [])
        XCTAssertEqual(backlinks(before, "NoPK"), ["AllTypes.noPkCol", "AllTypes.mixedCol"])
        XCTAssertEqual(realmsh("update", file, "AllTypes", "--where", first, "--json", Self.links).code, 0)
        assertVerifies()
        let after = try dump()
        // New backlink columns come after the existing ones, in the order the links were set.
        XCTAssertEqual(backlinks(after, "IntPK"), ["AllTypes.intPkCol", "AllTypes.mixedCol", "AllTypes.mixedDict"])
        XCTAssertEqual(backlinks(after, "OptIntPK"), ["AllTypes.mixedSet", "AllTypes.mixedDict"])
        XCTAssertEqual(backlinks(after, "NoPK"), ["AllTypes.noPkCol", "AllTypes.mixedCol", "AllTypes.mixedList"])
        XCTAssertEqual(backlinks(after, "LinkTarget"), backlinks(before, "LinkTarget"), "LinkTarget had them already")
        // More links from the same columns use the columns made above.
        let run = realmsh("update", file, "AllTypes", "--all", "--json", #"{"mixedCol": {"$link": {"class": "IntPK", "id": 0}}}"#)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        XCTAssertEqual(backlinks(try dump(), "IntPK"), ["AllTypes.intPkCol", "AllTypes.mixedCol", "AllTypes.mixedDict"])
    }

    func testANewObjectsMixedValuesMayLinkToItselfAndToItsOwnClass() throws {
        let new = #"""
            {"_id": {"$oid": "650000000000000000000001"}, "boolCol": true, "intCol": 1, "floatCol": 1, "doubleCol": 1,
             "stringCol": "x", "dataCol": "", "dateCol": "2020-01-01T00:00:00Z", "decimalCol": "1",
             "objectIdCol": "650000000000000000000009", "uuidCol": "3b241101-e2bb-4255-8caf-4136c566a962", "indexedInt": 3,
             "mixedCol": [{"$link": {"class": "AllTypes", "id": {"$oid": "4611861c629efb5e254809e1"}}}, {"k": 1}],
             "mixedList": [{"$link": {"class": "AllTypes", "id": {"$oid": "650000000000000000000001"}}}]}
            """#
        let run = realmsh("insert", file, "AllTypes", new)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        let dump = try self.dump()
        XCTAssertEqual(backlinks(dump, "AllTypes"), ["NoPK.allTypes", "AllTypes.mixedCol", "AllTypes.mixedList"])
        let written = try XCTUnwrap(object(dump, "AllTypes", id: "650000000000000000000001"))
        let given = try XCTUnwrap(try json(new) as? [String: Any])
        try assertSameJSON(written["mixedCol"], given["mixedCol"], "a link inside a list held by a mixed property")
        try assertSameJSON(written["mixedList"], given["mixedList"], "a link to the object itself")
    }

    func testDeletingTheTargetsNullsOrRemovesTheLinksInMixedValues() throws {
        XCTAssertEqual(realmsh("update", file, "AllTypes", "--where", first, "--json", Self.links).code, 0)
        for (className, predicate) in [("IntPK", "_id == 7 OR _id == -1"), ("OptIntPK", "TRUEPREDICATE"), ("NoPK", "TRUEPREDICATE")] {
            let run = realmsh("delete", file, className, "--where", predicate)
            XCTAssertEqual(run.code, 0, run.stderr)
            assertVerifies()
        }
        let written = try XCTUnwrap(object(try dump(), "AllTypes", id: "4611861c629efb5e254809e1"))
        XCTAssertTrue(written["mixedCol"] is NSNull, "a mixed property linking to a deleted object becomes null")
        try assertSameJSON(written["mixedList"], try json(#"[{"$link": {"class": "LinkTarget", "id": "alpha"}}, 5, {"$link": {"class": "LinkTarget", "id": "alpha"}}]"#),
                           "list entries linking to deleted objects are removed")
        try assertSameJSON(written["mixedSet"], [3], "set entries linking to deleted objects are removed")
        try assertSameJSON(written["mixedDict"], try json(#"{"a": null, "b": null, "c": "text"}"#), "dictionary values become null")
    }

    func testOverwritingAMixedLinkMovesItsBacklink() throws {
        XCTAssertEqual(realmsh("update", file, "AllTypes", "--where", first, "--json", Self.links).code, 0)
        var run = realmsh("update", file, "AllTypes", "--where", first, "--json",
                          #"{"mixedCol": {"$link": {"class": "IntPK", "id": 0}}, "mixedList": [], "mixedSet": null, "mixedDict": {"c": 1}}"#)
        XCTAssertEqual(run.code, 0, run.stderr)
        // verify compares every backlink column with the links exactly (BacklinkVerifier):
        // the old targets' entries are gone, the new target has one.
        assertVerifies()
        run = realmsh("delete", file, "IntPK", "--where", "_id == 0")
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        let written = try XCTUnwrap(object(try dump(), "AllTypes", id: "4611861c629efb5e254809e1"))
        XCTAssertTrue(written["mixedCol"] is NSNull, "the delete found the new link through its backlink")
        try assertSameJSON(written["mixedDict"], ["c": 1], "the overwritten dictionary")
    }

    func testASetGivenTheSameLinkTwiceHoldsItOnceWithOneBacklink() throws {
        let input = #"{"objectSet": ["alpha", "alpha"], "mixedSet": [{"$link": {"class": "IntPK", "id": 0}}, {"$link": {"class": "IntPK", "id": 0}}]}"#
        let run = realmsh("update", file, "AllTypes", "--where", first, "--json", input)
        XCTAssertEqual(run.code, 0, run.stderr)
        assertVerifies()
        let written = try XCTUnwrap(object(try dump(), "AllTypes", id: "4611861c629efb5e254809e1"))
        try assertSameJSON(written["objectSet"], ["alpha"], "set elements are unique")
        try assertSameJSON(written["mixedSet"], try json(#"[{"$link": {"class": "IntPK", "id": 0}}]"#), "set elements are unique")
    }

    func testBadLinksInMixedValuesAreInputErrorsThatLeaveTheFileUntouched() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let cases: [(String, String)] = [
            (#"{"mixedCol": {"$link": {"class": "Nope", "id": 1}}}"#, "object 0: AllTypes.mixedCol: $link names no class 'Nope'"),
            (#"{"mixedCol": {"$link": {"class": "linktarget", "id": "x"}}}"#, "did you mean 'LinkTarget'?"),
            (#"{"mixedCol": {"$link": {"class": "IntPK", "id": 12345}}}"#, "AllTypes.mixedCol: $link: no IntPK object has primary key 12345"),
            (#"{"mixedSet": [{"$link": {"class": "NoPK", "id": {"$key": 99}}}]}"#, "AllTypes.mixedSet: $link: no NoPK object has key 99"),
            (#"{"mixedList": [1, {"$link": {"class": "EmbeddedObj", "id": {"$key": 0}}}]}"#,
             "AllTypes.mixedList: cannot link to embedded object: EmbeddedObj is an embedded class"),
            (#"{"mixedDict": {"a": {"$link": {"class": "NoPK", "id": 3}}}}"#, "AllTypes.mixedDict: $link: NoPK has no primary key"),
            (#"{"mixedDict": {"a": {"$link": {"class": "IntPK", "id": "seven"}}}}"#, "the primary key _id expects an int"),
            (#"{"mixedCol": {"$link": "LinkTarget"}}"#, #"$link expects {"class": "ClassName", "id": "#),
        ]
        for (json, message) in cases {
            let run = realmsh("update", file, "AllTypes", "--all", "--json", json)
            XCTAssertEqual(run.code, 65, "\(json): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(json): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("nothing was written"), run.stderr)
        }
        // Inserts name the object's position in the input; the valid object before it is not written either.
        let objects = ["650000000000000000000001", "650000000000000000000002"].enumerated().map { i, id in
            #"{"_id": {"$oid": "\#(id)"}, "boolCol": true, "intCol": 1, "floatCol": 1, "doubleCol": 1, "stringCol": "x", "dataCol": "", "#
                + #""dateCol": "2020-01-01T00:00:00Z", "decimalCol": "1", "objectIdCol": "\#(id)", "#
                + #""uuidCol": "3b241101-e2bb-4255-8caf-4136c566a962", "indexedInt": 3, "mixedCol": {"$link": {"class": "IntPK", "id": \#(i == 0 ? 7 : 42)}}}"#
        }
        let run = realmsh("insert", file, "AllTypes", "[" + objects.joined(separator: ",") + "]")
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("object 1: AllTypes.mixedCol: $link: no IntPK object has primary key 42"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
    }
}
