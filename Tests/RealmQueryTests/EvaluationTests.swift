import RealmFormat
import RealmQuery
import RealmTestSupport
import XCTest

/// Query semantics on the shared fixtures, with answers worked out by hand from their dumps
/// (basic.json, alltypes.json) by the rules of query-language.md §5–§6.
final class EvaluationTests: XCTestCase {
    let basic = ObjectStore(snapshot: try! Snapshot(path: Fixtures.path("realm-core/basic.realm")))
    let alltypes = ObjectStore(snapshot: try! Snapshot(path: Fixtures.path("realm-core/alltypes.realm")))

    /// Persons of basic.realm by ObjKey: 0 Alice 18 (dogs Rex, Luna; best friend Diana), 1 Bob 25,
    /// 2 Charlie 32, 3 Diana 39, 4 Eve 46, 5 Frank 53, 6 Grace 60, 7 Heidi 67, 8 Ivan 24, 9 Judy 99.
    func people(_ query: String, _ args: [QueryArgument] = []) throws -> [Int64] {
        try Query(store: basic, className: "Person", query, arguments: args).objectKeys()
    }

    func dogs(_ query: String) throws -> [Int64] {
        try Query(store: basic, className: "Dog", query).objectKeys()
    }

    /// AllTypes objects by the first four hex digits of their ObjectId primary key, in table
    /// order: 0000, 4611, 7a7e, a913, 1bd2, b414, 4241, c6b8.
    func allTypes(_ query: String) throws -> [String] {
        let q = try Query(store: alltypes, className: "AllTypes", query)
        let all = try Query(store: alltypes, className: "AllTypes", "TRUEPREDICATE").objectKeys()
        let names = ["0000", "4611", "7a7e", "a913", "1bd2", "b414", "4241", "c6b8"]
        return try q.objectKeys().map { names[all.firstIndex(of: $0)!] }
    }

    func rejection(_ query: String, className: String = "Person", _ args: [QueryArgument] = []) -> QueryError? {
        do {
            _ = try Query(store: basic, className: className, query, arguments: args).objectKeys()
            return nil
        } catch {
            return error as? QueryError
        }
    }

    func testNullInComparisons() throws {
        XCTAssertEqual(try people("email == nil"), [0, 3, 6, 9])
        XCTAssertEqual(try people("email != NULL"), [1, 2, 4, 5, 7, 8])
        XCTAssertEqual(try people("height == null"), [1, 5, 9])
        XCTAssertEqual(try people("height >= null"), [1, 5, 9], "null >= null is true, value >= null false")
        XCTAssertEqual(try people("height > null"), [])
        XCTAssertEqual(try people("age == null"), [], "a required property is never null")
        XCTAssertEqual(try dogs("age == nil"), [3])
        // A direct string property orders null below every string, "" included…
        XCTAssertEqual(try people("email < ''"), [0, 3, 6, 9])
        XCTAssertEqual(try people("email >= null"), Array(0...9))
        XCTAssertEqual(try people("email > null"), [1, 2, 4, 5, 7, 8])
        // …but through a link null is not comparable with a string.
        XCTAssertEqual(try people("bestFriend.email < ''"), [])
        XCTAssertEqual(try people("bestFriend.email == nil"), [0, 1, 3, 5, 6, 7, 9], "null link or null value")
        XCTAssertEqual(try people("bestFriend == nil"), [1, 3, 5, 7, 9])
        XCTAssertEqual(try dogs("owner.age > 20"), [1, 2, 3, 5], "a null link never satisfies a comparison")
        // Null patterns: direct CONTAINS/BEGINSWITH null match every object, through links only
        // non-null strings contain null and nothing begins with it.
        XCTAssertEqual(try people("email CONTAINS null"), Array(0...9))
        XCTAssertEqual(try people("email BEGINSWITH null"), Array(0...9))
        XCTAssertEqual(try people("bestFriend.email CONTAINS null"), [2, 4, 8])
        XCTAssertEqual(try people("bestFriend.email BEGINSWITH null"), [])
        XCTAssertEqual(try people("email LIKE null"), [0, 3, 6, 9])
        XCTAssertEqual(try people("email LIKE '*'"), [1, 2, 4, 5, 7, 8])
        XCTAssertEqual(try people("email CONTAINS ''"), [1, 2, 4, 5, 7, 8])
        XCTAssertEqual(try people("email ==[c] null"), [0, 3, 6, 9])
    }

