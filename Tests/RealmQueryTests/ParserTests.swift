import RealmQuery
import XCTest

/// The grammar of query-language.md §2: precedence, every literal form, paths, orderings, and
/// every syntax error with realm-core's message.
final class ParserTests: XCTestCase {
    /// The parse tree as a compact S-expression.
    func tree(_ query: String) throws -> String {
        let ast = try Parser.parse(query)
        var s = pred(ast.predicate)
        for o in ast.orderings {
            switch o {
            case let .sort(keys): s += " SORT(" + keys.map { path($0.path) + ($0.ascending ? " ASC" : " DESC") }.joined(separator: ", ") + ")"
            case let .distinct(paths): s += " DISTINCT(" + paths.map(path).joined(separator: ", ") + ")"
            case let .limit(n, _): s += " LIMIT(\(n))"
            }
        }
        return s
    }

    func pred(_ p: PredicateNode) -> String {
        switch p {
        case let .and(c): return "(and " + c.map(pred).joined(separator: " ") + ")"
        case let .or(c): return "(or " + c.map(pred).joined(separator: " ") + ")"
        case let .not(c, _): return "(not " + pred(c) + ")"
        case let .constant(b, _): return b ? "TRUE" : "FALSE"
        case let .comparison(c): return "(\(c.op)\(c.caseInsensitive ? "[c]" : "") \(expr(c.left)) \(expr(c.right)))"
        }
    }

    func expr(_ e: ExprNode) -> String {
        switch e {
        case let .constant(c): return constant(c)
        case let .list(l): return (l.quantifier.map { "\($0) " } ?? "") + "{" + l.elements.map(constant).joined(separator: ",") + "}"
        case let .property(p):
            return (p.quantifier.map { "\($0) " } ?? "") + path(p.path) + (p.postOperator.map { ".\($0)" } ?? "")
        case let .aggregate(a): return path(a.path) + ".@\(a.operation)" + (a.property.map { "." + String(decoding: $0.name, as: UTF8.self) } ?? "")
        case let .subquery(s): return "SUBQUERY(\(path(s.path)), \(String(decoding: s.variable, as: UTF8.self)), \(pred(s.predicate)))"
        case let .operation(l, op, r, _): return "(\(op.rawValue) \(expr(l)) \(expr(r)))"
        }
    }

    func constant(_ c: ConstantNode) -> String {
        (c.quantifier.map { "\($0) " } ?? "") + "\(c.kind):" + c.string + (c.objectClass.map { "@" + String(decoding: $0, as: UTF8.self) } ?? "")
    }

    func path(_ p: PathNode) -> String {
        if let a = p.keyPathArgument { return "$K\(a.index)" }
        return p.elements.map { e -> String in
            switch e {
            case let .key(k, _): return String(decoding: k, as: UTF8.self)
            case let .index(i): return "[\(i == UInt64.max ? "LAST" : String(i))]"
            case .all: return "[*]"
            case let .argument(n, _): return "[$\(n)]"
            }
        }.joined(separator: ".")
    }

