import XCTest
import RealmFormat
import RealmObjects
@testable import RealmBrowser
import RealmTestSupport

/// The browser's view model on real files, without a terminal: what the screen shows and where
/// keys lead, compared with realm-core's dumps.
final class NavigationTests: XCTestCase {
    let basic = Fixtures.path("realm-core/basic.realm")

    func testClassListShowsCountsMarksEmbeddedAndFoldsInternalTables() throws {
        let session = try BrowserFixtures.session(basic)
        XCTAssertEqual(session.classes.entries, [
            .objectClass(name: "Dog", count: 8, embedded: false),
            .objectClass(name: "Person", count: 10, embedded: false),
            .fold(count: 1, open: false),
        ])
        session.classes.toggleFold()
        XCTAssertEqual(session.classes.entries.last, .internalTable(name: "metadata", count: 1))

        let alltypes = try BrowserFixtures.session(Fixtures.path("realm-core/alltypes.realm"))
        let file = alltypes.file
        for case let .objectClass(name, count, embedded) in alltypes.classes.entries {
            let c = try XCTUnwrap(file.objectClass(named: name))
            XCTAssertEqual(embedded, c.isEmbedded, name)
            if !embedded { XCTAssertEqual(count, try BrowserFixtures.objects("realm-core/alltypes.realm", name).count, name) }
        }
        XCTAssertTrue(alltypes.screen.contains { $0.contains(" EmbeddedObj ") && $0.contains("◇") }, alltypes.screen.joined(separator: "\n"))
    }

    func testTableHasTypedHeadersKeyFirstAndTheDumpsValues() throws {
        let session = try BrowserFixtures.session(basic, className: "Person", columns: 250)
        let screen = session.screen
        let header = screen[2]
        for label in ["_key int", "name string", "age int", "email string?", "height double?", "isAdmin bool", "birthday date?",
                      "dogs List<Dog>", "bestFriend → Person", "nicknames List<string>"] {
            XCTAssertTrue(header.contains(label), "header lacks '\(label)': \(header)")
        }
        XCTAssertLessThan(header.range(of: "_key")!.lowerBound, header.range(of: "name")!.lowerBound)
        let table = try XCTUnwrap(session.table)
        let people = try BrowserFixtures.objects("realm-core/basic.realm", "Person")
        XCTAssertEqual(table.columnTexts("name"), people.map { $0["name"] as! String })
        XCTAssertEqual(table.columnTexts("dogs"), people.map { "[\(($0["dogs"] as! [Any]).count) Dog]" })
        XCTAssertEqual(table.columnTexts("bestFriend"), people.map { p in
            BrowserFixtures.key(p["bestFriend"]).map { "→ Person(#\($0))" } ?? "null"
        })
        // Nulls are dimmed; every line is exactly as wide as the screen.
        let frame = session.render()
        let aliceRow = frame.lines[3]
        XCTAssertTrue(aliceRow.spans.contains { $0.text.contains("null") && $0.style.attributes.contains(.dim) })
        for line in frame.lines { XCTAssertEqual(line.width, 250) }

        let dogs = try BrowserFixtures.session(basic, className: "Dog")
        XCTAssertTrue(dogs.screen[2].contains("age int?"))
        XCTAssertTrue(dogs.screen[2].contains("owner → Person"))
    }

    func testPrimaryKeyComesFirstAndStaysWhileColumnsScroll() throws {
        let session = try BrowserFixtures.session(Fixtures.path("realm-core/alltypes.realm"), className: "AllTypes", columns: 100)
        let table = try XCTUnwrap(session.table)
        XCTAssertEqual(table.name(of: table.columns[0]), "_id")
        XCTAssertTrue(session.screen[2].hasPrefix("│_id objectId") || session.screen[2].contains("│_id objectId"))
        for _ in 0..<40 { session.handle(.right) }
        let header = session.screen[2]
        XCTAssertTrue(header.contains("_id objectId"), header)
        XCTAssertTrue(header.contains(table.name(of: table.columns[40])), header)
        XCTAssertFalse(header.contains("boolCol bool"), header)
    }

