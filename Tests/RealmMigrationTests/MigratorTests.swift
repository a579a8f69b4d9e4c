import RealmFormat
import RealmMigration
import RealmObjects
import RealmTestSupport
import XCTest

/// The engine on real files: the column keys, column order, attributes, indexes and primary
/// keys realm-core 14.14's object store gives the same migrations (checked by running them
/// through its own migration code on copies of the fixtures, outside this repository).
final class MigratorTests: XCTestCase {
    func migrate(_ fixture: String, _ script: String) throws -> (MigrationResult, Snapshot?) {
        let snapshot = try Snapshot(path: Fixtures.path("realm-core/\(fixture).realm"))
        let result = try Migrator.run(try ScriptParser.parse(script), on: snapshot)
        return (result, try result.bytes.map { try Snapshot(image: ByteImage(bytes: $0)) })
    }

    /// `name key` per column in Spec order, backlinks as `(backlink)`.
    func columns(_ snapshot: Snapshot, _ table: String) -> [String] {
        snapshot.table(named: table)!.columns.map { "\($0.isBacklink ? "(backlink)" : $0.name) \(hex($0.key.value))" }
    }

    func testSchemaV3ToV4GivesRealmCoresColumnKeys() throws {
        let script = try String(contentsOfFile: Fixtures.packageRoot.appendingPathComponent("Fixtures/migrations/schema_v3_to_v4.migration").path, encoding: .utf8)
        let (result, file) = try migrate("schema_v3", script)
        let migrated = try XCTUnwrap(file)
        XCTAssertEqual(result.fromVersion, 3)
        XCTAssertEqual(result.toVersion, 4)
        XCTAssertEqual(columns(migrated, "class_Contact"), [
            "createdAt 0x44080004", "category 0x440c0005", "phone 0xc0020001", "age 0x80000002",
            "firstName 0x80020003", "lastName 0x80020006",
        ])
        let contact = migrated.table(named: "class_Contact")!
        XCTAssertEqual(contact.columnKeySequence, 4, "three columns removed")
        XCTAssertEqual(migrated.top?.version, 6, "one commit above the input's version 5")
        XCTAssertTrue(Verifier.verify(migrated).isOK)
        XCTAssertEqual(try RealmFile(path: "", snapshot: migrated).schemaVersion(), 4)
    }

    func testManyChangesGiveRealmCoresLayout() throws {
        let (result, file) = try migrate("basic", """
            version 2 {
              add embedded class Address { city: string; zip: string? }
              add class Tag { label: string primary key; weight: int indexed }
              class Dog {
                primary key name
                add weight: double = age != null ? double(age) * 2.0 : 1.0
                delete where "age > 6"
              }
              class Person {
                rename email -> mail
                change age: int?
                change height: double = height ?? 0.0
                change isAdmin: int indexed
                unindex name
                add score: double = double(age) * 1.5
                remove nicknames
                add address: Address?
                add tags: List<Tag>
              }
            }
            """)
        XCTAssertEqual(result.problemCount, 0, "\(result.problems)")
        let migrated = try XCTUnwrap(file)
        XCTAssertEqual(columns(migrated, "class_Dog"), ["name 0x40020000", "age 0x44000001", "owner 0x440c0002", "weight 0x400a0004", "(backlink) 0x400e0003"])
        XCTAssertEqual(columns(migrated, "class_Person"), [
            "name 0x80020001", "mail 0x84020003", "birthday 0x84080006", "dogs 0x880c0007", "bestFriend 0x840c0008",
            "age 0x8400000b", "height 0xa0002", "isAdmin 0x40000004", "score 0x400a000c", "address 0x440c000d",
            "tags 0x480c000e", "(backlink) 0x800e0000", "(backlink) 0x800e0009",
        ])
        XCTAssertEqual(columns(migrated, "class_Address"), ["city 0xc0020000", "zip 0xc4020001", "(backlink) 0xc00e0002"])
        XCTAssertEqual(columns(migrated, "class_Tag"), ["label 0x100020000", "weight 0x100000002", "(backlink) 0x1000e0001"])
        let person = migrated.table(named: "class_Person")!, dog = migrated.table(named: "class_Dog")!, tag = migrated.table(named: "class_Tag")!
        XCTAssertEqual(person.columnKeySequence, 5)
        XCTAssertEqual(dog.primaryKey, ColumnKey(value: 0x40020000))
        XCTAssertTrue(dog.column(named: "name")!.attributes.contains(.indexed), "an index added in a migration has the Indexed bit")
        XCTAssertFalse(person.column(named: "name")!.hasSearchIndex)
        XCTAssertTrue(person.column(named: "isAdmin")!.hasSearchIndex)
        XCTAssertEqual(tag.primaryKey, ColumnKey(value: 0x100020000))
        XCTAssertFalse(tag.column(named: "label")!.attributes.contains(.indexed), "a new table's primary key has no Indexed bit")
        XCTAssertTrue(Verifier.verify(migrated).isOK)
        XCTAssertEqual(result.steps[0].classes.first { $0.name == "Dog" }?.deleted, 2)
    }

    func testRemovingAClassFreesItsSlot() throws {
        let (_, file) = try migrate("churn", """
            version 2 {
              class Note {
                remove ref
                change id: string
                add level: int = ref.level ?? -1
              }
              remove class Log
            }
            """)
        let migrated = try XCTUnwrap(file)
        XCTAssertNil(migrated.table(named: "class_Log"))
        XCTAssertEqual(migrated.tables.map(\.position), [0, 2], "the slot stays, tagged")
        XCTAssertEqual(columns(migrated, "class_Note"), ["text 0x80020001", "n 0x80000002", "tags 0x88020003", "id 0xc0020000", "level 0xc0000005"])
        XCTAssertEqual(migrated.table(named: "class_Note")!.primaryKey, ColumnKey(value: 0xc0020000))
        // A new class takes the freed slot with the next tag.
        let again = try Migrator.run(try ScriptParser.parse("version 3 { add class Fresh { a: int } }"), on: migrated)
        let next = try Snapshot(image: ByteImage(bytes: XCTUnwrap(again.bytes)))
        XCTAssertEqual(next.table(named: "class_Fresh")?.key, TableKey(value: 1 << 16 | 1))
    }

    func testUpToDateFilesAreLeftAlone() throws {
        let (result, file) = try migrate("schema_v3", "version 2 { class Contact { remove phone } } version 3 { }")
        XCTAssertTrue(result.isUpToDate)
        XCTAssertNil(file)
        XCTAssertTrue(result.planText(file: "f").contains("nothing to do"))
    }

    func testOnlyVersionsAboveTheFilesRunInOrder() throws {
        let (result, file) = try migrate("schema_v3", """
            version 3 { class Contact { remove phone } }
            version 4 { class Contact { add first: string = split(fullName, " ", 0) } }
            version 5 { class Contact { remove fullName; rename first -> given } }
            """)
        XCTAssertEqual(result.steps.map(\.version), [4, 5])
        let migrated = try XCTUnwrap(file)
        let names = migrated.table(named: "class_Contact")!.publicColumns.map(\.name)
        XCTAssertEqual(names, ["phone", "age", "createdAt", "category", "given"])
    }
}