    func testNullAndListsInIN() throws {
        XCTAssertEqual(try people("email IN {'Bob@example.com', null}"), [0, 1, 3, 6, 9])
        XCTAssertEqual(try people("name IN {'Alice', 'Zed'}"), [0])
        XCTAssertEqual(try people("name IN {}"), [])
        XCTAssertEqual(try people("NOT name IN {'Alice', 'Bob'}"), Array(2...9))
        XCTAssertEqual(try people("name != {'Alice', 'Bob'}"), Array(0...9), "scalar vs list is ANY")
        XCTAssertEqual(try people("name == NONE {'Alice', 'Bob'}"), Array(2...9))
        XCTAssertEqual(try people("age > ALL {30, 60}"), [7, 9])
        XCTAssertEqual(try people("age IN {18, 99.0, 24.5}"), [0, 9], "integral doubles become ints")
        XCTAssertEqual(try dogs("age IN {null, 5}"), [3, 4], "null in a list matches null")
        XCTAssertEqual(try people("age IN {null}"), [], "a required int is never null")
        // realm-core quirk: [c] is ignored for a direct property against a constant list…
        XCTAssertEqual(try people("name ==[c] {'alice', 'BOB'}"), [])
        XCTAssertEqual(try people("name IN[c] {'alice'}"), [])
        // …but honoured through a link.
        XCTAssertEqual(try people("bestFriend.name ==[c] {'DIANA'}"), [0])
        // realm-core quirk: a double property's IN keeps only double elements.
        XCTAssertEqual(try people("height IN {150, 156.5}"), [2])
        XCTAssertEqual(try people("'Bo' IN nicknames"), [1])
        XCTAssertEqual(try people("nicknames IN {'Ch', 'Cha'}"), [2], "two unquantified lists: element-wise")
        XCTAssertEqual(try people("nicknames IN {'Cha', 'Ch'}"), [])
        XCTAssertEqual(try people("ANY nicknames IN {'Cha', 'Ev'}"), [2, 4])
        XCTAssertEqual(try people("age IN $0", [.list([.int(18), .double(25.0), .string(Array("99".utf8))])]), [0, 1, 9])
        XCTAssertEqual(rejection("name IN 'Alice'")?.message, "The keypath following 'IN' must contain a list. Found '\"Alice\"'")
    }

    func testAllAndNoneOnEmptyLists() throws {
        XCTAssertEqual(try people("ALL dogs.age > 100"), [4, 6, 7, 8, 9], "vacuously true without dogs")
        XCTAssertEqual(try people("NONE dogs.age > 0"), [3, 4, 6, 7, 8, 9], "Diana's Max has no age")
        XCTAssertEqual(try people("ANY dogs.age > 0"), [0, 1, 2, 5])
        XCTAssertEqual(try people("dogs.age > 0"), [0, 1, 2, 5], "implicit ANY")
        XCTAssertEqual(try people("ALL nicknames BEGINSWITH 'X'"), [0, 3, 6, 9])
        XCTAssertEqual(try people("NONE nicknames == 'Bo'"), [0, 2, 3, 4, 5, 6, 7, 8, 9])
        XCTAssertEqual(try people("ALL dogs.name != 'Rex'"), [1, 3, 4, 5, 6, 7, 8, 9])
        XCTAssertEqual(try dogs("ALL @links.Person.dogs.age > 30"), [2, 3, 5, 6, 7], "Buddy II is in no list")
        XCTAssertEqual(try allTypes("NONE optIntList == nil"), ["0000", "a913", "b414", "c6b8"])
        XCTAssertEqual(try allTypes("ANY optIntList == nil"), ["4611", "7a7e", "1bd2", "4241"])
    }

