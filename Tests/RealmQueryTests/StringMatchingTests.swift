@testable import RealmQuery
import XCTest

/// `[c]`, LIKE and the substring operators on raw UTF-8 (query-language.md §5.6).
final class StringMatchingTests: XCTestCase {
    func folded(_ p: String) -> StringMatching.Folded { StringMatching.Folded(Array(p.utf8))! }
    func equalIns(_ text: String, _ pattern: String) -> Bool { StringMatching.equalIns(Array(text.utf8), folded(pattern)) }
    func like(_ text: String, _ pattern: String) -> Bool { StringMatching.like(Array(text.utf8), Array(pattern.utf8)) }
    func likeIns(_ text: String, _ pattern: String) -> Bool { StringMatching.likeIns(Array(text.utf8), folded(pattern)) }

    func testCaseInsensitiveMatchingFoldsASCIIAndLatin1Only() {
        XCTAssertTrue(equalIns("Alice", "aLICE"))
        XCTAssertTrue(equalIns("ÉMILE", "émile"))
        XCTAssertTrue(equalIns("Ångström", "åNGSTRÖM"))
        XCTAssertTrue(equalIns("Ð", "ð"))
        XCTAssertTrue(equalIns("ÉÄÑ", "éäñ"))
        XCTAssertTrue(equalIns("I", "i"))
        // × and ÷ sit where a letter pair would be, but are not letters.
        XCTAssertFalse(equalIns("×", "÷"))
        // Outside the table: ÿ/Ÿ, ß, Greek, micro sign vs mu, dotted capital I.
        XCTAssertFalse(equalIns("ÿ", "Ÿ"))
        XCTAssertFalse(equalIns("STRASSE", "straße"))
        XCTAssertTrue(equalIns("STRAßE", "straße"))
        XCTAssertFalse(equalIns("Σ", "σ"))
        XCTAssertFalse(equalIns("µ", "μ"))
        XCTAssertFalse(equalIns("İ", "i"))
        // No normalisation: precomposed é is not e + combining acute.
        XCTAssertFalse(equalIns("e\u{301}", "é"))
        XCTAssertFalse(equalIns("É", "e\u{301}"))
    }

    /// The spec's Word table (§0) with `text ==[c] …`.
    func testWordTableExamples() {
        let words = ["Straße", "STRASSE", "straße", "ÿ", "Ÿ", "Σ", "σ", "é", "e\u{301}", "Ångström", "åNGSTRÖM", "µ", "μ",
                     "×", "÷", "Ð", "ð", "I", "i", "İ", "ABC", "abc", "aBc"]
        XCTAssertEqual(words.filter { equalIns($0, "straße") }, ["Straße", "straße"])
        XCTAssertEqual(words.filter { equalIns($0, "σ") }, ["σ"])
        XCTAssertEqual(words.filter { equalIns($0, "abc") }, ["ABC", "abc", "aBc"])
        XCTAssertEqual(words.filter { equalIns($0, "ångström") }, ["Ångström", "åNGSTRÖM"])
        XCTAssertEqual(words.filter { equalIns($0, "Ÿ") }, ["Ÿ"])
    }

    func testSubstringOperatorsWithCase() {
        let t = Array("Loves hiking; café owner".utf8)
        XCTAssertTrue(StringMatching.containsIns(t, folded("CAFÉ")))
        XCTAssertTrue(StringMatching.containsIns(t, folded("")))
        XCTAssertFalse(StringMatching.contains(t, Array("CAFÉ".utf8)))
        XCTAssertTrue(StringMatching.beginsWithIns(t, folded("lOVES")))
        XCTAssertTrue(StringMatching.endsWithIns(t, folded("OWNER")))
        XCTAssertFalse(StringMatching.endsWithIns(Array("er".utf8), folded("OWNER")))
        XCTAssertTrue(StringMatching.contains(t, []))
        XCTAssertTrue(StringMatching.beginsWith(t, []))
    }

    func testCaseMappingRefusesInvalidUTF8() {
        XCTAssertNil(StringMatching.caseMap([0xC3], upper: true))
        XCTAssertNil(StringMatching.caseMap([0xFF, 0x41], upper: false))
        XCTAssertNil(StringMatching.caseMap([0xE2, 0x82], upper: false))
        XCTAssertEqual(StringMatching.caseMap(Array("àÿ€😀".utf8), upper: true), Array("Àÿ€😀".utf8))
    }