    func testFilterSortAndTheCountLine() throws {
        let session = try BrowserFixtures.session(basic, className: "Person")
        let people = try BrowserFixtures.objects("realm-core/basic.realm", "Person")
        session.type(.character(":"))
        session.type(text: "age > 30")
        session.type(.enter)
        let table = try XCTUnwrap(session.table)
        let older = people.filter { ($0["age"] as! Int) > 30 }
        XCTAssertEqual(table.columnTexts("name"), older.map { $0["name"] as! String })
        XCTAssertEqual(table.countLine, "\(older.count) of 10 Person")
        XCTAssertTrue(session.screen[session.size.rows - 2].contains("\(older.count) of 10 Person"))
        XCTAssertTrue(session.screen[1].contains("where age > 30"))

        session.type(.character("l"), .character("s"))          // by name, ascending
        XCTAssertEqual(table.columnTexts("name"), older.map { $0["name"] as! String }.sorted())
        session.type(.character("s"))                            // descending
        XCTAssertEqual(table.columnTexts("name"), older.map { $0["name"] as! String }.sorted().reversed())
        session.type(.character("s"))                            // unsorted: ObjKey order again
        XCTAssertEqual(table.keys(), older.map { BrowserFixtures.key($0) ?? ($0["_key"] as! NSNumber).int64Value })

        // A bad query is reported and stays in the bar to be fixed.
        session.type(.character(":"), .control("u"))
        session.type(text: "agee > 3")
        session.type(.enter)
        XCTAssertNotNil(session.input)
        XCTAssertEqual(session.message?.style, .error)
        XCTAssertTrue(session.message?.text.contains("agee") == true, session.message?.text ?? "")
        session.type(.control("u"), .enter)                       // an empty filter clears it
        XCTAssertNil(session.input)
        XCTAssertEqual(table.rowCount, 10)
        XCTAssertEqual(table.countLine, "10 Person")
    }

    func testSearchFindsTheNextMatchInTheColumn() throws {
        let session = try BrowserFixtures.session(basic, className: "Person")
        session.type(.character("l"), .character("/"))
        session.type(text: "an")
        session.type(.enter)
        XCTAssertEqual(session.table?.cursor, 3)                 // Diana
        session.type(.character("/"), .enter)                    // again: Frank
        XCTAssertEqual(session.table?.cursor, 5)
        session.type(.character("/"))
        session.type(text: "zzz")
        session.type(.enter)
        XCTAssertEqual(session.table?.cursor, 5)
        XCTAssertEqual(session.message?.style, .error)
    }

    func testLinksListsBacklinksAndBackRestoresTheCursor() throws {
        let session = try BrowserFixtures.session(basic, className: "Person")
        let people = try BrowserFixtures.objects("realm-core/basic.realm", "Person")
        let dogsOf = { (i: Int) in (people[i]["dogs"] as! [Any]).compactMap(BrowserFixtures.key) }
        let persons = try XCTUnwrap(session.table)
        session.type(.down, .down)                                // Charlie
        persons.moveTo(column: "dogs")
        session.type(.enter)
        let list = try XCTUnwrap(session.table)
        XCTAssertEqual(list.objectClass.name, "Dog")
        XCTAssertEqual(list.keys(), dogsOf(2))
        XCTAssertEqual(list.title, "Person(#2).dogs")
        XCTAssertTrue(session.screen[1].contains("Person › Person(#2).dogs"))

        // A link: the owner of the list's first dog.
        let dogs = try BrowserFixtures.objects("realm-core/basic.realm", "Dog")
        list.moveTo(column: "owner")
        session.type(.enter)
        let owner = try XCTUnwrap(session.table)
        XCTAssertEqual(owner.keys(), [BrowserFixtures.key(dogs[Int(dogsOf(2)[0])]["owner"])!])

        session.type(.backspace)
        XCTAssertTrue(session.table === list)
        XCTAssertEqual(list.name(of: list.columns[list.column]), "owner")
        session.type(.backspace)
        XCTAssertTrue(session.table === persons)
        XCTAssertEqual(persons.cursor, 2)
        XCTAssertEqual(persons.name(of: persons.columns[persons.column]), "dogs")

        // Frank holds the same dog twice: the list shows it twice.
        session.type(.down, .down, .down, .enter)
        XCTAssertEqual(session.table?.keys(), dogsOf(5))
        XCTAssertEqual(session.table?.keys().count, 2)
        session.type(.backspace)

        // The backlinks of a dog: the persons whose dogs hold it.
        session.show(className: "Dog")
        session.type(.character("b"))
        let backlinks = try XCTUnwrap(session.stack.last as? BacklinkPane)
        let holders = people.indices.filter { dogsOf($0).contains(0) }
        XCTAssertEqual(backlinks.groups.map(\.originClass), ["Person"])
        XCTAssertEqual(backlinks.groups.map(\.originProperty), ["dogs"])
        XCTAssertEqual(backlinks.groups[0].objects, holders.count)
        XCTAssertEqual(backlinks.groups[0].links, people.indices.reduce(0) { $0 + dogsOf($1).filter { $0 == 0 }.count })
        session.type(.enter)
        XCTAssertEqual(session.table?.keys().sorted(), holders.map { Int64($0) })
        XCTAssertEqual(session.table?.objectClass.name, "Person")
        session.type(.backspace, .backspace)
        XCTAssertEqual(session.stack.count, 1)
    }