    func testAggregatesOfEmptyLists() throws {
        let empty = [Int64(3), 4, 6, 7, 8, 9]  // no dogs, or only Max whose age is null
        XCTAssertEqual(try people("dogs.@sum.age == 0"), empty, "the sum of nothing is 0")
        XCTAssertEqual(try people("dogs.@avg.age == nil"), empty, "the average of nothing is null")
        XCTAssertEqual(try people("dogs.@min.age == nil"), empty)
        XCTAssertEqual(try people("dogs.@max.age == nil"), empty)
        XCTAssertEqual(try people("dogs.@count == 0"), [4, 6, 7, 8, 9])
        XCTAssertEqual(try people("dogs.@sum.age == 12"), [5], "Frank lists Rocky twice")
        XCTAssertEqual(try people("nicknames.@count == 0"), [0, 3, 6, 9])
        let noInts = ["0000", "a913", "b414", "c6b8"]
        XCTAssertEqual(try allTypes("intList.@sum == 0"), noInts)
        XCTAssertEqual(try allTypes("intList.@avg == nil"), noInts)
        XCTAssertEqual(try allTypes("intList.@min == nil"), noInts)
        XCTAssertEqual(try allTypes("intList.@max == nil"), noInts)
        XCTAssertEqual(try allTypes("intList.@sum == 126"), ["4241"])
        XCTAssertEqual(try allTypes("intList.@sum == -2"), ["7a7e"], "sums wrap around")
        XCTAssertEqual(try allTypes("intDict.@sum == 0"), noInts)
        XCTAssertEqual(try allTypes("intDict.@max == nil"), noInts)
        // A missing key reads as null in a non-empty dictionary, as nothing in an empty one.
        XCTAssertEqual(try allTypes("intDict['nokey'] == nil"), ["4611", "7a7e", "1bd2", "4241"])
        XCTAssertEqual(try allTypes("intDict['key0'] == nil"), [])
    }

    func testCaseInsensitiveBeyondASCIIOnRealData() throws {
        // The fixture stores "éäñ" decomposed (e + U+0301 …): letters fold, combining marks match
        // themselves, and nothing is normalised.
        XCTAssertEqual(try allTypes("ANY stringList ==[c] 'E\u{301}A\u{308}N\u{303}'"), ["4611", "a913"])
        XCTAssertEqual(try allTypes("ANY stringList ==[c] 'ÉÄÑ'"), [], "precomposed is not decomposed")
        XCTAssertEqual(try allTypes("ANY stringList == 'E\u{301}A\u{308}N\u{303}'"), [])
        XCTAssertEqual(try allTypes("stringCol CONTAINS[c] 'hello'"), ["c6b8"])
        XCTAssertEqual(try allTypes("ANY stringList CONTAINS[c] 'HELLO'"), ["4611", "c6b8"])
        XCTAssertEqual(try allTypes("ANY stringList LIKE[c] '?\u{301}A\u{308}*'"), ["4611", "a913"])
        XCTAssertEqual(try people("name ==[c] 'ALICE' OR name BEGINSWITH[c] 'gR'"), [0, 6])
    }

    func testLikeOnRealData() throws {
        XCTAssertEqual(try people("name LIKE '*e'"), [0, 2, 4, 6])
        XCTAssertEqual(try people("name LIKE 'A*'"), [0])
        XCTAssertEqual(try people("name LIKE 'A**'"), [0])
        XCTAssertEqual(try people("name LIKE 'Alice*'"), [0])
        XCTAssertEqual(try people("name LIKE 'Alice**'"), [], "realm-core: stars cannot match an empty tail")
        XCTAssertEqual(try people("name LIKE '?u?y'"), [9])
        XCTAssertEqual(try allTypes("stringCol LIKE '?本語*'"), ["4611"], "? is one UTF-8 character")
    }

