@testable import RealmFormat
import RealmTestSupport
import XCTest

/// The in-place leaf scans that queries use (LeafScanning.swift, StringLeafReader.swift) pinned
/// against the element-by-element readers and decoders on generated leaves of every width and
/// form, with nulls, empty strings and non-ASCII text.
final class LeafScanningTests: XCTestCase {
    func image(_ node: MutableNode) throws -> TreeImage { try TreeImage(node) }

    /// Value sets whose leaves take each bit width (§4.3): 0, 1, 2, 4, 8, 16, 32, 64.
    static let ranges: [ClosedRange<Int64>] = [0...0, 0...1, 0...3, 0...15, -100...100, -30000...30000,
                                               -2_000_000_000...2_000_000_000, Int64.min...Int64.max]

    func testMarkRangeMarksExactlyTheElementsInRangeAtEveryWidth() throws {
        var random = SeededRandom(seed: 7)
        var widths = Set<Int>()
        for range in Self.ranges {
            for nullable in [false, true] {
                let values: [Value] = (0..<300).map { i in
                    if nullable && i % 7 == 3 { return .null }
                    // The ends of the range and random values inside it.
                    switch i % 5 {
                    case 0: return .int(range.lowerBound)
                    case 1: return .int(range.upperBound)
                    default: return .int(Int64.random(in: range, using: &random))
                    }
                }
                let t = try image(LeafEncoder.encode(values, type: .int, nullable: nullable, context: .cluster))
                let leaf = try IntegerLeaf(t.snapshot, ref: t.rootRef, nullable: nullable)
                XCTAssertEqual(leaf.count, values.count)
                widths.insert(leaf.width)
                let constants: [Int64] = [range.lowerBound, range.upperBound, 0, 1, -1, range.lowerBound / 2 + range.upperBound / 2]
                for lower in constants {
                    for upper in constants + [lower, lower &- 1] {
                        for outside in [false, true] {
                            for nullMatches in [false, true] {
                                for first in [0, 5, 64, 63] {
                                    let pattern: UInt64 = 0x8000_0000_0000_0001
                                    var words = [UInt64](repeating: pattern, count: (first + values.count + 63) / 64 + 1)
                                    leaf.markRange(lower, upper, outside: outside, nullMatches: nullMatches, into: &words, first: first)
                                    for i in 0..<values.count {
                                        let expected = leaf.isNull(i) ? nullMatches : ((lower...max(lower, upper)).contains(leaf[i]) && lower <= upper) != outside
                                        let p = first + i
                                        let bit = words[p >> 6] & (1 << UInt64(p & 63)) != 0
                                        let preset = pattern & (1 << UInt64(p & 63)) != 0
                                        if bit != (expected || preset) {
                                            XCTFail("width \(leaf.width) nullable \(nullable): element \(i) = \(values[i]) in \(lower)...\(upper) outside \(outside) null \(nullMatches) first \(first): bit \(bit)")
                                            return
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(widths, [0, 1, 2, 4, 8, 16, 32, 64], "every width was generated")
    }

    /// The multiply that gathers a 16-lane comparison into bits (`laneBits`) gives bit j for
    /// lane j, for every one of the 65,536 masks.
    func testLaneBitsGathersEveryMask() {
        let lanes = SIMD16<Int16>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        for pattern in 0..<(1 << 16) {
            let set = (SIMD16<Int16>(repeating: Int16(truncatingIfNeeded: pattern)) &>> lanes) & 1
            let mask = SIMD16<Int8>(truncatingIfNeeded: set) .== 1
            if laneBits(mask) != UInt64(pattern) { return XCTFail("mask \(pattern): \(laneBits(mask))") }
        }
    }

    func testFloatingMarkFollowsIEEEComparisonsAndNulls() throws {
        let doubles: [Double?] = [0, -0.0, 1.5, -1.5, .nan, .infinity, -.infinity, nil, 49.999, 50, 50.001, .greatestFiniteMagnitude, nil]
        for isFloat in [false, true] {
            let values: [Value] = doubles.map { d in d.map { isFloat ? .float(Float($0)) : .double($0) } ?? .null }
            let t = try image(LeafEncoder.encode(values, type: isFloat ? .float : .double, nullable: true, context: .cluster))
            let leaf = try FloatingLeaf(t.snapshot, ref: t.rootRef, float: isFloat)
            let ops: [(ElementComparison, (Double, Double) -> Bool)] = [(.equal, { $0 == $1 }), (.notEqual, { $0 != $1 }), (.less, { $0 < $1 }),
                                                                        (.lessEqual, { $0 <= $1 }), (.greater, { $0 > $1 }), (.greaterEqual, { $0 >= $1 })]
            for (op, test) in ops {
                for constant in [50.0, 0, -0.0, .nan, .infinity, 1.5] {
                    for nullMatches in [false, true] {
                        var words = [UInt64](repeating: 0, count: 2)
                        leaf.mark(op, constant, nullMatches: nullMatches, into: &words, first: 60)
                        for i in 0..<leaf.count {
                            let expected = leaf[i].map { test($0, constant) } ?? nullMatches
                            let p = 60 + i
                            XCTAssertEqual(words[p >> 6] & (1 << UInt64(p & 63)) != 0, expected,
                                           "\(isFloat ? "float" : "double") \(String(describing: leaf[i])) \(op) \(constant)")
                        }
                    }
                }
            }
        }
    }

    func testSummariesAgreeWithElementReads() throws {
        var random = SeededRandom(seed: 11)
        for range in Self.ranges.dropFirst() {
            for nullable in [false, true] {
                let values: [Value] = (0..<200).map { i in nullable && i % 9 == 0 ? .null : .int(Int64.random(in: range, using: &random)) }
                let t = try image(LeafEncoder.encode(values, type: .int, nullable: nullable, context: .cluster))
                let leaf = try IntegerLeaf(t.snapshot, ref: t.rootRef, nullable: nullable)
                let selected: [UInt64] = (0..<5).map { _ in random.next() }
                for mask in [nil, selected] {
                    var s = IntegerSummary()
                    leaf.summarize(into: &s, selected: mask, first: 40)
                    var expected = IntegerSummary()
                    for i in 0..<leaf.count where !leaf.isNull(i) {
                        if let mask, mask[(40 + i) >> 6] & (1 << UInt64((40 + i) & 63)) == 0 { continue }
                        expected.count += 1
                        expected.sum &+= leaf[i]
                        expected.min = min(expected.min, leaf[i])
                        expected.max = max(expected.max, leaf[i])
                    }
                    XCTAssertGreaterThan(expected.count, 0)
                    XCTAssertEqual(s, expected, "width \(leaf.width) nullable \(nullable) masked \(mask != nil)")
                }
            }
        }
        let doubles: [Value] = (0..<150).map { i in i % 11 == 0 ? .null : .double(Double(i) * 0.25 - 7) }
        let t = try image(LeafEncoder.encode(doubles, type: .double, nullable: true, context: .cluster))
        let leaf = try FloatingLeaf(t.snapshot, ref: t.rootRef, float: false)
        var s = FloatingSummary()
        leaf.summarize(into: &s, selected: nil, first: 0)
        let present = (0..<leaf.count).compactMap { leaf[$0] }
        XCTAssertEqual(s.count, present.count)
        XCTAssertEqual(s.sum, present.reduce(0, +))
    }

    /// Strings of every leaf form read in place give what `decodeStrings` decodes.
    func testStringLeafReaderReadsWhatTheDecoderDecodes() throws {
        let texts: [[UInt8]?] = [nil, [], Array("B".utf8), Array("Bär".utf8), Array("ÄRGER ß".utf8), Array("a\u{0}b".utf8), nil,
                                 Array("Carl Ashby".utf8), Array("αβγ".utf8)]
        var random = SeededRandom(seed: 3)
        let forms: [(String, Int)] = [("short", 15), ("medium", 63), ("big", 300)]
        var seen = Set<String>()
        for (form, longest) in forms {
            var strings = texts
            for _ in 0..<40 { strings.append(Bool.random(using: &random) ? nil : random.bytes(Int.random(in: 0...longest, using: &random)).map { $0 | 1 }) }
            strings.append([UInt8](repeating: 0x41, count: longest))
            let t = try image(LeafEncoder.stringLeaf(strings))
            let node = try t.snapshot.node(t.rootRef)
            seen.insert(!node.hasRefs ? "short" : (node.context ? "big" : "medium"))
            let decoded = try t.snapshot.decodeStrings(t.rootRef)
            let reader = try StringLeafReader(t.snapshot, ref: t.rootRef)
            XCTAssertEqual(reader.count, decoded.count, form)
            for i in 0..<reader.count {
                XCTAssertEqual(try reader.value(i), decoded[i], "\(form) element \(i)")
                XCTAssertEqual(try reader.matches(i) { $0 == nil }, decoded[i] == nil, "\(form) element \(i) null")
            }
        }
        XCTAssertEqual(seen, ["short", "medium", "big"])
        // All null: a width-0 short leaf.
        let t = try image(LeafEncoder.stringLeaf([nil, nil, nil]))
        let reader = try StringLeafReader(t.snapshot, ref: t.rootRef)
        XCTAssertEqual(try (0..<3).map { try reader.value($0) }, [nil, nil, nil])
    }
}