    func testListsOfValuesOpenAsItems() throws {
        let session = try BrowserFixtures.session(basic, className: "Person")
        session.type(.down, .down)
        session.table?.moveTo(column: "nicknames")
        session.type(.enter)
        let items = try XCTUnwrap(session.stack.last as? ValuePane)
        XCTAssertEqual(items.contents.items.map { items.text($0.value).0 }, ["Ch", "Cha"])
        XCTAssertEqual(items.countLine, "2 items · List<string>")
    }

    func testDetailViewShowsEveryPropertyInFull() throws {
        let session = try BrowserFixtures.session(basic, className: "Person")
        session.type(.down, .character("d"))
        let detail = try XCTUnwrap(session.stack.last as? DetailPane)
        let bob = try BrowserFixtures.objects("realm-core/basic.realm", "Person")[1]
        let byLabel = Dictionary(detail.entries.filter { $0.indent == 0 }.map { ($0.label, $0) }, uniquingKeysWith: { a, _ in a })
        for name in ["name", "age", "email", "height", "isAdmin", "birthday", "dogs", "bestFriend", "nicknames"] {
            XCTAssertNotNil(byLabel[name], name)
        }
        XCTAssertEqual(byLabel["name"]?.text, bob["name"] as? String)
        XCTAssertEqual(byLabel["email"]?.text, bob["email"] as? String)
        XCTAssertEqual(byLabel["height"]?.text, "null")
        // The dump's 1961-02-06T23:59:59.999999Z, with every digit of the nanoseconds.
        XCTAssertEqual(byLabel["birthday"]?.text, "1961-02-06 23:59:59.999999000 UTC")
        XCTAssertEqual(byLabel["dogs"]?.text, "[1 Dog]")
        let items = detail.entries.filter { $0.indent == 1 && $0.label.hasPrefix("[") }.map(\.text)
        XCTAssertEqual(items, ["→ Dog(#1)", "Bo"])
        let linked = detail.entries.filter { $0.indent == 1 && $0.label.contains(".") }.map { "\($0.label): \($0.text)" }
        XCTAssertEqual(linked, ["Dog.owner: 2 objects", "Person.bestFriend: 1 object"])

        let all = try BrowserFixtures.session(Fixtures.path("realm-core/alltypes.realm"), className: "AllTypes", columns: 90)
        all.type(.down, .down, .character("d"))
        let pane = try XCTUnwrap(all.stack.last as? DetailPane)
        let text = pane.entries.first { $0.label == "stringCol" }?.text ?? ""
        let dumped = try BrowserFixtures.objects("realm-core/alltypes.realm", "AllTypes")[2]["stringCol"] as? String
        XCTAssertEqual(text, dumped)
        XCTAssertGreaterThan(text.utf8.count, 1000)
        let dates = pane.entries.filter { $0.text.hasSuffix(" UTC") }.map(\.text)
        XCTAssertTrue(dates.contains("1969-12-31 23:59:58.500000000 UTC"), "\(dates)")
        XCTAssertTrue(dates.contains("9999-12-31 23:59:59.999999999 UTC"), "\(dates)")
        for line in all.render().lines { XCTAssertEqual(line.width, 90) }
    }