    func testSortOrderOfMixedValuesAndStrings() throws {
        // null < numbers < string < binary < typed link < list < dictionary.
        XCTAssertEqual(try allTypes("TRUEPREDICATE SORT(mixedCol ASC)"), ["0000", "4611", "a913", "7a7e", "c6b8", "1bd2", "b414", "4241"])
        XCTAssertEqual(try allTypes("TRUEPREDICATE SORT(mixedCol DESC)"), ["4241", "b414", "1bd2", "c6b8", "7a7e", "a913", "4611", "0000"])
        // Strings by raw bytes: "" < digits < upper case < lower case < non-ASCII.
        XCTAssertEqual(try allTypes("TRUEPREDICATE SORT(stringCol ASC)"), ["0000", "7a7e", "c6b8", "b414", "4241", "a913", "1bd2", "4611"])
        XCTAssertEqual(try people("TRUEPREDICATE SORT(email ASC)"), [0, 3, 6, 9, 1, 2, 4, 5, 7, 8], "null values first")
        XCTAssertEqual(try people("TRUEPREDICATE SORT(email DESC)"), [8, 7, 5, 4, 2, 1, 0, 3, 6, 9])
    }

    func testSortDistinctLimitOrder() throws {
        // Null links sort last ascending and first descending, ties keep table order.
        XCTAssertEqual(try people("TRUEPREDICATE SORT(bestFriend.age ASC)"), [8, 0, 2, 4, 6, 1, 3, 5, 7, 9])
        XCTAssertEqual(try people("TRUEPREDICATE SORT(bestFriend.age DESC)"), [1, 3, 5, 7, 9, 6, 4, 2, 0, 8])
        XCTAssertEqual(try people("TRUEPREDICATE SORT(isAdmin ASC) SORT(age DESC)"), [9, 7, 6, 5, 4, 3, 2, 1, 8, 0], "the later SORT wins")
        XCTAssertEqual(try people("TRUEPREDICATE SORT(isAdmin DESC, age DESC)"), [5, 0, 9, 7, 6, 4, 3, 2, 1, 8])
        // DISTINCT drops objects whose path crosses a null link and keeps the first of each value.
        XCTAssertEqual(try people("TRUEPREDICATE DISTINCT(bestFriend.isAdmin)"), [0, 2])
        XCTAssertEqual(try people("TRUEPREDICATE SORT(age DESC) DISTINCT(isAdmin)"), [9, 5])
        XCTAssertEqual(try people("TRUEPREDICATE DISTINCT(isAdmin) SORT(age DESC)"), [1, 0])
        XCTAssertEqual(try people("TRUEPREDICATE LIMIT(3) SORT(age DESC)"), [2, 1, 0])
        XCTAssertEqual(try people("TRUEPREDICATE SORT(age DESC) LIMIT(3)"), [9, 7, 6])
        XCTAssertEqual(try people("TRUEPREDICATE LIMIT(5) LIMIT(2)"), [0, 1])
        XCTAssertEqual(try people("TRUEPREDICATE LIMIT(0)"), [])
        XCTAssertEqual(rejection("TRUEPREDICATE SORT(dogs.age ASC)")?.message, "All but last property must be a link")
        XCTAssertEqual(rejection("TRUEPREDICATE SORT(nicknames ASC)")?.message, "Cannot sort on a collection property")
        XCTAssertNil(rejection("FALSEPREDICATE SORT(nicknames ASC)"), "realm-core checks sort keys only on a non-empty result")
        XCTAssertEqual(rejection("TRUEPREDICATE SORT(nmae ASC)")?.message, "No property 'nmae' found on object type 'Person' specified in 'sort' clause")
    }

