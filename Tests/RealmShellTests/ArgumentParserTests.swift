@testable import RealmShell
import XCTest

final class ArgumentParserTests: XCTestCase {
    let spec = CommandSpec(
        name: "demo", abstract: "A demo.",
        arguments: [.init("FILE", help: "A file."), .init("EXTRA", help: "More.", optional: true)],
        options: [.value("format", name: "f", help: "Format.", choices: ["json", "csv"]),
                  .value("class", name: "c", help: "Class.", repeatable: true),
                  .value("output", short: "o", name: "out", help: "Output."),
                  .flag("quiet", short: "q", help: "Quiet.")])

    func testLongOptionsTakeValuesWithSpaceOrEquals() throws {
        let a = try ArgumentParser.parse(["--format", "csv", "x.realm", "--output=o.csv"], spec: spec)
        XCTAssertEqual(a.value("format"), "csv")
        XCTAssertEqual(a.value("output"), "o.csv")
        XCTAssertEqual(a.positionals, ["x.realm"])
    }

    func testShortOptionsAttachedOrSeparate() throws {
        XCTAssertEqual(try ArgumentParser.parse(["-o", "a", "f"], spec: spec).value("output"), "a")
        XCTAssertEqual(try ArgumentParser.parse(["-ob", "f"], spec: spec).value("output"), "b")
        XCTAssertTrue(try ArgumentParser.parse(["-q", "f"], spec: spec).flag("quiet"))
    }

    func testRepeatableOptionsCollectEveryValue() throws {
        let a = try ArgumentParser.parse(["f", "--class", "A", "--class=B"], spec: spec)
        XCTAssertEqual(a.values("class"), ["A", "B"])
    }

    func testDoubleDashEndsOptions() throws {
        let a = try ArgumentParser.parse(["--", "--format"], spec: spec)
        XCTAssertEqual(a.positionals, ["--format"])
        XCTAssertNil(a.value("format"))
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
