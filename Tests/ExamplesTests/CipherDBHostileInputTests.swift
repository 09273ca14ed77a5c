import Foundation
import TestSupport
import Testing

// MARK: - The hostile-input table for cipherdb

/// Bad command lines, password sources and files, each run by ``HostileCommand/run()``.
enum HostileCommands {
    static let cases: [HostileCommand] = numbers + numbersPerCommand + passwords + diagnoses

    static let fast = ["--kdf-iter", "4000", "--legacy-kdf"]
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

    static let numbers: [HostileCommand] =
        badIterations.map { value, mentions in
            HostileCommand(
                name: "create --kdf-iter \(value)", arguments: ["create", "new.db", "--kdf-iter", value],
                status: 2, mentions: mentions, stdin: Data())
        }
        + badPageSizes.map { value, mentions in
            HostileCommand(
                name: "create --page-size \(value)", arguments: ["create", "new.db", "--page-size", value] + fast,
                status: 2, mentions: mentions, stdin: Data())
        } + [
            HostileCommand(
                name: "settings --set-kdf-iter 4294967296 (would remove the encryption)",
                arguments: ["settings", "db.db", "--set-kdf-iter", "4294967296"] + fast, status: 2,
                mentions: "--set-kdf-iter 4294967296", stdin: Data(), arrange: withDatabase),
            HostileCommand(
                name: "settings --set-kdf-iter 2147483647 (minutes of PBKDF2)",
                arguments: ["settings", "db.db", "--set-kdf-iter", "2147483647"] + fast, status: 2,
                mentions: "ceiling", stdin: Data(), arrange: withDatabase),
            HostileCommand(
                name: "settings --set-kdf-iter 4295031296 (would wrap to 64000)",
                arguments: ["settings", "db.db", "--set-kdf-iter=4295031296"] + fast, status: 2,
                mentions: "ceiling", stdin: Data(), arrange: withDatabase),
            HostileCommand(
                name: "settings --set-kdf-iter 4000 without --legacy-kdf",
                arguments: ["settings", "db.db", "--set-kdf-iter", "4000", "--kdf-iter", "64000"], status: 2,
                mentions: "--legacy-kdf", stdin: Data(), arrange: withDatabase),
            HostileCommand(
                name: "settings --set-page-size 4295031296",
                arguments: ["settings", "db.db", "--set-page-size", "4295031296"] + fast, status: 2,
                mentions: "--set-page-size", stdin: Data(), arrange: withDatabase),
            HostileCommand(
                name: "settings --set-page-size 0", arguments: ["settings", "db.db", "--set-page-size", "0"] + fast,
                status: 2, mentions: "positive", stdin: Data(), arrange: withDatabase),
            HostileCommand(
                name: "--legacy-kdf with a value", arguments: ["verify", "db.db", "--legacy-kdf=yes", "--kdf-iter", "4000"],
                status: 2, mentions: "takes no value", stdin: Data(), arrange: withDatabase),
            HostileCommand(
                name: "open a 4000-iteration file without --legacy-kdf",
                arguments: ["verify", "db.db", "--kdf-iter", "4000"], status: 2, mentions: "--legacy-kdf",
                stdin: Data(), arrange: withDatabase),
        ]

    /// Every command that takes `--kdf-iter` refuses a wrapping value before reading a password.
    static let numbersPerCommand: [HostileCommand] = [
        ["exec", "db.db", "SELECT 1"], ["info", "db.db", "--unlock"], ["verify", "db.db"], ["rekey", "db.db"],
        ["decrypt", "db.db", "--to", "plain.db"], ["encrypt", "db.db"],
    ].map { command in
        HostileCommand(
            name: "\(command[0]) --kdf-iter 4294967296", arguments: command + ["--kdf-iter", "4294967296"],
            status: 2, mentions: "ceiling", stdin: Data(), arrange: withDatabase)
    }
}

// MARK: - Passwords

extension HostileCommands {

    /// Bytes that are not UTF-8: each would become U+FFFD, so `\xfe\xff-Fz` and `\xff\xfe-Fz`
    /// would be the same password.
    static let invalidUTF8: [(String, [UInt8])] = [
        ("\\xff\\xfe-Fz", [0xFF, 0xFE, 0x2D, 0x46, 0x7A]),
        ("a lone continuation byte", [0x70, 0x77, 0x2D, 0x80]),
        ("an overlong '/'", [0x70, 0x77, 0x2D, 0xC0, 0xAF]),
        ("a UTF-16 surrogate", [0x70, 0x77, 0x2D, 0xED, 0xA0, 0x80]),
        ("a sequence cut short", [0x70, 0x77, 0x2D, 0xE2, 0x82]),
        ("Latin-1 'é'", [0x63, 0x61, 0x66, 0xE9, 0x2D, 0x31]),
    ]

