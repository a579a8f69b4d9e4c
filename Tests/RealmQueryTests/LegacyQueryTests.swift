import Foundation
import RealmFormat
import RealmQuery
import RealmTestSupport
import XCTest

/// Queries on files of formats 2–9 give what they give on the upgraded copy (issue 18): the
/// same objects in the same order, through links, lists, backlinks, indexes and primary keys;
/// and simple comparisons find the objects realm-core's own dump of the file says they should.
final class LegacyQueryTests: XCTestCase {
    static let cases: [(file: String, className: String, queries: [String])] = [
        ("java__asset_file", "Dog", ["age > 2", "name BEGINSWITH[c] 'd' SORT(age DESC)", "owner.name != nil",
                                     "@links.Owner.dogs.@count > 0", "birthday == nil", "height >= 0.5 AND hasTail == true",
                                     "name == 'Fido'"]),
        ("java__asset_file", "Owner", ["dogs.@count > 1", "ANY dogs.age >= 3", "cat.name CONTAINS 'c'"]),
        ("java__asset_file", "DogPrimaryKey", ["id == 1", "id IN {1, 2, 3} SORT(id DESC)"]),
        ("core__test_upgrade_database_1000_9_to_10", "table", [
            "int > 5", "int_1 == nil", "string_i == 'str'", "string_i BEGINSWITH 'str'", "ANY integers > 3",
            "integers.@count == 0", "linklist.@count > 0", "link.int < 10", "ANY linklist.val > 1",
            "double > 1.5 SORT(double DESC) LIMIT(5)", "bool_null == true", "date > T0:0",
        ]),
        ("core__test_upgrade_database_1000_9_to_10", "other", ["ANY strings == nil", "strings.@count > 1", "val BETWEEN {1, 5}"]),
        ("java__default-nullable-primarykey", "PrimaryKeyAsLong", ["id == 1", "id == nil", "name BEGINSWITH 'a'"]),
        ("java__wrong_primarykey_table", "PointOfInterest", ["park.id == 1", "images.@count > 2", "createdAt > 2015-01-01@00:00:00", "name CONTAINS[c] 'trail'"]),
        ("js__dates-v3", "Date", ["nullDate == nil", "currentDate > 2016-01-01@00:00:00"]),
    ]

    func testQueriesOnOldFilesMatchTheUpgradedCopy() throws {
        var total = 0, nonEmpty = 0
        for (file, className, queries) in Self.cases {
            let old = try Snapshot(path: Fixtures.path("public/\(file).realm"))
            XCTAssertNotNil(old.legacy, file)
            let upgraded = try Snapshot(image: ByteImage(bytes: FormatUpgrade.upgradedFile(old)))
            XCTAssertEqual(upgraded.fileFormat, 24)
            for text in queries {
                let before = try Query(store: ObjectStore(snapshot: old), className: className, text).objectKeys()
                let after = try Query(store: ObjectStore(snapshot: upgraded), className: className, text).objectKeys()
                XCTAssertEqual(before, after, "\(file) \(className): \(text)")
                total += 1
                if !before.isEmpty { nonEmpty += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(nonEmpty, total / 2, "most queries find something")
        print("legacy queries: \(total) queries on old files match their upgraded copies (\(nonEmpty) find objects)")
    }

    /// `property > value` and `property == value` on classes without a primary key, checked
    /// against the values realm-core's dump gives each `_key`.
    func testComparisonsFindWhatRealmCoresDumpHolds() throws {
        let cases: [(file: String, className: String, property: String, greaterThan: Double)] = [
            ("java__asset_file", "Dog", "age", 2), ("java__asset_file", "Cat", "weight", 1.5),
            ("core__test_upgrade_database_1000_9_to_10", "table", "int", 5),
            ("core__test_upgrade_database_1000_9_to_10", "other", "val", 2),
            ("java__backlinks-migration", "AllJavaTypes", "fieldLong", 0),
        ]
        var found = 0
        for c in cases {
            let path = Fixtures.path("public/\(c.file).realm")
            let dump = try XCTUnwrap(Fixtures.expectedDump(for: path))
            let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: dump) as? [String: Any])
            let objects = try XCTUnwrap((root["objects"] as? [String: Any])?[c.className] as? [[String: Any]], "\(c.file) \(c.className)")
            let expected = objects.filter { (($0[c.property] as? NSNumber)?.doubleValue ?? -.infinity) > c.greaterThan }
                .map { ($0["_key"] as? NSNumber)?.int64Value ?? -1 }
            let snapshot = try Snapshot(path: path)
            let query = try Query(store: ObjectStore(snapshot: snapshot), className: c.className, "\(c.property) > \(c.greaterThan)")
            XCTAssertEqual(try query.objectKeys(), expected, "\(c.file) \(c.className).\(c.property) > \(c.greaterThan)")
            found += expected.count
        }
        XCTAssertGreaterThan(found, 0)
    }
}
