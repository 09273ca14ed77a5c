import Foundation
import Testing

// MARK: - HostileCommand

/// One bad cipherdb invocation: the directory it meets, the command line, and how it must fail.
struct HostileCommand: Sendable, CustomTestStringConvertible {
    let name: String
    let arguments: [String]
    /// The exit status it must end with.
    let status: Int32
    /// Text stderr must contain (what to do, or the option at fault).
    let mentions: String
    var stdin = Data((CipherDBFixture.defaultPassword + "\n").utf8)
    var environment: [String: String] = [:]
    /// Every password the case hands over; none may appear in the output.
    var secrets: [String] = []
    var arrange: @Sendable (CipherDBFixture) throws -> Void = { _ in }

    var testDescription: String { name }

    /// Runs the case in a fresh directory and checks the status, the message, that no password is
    /// printed and that every file in the directory is byte-identical afterwards (so nothing was
    /// created, changed, or left behind).
    func run() throws {
        let cli = try CipherDBFixture()
        try arrange(cli)
        let before = DirectorySnapshot(cli.directory.url)
        let running = try Program.start("cipherdb", arguments, in: cli.directory.url, environment: environment)
        running.send(bytes: stdin)
        running.closeInput()
        let result = try running.wait()
        let after = DirectorySnapshot(cli.directory.url)
        #expect(result.status == status, "exit \(result.status): \(result.output)")
        #expect(result.stderr.contains(mentions), "expected “\(mentions)” in: \(result.stderr)")
        #expect(result.stderr.count >= 40, "the message is too short to help: \(result.stderr)")
        #expect(result.stderr.hasPrefix("cipherdb: error: "), "not an error message: \(result.stderr)")
        for secret in [cli.password] + secrets where secret.count >= 3 {
            #expect(!result.output.contains(secret), "the output contains a password")
        }
        #expect(after == before, "the directory changed: \(after.differences(from: before))")
    }
}

// MARK: - DirectorySnapshot

/// The names and bytes of every file in a directory (but the runner's own `.out-`/`.err-` files).
struct DirectorySnapshot: Equatable {
    let files: [String: Data]

    init(_ directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var files: [String: Data] = [:]
        for name in names where !name.hasPrefix(".out-") && !name.hasPrefix(".err-") {
            let path = directory.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            files[name] = isDirectory.boolValue ? Data("<directory>".utf8) : FileManager.default.contents(atPath: path) ?? Data()
        }
        self.files = files
    }

    func differences(from earlier: DirectorySnapshot) -> [String] {
        Set(files.keys).union(earlier.files.keys).sorted().compactMap { name in
            switch (earlier.files[name], files[name]) {
            case (nil, _): "\(name) was added"
            case (_, nil): "\(name) was removed"
            case (let before?, let after?) where before != after: "\(name) changed"
            default: nil
            }
        }
    }
}

// MARK: - A database to damage

/// An encrypted database made once by cipherdb (password ``CipherDBFixture/defaultPassword``,
/// the tests' fast settings, table `t` with 400 rows over several pages), copied into each case.
enum TemplateDatabase {
    static let bytes: Data = {
        do {
            let cli = try CipherDBFixture()
            try cli.createDatabase(
                """
                CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
                INSERT INTO t(name) SELECT 'MARKER-' || i || '-' || hex(randomblob(16)) FROM n;
                """)
            return cli.directory.bytes("db.db")
        } catch {
            return Data()
        }
    }()

    /// Writes the database, changed by `damage`, as `name` in the case's directory.
    static func write(_ cli: CipherDBFixture, _ name: String = "db.db", damage: (inout Data) -> Void = { _ in }) throws {
        var data = bytes
        #expect(data.count >= 8192, "the template database was not made")
        damage(&data)
        try data.write(to: cli.directory.url.appendingPathComponent(name))
    }
}

/// A plaintext SQLite database: the template decrypted once by `cipherdb decrypt`.
enum PlainDatabase {
    static let bytes: Data = {
        do {
            let cli = try CipherDBFixture()
            try TemplateDatabase.write(cli)
            _ = try cli(["decrypt", "db.db", "--to", "plain.db"] + cli.fast, stdin: cli.password + "\n")
            return cli.directory.bytes("plain.db")
        } catch {
            return Data()
        }
    }()

    static func write(_ cli: CipherDBFixture, _ name: String = "plain.db") throws {
        #expect(bytes.count >= 8192, "the plaintext template was not made")
        try bytes.write(to: cli.directory.url.appendingPathComponent(name))
    }
}