    /// SORT followed by a small LIMIT selects with a bounded heap instead of sorting everything;
    /// with ties broken by position both must give exactly the prefix of the full sort.
    func testSortThenLimitIsThePrefixOfTheFullSort() throws {
        let large = ObjectStore(snapshot: try Snapshot(path: Fixtures.path("realm-core/large.realm")))
        for keys in ["category DESC, quantity ASC", "optInt ASC", "optString DESC"] {
            let full = try Query(store: large, className: "Item", "TRUEPREDICATE SORT(\(keys))").objectKeys()
            for n in [7, 1000] {
                let limited = try Query(store: large, className: "Item", "TRUEPREDICATE SORT(\(keys)) LIMIT(\(n))").objectKeys()
                XCTAssertEqual(limited, Array(full.prefix(n)), "SORT(\(keys)) LIMIT(\(n))")
            }
        }
    }

    func testChainedFiltersAndPlaceholders() throws {
        let adults = try Query(store: basic, className: "Person", "age > 20 SORT(age DESC)")
        XCTAssertEqual(try adults.filter("isAdmin == true").objectKeys(), [5])
        XCTAssertEqual(try adults.filter("email != nil SORT(name ASC)").objectKeys(), [1, 2, 4, 5, 7, 8])
        XCTAssertEqual(try adults.filter("age < $0", arguments: [.int(40)]).count(), 4)
        let limited = try Query(store: basic, className: "Person", "TRUEPREDICATE LIMIT(2)")
        XCTAssertThrowsError(try limited.filter("age > 1")) {
            XCTAssertEqual(($0 as? QueryError)?.message, "Filtering a Results with a limit is not yet implemented")
        }
        XCTAssertEqual(try people("age > %@ AND name BEGINSWITH %@", [.int(20), .string("F")]), [5])
        XCTAssertEqual(try people("%K == %@", [.string("name"), .string("Bob")]), [1])
        XCTAssertEqual(try people("name == '%@'"), [], "placeholders inside strings stay text")
        XCTAssertEqual(rejection("nmae == %@", [.string("x")])?.range, SourceRange(0, 4))
    }

    func testTypeErrorsAndSuggestions() {
        XCTAssertEqual(rejection("name == 5")?.message, "Unsupported comparison between type 'string' and type 'int'")
        XCTAssertEqual(rejection("isAdmin == 1")?.message, "Unsupported comparison between type 'bool' and type 'int'")
        XCTAssertEqual(rejection("age > $0", [.string("abc")])?.message, "Cannot compare argument $0 with value '\"abc\"' to a int")
        XCTAssertEqual(rejection("name == $1", [.string("x")])?.message, "Request for argument at index 1 but only 1 argument is provided")
        XCTAssertEqual(rejection("name == $0")?.message, "Request for argument at index 0 but no arguments are provided")
        XCTAssertEqual(rejection("dogs == null")?.message, "Cannot compare linklist ('dogs') with NULL")
        XCTAssertEqual(rejection("bestFriend > O0")?.message, "Unsupported operator > in query. Only equal (==) and not equal (!=) are supported for this type.")
        XCTAssertEqual(rejection("nicknames == nicknames")?.message, "Ordered comparison between two primitive lists is not implemented yet ('nicknames' and 'nicknames')")
        XCTAssertEqual(rejection("age.@size == 2")?.message, "Operation '@size' is not supported on property of type 'int'")
        XCTAssertEqual(rejection("age.@type == 'int'")?.message, "Comparison between two constants is not supported ('\"int\"' and '\"int\"')")
        XCTAssertEqual(rejection("ANY age == 30")?.message, "The keypath following 'ANY' must contain a list")
        XCTAssertEqual(rejection("name CONTAINS[c] 5")?.message, "Unsupported comparison operator 'contains' against type 'int', right side must be a string or binary type")
        XCTAssertEqual(rejection("bestFriend.age ==[c] 5")?.message, "Unsupported comparison operator '=[c]' against type 'int', right side must be a string or binary type")
        XCTAssertEqual(rejection("age + name > 1")?.message, "Cannot perform '+' operation on 'age' and 'name'")
        XCTAssertEqual(rejection("@links.Dog.nope > 0")?.message, "No property 'nope' found in type 'Dog' which links to type 'Person'")
        XCTAssertNil(rejection("SUBQUERY(dogs, $d, SUBQUERY(@links.Person.dogs, $d, age > 1).@count > 0).@count > 0"), "variables are per class")
        XCTAssertEqual(rejection("SUBQUERY(dogs, $d, SUBQUERY(@links.Person.dogs, $p, SUBQUERY(dogs, $d, age > 1).@count > 0).@count > 0).@count > 0")?.message,
                       "Unable to create a subquery expression with variable '$d' since an identical variable already exists in this context")
        let typo = rejection("nmae == 'x'")
        XCTAssertEqual(typo?.message, "'Person' has no property 'nmae'")
        XCTAssertEqual(typo?.suggestion, "name")
        XCTAssertEqual(typo?.rendered(query: "nmae == 'x'"), "'Person' has no property 'nmae'\n  nmae == 'x'\n  ^^^^\nDid you mean 'name'?")
        XCTAssertEqual(rejection("dogs.agee > 1")?.suggestion, "age", "suggestions come from the class at the end of the links")
    }