    static let passwords: [HostileCommand] =
        invalidUTF8.flatMap { label, bytes in
            let line = Data(bytes + [0x0A])
            return [
                HostileCommand(
                    name: "create, password on stdin with \(label)", arguments: ["create", "new.db"] + fast,
                    status: 2, mentions: "not valid UTF-8", stdin: line),
                HostileCommand(
                    name: "verify, password on stdin with \(label)", arguments: ["verify", "db.db"] + fast,
                    status: 2, mentions: "not valid UTF-8", stdin: line, arrange: { try TemplateDatabase.write($0) }),
                HostileCommand(
                    name: "verify, password file with \(label)", arguments: ["verify", "db.db", "--password-file", "pw"] + fast,
                    status: 2, mentions: "not valid UTF-8", stdin: Data(),
                    arrange: { cli in
                        try TemplateDatabase.write(cli)
                        try cli.directory.writeSecret("pw", line)
                    }),
            ]
        } + [
            HostileCommand(
                name: "rekey, new password on stdin not UTF-8", arguments: ["rekey", "db.db"] + fast, status: 2,
                mentions: "not valid UTF-8", stdin: Data((CipherDBFixture.defaultPassword + "\n").utf8) + Data([0xFF, 0xFE, 0x0A]),
                arrange: { try TemplateDatabase.write($0) }),
            HostileCommand(
                name: "rekey, new password file not UTF-8",
                arguments: ["rekey", "db.db", "--new-password-file", "new"] + fast, status: 2, mentions: "--new-password-file",
                arrange: { cli in
                    try TemplateDatabase.write(cli)
                    try cli.directory.writeSecret("new", Data([0xFE, 0xFF, 0x0A]))
                }),
            HostileCommand(
                name: "encrypt, password on stdin not UTF-8", arguments: ["encrypt", "plain.db", "--to", "enc.db"] + fast,
                status: 2, mentions: "not valid UTF-8", stdin: Data([0xFF, 0x0A]),
                arrange: { try PlainDatabase.write($0) }),
        ]
        + [0o644, 0o640, 0o604, 0o660, 0o606, 0o620].map { mode in
            HostileCommand(
                name: "password file with mode \(String(mode, radix: 8))",
                arguments: ["verify", "db.db", "--password-file", "pw"] + fast, status: 2, mentions: "chmod 600 pw",
                stdin: Data(),
                arrange: { cli in
                    try TemplateDatabase.write(cli)
                    try cli.directory.writeSecret("pw", Data((cli.password + "\n").utf8), mode: mode)
                })
        } + [
            HostileCommand(
                name: "create, password file with mode 644", arguments: ["create", "new.db", "--password-file", "pw"] + fast,
                status: 2, mentions: "accessible by other users", stdin: Data(),
                arrange: { cli in
                    try cli.directory.writeSecret("pw", Data("new-pass-77\n".utf8), mode: 0o644)
                }),
            HostileCommand(
                name: "password file is a directory", arguments: ["verify", "db.db", "--password-file", "sub"] + fast,
                status: 1, mentions: "Cannot read the password file", stdin: Data(),
                arrange: { cli in
                    try TemplateDatabase.write(cli)
                    try FileManager.default.createDirectory(atPath: cli.directory.path("sub"), withIntermediateDirectories: false)
                }),
            HostileCommand(
                name: "password file is missing", arguments: ["verify", "db.db", "--password-file", "none"] + fast,
                status: 1, mentions: "Check the path", stdin: Data(), arrange: { try TemplateDatabase.write($0) }),
            HostileCommand(
                name: "password file of 2 MiB without a newline",
                arguments: ["verify", "db.db", "--password-file", "big"] + fast, status: 2, mentions: "longer than 1 MiB",
                stdin: Data(),
                arrange: { cli in
                    try TemplateDatabase.write(cli)
                    try cli.directory.writeSecret("big", Data(repeating: UInt8(ascii: "x"), count: 2 << 20))
                }),
            HostileCommand(
                name: "wrong password with a CRLF line", arguments: ["verify", "db.db", "--password-file", "pw"] + fast,
                status: 3, mentions: "Incorrect password", stdin: Data(), secrets: ["wrong-pass-9"],
                arrange: { cli in
                    try TemplateDatabase.write(cli)
                    try cli.directory.writeSecret("pw", Data("wrong-pass-9\r\n".utf8))
                }),
        ]
}

