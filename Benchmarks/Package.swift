// swift-tools-version:6.0
import PackageDescription

// In-process benchmarks (run on demand, not in CI): realmsh's engine against SQLite on the same
// rows, timed in one process as ../shared/bench/workloads.md §3 demands. A package of its own so
// that the root package's `swift test` never needs libsqlite3. See README.md here.
let package = Package(
    name: "realmsh-benchmarks",
    dependencies: [
        // Named explicitly: a path dependency's identity would otherwise be the checkout
        // directory's name, which differs between worktrees.
        .package(name: "realmsh", path: ".."),
    ],
    targets: [
        // libsqlite3 from Debian's libsqlite3-dev.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(name: "realmsh-bench", dependencies: [
            "CSQLite",
            .product(name: "RealmFormat", package: "realmsh"),
            .product(name: "RealmQuery", package: "realmsh"),
            .product(name: "RealmObjects", package: "realmsh"),
            .product(name: "RealmBrowser", package: "realmsh"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
