/// The `Person` rows of ../shared/bench/workloads.md §2, generated deterministically: an
/// implementation that follows §2 produces the same rows byte for byte.
struct Person {
    let id: Int64
    let name: String
    let age: Int64
    let score: Double
    let active: Bool
    /// Seconds since 1970-01-01T00:00:00Z; nanoseconds are 0.
    let created: Int64
    let email: String?
}

/// §2.1: a 64-bit LCG with Knuth's MMIX constants; `next()` is the top 31 bits.
struct LCG {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }
}

enum People {
    // §2.2: 20 prefixes × 10 suffixes; entry k is PREFIX[k / 10] + SUFFIX[k % 10].
    static let first = names("Ar Be Ca Da El Fe Gi Ha Is Jo Ka Le Mi No Ol Pe Ro Sa Te Vi",
                             "bert dan lia mon na ric sie tor vin xia")
    static let last = names("Ash Black Brad Carl Dal Ed Fair Gar Hart King Lang Mar North Park Ray Stan Thorn Wal West York",
                            "by field ford ley more son ton well wood worth")

    private static func names(_ prefixes: String, _ suffixes: String) -> [String] {
        let p = prefixes.split(separator: " "), s = suffixes.split(separator: " ")
        return (0..<200).map { String(p[$0 / 10] + s[$0 % 10]) }
    }

    /// §2.3: rows 0 ..< n from seed 42, six draws per row (also for rows whose email is null).
    static func rows(_ n: Int) -> [Person] {
        var g = LCG(seed: 42)
        var out = [Person]()
        out.reserveCapacity(n)
        for i in 0..<n {
            let r1 = g.next(), r2 = g.next(), r3 = g.next(), r4 = g.next(), r5 = g.next(), r6 = g.next()
            let f = first[Int(r1 % 200)], l = last[Int(r2 % 200)]
            out.append(Person(id: Int64(i), name: f + " " + l, age: Int64(r3 % 100),
                              score: Double(r4 % 100000) / 1000.0, active: r5 % 2 == 1,
                              created: 1_500_000_000 + Int64(r6 % 200_000_000),
                              email: i % 10 == 0 ? nil : "\(f.lowercased()).\(l.lowercased())\(i)@example.com"))
        }
        return out
    }

    /// §2.4: the primary keys of workload 9 (seed 7), with repeats.
    static func lookupKeys(_ n: Int = 100_000) -> [Int64] {
        var g = LCG(seed: 7)
        return (0..<n).map { _ in Int64(g.next() % 1_000_000) }
    }

    /// Checks the generator against §2's published outputs and sample rows; throws on the first
    /// difference, so a benchmark never runs on rows that are not the specified ones.
    static func checkAgainstSpec(_ rows: [Person]) throws {
        var g = LCG(seed: 42)
        let firstSix = (0..<6).map { _ in g.next() }
        try expect(firstSix == [1220265334, 484179026, 886563538, 1353769503, 1460606294, 56326156], "LCG outputs \(firstSix)")
        try expect(first[0] == "Arbert" && first[134] == "Nona" && first[199] == "Vixia", "first names")
        try expect(last[0] == "Ashby" && last[26] == "Bradton" && last[199] == "Yorkworth", "last names")
        let keys = lookupKeys()
        try expect(Array(keys.prefix(3)) == [165278, 263231, 856753] && keys.last == 968192, "lookup keys")
        let samples: [(Int, String, Int64, Double, Bool, Int64, String?)] = [
            (0, "Nona Bradton", 38, 69.503, false, 1556326156, nil),
            (1, "Roxia Marby", 66, 56.125, false, 1635802390, "roxia.marby1@example.com"),
            (2, "Islia Marmore", 88, 92.309, false, 1644299099, "islia.marmore2@example.com"),
            (3, "Roxia Raymore", 49, 79.708, false, 1640047895, "roxia.raymore3@example.com"),
            (10, "Viric Edson", 61, 5.578, true, 1690338355, nil),
            (999999, "Sana Langwell", 95, 5.722, false, 1608633143, "sana.langwell999999@example.com"),
        ]
        for s in samples where s.0 < rows.count {
            let r = rows[s.0]
            try expect(r.id == Int64(s.0) && r.name == s.1 && r.age == s.2 && r.score == s.3 && r.active == s.4
                       && r.created == s.5 && r.email == s.6, "sample row \(s.0): \(r)")
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

func expect(_ condition: Bool, _ what: @autoclosure () -> String) throws {
    if !condition { throw BenchError("check failed: \(what())") }
}