// MARK: - Wrong diagnoses

extension HostileCommands {
    private static func damaged(_ change: @escaping @Sendable (inout Data) -> Void) -> @Sendable (CipherDBFixture) throws -> Void {
        { try TemplateDatabase.write($0, damage: change) }
    }

    private static func file(_ bytes: Data, _ name: String = "db.db") -> @Sendable (CipherDBFixture) throws -> Void {
        { try bytes.write(to: $0.directory.url.appendingPathComponent(name)) }
    }

    static let header = Data("SQLite format 3".utf8 + [0])
    static let headerAndGarbage = header + Data((0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })

    static let diagnoses: [HostileCommand] = [
        HostileCommand(
            name: "exec meets a damaged page", arguments: ["exec", "db.db", "SELECT sum(length(name)) FROM t"] + fast,
            status: 4, mentions: "Restore it from a backup", arrange: damaged { $0[6 * 1024 + 200] ^= 0x01 }),
        HostileCommand(
            name: "exec meets a duplicated page", arguments: ["exec", "db.db", "SELECT count(*), max(name) FROM t"] + fast,
            status: 4, mentions: "damaged", arrange: damaged { $0.replaceSubrange(4096..<5120, with: $0[2048..<3072]) }),
        HostileCommand(
            name: "verify a duplicated page", arguments: ["verify", "db.db"] + fast, status: 4,
            mentions: "failed the integrity check",
            arrange: damaged { $0.replaceSubrange(4096..<5120, with: $0[2048..<3072]) }),
        HostileCommand(
            name: "verify a damaged page", arguments: ["verify", "db.db"] + fast, status: 4,
            mentions: "Restore it from a backup", arrange: damaged { $0[5 * 1024 + 9] ^= 0x40 }),
        HostileCommand(
            name: "verify a file truncated to 512 bytes", arguments: ["verify", "db.db"] + fast, status: 4,
            mentions: "truncated", arrange: damaged { $0 = $0.prefix(512) }),
        HostileCommand(
            name: "exec a file truncated to 512 bytes", arguments: ["exec", "db.db", "SELECT 1"] + fast, status: 4,
            mentions: "truncated", arrange: damaged { $0 = $0.prefix(512) }),
        HostileCommand(
            name: "verify the 16-byte SQLite header", arguments: ["verify", "db.db"] + fast, status: 4,
            mentions: "not an SQLCipher database", stdin: Data(), arrange: file(header)),
        HostileCommand(
            name: "verify the SQLite header and garbage", arguments: ["verify", "db.db"] + fast, status: 4,
            mentions: "not a power of two", stdin: Data(), arrange: file(headerAndGarbage)),
        HostileCommand(
            name: "encrypt the 16-byte SQLite header", arguments: ["encrypt", "db.db"] + fast, status: 4,
            mentions: "shorter than a 100-byte", stdin: Data(), arrange: file(header)),
        HostileCommand(
            name: "encrypt the SQLite header and garbage", arguments: ["encrypt", "db.db", "--to", "e.db"] + fast,
            status: 4, mentions: "not an SQLCipher database", stdin: Data(), arrange: file(headerAndGarbage)),
        HostileCommand(name: "create \"\"", arguments: ["create", ""] + fast, status: 2, mentions: "path is empty", stdin: Data()),
        HostileCommand(
            name: "exec \"\"", arguments: ["exec", "", "SELECT 1"] + fast, status: 2, mentions: "path is empty",
            stdin: Data()),
        HostileCommand(
            name: "decrypt --to \"\"", arguments: ["decrypt", "db.db", "--to", ""] + fast, status: 2,
            mentions: "needs a value", stdin: Data(), arrange: withDatabase),
        HostileCommand(
            name: "create through a file", arguments: ["create", "db.db/sub.db"] + fast, status: 1,
            mentions: "db.db is a file, not a directory", arrange: withDatabase),
        HostileCommand(
            name: "verify through a file", arguments: ["verify", "db.db/sub.db"] + fast, status: 1,
            mentions: "db.db is a file, not a directory", arrange: withDatabase),
        HostileCommand(
            name: "encrypt --to through a file", arguments: ["encrypt", "plain.db", "--to", "db.db/e.db"] + fast,
            status: 1, mentions: "not a directory",
            arrange: { cli in
                try TemplateDatabase.write(cli)
                try PlainDatabase.write(cli)
            }),
        HostileCommand(
            name: "verify an existing database at a path too long for SQLite",
            arguments: ["verify", longPath + "/db.db"] + fast, status: 1, mentions: "too long for SQLite",
            arrange: { cli in
                try FileManager.default.createDirectory(atPath: cli.directory.path(longPath), withIntermediateDirectories: true)
                try TemplateDatabase.write(cli, longPath + "/db.db")
            }),
        HostileCommand(
            name: "verify a 4,200-byte path", arguments: ["verify", String(repeating: "d/", count: 2100) + "db.db"] + fast,
            status: 1, mentions: "too long"),
    ]

