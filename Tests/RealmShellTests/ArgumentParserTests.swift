@testable import RealmShell
import XCTest

final class ArgumentParserTests: XCTestCase {
    static let format = Option<String>("format", value: "f", help: "Format.", choices: ["json", "csv"])
    static let classes = Repeated("class", value: "c", help: "Class.")
    static let output = Option<String>("output", short: "o", value: "out", help: "Output.")
    static let quiet = Flag("quiet", short: "q", help: "Quiet.")
    static let count = Option<Int>.integer("count", value: "n", help: "Count.", range: 0...9, what: "a digit")
    static let file = Positional("FILE", help: "A file.")
    static let extra = Positional("EXTRA", help: "More.", optional: true)
    let spec = CommandSpec(
        name: "demo", abstract: "A demo.", arguments: [file, extra],
        options: [format, classes, output, quiet])

    func testLongOptionsTakeValuesWithSpaceOrEquals() throws {
        let a = try ArgumentParser.parse(["--format", "csv", "x.realm", "--output=o.csv"], spec: spec)
        XCTAssertEqual(a[Self.format], "csv")
        XCTAssertEqual(a[Self.output], "o.csv")
        XCTAssertEqual(a.positionals, ["x.realm"])
        XCTAssertEqual(a[Self.file], "x.realm")
        XCTAssertNil(a.argument(Self.extra))
    }

    func testTypedOptionsConvertOnceAndRefuseBadValues() throws {
        let spec = CommandSpec(name: "demo", abstract: "", options: [Self.count])
        XCTAssertEqual(try ArgumentParser.parse(["--count", "7"], spec: spec).value(Self.count), 7)
        XCTAssertNil(try ArgumentParser.parse([], spec: spec).value(Self.count))
        XCTAssertThrowsError(try ArgumentParser.parse(["--count", "12"], spec: spec).value(Self.count)) { error in
            XCTAssertEqual((error as! ShellError).code, .usage)
            XCTAssertTrue((error as! ShellError).message.contains("--count needs a digit, not '12'"))
        }
    }

    func testTheCallerCanSupplyTheFileArgument() throws {
        let spec = CommandSpec(name: "demo", abstract: "", arguments: [Self.file, Self.extra], file: Self.file)
        let a = try ArgumentParser.parse(["more"], spec: spec, file: "open.realm")
        XCTAssertEqual(a[Self.file], "open.realm")
        XCTAssertEqual(a[Self.extra], "more")
    }

    func testShortOptionsAttachedOrSeparate() throws {
        XCTAssertEqual(try ArgumentParser.parse(["-o", "a", "f"], spec: spec)[Self.output], "a")
        XCTAssertEqual(try ArgumentParser.parse(["-ob", "f"], spec: spec)[Self.output], "b")
        XCTAssertTrue(try ArgumentParser.parse(["-q", "f"], spec: spec)[Self.quiet])
    }

    func testRepeatableOptionsCollectEveryValue() throws {
        let a = try ArgumentParser.parse(["f", "--class", "A", "--class=B"], spec: spec)
        XCTAssertEqual(a[Self.classes], ["A", "B"])
    }

    func testDoubleDashEndsOptions() throws {
        let a = try ArgumentParser.parse(["--", "--format"], spec: spec)
        XCTAssertEqual(a.positionals, ["--format"])
        XCTAssertNil(a[Self.format])
    }

    func testUnknownOptionSuggestsTheNearestName() {
        XCTAssertThrowsError(try ArgumentParser.parse(["--fromat", "json", "f"], spec: spec)) { error in
            let e = error as! ShellError
            XCTAssertEqual(e.code, .usage)
            XCTAssertTrue(e.message.contains("did you mean '--format'"), e.message)
        }
    }

    func testClosedChoicesAreChecked() {
        XCTAssertThrowsError(try ArgumentParser.parse(["--format", "jsn", "f"], spec: spec)) { error in
            XCTAssertTrue((error as! ShellError).message.contains("did you mean 'json'"))
        }
    }

    func testMissingValueMissingArgumentAndExtraArgumentAreUsageErrors() {
        for args in [["f", "--output"], [], ["a", "b", "c"], ["f", "--format", "json", "--format", "csv"], ["f", "--quiet=yes"]] {
            XCTAssertThrowsError(try ArgumentParser.parse(args, spec: spec), "\(args)") { error in
                XCTAssertEqual((error as! ShellError).code, .usage)
            }
        }
    }

    func testHelpNeedsNoArguments() throws {
        XCTAssertTrue(try ArgumentParser.parse(["--help"], spec: spec).wantsHelp)
        XCTAssertTrue(try ArgumentParser.parse(["-h"], spec: spec).wantsHelp)
    }

    func testUsageAndHelpListEveryOption() {
        XCTAssertEqual(spec.usage, "realmsh demo FILE [EXTRA] [--format f] [--class c]... [-o|--output out] [-q|--quiet]")
        for name in ["--format", "--class", "--output", "--quiet", "--help", "(json, csv)"] {
            XCTAssertTrue(spec.help.contains(name), name)
        }
    }
}
