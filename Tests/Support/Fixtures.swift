import Foundation

/// The shared fixtures: real `.realm` files written by realm-core, with their canonical dumps.
/// They live in `../shared/fixtures` beside the package (as in CI) and are never copied here.
public enum Fixtures {
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    public static let directory: String = {
        let beside = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
        if FileManager.default.fileExists(atPath: beside) { return beside }
        return "/work/shared/fixtures"
    }()

    /// `path("realm-core/basic.realm")`.
    public static func path(_ relative: String) -> String { directory + "/" + relative }

    /// Every `.realm` file under the fixtures, sorted.
    public static func allRealmFiles() -> [String] {
        var out = [String]()
        for sub in ["realm-core", "realm-core-tests"] {
            let dir = directory + "/" + sub
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            out += names.filter { $0.hasSuffix(".realm") }.sorted().map { dir + "/" + $0 }
        }
        return out
    }

    /// Fixtures that are encrypted (they have a key file, or are realm-core's decrypt tests).
    public static func isEncrypted(_ realmPath: String) -> Bool {
        let base = String(realmPath.dropLast(".realm".count))
        return FileManager.default.fileExists(atPath: base + ".key") || realmPath.contains("test_shared_decrypt")
    }

    /// The canonical dump realm-core made of a fixture (`NAME.json` or `NAME.json.gz`), if any.
    public static func expectedDump(for realmPath: String) -> Data? {
        let base = String(realmPath.dropLast(".realm".count))
        if let data = FileManager.default.contents(atPath: base + ".json") { return data }
        guard FileManager.default.fileExists(atPath: base + ".json.gz") else { return nil }
        return gunzip(base + ".json.gz")
    }

    static func gunzip(_ path: String) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec gzip -dc \"$0\"", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }

    /// A writable copy of a fixture (`copy("realm-core/basic.realm", into: dir)`); returns its path.
    public static func copy(_ relative: String, into directory: String) throws -> String {
        let target = directory + "/" + (relative as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: path(relative), toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        return target
    }

    /// A scratch directory for one test, removed by the caller.
    public static func temporaryDirectory() -> String {
        let dir = NSTemporaryDirectory() + "realmsh-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// Where two dumps first differ, described by fixture, class, object and property.
public enum DumpDifference {
    public static func describe(fixture: String, expected: Data, actual: Data) -> String? {
        if expected == actual { return nil }
        let e = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let a = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var line = 0
        while line < min(e.count, a.count) && e[line] == a[line] { line += 1 }
        var className = "?", object = "?", property = "?"
        var objectStart: Int?
        for i in stride(from: min(line, e.count - 1), through: 0, by: -1) {
            let text = e[i]
            if property == "?", text.hasPrefix("        \""), let name = text.split(separator: "\"").dropFirst().first {
                property = String(name)
            }
            if objectStart == nil, text == "      {" { objectStart = i }
            if text.hasPrefix("    \""), text.hasSuffix("["), let name = text.split(separator: "\"").dropFirst().first {
                className = String(name)
                break
            }
        }
        if let start = objectStart, start + 1 < e.count { object = String(e[start + 1].trimmingCharacters(in: .whitespaces)) }
        let want = line < e.count ? String(e[line]) : "<end of file>"
        let got = line < a.count ? String(a[line]) : "<end of file>"
        return "\(fixture): line \(line + 1): class \(className), object \(object), property \(property): expected \(want.trimmingCharacters(in: .whitespaces)) but got \(got.trimmingCharacters(in: .whitespaces))"
    }
}
