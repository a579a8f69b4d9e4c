import Foundation

/// The built `realmsh` executable, for tests that need a separate process (terminals, crash
/// safety, concurrent readers): beside the test bundle (`.build/<triple>/debug/`), where
/// `swift test` builds every product of the package.
public enum Executable {
    public static let path: String? = {
        var candidates = [String]()
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("realmsh").path)
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("realmsh").path)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("realmsh").path)
        candidates.append(Fixtures.packageRoot.appendingPathComponent(".build/debug/realmsh").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct Missing: Error, CustomStringConvertible {
        var description: String { "the realmsh executable was not found beside the tests (swift test builds it; run 'swift build')" }
    }

    /// The path, or an error that fails the test (never a skip: a missing executable is a bug).
    public static func require() throws -> String {
        guard let path else { throw Missing() }
        return path
    }

    /// Starts `realmsh args…` with its output discarded.
    public static func start(_ args: [String], environment: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try require())
        p.arguments = args
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }
}
