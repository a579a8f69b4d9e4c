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

    /// One file of `public/` (its README): a `.realm` file from Realm's SDK repositories, as
    /// `manifest.tsv` lists it.
    public struct PublicFixture: Sendable {
        public let name: String
        public let path: String
        /// The 64-byte key of an encrypted file, as 128 hexadecimal characters.
        public let keyHex: String?
        /// The format in the selected header slot (of the decrypted header); 0: nothing committed.
        public let format: Int
        /// Formats 2–9, the layouts before clusters (Docs/legacy-formats.md).
        public var isLegacy: Bool { FileFormatRange.legacy.contains(format) }
    }

    public enum FileFormatRange {
        public static let legacy = 2...9
    }

    /// Every file listed in `public/manifest.tsv`, in its order.
    public static func publicFixtures() -> [PublicFixture] {
        let dir = directory + "/public"
        guard let text = try? String(contentsOfFile: dir + "/manifest.tsv", encoding: .utf8) else { return [] }
        var out = [PublicFixture]()
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {     // the manifest has CRLF line ends
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6 else { continue }
            let format = Int(fields[5].split(separator: " ").first ?? "") ?? 0
            out.append(PublicFixture(name: fields[0], path: dir + "/" + fields[0], keyHex: fields[4].isEmpty ? nil : fields[4],
                                     format: format))
        }
        return out
    }

    /// The key of realm-core's `test_shared_decrypt_*` files, as written then (their README).
    public static let sharedDecryptKeyHex = Array("1234567890123456789012345678901123456789012345678901234567890123".utf8)
        .map { String($0, radix: 16) }.joined()

    /// Writes `hex` to a key file in `directory`; returns its path.
    public static func keyFile(_ hex: String, in directory: String) throws -> String {
        let path = directory + "/key-\(hex.prefix(8)).hex"
        try hex.write(toFile: path, atomically: true, encoding: .utf8)
        return path
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