    func testLargeClassPagesAScreenAtATime() throws {
        let session = try BrowserFixtures.session(Fixtures.path("realm-core/large.realm"), className: "Item", rows: 30)
        let table = try XCTUnwrap(session.table)
        XCTAssertEqual(table.rowCount, 150_000)
        let page = table.pageSize(height: session.paneHeight)
        session.type(.pageDown)
        XCTAssertEqual(table.cursor, page)
        XCTAssertEqual(table.top, page)
        session.type(.pageUp)
        XCTAssertEqual(table.cursor, 0)
        session.type(.character("G"))
        _ = session.render()
        XCTAssertEqual(table.cursor, 149_999)
        XCTAssertTrue(session.screen[session.size.rows - 2].contains("row 150,000 of 150,000"))
        XCTAssertTrue(session.screen[session.size.rows - 3].contains("149999"), session.screen.joined(separator: "\n"))
        // Only the leaves of the screens seen were decoded, never the class.
        XCTAssertLessThanOrEqual(table.rows.decodedLeaves, 12)
        session.type(.character("g"))
        XCTAssertEqual(table.cursor, 0)

        // A filter of many rows says so on the screen first, then runs.
        session.type(.character(":"))
        session.type(text: "quantity > 50000 AND active == true")
        session.type(.enter)
        XCTAssertTrue(session.hasPendingWork)
        XCTAssertTrue(session.screen.last!.contains("Filtering 150,000 Item…"), session.screen.last!)
        session.runPendingWork()
        let file = try RealmFile(path: Fixtures.path("realm-core/large.realm"))
        let item = try XCTUnwrap(file.objectClass(named: "Item"))
        var expected = 0
        try file.forEachObject(of: item, properties: [item.property(named: "quantity")!, item.property(named: "active")!]) { _, v in
            if case let .int(q) = v[0], q > 50000, v[1] == .bool(true) { expected += 1 }
        }
        XCTAssertEqual(table.countLine, "\(grouped(expected)) of 150,000 Item")
        XCTAssertNil(session.input)
    }

    func testResizeRefitsEveryLine() throws {
        let session = try BrowserFixtures.session(basic, className: "Person", rows: 30, columns: 120)
        session.size = (12, 60)
        session.handle(.resize)
        let frame = session.render()
        XCTAssertEqual(frame.lines.count, 12)
        for line in frame.lines { XCTAssertEqual(line.width, 60) }
        session.type(.character("G"))
        let table = try XCTUnwrap(session.table)
        XCTAssertEqual(table.cursor, 9)
        XCTAssertGreaterThanOrEqual(table.cursor, table.top)
        XCTAssertLessThan(table.cursor, table.top + table.pageSize(height: session.paneHeight))
    }

    func testMouseClickSelectsAndTheWheelScrolls() throws {
        let session = try BrowserFixtures.session(basic, className: "Person", rows: 30, columns: 120)
        let table = try XCTUnwrap(session.table)
        // Row 3 of the screen is the table's first row (title, pane title, header above it).
        session.handle(.mouse(.init(kind: .click, row: 5, column: session.mainX + 12)))
        XCTAssertEqual(table.cursor, 2)
        XCTAssertEqual(table.name(of: table.columns[table.column]), "name")
        session.handle(.mouse(.init(kind: .wheelDown, row: 5, column: session.mainX + 2)))
        XCTAssertEqual(table.cursor, 5)
        session.handle(.mouse(.init(kind: .click, row: 2, column: 1)))        // the class list: "Classes", then Dog
        XCTAssertEqual(session.classes.selectedName, "Dog")
        XCTAssertEqual(session.table?.objectClass.name, "Dog")
    }

    func testQueryBarCompletesThroughTheHandedInCompleter() throws {
        let file = try RealmFile(path: basic)
        var asked: (String, String)?
        let session = BrowserSession(file: file, options: .init(path: basic, className: "Person", reopen: { try RealmFile(path: self.basic) },
                                                                 complete: { _, className, text in
            asked = (className, text)
            return QueryCompletion(wordLength: 2, candidates: ["age"], appendSpace: true)
        }))
        session.type(.character(":"))
        session.type(text: "ag")
        session.type(.tab)
        XCTAssertEqual(asked?.0, "Person")
        XCTAssertEqual(asked?.1, "ag")
        XCTAssertEqual(session.input?.text, "age ")
    }
}