    /// Directories of 120-byte names: about 600 bytes, over SQLite's 512 (`mxPathname`).
    static let longPath = Array(repeating: String(repeating: "p", count: 120), count: 5).joined(separator: "/")
}

// MARK: - The runner

@Suite(.ownThread) struct CipherDBHostileInputTests {
    @Test func theTableIsLargeEnoughAndNamesAreUnique() {
        #expect(HostileCommands.cases.count >= 80)
        #expect(Set(HostileCommands.cases.map(\.name)).count == HostileCommands.cases.count, "case names must be unique")
    }

    @Test(arguments: HostileCommands.cases)
    func hostileCommand(_ command: HostileCommand) throws {
        try command.run()
    }

    /// A file name that is not UTF-8 is refused, not turned into `\u{FFFD}\u{FFFD}.db`
    /// (through bash: a `Process` argument is a Swift `String`, always UTF-8).
    @Test func aFileNameThatIsNotUTF8IsRefused() throws {
        let directory = try ScratchDirectory()
        let (status, text) = try Program.runBash(
            "printf 'pw-secret-5\\n' | \"$CIPHERDB\" create $'\\xff\\xfe.db' --kdf-iter 4000 --legacy-kdf", in: directory.url)
        #expect(status == 2, "\(text)")
        #expect(text.contains("not valid UTF-8"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}

// MARK: - Password sources that must work

/// The other side of the password rows: every way to hand over the right password opens the
/// database, whatever the line ending, and a pipe is read rather than refused.
@Suite(.ownThread) struct CipherDBPasswordSourceTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws {
        cli = try CipherDBFixture()
        try TemplateDatabase.write(cli)
    }

    @Test(arguments: ["\n", "\r\n", "", "\nsecond line\n", "\r\nsecond line\r\n"])
    func aPasswordFileWithAnyLineEndingOpens(_ rest: String) throws {
        try directory.writeSecret("pw", Data((password + rest).utf8))
        let result = try cli(["verify", "db.db", "--password-file", "pw"] + fast)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aCRLFLineOnStdinOpens() throws {
        let result = try cli(["verify", "db.db"] + fast, stdin: password + "\r\n")
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func devStdinIsReadAsAPasswordFile() throws {
        let result = try cli(["verify", "db.db", "--password-file", "/dev/stdin"] + fast, stdin: password + "\n")
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aNamedPipeIsReadAsAPasswordFile() throws {
        try #require(mkfifo(directory.path("pw.fifo"), 0o600) == 0)
        let writer = Thread { [path = directory.path("pw.fifo"), password] in
            FileHandle(forWritingAtPath: path)?.write(Data((password + "\n").utf8))
        }
        writer.start()
        let result = try cli(["verify", "db.db", "--password-file", "pw.fifo"] + fast)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func processSubstitutionIsReadAsAPasswordFile() throws {
        let (status, text) = try Program.runBash(
            "\"$CIPHERDB\" verify db.db --password-file <(printf '%s\\n' \"$PW\") --kdf-iter 4000 --legacy-kdf",
            in: directory.url, environment: ["PW": password])
        #expect(status == 0, "\(text)")
        #expect(text.contains("integrity: ok"))
    }

    /// Two passwords that differ only in bytes that are not UTF-8 no longer collide: the first
    /// is refused, so it cannot open (or create) anything.
    @Test func invalidUTF8PasswordsDoNotCollide() throws {
        let create = try Program.start("cipherdb", ["create", "x.db"] + fast, in: directory.url)
        create.send(bytes: Data([0xFF, 0xFE] + Array("-Fz\n".utf8)))
        create.closeInput()
        #expect(try create.wait().status == 2)
        #expect(!directory.exists("x.db"))
    }
}
