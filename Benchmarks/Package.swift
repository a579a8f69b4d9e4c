// swift-tools-version:6.0
import PackageDescription

// In-process benchmarks (run on demand, not in CI): realmsh's engine against SQLite on the same
// rows, timed in one process as ../shared/bench/workloads.md §3 demands. A package of its own so
// that `swift test` of the root package never builds it. See README.md here.
let package = Package(
    name: "realmsh-benchmarks",
    dependencies: [
        // Named explicitly: a path dependency's identity would otherwise be the checkout
        // directory's name, which differs between worktrees.
        .package(name: "realmsh", path: ".."),
    ],
    targets: [
        // libsqlite3 (Debian's libsqlite3-dev) comes through RealmSQLite's CSQLite target.
        .executableTarget(name: "realmsh-bench", dependencies: [
            .product(name: "RealmSQLite", package: "realmsh"),
            .product(name: "RealmFormat", package: "realmsh"),
            .product(name: "RealmQuery", package: "realmsh"),
            .product(name: "RealmObjects", package: "realmsh"),
            .product(name: "RealmBrowser", package: "realmsh"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
