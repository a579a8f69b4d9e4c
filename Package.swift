// swift-tools-version:6.2
import PackageDescription

// Dependencies point one way: RealmFormat ← RealmObjects ← RealmShell ← realmsh,
// RealmFormat ← RealmQuery ← RealmShell (queries see tables, not the object-store view), and
// RealmFormat, RealmObjects, RealmQuery ← RealmMigration ← RealmShell, and
// RealmFormat, RealmObjects ← RealmSQLite ← RealmShell (the SQLite export).
// RealmFormat, RealmObjects, RealmQuery ← RealmBrowser ← RealmShell (the full-screen browser).
// Nothing outside the toolchain; C libraries from Debian only through tiny C* targets.
let package = Package(
    name: "realmsh",
    products: [
        .executable(name: "realmsh", targets: ["realmsh"]),
        .library(name: "RealmFormat", targets: ["RealmFormat"]),
        .library(name: "RealmObjects", targets: ["RealmObjects"]),
        .library(name: "RealmQuery", targets: ["RealmQuery"]),
        .library(name: "RealmMigration", targets: ["RealmMigration"]),
        .library(name: "RealmSQLite", targets: ["RealmSQLite"]),
        .library(name: "RealmBrowser", targets: ["RealmBrowser"]),
    ],
    targets: [
        // libcrypto from Debian's libssl-dev, for Realm's AES-256 + HMAC-SHA224 page encryption.
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        // GNU readline from Debian's libreadline-dev, for the interactive shell's line editing.
        // (Its headers are in /usr/include; no pkg-config: readline.pc pulls in tinfo's
        // -D_XOPEN_SOURCE flags, which SwiftPM refuses with a warning.)
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // libsqlite3 from Debian's libsqlite3-dev, for `export --format sqlite`.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // ncurses, wide-character build, from Debian's libncurses-dev, for the browser's screen.
        // (No pkg-config, for the reason readline has none: its flags define _XOPEN_SOURCE.)
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // A header-only cache prefetch hint for the leaf scans (no library behind it).
        .systemLibrary(name: "CPrefetch"),
        // libc's wcwidth, which Swift's Glibc module does not declare: the columns a character
        // takes in the shell's tables (header only).
        .systemLibrary(name: "CTerminal"),
        // libc's sync_file_range, which Swift's Glibc module does not declare: the compactor
        // starts the writeback of each finished stretch of its output (header only).
        .systemLibrary(name: "CWriteback"),
        // Failpoints (Writing/Failpoint.swift) exist only in debug builds, the ones `swift test` runs.
        .target(name: "RealmFormat", dependencies: ["CCrypto", "CPrefetch", "CWriteback"],
                swiftSettings: [.define("REALMSH_FAILPOINTS", .when(configuration: .debug))]),
        .target(name: "RealmObjects", dependencies: ["RealmFormat"]),
        .target(name: "RealmQuery", dependencies: ["RealmFormat"]),
        // Scripted schema migrations: the object-store view and queries, applied to table models.
        .target(name: "RealmMigration", dependencies: ["RealmFormat", "RealmObjects", "RealmQuery"]),
        // A realm as a relational SQLite database: schema and value mapping, the writer.
        .target(name: "RealmSQLite", dependencies: ["RealmFormat", "RealmObjects", "CSQLite"]),
        // The Realm Browser (`realmsh browse`): a plain-Swift view model over the object-store view
        // and queries, drawn by a thin ncurses layer.
        .target(name: "RealmBrowser", dependencies: ["RealmFormat", "RealmObjects", "RealmQuery", "CNcurses"]),
        .target(name: "RealmShell", dependencies: ["RealmFormat", "RealmObjects", "RealmQuery", "RealmMigration", "RealmSQLite", "RealmBrowser", "CReadline", "CTerminal"]),
        .executableTarget(name: "realmsh", dependencies: ["RealmShell", "RealmFormat"]),
        // Test-only helpers: where the shared fixtures are, how to describe a dump mismatch,
        // what tests expect of stored values (Realm's set and key orders, written out plainly).
        .target(name: "RealmTestSupport", dependencies: ["RealmFormat"], path: "Tests/Support"),
        .testTarget(name: "RealmFormatTests", dependencies: ["RealmFormat", "RealmTestSupport"]),
        .testTarget(name: "RealmObjectsTests", dependencies: ["RealmObjects", "RealmFormat", "RealmTestSupport"]),
        .testTarget(name: "RealmShellTests", dependencies: ["RealmShell", "RealmObjects", "RealmFormat", "RealmTestSupport"]),
        // RealmObjects only to lay out test files with indexed int columns (SchemaBuilder).
        .testTarget(name: "RealmQueryTests", dependencies: ["RealmQuery", "RealmFormat", "RealmObjects", "RealmTestSupport"]),
        .testTarget(name: "RealmSQLiteTests", dependencies: ["RealmSQLite", "RealmObjects", "RealmFormat", "RealmTestSupport"]),
        .testTarget(name: "RealmBrowserTests", dependencies: ["RealmBrowser", "RealmShell", "RealmObjects", "RealmFormat", "RealmTestSupport"]),
        .testTarget(name: "RealmMigrationTests", dependencies: ["RealmMigration", "RealmObjects", "RealmFormat", "RealmTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