    func testLinksBacklinksSubqueriesAndCounts() throws {
        XCTAssertEqual(try people("dogs.name == 'Rex'"), [0, 2])
        XCTAssertEqual(try people("dogs.name != 'Rex'"), [0, 1, 2, 3, 5], "some dog is not Rex")
        XCTAssertEqual(try people("bestFriend.bestFriend.age > 0"), [], "every best friend's best friend is null")
        XCTAssertEqual(try people("bestFriend == O3"), [0])
        XCTAssertEqual(try people("dogs == O5"), [5])
        XCTAssertEqual(try people("dogs != O5"), [0, 1, 2, 3], "some dog other than Rocky")
        XCTAssertEqual(try dogs("owner IN {O0, O1}"), [0, 1, 4, 5])
        XCTAssertEqual(try dogs("@links.@count > 1"), [0, 5])
        XCTAssertEqual(try dogs("@links.Person.dogs.@count == 0"), [7])
        XCTAssertEqual(try people("@links.Person.bestFriend.name == 'Alice'"), [3])
        XCTAssertEqual(try people("SUBQUERY(dogs, $d, $d.age >= 5).@count == 2"), [5], "duplicates count")
        XCTAssertEqual(try people("SUBQUERY(dogs, $d, SUBQUERY(@links.Person.dogs, $p, $p.age > 50).@count > 0).@count > 0"), [5])
        XCTAssertEqual(try people("dogs.@count == nicknames.@count"), [1, 5, 6, 9])
        XCTAssertEqual(try people("bestFriend.@count == 1"), [0, 2, 4, 6, 8])
        XCTAssertEqual(try people("name.@size == 3 AND age / 0 > 1000"), [1, 4])
        XCTAssertEqual(try people("age * 2 + 1 == 37"), [0])
        XCTAssertEqual(try people("nicknames.length == 3"), [2, 5, 8])
        XCTAssertEqual(try people("age BETWEEN {25, 39}"), [1, 2, 3])
        XCTAssertEqual(try people("age BETWEEN {39, 25}"), [], "bounds are not swapped")
        XCTAssertEqual(try people("dogs.age BETWEEN {6, 2}"), [2], "through links each bound has its own ANY: Daisy ≥ 6, Rex ≤ 2")
        XCTAssertEqual(try people("birthday BETWEEN {1962-01-01@0:0:0, 1964-01-01@0:0:0}"), [2, 3])
    }
}
