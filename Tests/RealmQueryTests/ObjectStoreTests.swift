import RealmFormat
@testable import RealmQuery
import RealmTestSupport
import XCTest

/// Who owns what between `ObjectStore` and `TableData`: a table taken from a store that is
/// released at once (`ObjectStore(snapshot:).table(className:)`) keeps working, and a store
/// with its tables and queries is freed when its last user lets go (no reference cycle).
final class ObjectStoreTests: XCTestCase {
    func testTableDataFromATemporaryStoreStaysUsable() throws {
        let snapshot = try Snapshot(path: Fixtures.path("realm-core/large.realm"))
        // The store is a temporary: nothing but the TableData survives this line.
        let items = try XCTUnwrap(ObjectStore(snapshot: snapshot).table(className: "Item"))
        XCTAssertEqual(items.className, "Item")
        let id = try XCTUnwrap(items.column(named: "id"))
        let ids = try items.values(id)
        XCTAssertGreaterThan(ids.count, 1234)
        XCTAssertEqual(try items.count(), ids.count)
        XCTAssertEqual(try items.keys().count, ids.count)
        XCTAssertEqual(try items.row(primaryKey: ids[1234]), 1234)
        XCTAssertEqual(try items.value(of: id, atRow: 1234), ids[1234])
        XCTAssertEqual(try items.find(primaryKey: QValue(ids[77])), try items.keys()[77])
        // A query may be given a table of another (released) store.
        let q = try Query(store: ObjectStore(snapshot: snapshot), table: items, "quantity > 10")
        XCTAssertGreaterThan(try q.count(), 0)
    }

    func testQueriesThroughLinksFromATemporaryStore() throws {
        let snapshot = try Snapshot(path: Fixtures.path("realm-core/basic.realm"))
        let dogs = try Query(store: ObjectStore(snapshot: snapshot), className: "Dog", "owner.age > 20 SORT(owner.age DESC)")
        XCTAssertEqual(Set(try dogs.objectKeys()), [1, 2, 3, 5])
        let people = try Query(store: ObjectStore(snapshot: snapshot), className: "Person", "ANY dogs.age > 0")
        XCTAssertEqual(try people.objectKeys(), [0, 1, 2, 5])
    }

    func testStoreIsFreedWithItsTablesAndQueries() throws {
        let snapshot = try Snapshot(path: Fixtures.path("realm-core/basic.realm"))
        weak var released: ObjectStore?
        weak var releasedTable: TableData?
        do {
            let store = ObjectStore(snapshot: snapshot)
            released = store
            let q = try Query(store: store, className: "Dog", "owner.age > 20 SORT(owner.age DESC)")
            releasedTable = q.table
            XCTAssertEqual(try q.count(), 4)
        }
        XCTAssertNil(released, "the store was freed")
        XCTAssertNil(releasedTable, "its tables were freed with it")
    }
}
