// swift-tools-version:6.0
// A manual side-by-side (not part of SQLCipherManager, not in its CI): GRDB 7.8 on the same
// SQLCipher, on the workloads of `SQLCipherBench --only seed`, against the same raw-C baseline.
// Not built from here: `make bench-grdb` (prepare.sh) assembles it in .build/grdb-comparison,
// beside a copy of GRDB's sources taken from a local checkout, and Sources/CBaseline is a link
// to the repository's Benchmarks/CBaseline.
import PackageDescription

let package = Package(
    name: "GRDBBench",
    dependencies: [.package(path: "grdb-src")],
    targets: [
        .target(name: "GRDBShim", dependencies: [.product(name: "GRDBSQLite", package: "grdb-src")]),
        .target(
            name: "CBaseline", dependencies: [.product(name: "GRDBSQLite", package: "grdb-src")],
            cSettings: [.unsafeFlags(["-I/usr/include/sqlcipher"])]),
        .executableTarget(
            name: "GRDBBench",
            dependencies: [
                .product(name: "GRDB", package: "grdb-src"), "GRDBShim", "CBaseline",
            ]),
    ]
)
