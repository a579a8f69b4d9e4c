// swift-tools-version:6.2
import PackageDescription

// Dependencies point one way: RealmFormat ← RealmObjects ← RealmShell ← realmsh,
// RealmFormat ← RealmQuery ← RealmShell (queries see tables, not the object-store view), and
// RealmFormat, RealmObjects, RealmQuery ← RealmMigration ← RealmShell.
// Nothing outside the toolchain; C libraries from Debian only through tiny C* targets.
let package = Package(
    name: "realmsh",
    products: [
        .executable(name: "realmsh", targets: ["realmsh"]),
        .library(name: "RealmFormat", targets: ["RealmFormat"]),
        .library(name: "RealmObjects", targets: ["RealmObjects"]),
        .library(name: "RealmQuery", targets: ["RealmQuery"]),
        .library(name: "RealmMigration", targets: ["RealmMigration"]),
    ],
    targets: [
        // libcrypto from Debian's libssl-dev, for Realm's AES-256 + HMAC-SHA224 page encryption.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // GNU readline from Debian's libreadline-dev, for the interactive shell's line editing.
        // (Its headers are in /usr/include; no pkg-config: readline.pc pulls in tinfo's
        // -D_XOPEN_SOURCE flags, which SwiftPM refuses with a warning.)
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // A header-only cache prefetch hint for the leaf scans (no library behind it).
        .systemLibrary(name: "CPrefetch"),
        // libc's wcwidth, which Swift's Glibc module does not declare: the columns a character
        // takes in the shell's tables (header only).
        .systemLibrary(name: "CTerminal"),
        // Failpoints (Writing/Failpoint.swift) exist only in debug builds, the ones `swift test` runs.
        .target(name: "RealmFormat", dependencies: ["CCrypto", "CPrefetch"],
                swiftSettings: [.define("REALMSH_FAILPOINTS", .when(configuration: .debug))]),
        .target(name: "RealmObjects", dependencies: ["RealmFormat"]),
        .target(name: "RealmQuery", dependencies: ["RealmFormat"]),
        // Scripted schema migrations: the object-store view and queries, applied to table models.
        .target(name: "RealmMigration", dependencies: ["RealmFormat", "RealmObjects", "RealmQuery"]),
        .target(name: "RealmShell", dependencies: ["RealmFormat", "RealmObjects", "RealmQuery", "RealmMigration", "CReadline", "CTerminal"]),
        .executableTarget(name: "realmsh", dependencies: ["RealmShell", "RealmFormat"]),
        // Test-only helpers: where the shared fixtures are, how to describe a dump mismatch.
        .target(name: "RealmTestSupport", path: "Tests/Support"),
        .testTarget(name: "RealmFormatTests", dependencies: ["RealmFormat", "RealmTestSupport"]),
        .testTarget(name: "RealmObjectsTests", dependencies: ["RealmObjects", "RealmFormat", "RealmTestSupport"]),
        .testTarget(name: "RealmShellTests", dependencies: ["RealmShell", "RealmObjects", "RealmFormat", "RealmTestSupport"]),
        // RealmObjects only to lay out test files with indexed int columns (SchemaBuilder).
        .testTarget(name: "RealmQueryTests", dependencies: ["RealmQuery", "RealmFormat", "RealmObjects", "RealmTestSupport"]),
        .testTarget(name: "RealmMigrationTests", dependencies: ["RealmMigration", "RealmObjects", "RealmFormat", "RealmTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
