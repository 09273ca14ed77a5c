// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SQLCipherManager",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SQLCipherManager", targets: ["SQLCipherManager"]),
        .library(name: "SQLCipherSecretService", targets: ["SQLCipherSecretService"]),
        // The admin tool is shipped: an operator installs it beside an app's database. The two
        // demos are executable targets only (`make demo`, `swift run FirstLaunchDemo`).
        .executable(name: "cipherdb", targets: ["cipherdb"]),
    ],
    targets: [
        // The system SQLCipher, found through pkg-config (`sqlcipher.pc`).
        .systemLibrary(
            name: "CSQLCipher",
            pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"]), .brew(["sqlcipher"])]
        ),
        // libcrypto (OpenSSL), which SQLCipher itself links: SHA-256 for the operation journal.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // libsodium: Argon2id and XChaCha20-Poly1305 for key slots.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // The library's layers, bottom up; each target may use only the ones it names
        // (ARCHITECTURE.md). SQLCipherManager re-exports the public API of the others.
        .target(name: "SQLCipherCore", dependencies: ["CSQLCipher", "CCrypto", "CSodium"]),
        .target(name: "SQLCipherKeys", dependencies: ["SQLCipherCore"]),
        .target(name: "SQLCipherEngine", dependencies: ["SQLCipherCore"]),
        .target(name: "SQLCipherQuery", dependencies: ["SQLCipherCore"]),
        .target(
            name: "SQLCipherManager",
            dependencies: ["SQLCipherCore", "SQLCipherKeys", "SQLCipherEngine", "SQLCipherQuery"]
        ),
        // The desktop keyring (Secret Service over D-Bus) through libsecret (`libsecret-1.pc`).
        .systemLibrary(name: "CLibSecret"),
        .target(name: "SQLCipherSecretService", dependencies: ["SQLCipherKeys", "SQLCipherCore", "CLibSecret"]),
        // Terminal input/output shared by the two programs below (not a product).
        .target(name: "TerminalIO"),
        .executableTarget(
            name: "LoginDemo",
            dependencies: ["SQLCipherManager", "TerminalIO"],
            path: "Examples/LoginDemo"
        ),
        .executableTarget(name: "cipherdb", dependencies: ["SQLCipherManager", "TerminalIO"]),
        // An app update that encrypts the old plaintext store with a stored key.
        .executableTarget(
            name: "FirstLaunchDemo",
            dependencies: ["SQLCipherManager"],
            path: "Examples/FirstLaunchDemo"
        ),
        // A top-level `main.swift` with `await`, run by ExamplesTests: it compiles only while
        // `try await manager.write { }` picks the async method there. Not a product.
        .executableTarget(name: "TopLevelScript", dependencies: ["SQLCipherManager"], path: "Tests/TopLevelScript"),
        // Benchmarks (`make bench`): the raw-C floor and the Swift-vs-C runner. Not products.
        .target(name: "CBaseline", dependencies: ["CSQLCipher"], path: "Benchmarks/CBaseline"),
        .executableTarget(
            name: "SQLCipherBench",
            dependencies: ["SQLCipherManager", "CBaseline"],
            path: "Benchmarks/SQLCipherBench"
        ),
        // MemberImportVisibility: TestSupport's shorthand on DatabaseManager is seen only where a file
        // imports it, so the README and DocC samples' files (which do not) compile with the public API only.
        .testTarget(
            name: "SQLCipherManagerTests", dependencies: ["SQLCipherManager", "FuzzHarness", "TestSupport", "SeededRandom"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // TestSupport: what every test target shares (the .ownThread trait, the tests' one-statement
        // shorthand on DatabaseManager).
        .target(name: "TestSupport", dependencies: ["SQLCipherManager", "SQLCipherQuery", "SeededRandom"], path: "Tests/TestSupport"),
        // The seeded generator the tests and the fuzz target replay runs with.
        .target(name: "SeededRandom", path: "Tests/SeededRandom"),
        // Hostile-file seeds, mutations and the open check, shared by the mutation
        // campaign test and the libFuzzer target (`make fuzz`). Not products.
        .target(name: "FuzzHarness", dependencies: ["SQLCipherManager", "SeededRandom"], path: "Tests/FuzzHarness"),
        .executableTarget(name: "SQLCipherFuzz", dependencies: ["FuzzHarness"], path: "Tests/SQLCipherFuzz"),
        // Against a real gnome-keyring-daemon on a private D-Bus session bus (no mock), through
        // KeyringProbe: GLib reads the bus address once per process, so each test runs the probe.
        .testTarget(name: "SQLCipherSecretServiceTests", dependencies: ["KeyringProbe", "TestSupport"]),
        .executableTarget(
            name: "KeyringProbe",
            dependencies: ["SQLCipherManager", "SQLCipherSecretService"],
            path: "Tests/KeyringProbe"
        ),
        // The process the fault-injection tests kill mid-rekey/encrypt/decrypt (not a product).
        .executableTarget(
            name: "FaultInjectionHelper",
            dependencies: ["SQLCipherManager"],
            path: "Tests/FaultInjectionHelper"
        ),
        // Runs the built LoginDemo and cipherdb end to end (the dependencies make them build first).
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "LoginDemo", "cipherdb", "FirstLaunchDemo", "TopLevelScript", "SQLCipherManager", "TerminalIO", "TestSupport",
                "SeededRandom",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
