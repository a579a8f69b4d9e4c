import Foundation
import XCTest
import RealmFormat
import RealmObjects
import RealmTestSupport

/// Damaged, truncated and random inputs: each must either open and dump, or fail with a thrown
/// `FormatError`. A trap ends the test process; a hang is caught by the per-variant time limit.
final class HostileInputTests: XCTestCase {
    // MARK: - Fixtures

    static let fixturesDir = Fixtures.directory

    /// The fixtures small enough to dump dozens of times in a debug build.
    static let smallFixtures = [
        "realm-core/basic", "realm-core/alltypes", "realm-core/schema_v3", "realm-core/churn",
        "realm-core/exported", "realm-core/empty", "realm-core-tests/sync-metadata-v6",
        "realm-core-tests/test_upgrade_database_4_22", "realm-core-tests/test_upgrade_database_20",
    ]

    static func fixture(_ name: String) throws -> [UInt8] {
        let path = fixturesDir + "/" + name + ".realm"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FormatError.io(path: path, errno: 2, action: "read the fixture")
        }
        return [UInt8](data)
    }

    static func allFixtureNames() throws -> [String] {
        var names = [String]()
        for dir in ["realm-core", "realm-core-tests"] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: fixturesDir + "/" + dir)) ?? []
            names += entries.filter { $0.hasSuffix(".realm") }.sorted().map { dir + "/" + String($0.dropLast(6)) }
        }
        if names.isEmpty { throw FormatError.io(path: fixturesDir, errno: 2, action: "list fixtures in") }
        return names
    }

    // MARK: - Harness

    /// A variant slower than this in a debug build is taken for a hang. The slowest fixture
    /// used in full (churn) dumps in well under a second.
    static let timeLimit = 2.0

    enum Outcome { case opened, failed }

    /// `HOSTILE_VERBOSE=1` names each variant before it runs, to find the one that traps.
    static let verbose = Platform.environment("HOSTILE_VERBOSE") != nil

    struct Tally: CustomStringConvertible {
        var opened = 0
        var failed = 0
        var errors: [String: Int] = [:]
        var slowest = 0.0
        var slowestLabel = ""
        var total: Int { opened + failed }
        var description: String {
            let kinds = errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(total) variants: \(opened) opened and dumped, \(failed) failed cleanly (\(kinds)); "
                + "slowest \(String(format: "%.3f", slowest)) s (\(slowestLabel))"
        }
    }

    /// Opens `bytes` in memory and writes the canonical dump; anything but success or a
    /// `FormatError` fails the test.
    @discardableResult
    static func exercise(_ bytes: [UInt8], _ label: String, _ tally: inout Tally,
                         file: StaticString = #filePath, line: UInt = #line) -> Outcome {
        if verbose { print("variant: \(label)") }
        let start = Platform.monotonicSeconds()
        var outcome = Outcome.failed
        do {
            let snapshot = try Snapshot(image: ByteImage(bytes: bytes))
            let realm = try RealmFile(path: "variant", snapshot: snapshot)
            try CanonicalDump.write(realm, to: MemorySink())
            outcome = .opened
        } catch let error as FormatError {
            tally.errors[kind(error), default: 0] += 1
        } catch {
            XCTFail("\(label): threw a non-FormatError \(error)", file: file, line: line)
        }
        let elapsed = Platform.monotonicSeconds() - start
        XCTAssertLessThan(elapsed, timeLimit, "\(label) took \(elapsed) s", file: file, line: line)
        if elapsed > tally.slowest {
            tally.slowest = elapsed
            tally.slowestLabel = label
        }
        if outcome == .opened { tally.opened += 1 } else { tally.failed += 1 }
        grandTotal.opened += outcome == .opened ? 1 : 0
        grandTotal.failed += outcome == .opened ? 0 : 1
        return outcome
    }

    /// Every variant of the test run (XCTest runs one test at a time).
    nonisolated(unsafe) static var grandTotal = Tally()

    override class func tearDown() {
        print("HostileInputTests: \(grandTotal.total) variants in all: \(grandTotal.opened) opened and dumped, "
              + "\(grandTotal.failed) failed cleanly with a FormatError")
        super.tearDown()
    }

    /// The case name of an error ("corrupt", "outOfBounds", …), for the tallies.
    static func kind(_ error: FormatError) -> String {
        String(String(describing: error).prefix { $0 != "(" })
    }


    /// Flips `count` bytes of `bytes` (XOR with a non-zero mask). Half the positions land in
    /// the last four bytes of an 8-byte word, where node headers keep their flags and count
    /// and where refs keep their high bits.
    static func flip(_ bytes: [UInt8], count: Int, _ rng: inout SeededRandom) -> (bytes: [UInt8], positions: [Int]) {
        var out = bytes
        var positions = [Int]()
        for _ in 0..<count {
            var p = Int.random(in: 0..<bytes.count, using: &rng)
            if Bool.random(using: &rng) { p = min((p & ~7) + Int.random(in: 4...7, using: &rng), bytes.count - 1) }
            out[p] ^= UInt8.random(in: 1...255, using: &rng)
            positions.append(p)
        }
        return (out, positions)
    }

    static func header(top: UInt64, format: UInt8 = 24, flags: UInt8 = 0) -> [UInt8] {
        var h = [UInt8]()
        withUnsafeBytes(of: top.littleEndian) { h += $0 }
        h += [UInt8](repeating: 0, count: 8)
        h += Array("T-DB".utf8) + [format, format, 0, flags]
        return h
    }

    // MARK: - Degenerate files

    func testEmptyAndTinyInputs() throws {
        var tally = Tally()
        XCTAssertEqual(Self.exercise([], "empty", &tally), .opened)     // a Realm nothing was committed to
        XCTAssertEqual(Self.exercise([UInt8](repeating: 0, count: 24), "24 zero bytes", &tally), .failed)
        for n in [1, 7, 8, 16, 20, 23, 25, 32, 40] {
            Self.exercise([UInt8](repeating: 0, count: n), "\(n) zero bytes", &tally)
            Self.exercise([UInt8](repeating: 0xFF, count: n), "\(n) 0xFF bytes", &tally)
        }
        print("HostileInputTests.tiny: \(tally)")
    }

    /// The memory-mapping path: an empty file, a text file and zeros on disk.
    func testFilesOnDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmsh-hostile-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = String(repeating: "This is not a Realm file, just some text.\n", count: 200)
        let cases: [(String, [UInt8])] = [
            ("text.realm", Array(text.utf8)),
            ("zeros.realm", [UInt8](repeating: 0, count: 24)),
        ]
        for (name, bytes) in cases {
            let path = dir.appendingPathComponent(name).path
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            do {
                let realm = try RealmFile(path: path)
                try CanonicalDump.write(realm, to: MemorySink())
                XCTFail("\(name) opened")
            } catch let error as FormatError {
                guard case .notARealmFile = error else { return XCTFail("\(name): \(error)") }
            }
        }
        // A 0-byte file is a Realm nothing was committed to yet (Realm writes the header on open).
        let empty = dir.appendingPathComponent("empty.realm").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertEqual(try RealmFile(path: empty).snapshot.fileFormat, 0)
        XCTAssertThrowsError(try RealmFile(path: dir.appendingPathComponent("missing.realm").path)) { error in
            guard case .io? = error as? FormatError else { return XCTFail("missing file: \(error)") }
        }
        XCTAssertThrowsError(try RealmFile(path: dir.path)) { error in
            guard case .io? = error as? FormatError else { return XCTFail("directory: \(error)") }
        }
    }

    func testTextInMemory() {
        var tally = Tally()
        let text = Array(String(repeating: "Lorem ipsum dolor sit amet, T-DB consectetur.\n", count: 100).utf8)
        for n in [24, 64, 4096, text.count] { Self.exercise(Array(text.prefix(n)), "text \(n)", &tally) }
        XCTAssertEqual(tally.opened, 0)
        print("HostileInputTests.text: \(tally)")
    }

    // MARK: - Random bytes

    func testRandomBytes() {
        var rng = SeededRandom(seed: 0x5EED_0001)
        var tally = Tally()
        for size in [1, 8, 24, 31, 32, 100, 512, 4096, 65536] {
            for v in 0..<4 { Self.exercise(rng.bytes(size), "random \(size) #\(v)", &tally) }
        }
        print("HostileInputTests.random: \(tally)")
    }

    /// A valid header (mnemonic, a readable format, a top ref inside the file) over garbage:
    /// gets past the header into node decoding.
    func testHeaderWithGarbage() {
        var rng = SeededRandom(seed: 0x5EED_0002)
        var tally = Tally()
        for size in [24, 32, 64, 256, 4096, 32768] {
            for v in 0..<6 {
                var bytes = rng.bytes(size)
                let top: UInt64 = v == 0 || size <= 24 ? rng.next() : UInt64(Int.random(in: 3..<(size / 8), using: &rng) * 8)
                let format: UInt8 = [24, 23, 22, 20, 11, 10][v]
                bytes.replaceSubrange(0..<24, with: Self.header(top: top, format: format))
                Self.exercise(bytes, "T-DB + garbage \(size) #\(v)", &tally)
            }
        }
        // A top ref into a region of zeros, of 0xFF, or of repeating small node headers.
        for fill: UInt8 in [0x00, 0xFF, 0x41] {
            var bytes = Self.header(top: 64) + [UInt8](repeating: fill, count: 4096 - 24)
            Self.exercise(bytes, "T-DB + \(fill) fill", &tally)
            for i in stride(from: 64, to: bytes.count, by: 8) { bytes[i + 4] = 0x46; bytes[i + 7] = 3 }
            Self.exercise(bytes, "T-DB + has-refs headers over \(fill)", &tally)
        }
        print("HostileInputTests.header: \(tally)")
    }

    // MARK: - Truncation

    func testEveryFixtureTruncated() throws {
        var tally = Tally()
        for name in try Self.allFixtureNames() {
            let bytes = try Self.fixture(name)
            var lengths = Set<Int>()
            for k in 1..<16 {
                let n = bytes.count * k / 16
                lengths.insert(n)
                lengths.insert(n & ~7)          // also past the size-multiple-of-8 check (§3.1)
            }
            for n in lengths.sorted() {
                Self.exercise(Array(bytes.prefix(n)), "\(name) truncated to \(n)/\(bytes.count)", &tally)
            }
        }
        print("HostileInputTests.truncated: \(tally)")
    }

    // MARK: - Byte flips

    func testSmallFixturesWithFlippedBytes() throws {
        var total = Tally()
        for (index, name) in Self.smallFixtures.enumerated() {
            let original = try Self.fixture(name)
            var rng = SeededRandom(seed: 0xF11B_0000 + UInt64(index))
            var tally = Tally()
            XCTAssertEqual(Self.exercise(original, "\(name) unmodified", &tally), .opened)
            tally = Tally()
            for v in 0..<40 {
                let (bytes, positions) = Self.flip(original, count: 1 + v % 8, &rng)
                Self.exercise(bytes, "\(name) variant \(v) flips \(positions)", &tally)
            }
            print("HostileInputTests.flips \(name): \(tally)")
            total.opened += tally.opened
            total.failed += tally.failed
            total.errors.merge(tally.errors, uniquingKeysWith: +)
            if tally.slowest > total.slowest { (total.slowest, total.slowestLabel) = (tally.slowest, tally.slowestLabel) }
        }
        print("HostileInputTests.flips total: \(total)")
    }

    /// Enumerated copies (realm-format.md §9.4.4) of two fixtures, bytes flipped: damaged value
    /// lists, Spec slot 4 arrays and position leaves fail with a FormatError or read; and a
    /// position past the end of its list is refused by name.
    func testEnumeratedCopiesWithFlippedBytes() throws {
        var total = Tally()
        for (index, name) in ["realm-core/basic", "realm-core/alltypes"].enumerated() {
            let (original, properties) = try EnumeratedCopy.make(of: try Snapshot(path: Self.fixturesDir + "/" + name + ".realm"),
                                                                 maxDistinctPercent: 100)
            XCTAssertTrue(properties.contains { $0.enumerated }, "\(name): something was enumerated")
            XCTAssertEqual(Self.exercise(original, "\(name) enumerated", &total), .opened)
            var rng = SeededRandom(seed: 0xE10B_0000 + UInt64(index))
            for v in 0..<80 {
                let (bytes, positions) = Self.flip(original, count: 1 + v % 6, &rng)
                Self.exercise(bytes, "\(name) enumerated, variant \(v) flips \(positions)", &total)
            }
        }
        print("HostileInputTests.enumerated: \(total)")

        // basic's Person.email positions: the first one pointed past the 7 listed values.
        var bytes = try EnumeratedCopy.make(of: try Snapshot(path: Self.fixturesDir + "/realm-core/basic.realm"),
                                            maxDistinctPercent: 100).bytes
        let snapshot = try Snapshot(image: ByteImage(bytes: bytes))
        let person = try XCTUnwrap(snapshot.table(named: "class_Person"))
        let email = try XCTUnwrap(person.columns.first { $0.name == "email" })
        let leaf = try XCTUnwrap(try snapshot.clusterLeaves(rootRef: XCTUnwrap(person.clusterRef)).first?.leaf.columnRef(email.leafIndex))
        let node = try snapshot.node(leaf)
        XCTAssertFalse(node.hasRefs, "an enumerated leaf is a plain integer array")
        XCTAssertEqual(node.width, 4, "7 listed values: 4-bit positions")
        try Self.patchElement(&bytes, node: leaf, index: 0, value: 7)
        Self.expectCleanFailure(bytes, "enumerated position past its list",
                                .corrupt(offset: leaf, reason: "enumerated string index 7 is outside its value list of 7"))
    }

    // MARK: - Regressions: inputs that once trapped or hung, rebuilt from fixtures

    /// Writes `value` into element `index` of the integer node at `ref` (§4.3 packing); the
    /// value must fit the node's width.
    static func patchElement(_ bytes: inout [UInt8], node ref: Int, index: Int, value: Int64) throws {
        let node = try Node(image: ByteImage(bytes: bytes), ref: ref)
        let w = node.width
        precondition(w > 0 && index < node.count && (w == 64 || (value >= 0 && value < 1 << w) || (w >= 8 && value >= -(1 << (w - 1)) && value < 1 << (w - 1))),
                     "patchElement: \(value) does not fit a width-\(w) node")
        if w >= 8 {
            let at = ref + 8 + index * w / 8
            for k in 0..<w / 8 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
        } else {
            let bit = index * w
            let at = ref + 8 + bit / 8
            let mask = UInt8((1 << w) - 1) << UInt8(bit % 8)
            bytes[at] = bytes[at] & ~mask | (UInt8(truncatingIfNeeded: value) << UInt8(bit % 8)) & mask
        }
    }

    /// Runs one regression input: it must fail with `expected` (or any FormatError when nil)
    /// well within the time limit.
    static func expectCleanFailure(_ bytes: [UInt8], _ label: String, _ expected: FormatError? = nil,
                                   file: StaticString = #filePath, line: UInt = #line) {
        var tally = Tally()
        let start = Platform.monotonicSeconds()
        do {
            let realm = try RealmFile(path: label, snapshot: Snapshot(image: ByteImage(bytes: bytes)))
            try CanonicalDump.write(realm, to: MemorySink())
            XCTFail("\(label): opened and dumped", file: file, line: line)
        } catch let error as FormatError {
            if let expected { XCTAssertEqual(error, expected, label, file: file, line: line) }
        } catch {
            XCTFail("\(label): threw a non-FormatError \(error)", file: file, line: line)
        }
        tally.slowest = Platform.monotonicSeconds() - start
        XCTAssertLessThan(tally.slowest, timeLimit, "\(label) took \(tally.slowest) s", file: file, line: line)
    }

    /// One flipped byte made a width-0 column leaf claim 10 million elements (§4.2: a width-0
    /// node is 8 bytes whatever its count). The reader decoded them all (seconds and half a
    /// gigabyte in a debug build) before noticing the count did not match the cluster's.
    /// Now a width-0 node of more than 65536 elements is refused when it is read.
    func testRegressionWidthZeroColumnLeafFlood() throws {
        var bytes = try Self.fixture("realm-core/empty")
        bytes[381] ^= 0x99                      // the top count byte of a column leaf's header
        Self.expectCleanFailure(bytes, "empty.realm, byte 381 ^ 0x99",
                                .corrupt(offset: 376, reason: "node of width 0 claims 10027008 elements"))
    }

    /// Found by the fuzzer: a width-0 Mixed composite array under a list claimed millions of
    /// nulls. Collections have no object count to check against, so the dump wrote them all
    /// (a libFuzzer timeout). Rebuilt here: the first Mixed list leaf of alltypes gets a
    /// width-0 composite array of 0xFFFFFF elements.
    func testRegressionWidthZeroMixedListFlood() throws {
        var bytes = try Self.fixture("realm-core/alltypes")
        let snapshot = try Snapshot(image: ByteImage(bytes: bytes))
        let table = try XCTUnwrap(snapshot.table(named: "class_AllTypes"))
        let column = try XCTUnwrap(table.column(named: "mixedList"))
        var composite: Int?
        try ClusterTree(snapshot: snapshot, rootRef: XCTUnwrap(table.clusterRef)).forEachLeaf { leaf throws(FormatError) in
            guard composite == nil, let refs = leaf.columnRef(column.leafIndex) else { return }
            let lists = try snapshot.node(refs)
            for row in 0..<lists.count {
                guard let root = lists.ref(row) else { continue }
                let list = try snapshot.node(root)
                if !list.isInner, let c = list.ref(0) {
                    composite = c
                    return
                }
            }
        }
        let ref = try XCTUnwrap(composite, "no Mixed list leaf in alltypes")
        bytes[ref + 4] &= ~7                    // width 0
        bytes[ref + 5] = 0xFF
        bytes[ref + 6] = 0xFF
        bytes[ref + 7] = 0xFF
        Self.expectCleanFailure(bytes, "alltypes.realm, Mixed composite at \(hex(ref)) of 0xFFFFFF nulls",
                                .corrupt(offset: ref, reason: "node of width 0 claims 16777215 elements"))
    }

    /// A has-refs node with width type 'ignore' and a 32-bit width code: its payload is one
    /// byte per element (§4.2) but refs were read 4 bytes apiece, past the end of the file (a
    /// heap-buffer-overflow under AddressSanitizer; "load out of bounds" in a debug build).
    /// Rebuilt from basic.realm: the top array's flags become 0x56, its logical size (slot 2)
    /// fits the file, and the file ends right after the array's 11 payload bytes.
    func testRegressionIgnoreWidthNodeReadsPastEnd() throws {
        let original = try Self.fixture("realm-core/basic")
        let top = try FileHeader(image: ByteImage(bytes: original)).topRef
        XCTAssertEqual(try Node(image: ByteImage(bytes: original), ref: top).width, 32)
        var bytes = original
        try Self.patchElement(&bytes, node: top, index: 2, value: Int64(2 * (top + 24) + 1))   // T(new file size)
        bytes[top + 4] = 0x56                   // has refs, wtype 2 (ignore), width code 6
        bytes.removeLast(bytes.count - (top + 24))
        Self.expectCleanFailure(bytes, "basic.realm, top array flags 0x56, truncated after it",
                                .corrupt(offset: top, reason: "node of 44 payload bytes runs past the end of the file"))
    }

    /// A timestamp whose seconds are Int64.min: formatting it overflowed (a trap). Its text
    /// is now computed in 128 bits, like the reference reader's arbitrary-precision integers.
    /// (That reader's `civil_from_days` is a day late for dates before 0000-03-01, as it floors
    /// twice; these expectations are the proleptic Gregorian dates.)
    func testRegressionExtremeTimestamp() throws {
        var bytes = try Self.fixture("realm-core/alltypes")
        let snapshot = try Snapshot(image: ByteImage(bytes: bytes))
        let table = try XCTUnwrap(snapshot.table(named: "class_AllTypes"))
        let column = try XCTUnwrap(table.column(named: "dateCol"))
        var secondsRef: Int?
        try ClusterTree(snapshot: snapshot, rootRef: XCTUnwrap(table.clusterRef)).forEachLeaf { leaf throws(FormatError) in
            guard secondsRef == nil, let r = leaf.columnRef(column.leafIndex) else { return }
            secondsRef = try snapshot.node(r).ref(0)
        }
        let ref = try XCTUnwrap(secondsRef)
        let seconds = try snapshot.node(ref)
        try XCTSkipUnless(seconds.width == 64 && seconds.count >= 2, "dateCol seconds are not 64-bit wide")
        try Self.patchElement(&bytes, node: ref, index: 1, value: .min)  // element 0 is the null marker
        let realm = try RealmFile(path: "extreme-date", snapshot: Snapshot(image: ByteImage(bytes: bytes)))
        let sink = MemorySink()
        try CanonicalDump.write(realm, to: sink)
        XCTAssertTrue(sink.text.contains("\"$date\": \"-292277022657-01-27T08:29:52Z\""), "Int64.min seconds not written as expected")
    }

    func testDateTextAtTheLimits() {
        let cases: [(Int64, Int32, String)] = [
            (.min, 0, "-292277022657-01-27T08:29:52Z"),
            (.min, -999_999_999, "-292277022657-01-27T08:29:51.000000001Z"),
            (.min, .min, "-292277022657-01-27T08:29:49.852516352Z"),
            (.max, 999_999_999, "+292277026596-12-04T15:30:07.999999999Z"),
            (.max, .max, "+292277026596-12-04T15:30:09.147483647Z"),
            (Int64.min + 86_399, 0, "-292277022657-01-28T08:29:51Z"),
            (-62_198_755_200, 0, "-000001-01-01T00:00:00Z"),
            (-62_167_219_201, 0, "-000001-12-31T23:59:59Z"),
            (5, -3, "1970-01-01T00:00:04.999999997Z"),
            (0, .min, "1969-12-31T23:59:57.852516352Z"),
            (-1, -500_000_000, "1969-12-31T23:59:58.5Z"),
            (-62_135_596_800, 0, "0001-01-01T00:00:00Z"),
        ]
        for (s, ns, text) in cases {
            XCTAssertEqual(DateText.iso8601(Timestamp(seconds: s, nanoseconds: ns)), text, "(\(s), \(ns))")
        }
    }

    /// Date text reads back at the ends of a Timestamp (whose first and last days start beyond
    /// Int64's seconds), and text beyond them is refused, never a trap (an SDK file holds such
    /// dates: public/java__6.0.0-beta.2-alltypes-max.realm).
    func testDateParsingAtTheLimits() {
        for t in [Timestamp(seconds: .max, nanoseconds: 999_999_999), Timestamp(seconds: .min + 1, nanoseconds: -999_999_999),
                  Timestamp(seconds: .min, nanoseconds: 0), Timestamp(seconds: -1, nanoseconds: -500_000_000)] {
            XCTAssertEqual(ValueParsing.date(DateText.iso8601(t)), t, DateText.iso8601(t))
            var full = [UInt8]()
            DateText.append(t, to: &full, fullFraction: true)
            XCTAssertEqual(ValueParsing.date(String(decoding: full, as: UTF8.self)), t)
        }
        for text in ["+292277026596-12-04T15:30:08Z", "-292277022657-01-27T08:29:51Z", "99999999999999999999-01-01T00:00:00Z",
                     "+999999999999-01-01T00:00:00Z", "-999999999999-01-01"] {
            XCTAssertNil(ValueParsing.date(text), text)
        }
    }

    /// Embedded objects are written inline, each from its one parent. A file whose embedded
    /// objects link to each other as a DAG (object k's list holding k − 1 several times) made
    /// the dump write the product of the list lengths: exponential work. Rebuilt from
    /// alltypes: AllTypes becomes embedded (table slot 12, §7.1), its `objectList` targets
    /// AllTypes itself (table slot 7) and links object k to k − 1 (in key order), and NoPK's
    /// first object links to the last AllTypes object: 7·6·5·4·5·2 writes of large objects
    /// (minutes, gigabytes) before; now at most twice the embedded objects are written.
    func testRegressionEmbeddedFanOut() throws {
        var bytes = try Self.fixture("realm-core/alltypes")
        let snapshot = try Snapshot(image: ByteImage(bytes: bytes))
        let allTypes = try XCTUnwrap(snapshot.table(named: "class_AllTypes"))
        let objectList = try XCTUnwrap(allTypes.column(named: "objectList"))
        try Self.patchElement(&bytes, node: allTypes.ref, index: 12, value: 1 << 1 | 1)   // T(1): embedded
        let opposite = try XCTUnwrap(snapshot.node(allTypes.ref).ref(7))
        try Self.patchElement(&bytes, node: opposite, index: objectList.leafIndex, value: Int64(allTypes.key.value))

        var lists = [(key: Int64, root: Int?)]()
        try ClusterTree(snapshot: snapshot, rootRef: XCTUnwrap(allTypes.clusterRef)).forEachLeaf { leaf throws(FormatError) in
            guard let refs = leaf.columnRef(objectList.leafIndex) else { return }
            let node = try snapshot.node(refs)
            for row in 0..<leaf.count { lists.append((leaf.objectKey(row), node.ref(row))) }
        }
        lists.sort { $0.key < $1.key }
        for i in 1..<lists.count {
            guard let root = lists[i].root else { continue }
            let leaf = try snapshot.node(root)
            XCTAssertFalse(leaf.isInner)
            for e in 0..<leaf.count { try Self.patchElement(&bytes, node: root, index: e, value: lists[i - 1].key) }
        }

        let noPK = try XCTUnwrap(snapshot.table(named: "class_NoPK"))
        let link = try XCTUnwrap(noPK.column(named: "allTypes"))
        var linkLeaf: Int?
        try ClusterTree(snapshot: snapshot, rootRef: XCTUnwrap(noPK.clusterRef)).forEachLeaf { leaf throws(FormatError) in
            if linkLeaf == nil { linkLeaf = leaf.columnRef(link.leafIndex) }
        }
        let last = try XCTUnwrap(lists.last).key
        try Self.patchElement(&bytes, node: XCTUnwrap(linkLeaf), index: 0, value: last + 1)  // §9.10: ObjKey + 1
        Self.expectCleanFailure(bytes, "alltypes.realm, embedded AllTypes objectList DAG", .workLimitExceeded)
    }
}