    func error(_ query: String) -> QueryError? {
        do {
            _ = try Parser.parse(query)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Precedence

    func testNotBindsTighterThanAndWhichBindsTighterThanOr() throws {
        XCTAssertEqual(try tree("!age == 5 && b == 1 || c == 2"),
                       "(or (and (not (equal age number:5)) (equal b number:1)) (equal c number:2))")
        XCTAssertEqual(try tree("a == 1 || b == 2 && c == 3"),
                       "(or (equal a number:1) (and (equal b number:2) (equal c number:3)))")
        XCTAssertEqual(try tree("NOT NOT a == 1"), "(not (not (equal a number:1)))")
        XCTAssertEqual(try tree("a == 1 AND b == 2 and c == 3 && d == 4"),
                       "(and (equal a number:1) (equal b number:2) (equal c number:3) (equal d number:4))")
    }

    func testArithmeticPrecedenceAndAssociativity() throws {
        XCTAssertEqual(try tree("age * 2 + 1 == 61"), "(equal (+ (* age number:2) number:1) number:61)")
        XCTAssertEqual(try tree("age / 2 / 3 == 5"), "(equal (/ (/ age number:2) number:3) number:5)")
        XCTAssertEqual(try tree("1 + age * 2 - 3 > 0"), "(greater (- (+ number:1 (* age number:2)) number:3) number:0)")
        XCTAssertEqual(try tree("age * (2 + 1) > 3"), "(greater (* age (+ number:2 number:1)) number:3)")
    }

    func testParenthesesGroupPredicatesOrExpressionsByContents() throws {
        XCTAssertEqual(try tree("(age + 1) > 30"), "(greater (+ age number:1) number:30)")
        XCTAssertEqual(try tree("(age) > 30"), "(greater age number:30)")
        XCTAssertEqual(try tree("((age) + 1) > 30"), "(greater (+ age number:1) number:30)")
        XCTAssertEqual(try tree("((age > 30))"), "(greater age number:30)")
        XCTAssertEqual(try tree("(age * 2) > 60 || (name == \"Bob\")"), "(or (greater (* age number:2) number:60) (equal name string:\"Bob\"))")
        XCTAssertEqual(try tree("!(a == 1 || b == 2) && c == 3"), "(and (not (or (equal a number:1) (equal b number:2))) (equal c number:3))")
    }

    func testComparisonOperatorsAndCase() throws {
        XCTAssertEqual(try tree("a =< 1"), "(lessEqual a number:1)")
        XCTAssertEqual(try tree("a => 1"), "(greaterEqual a number:1)")
        XCTAssertEqual(try tree("a <> 1"), "(notEqual a number:1)")
        XCTAssertEqual(try tree("30 < age"), "(less number:30 age)")
        XCTAssertEqual(try tree("name ==[c] 'x'"), "(equal[c] name string:'x')")
        XCTAssertEqual(try tree("'VIP' IN[c] tags"), "(in[c] string:'VIP' tags)")
        XCTAssertEqual(try tree("name BEGINSWITH[c] 'a'"), "(beginsWith[c] name string:'a')")
        XCTAssertEqual(try tree("name like 'A*'"), "(like name string:'A*')")
        XCTAssertEqual(try tree("bio TEXT 'x'"), "(text bio string:'x')")
        XCTAssertEqual(try tree("age BETWEEN {1, 2}"), "(between age {number:1,number:2})")
        XCTAssertEqual(try tree("TRUEPREDICATE"), "TRUE")
        XCTAssertEqual(try tree("falsepredicate || a == 1"), "(or FALSE (equal a number:1))")
    }

    func testEveryLiteralForm() throws {
        let cases: [(String, String)] = [
            ("30", "number:30"), ("-1", "number:-1"), ("0x1E", "number:0x1E"), ("1.5", "float:1.5"),
            ("1e3", "float:1e3"), ("1.75f", "float:1.75f"), ("inf", "infinity:inf"), ("-infinity", "infinity:-infinity"),
            ("nan", "nan:nan"), ("'s'", "string:'s'"), ("\"s\"", "string:\"s\""), ("B64\"QQ==\"", "base64String:B64\"QQ==\""),
            ("bin('x')", "binaryString:'x'"), ("binary(\"x\")", "binaryString:\"x\""), ("bin(B64\"QQ==\")", "binaryBase64:B64\"QQ==\""),
            ("1994-02-43@10:00:00", "timestamp:1994-02-43@10:00:00"), ("2001-01-01T0:0:0:5", "timestamp:2001-01-01T0:0:0:5"),
            ("T978307200:0", "timestamp:T978307200:0"), ("oid(5f1a2b3c4d5e6f7a8b9c0d1e)", "objectId:oid(5f1a2b3c4d5e6f7a8b9c0d1e)"),
            ("uuid(3B241101-E2BB-4255-8CAF-4136C566A961)", "uuid:uuid(3B241101-E2BB-4255-8CAF-4136C566A961)"),
            ("O0", "objectKey:O0"), ("L1:2", "typedLink:L1:2"), ("null", "null:null"), ("NIL", "null:NIL"),
            ("true", "trueValue:true"), ("FALSE", "falseValue:FALSE"), ("$0", "argument:$0"), ("ANY $1", "any argument:$1"),
            ("obj('Person', 'Bob')", "string:'Bob'@Person"), ("obj(\"class_Person\", 5)", "number:5@class_Person"),
            ("obj('P', $2)", "argument:$2@P"),
        ]
        for (literal, expected) in cases {
            XCTAssertEqual(try tree("x == " + literal), "(equal x \(expected))", literal)
        }
        XCTAssertEqual(try tree("x IN {}"), "(in x {})")
        XCTAssertEqual(try tree("x IN {, 1}"), "(in x {number:1})")
        XCTAssertEqual(try tree("x == NONE {1, $0, null}"), "(equal x none {number:1,argument:$0,null:null})")
    }

    func testPathsPostOperatorsAggregatesAndSubqueries() throws {
        XCTAssertEqual(try tree("dogs.owner.name == 'x'"), "(equal dogs.owner.name string:'x')")
        XCTAssertEqual(try tree("scores[0] == 1 && scores[FIRST] == 1 && scores[LAST] == 1 && s[*] == 1"),
                       "(and (equal scores.[0] number:1) (equal scores.[0] number:1) (equal scores.[LAST] number:1) (equal s.[*] number:1))")
        XCTAssertEqual(try tree("meta['k'] == 1 && meta[\"k\"].x == 1 && meta[$1] == 1"),
                       "(and (equal meta.k number:1) (equal meta.k.x number:1) (equal meta.[$1] number:1))")
        XCTAssertEqual(try tree("scores[SIZE] == 3 && scores.@count == 3 && name.@size == 3 && extra.@type == 'int'"),
                       "(and (equal scores.size number:3) (equal scores.size number:3) (equal name.size number:3) (equal extra.type string:'int'))")
        XCTAssertEqual(try tree("@links.Person.dogs.name == 'x'"), "(equal @links.Person.dogs.name string:'x')")
        XCTAssertEqual(try tree("@links.@count > 2"), "(greater @links.size number:2)")
        XCTAssertEqual(try tree("dogs.@max.age == 7 && scores.@avg > 1"), "(and (equal dogs.@max.age number:7) (greater scores.@avg number:1))")
        XCTAssertEqual(try tree("ALL dogs.age > 1 && NONE x == 1 && SOME y == 1"), "(and (greater all dogs.age number:1) (equal none x number:1) (equal any y number:1))")
        XCTAssertEqual(try tree("$K0 == 'tan'"), "(equal $K0 string:'tan')")
        XCTAssertEqual(try tree("SUBQUERY(dogs, $d, $d.age > 4 AND name == 'x').@count == 1"),
                       "(equal SUBQUERY(dogs, $d, (and (greater $d.age number:4) (equal name string:'x'))) number:1)")
        // Keywords that may name properties.
        XCTAssertEqual(try tree("desc == 1 && in == 2 && sort.limit == 3 && first == 4"),
                       "(and (equal desc number:1) (equal in number:2) (equal sort.limit number:3) (equal first number:4))")
    }

    func testOrderingsFollowThePredicateInAnyOrderAndNumber() throws {
        XCTAssertEqual(try tree("TRUEPREDICATE SORT(name ASC, age DESCENDING) DISTINCT(age, dog.name) LIMIT(010) SORT(x asc)"),
                       "TRUE SORT(name ASC, age DESC) DISTINCT(age, dog.name) LIMIT(8) SORT(x ASC)")
        XCTAssertEqual(try tree("age > 1 SORT(meta['level'] ASC)"), "(greater age number:1) SORT(meta.level ASC)")
    }

    // MARK: Errors

    func testSyntaxErrorsHaveRealmCoresMessages() {
        let cases: [(String, String)] = [
            ("", "syntax error, unexpected end of file"),
            ("age >", "syntax error, unexpected end of file"),
            ("name LIKE", "syntax error, unexpected end of file"),
            ("Not age == 30", "syntax error, unexpected identifier"),
            ("age -1 > 28", "syntax error, unexpected number"),
            ("`age` > 1", "invalid character: `"),
            ("age > 1 # comment", "invalid character: #"),
            ("name == 'Ali\\ce'", "invalid character: '"),
            ("name ==[d] 'emile'", "syntax error, unexpected '['"),
            ("name CONTAINS[cd] 'ali'", "syntax error, unexpected '['"),
            ("birthday == 2001-01-01", "syntax error, unexpected number, expecting end of file"),
            ("objectIdCol == oid(zzz)", "syntax error, unexpected '(', expecting end of file"),
            ("age =! 5", "syntax error, unexpected !"),
            ("SORT(age ASC)", "syntax error, unexpected '('"),
            ("TRUEPREDICATE SORT(age)", "syntax error, unexpected ')', expecting ascending or descending or '.' or '['"),
            ("TRUEPREDICATE LIMIT(-1)", "syntax error, unexpected number, expecting natural0"),
            ("TRUEPREDICATE LIMIT($0)", "syntax error, unexpected argument, expecting natural0"),
            ("TRUEPREDICATE LIMIT(0x10)", "syntax error, unexpected number, expecting natural0"),
            ("age > 26 SORT(age ASC) && isMember == true", "syntax error, unexpected &&, expecting end of file"),
            ("SUBQUERY(dogs, $d, $d.age > 1) > 0", "syntax error, unexpected >, expecting '.'"),
            ("scores[1.5] == 1", "syntax error, unexpected float"),
            ("age > 1 >= 2", "syntax error, unexpected >=, expecting end of file"),
            ("(name) BEGINSWITH 'a'", "syntax error, unexpected beginswith"),
            ("age >[c] 1", "syntax error, unexpected [c]"),
            ("age BETWEEN $0", "syntax error, unexpected argument"),
            ("@links[0] > 1", "An ID must follow @links"),
            ("name", "syntax error, unexpected end of file"),
            ("(age > 1", "syntax error, unexpected end of file"),
            ("age > 1)", "syntax error, unexpected ')', expecting end of file"),
        ]
        for (query, detail) in cases {
            guard let e = error(query) else {
                XCTFail("\(query) parsed")
                continue
            }
            XCTAssertEqual(e.message, "Invalid predicate: '\(query)': \(detail)", query)
            XCTAssertEqual(e.category, "SyntaxError")
        }
    }

    func testErrorsPointAtTheOffendingToken() throws {
        let e = try XCTUnwrap(error("age > 1 # comment"))
        XCTAssertEqual(e.range, SourceRange(8, 9))
        XCTAssertEqual(e.rendered(query: "age > 1 # comment"),
                       "Invalid predicate: 'age > 1 # comment': invalid character: #\n  age > 1 # comment\n          ^")
        let u = try XCTUnwrap(error("é =! 5"))
        // Columns count characters: the caret sits under '!' (3rd character), not its byte.
        XCTAssertTrue(u.rendered(query: "é =! 5").hasSuffix("\n     ^"), u.rendered(query: "é =! 5"))
    }

    func testHostileNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        XCTAssertTrue(error(deep)?.message.contains("nested too deeply") ?? false)
        let nots = String(repeating: "!", count: 5000) + "a == 1"
        XCTAssertTrue(error(nots)?.message.contains("nested too deeply") ?? false)
        let sum = "a == " + Array(repeating: "1", count: 5000).joined(separator: " + ")
        XCTAssertTrue(error(sum)?.message.contains("arithmetic operations") ?? false)
        // Long flat chains are fine.
        let chain = Array(repeating: "a == 1", count: 5000).joined(separator: " || ")
        XCTAssertNil(error(chain))
    }
}
