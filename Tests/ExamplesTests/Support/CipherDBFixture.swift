import Foundation
import Testing

/// A scratch directory and a way to run the built cipherdb in it: `try cli(["verify", "db.db"])`.
struct CipherDBFixture {
    let directory: ScratchDirectory
    static let defaultPassword = "admin-pass-1"
    let password = defaultPassword
    /// A small PBKDF2 cost keeps the tests fast; every command is told it.
    /// (4000 is below the floor for new databases, so they opt in with --legacy-kdf.)
    let fast = ["--kdf-iter", "4000", "--legacy-kdf"]

    init() throws { directory = try ScratchDirectory() }

    func callAsFunction(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
    ) throws -> ProgramResult {
        try Program.run("cipherdb", arguments, stdin: stdin, in: directory.url, environment: environment)
    }

    /// `cipherdb create db.db` with ``password``, then `sql` through `cipherdb exec`.
    func createDatabase(_ sql: String) throws {
        let create = try self(["create", "db.db"] + fast, stdin: password + "\n")
        try #require(create.status == 0, "\(create.output)")
        let fill = try self(["exec", "db.db", sql] + fast, stdin: password + "\n")
        try #require(fill.status == 0, "\(fill.output)")
    }
}

/// A suite with a ``CipherDBFixture`` named `cli`, and its directory, password and settings.
protocol UsesCipherDB {
    var cli: CipherDBFixture { get }
}

extension UsesCipherDB {
    var directory: ScratchDirectory { cli.directory }
    var password: String { cli.password }
    var fast: [String] { cli.fast }
}
