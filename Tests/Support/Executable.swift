import Foundation

/// The built `realmsh` executable, for tests that need a separate process (crash safety,
/// concurrent readers, terminals). `swift test` builds it with the tests; if it is missing, it
/// is built once.
public enum Executable {
    public static let realmsh: String = {
        let debug = Fixtures.packageRoot.appendingPathComponent(".build/debug/realmsh").path
        if !FileManager.default.isExecutableFile(atPath: debug) {
            let build = Process()
            build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            build.arguments = ["swift", "build", "--product", "realmsh"]
            build.currentDirectoryURL = Fixtures.packageRoot
            try? build.run()
            build.waitUntilExit()
        }
        return debug
    }()

    /// Starts `realmsh args…` with its output discarded.
    public static func start(_ args: [String], environment: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: realmsh)
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
