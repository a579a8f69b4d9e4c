import RealmFormat
@testable import RealmQuery
import RealmTestSupport
import XCTest

/// `property <op> integer` compiled from its tokens (SimpleComparison) against the general path
/// (parser and type checker): for every property of every class of the test files, every
/// operator and literals at the int extremes, the fast path either declines or gives the
/// general path's single-column condition, and both count the same objects.
final class SimpleComparisonTests: XCTestCase {
    static let operators = ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>"]
    static let literals = ["42", "0", "-7", "+3", "-0", "9223372036854775807", "-9223372036854775808",
                           "99999999999999999999", "007", "3.0", "0x10", "1e2", "'42'", "null", "$0", "true"]

    let files: [(path: String, store: ObjectStore)] = [
        ("realm-core/alltypes.realm", ObjectStore(snapshot: try! Snapshot(path: Fixtures.path("realm-core/alltypes.realm")))),
        ("realm-core/basic.realm", ObjectStore(snapshot: try! Snapshot(path: Fixtures.path("realm-core/basic.realm")))),
        ("IndexedIntTests", ObjectStore(snapshot: try! Snapshot(image: ByteImage(bytes: IndexedIntTests.fileBytes)))),
    ]

    /// What the general path compiles, or nil when it rejects the query.
    func general(_ text: String, _ store: ObjectStore, _ table: TableData) -> Query? {
        try? Query(store: store, table: table, text, arguments: [.int(5)], simpleComparisons: false)
    }

    func assertSameAsGeneralPath(_ text: String, _ store: ObjectStore, _ table: TableData, accepted: inout Int,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        guard let fast = SimpleComparison.predicate(text, on: table) else { return }
        accepted += 1
        let label = "\(table.className): \(text)"
        guard let general = general(text, store, table) else {
            return XCTFail("\(label): the fast path compiles what the general path rejects", file: file, line: line)
        }
        guard general.orderings.isEmpty, general.predicates.count == 1,
              case let .direct(g) = general.predicates[0], case let .direct(f) = fast else {
            return XCTFail("\(label): the general path makes \(general.predicates), the fast path \(fast)", file: file, line: line)
        }
        XCTAssertEqual(f.column.key, g.column.key, label, file: file, line: line)
        XCTAssertEqual(f.type, g.type, label, file: file, line: line)
        XCTAssertEqual(f.op, g.op, label, file: file, line: line)
        XCTAssertEqual(f.value, g.value, label, file: file, line: line)
        XCTAssertNil(g.pattern, label, file: file, line: line)
        XCTAssertNil(f.pattern, label, file: file, line: line)
        let viaFast = try Query(store: store, table: table, text)
        XCTAssertEqual(try viaFast.count(), try general.count(), label, file: file, line: line)
        XCTAssertEqual(try viaFast.objectKeys(), try general.objectKeys(), label, file: file, line: line)
    }

    func testEveryPropertyOperatorAndLiteralCompilesAsTheGeneralPathDoes() throws {
        var accepted = 0, tried = 0
        for (path, store) in files {
            for name in store.classNames {
                let table = try XCTUnwrap(store.table(className: name), path)
                for column in table.table.publicColumns {
                    for op in Self.operators {
                        for literal in Self.literals {
                            for text in ["\(column.name) \(op) \(literal)", "\(column.name)\(op)\(literal)", "\t\(column.name)  \(op)\n\(literal) "] {
                                try assertSameAsGeneralPath(text, store, table, accepted: &accepted)
                                tried += 1
                            }
                        }
                    }
                }
            }
        }
        // Every file has int properties: the fast path must have taken some of these queries.
        XCTAssertGreaterThan(accepted, 500, "of \(tried)")
    }

    /// Each int property of the class is taken, with the operator as written; the properties
    /// of other types are left to the general path.
    func testTakesExactlyTheSingleIntPropertiesOfTheClass() throws {
        for (path, store) in files {
            for name in store.classNames {
                let table = try XCTUnwrap(store.table(className: name), path)
                for column in table.table.publicColumns {
                    let taken = SimpleComparison.predicate("\(column.name) >= 1", on: table) != nil
                    // A name that is not one plain identifier token (a keyword, escapes) is not.
                    let tokens = Lexer(column.name).tokenize()
                    let plainName = tokens.count == 2 && tokens[0].kind == .identifier
                    XCTAssertEqual(taken, plainName && column.type == .int && column.collection == nil, "\(path) \(name).\(column.name)")
                    if taken, case let .direct(d)? = SimpleComparison.predicate("\(column.name) >= 1", on: table) {
                        XCTAssertEqual(d.op, .greaterEqual)
                    }
                }
            }
        }
    }

    /// Other shapes go the general way: more tokens, `[c]`, keywords, key paths, arguments,
    /// placeholders, names no property has, constants on the left.
    func testOtherShapesAreLeftToTheGeneralPath() throws {
        let store = files[2].store
        let table = try XCTUnwrap(store.table(className: "Thing"))
        for text in ["n == 1 && n == 2", "n ==[c] 1", "n == 1 SORT(n ASC)", "n IN {1}", "n == $0", "n == %@", "%K == 1",
                     "1 == n", "missing == 1", "n.x == 1", "@count == 1", "n BETWEEN {1, 2}", "n == 1 LIMIT(1)",
                     "(n == 1)", "!n == 1", "n == -", "n = = 1", "n == 1.5", "TRUEPREDICATE", "n", "", "n\\ x == 1", "n == 1 #"] {
            XCTAssertNil(SimpleComparison.predicate(text, on: table), text)
        }
        // An unknown property is still reported by the general path, with its message.
        XCTAssertThrowsError(try Query(store: store, className: "Thing", "missing == 1")) { error in
            guard case .unknownProperty = error as? QueryError else { return XCTFail("\(error)") }
        }
    }
}
