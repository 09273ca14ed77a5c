import Foundation
import Testing

// MARK: - The hostile-input table for cipherdb (issue 16)

/// Bad command lines, password sources and files, each run by ``HostileCommand/run()``.
enum HostileCommands {
    static let cases: [HostileCommand] = numbers + numbersPerCommand

    private static let fast = ["--kdf-iter", "4000", "--legacy-kdf"]
    private static let withDatabase: @Sendable (CipherDBFixture) throws -> Void = { try TemplateDatabase.write($0) }

    // MARK: Numbers: strict parsing and ranges, checked before the password is read

    /// Values for `--kdf-iter` that must be refused with exit 2: no stdin is given, so a
    /// password read before the check would fail differently ("No password").
    static let badIterations: [(String, String)] = [
        ("0", "positive whole number"), ("-1", "decimal digits"), ("4000", "below the floor of 64000"),
        ("63999", "below the floor"), ("10000001", "ceiling of 10000000"), ("2147483647", "ceiling"),
        ("2147483648", "ceiling"), ("4294967296", "ceiling"), ("4295031296", "ceiling"),
        ("99999999999999999999999", "decimal digits"), ("+64000", "decimal digits"), ("0x10000", "decimal digits"),
        ("6.4e4", "decimal digits"), ("64_000", "decimal digits"), ("64000abc", "decimal digits"),
        ("\u{0666}\u{0664}\u{0660}\u{0660}\u{0660}", "decimal digits"),  // Arabic-Indic digits
    ]

    static let badPageSizes: [(String, String)] = [
        ("4295031296", "power of two"), ("4294967808", "power of two"), ("1000", "power of two"), ("0", "positive"),
        ("131072", "power of two"), ("-512", "decimal digits"), ("256", "power of two"),
    ]

    static let numbers: [HostileCommand] = badIterations.map { value, mentions in
        HostileCommand(name: "create --kdf-iter \(value)", arguments: ["create", "new.db", "--kdf-iter", value],
                       status: 2, mentions: mentions, stdin: "")
    } + badPageSizes.map { value, mentions in
        HostileCommand(name: "create --page-size \(value)", arguments: ["create", "new.db", "--page-size", value] + fast,
                       status: 2, mentions: mentions, stdin: "")
    } + [
        HostileCommand(name: "settings --set-kdf-iter 4294967296 (would remove the encryption)",
                       arguments: ["settings", "db.db", "--set-kdf-iter", "4294967296"] + fast, status: 2,
                       mentions: "--set-kdf-iter 4294967296", stdin: "", arrange: withDatabase),
        HostileCommand(name: "settings --set-kdf-iter 2147483647 (minutes of PBKDF2)",
                       arguments: ["settings", "db.db", "--set-kdf-iter", "2147483647"] + fast, status: 2,
                       mentions: "ceiling", stdin: "", arrange: withDatabase),
        HostileCommand(name: "settings --set-kdf-iter 4295031296 (would wrap to 64000)",
                       arguments: ["settings", "db.db", "--set-kdf-iter=4295031296"] + fast, status: 2,
                       mentions: "ceiling", stdin: "", arrange: withDatabase),
        HostileCommand(name: "settings --set-kdf-iter 4000 without --legacy-kdf",
                       arguments: ["settings", "db.db", "--set-kdf-iter", "4000", "--kdf-iter", "64000"], status: 2,
                       mentions: "--legacy-kdf", stdin: "", arrange: withDatabase),
        HostileCommand(name: "settings --set-page-size 4295031296",
                       arguments: ["settings", "db.db", "--set-page-size", "4295031296"] + fast, status: 2,
                       mentions: "--set-page-size", stdin: "", arrange: withDatabase),
        HostileCommand(name: "settings --set-page-size 0", arguments: ["settings", "db.db", "--set-page-size", "0"] + fast,
                       status: 2, mentions: "positive", stdin: "", arrange: withDatabase),
        HostileCommand(name: "--legacy-kdf with a value", arguments: ["verify", "db.db", "--legacy-kdf=yes", "--kdf-iter", "4000"],
                       status: 2, mentions: "takes no value", stdin: "", arrange: withDatabase),
        HostileCommand(name: "open a 4000-iteration file without --legacy-kdf",
                       arguments: ["verify", "db.db", "--kdf-iter", "4000"], status: 2, mentions: "--legacy-kdf",
                       stdin: "", arrange: withDatabase),
    ]

    /// Every command that takes `--kdf-iter` refuses a wrapping value before reading a password.
    static let numbersPerCommand: [HostileCommand] = [
        ["exec", "db.db", "SELECT 1"], ["info", "db.db", "--unlock"], ["verify", "db.db"], ["rekey", "db.db"],
        ["decrypt", "db.db", "--to", "plain.db"], ["encrypt", "db.db"],
    ].map { command in
        HostileCommand(name: "\(command[0]) --kdf-iter 4294967296", arguments: command + ["--kdf-iter", "4294967296"],
                       status: 2, mentions: "ceiling", stdin: "", arrange: withDatabase)
    }
}

// MARK: - The runner

@Suite struct CipherDBHostileInputTests {
    @Test func theTableIsLargeEnoughAndNamesAreUnique() {
        #expect(HostileCommands.cases.count >= 30)
        #expect(Set(HostileCommands.cases.map(\.name)).count == HostileCommands.cases.count, "case names must be unique")
    }

    @Test(arguments: HostileCommands.cases)
    func hostileCommand(_ command: HostileCommand) throws {
        try command.run()
    }
}