    func testLikeWildcards() {
        XCTAssertTrue(like("Alice", "A*e"))
        XCTAssertTrue(like("Alice", "Al?ce"))
        XCTAssertTrue(like("Émile", "?mile"), "? consumes a whole UTF-8 character")
        XCTAssertFalse(like("Émile", "??mile"))
        XCTAssertTrue(like("Alice", "*"))
        XCTAssertTrue(like("", "*"))
        XCTAssertTrue(like("", ""))
        XCTAssertFalse(like("a", ""))
        XCTAssertFalse(like("", "?"))
        XCTAssertTrue(like("aXbXc", "a*c"))
        XCTAssertTrue(like("abcabd", "*abd"))
        XCTAssertTrue(like("abcabd", "*b*d"))
        XCTAssertFalse(like("abcabd", "*b*c"))
        // No escape character: backslash is an ordinary byte, * and ? always wildcards.
        XCTAssertTrue(like("a\\b", "a\\b"))
        XCTAssertTrue(like("a*b", "a*b"))
        XCTAssertTrue(like("axxb", "a*b"))
        // realm-core quirk: two or more stars cannot match an empty tail.
        XCTAssertFalse(like("Alice", "Alice**"))
        XCTAssertFalse(like("", "**"))
        XCTAssertTrue(like("Alice", "Ali**"))
        XCTAssertTrue(like("Alice", "**"))
        XCTAssertTrue(like("Alice", "Alice*"))
        // Case-insensitive LIKE uses the same table as [c].
        XCTAssertTrue(likeIns("Émile", "é*"))
        XCTAssertTrue(likeIns("ALICE", "a?ice"))
        XCTAssertFalse(likeIns("STRASSE", "straße"))
    }

    /// The dynamic-programming fallback decides exactly as realm-core's backtracking does.
    func testLikeFallbackAgreesWithBacktracking() {
        var generator = SystemRandomNumberGenerator()
        let textAlphabet = ["a", "b", "é", "*"], patternAlphabet = ["a", "b", "é", "*", "?", "*"]
        for _ in 0..<4000 {
            let text = (0..<Int.random(in: 0...7, using: &generator)).map { _ in textAlphabet.randomElement(using: &generator)! }.joined()
            let pattern = (0..<Int.random(in: 0...6, using: &generator)).map { _ in patternAlphabet.randomElement(using: &generator)! }.joined()
            var budget = Int.max
            let backtracked = StringMatching.likeBacktracking(Array(text.utf8), Array(pattern.utf8), nil, budget: &budget)
            XCTAssertEqual(backtracked, StringMatching.likeTable(Array(text.utf8), Array(pattern.utf8), nil), "'\(text)' LIKE '\(pattern)'")
        }
        // A pattern that makes backtracking explode still answers at once.
        let text = Array(String(repeating: "a", count: 200).utf8)
        let pattern = Array((String(repeating: "*a", count: 20) + "*b").utf8)
        XCTAssertFalse(StringMatching.like(text, pattern))
    }

    /// `CONTAINS[c]` with an ASCII pattern compares bytes directly; it must agree with the
    /// general case-folding comparison tried at every offset, also in non-ASCII text.
    func testASCIIContainsInsAgreesWithFoldingAtEveryOffset() {
        let alphabet = ["a", "A", "r", "R", "é", "É", "ß", " ", "x", "\u{0}"].map { Array($0.utf8) }
        var state: UInt64 = 1
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        var found = 0
        for _ in 0..<2000 {
            let text = (0..<next(12)).flatMap { _ in alphabet[next(alphabet.count)] }
            for pattern in ["ar", "AR", "a", "r a", "ra\u{0}", "é", "aé"] {
                let f = folded(pattern)
                let general = text.count >= f.pattern.count
                    && (0...(text.count - f.pattern.count)).contains { StringMatching.equalFold(text.span, $0, f) }
                XCTAssertEqual(StringMatching.containsIns(text, f), general, "\(text) CONTAINS[c] \(pattern)")
                if general { found += 1 }
            }
        }
        XCTAssertGreaterThan(found, 1000)
    }
}
