import Foundation
import TestSupport
import Testing

/// cipherdb's password sources, the refusal of passwords as arguments, and usage errors.
@Suite(.ownThread) struct CipherDBPasswordTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    @Test(arguments: [["--password", "secret-123"], ["--password=secret-123"], ["-p", "secret-123"], ["--new-password", "x"]])
    func aPasswordAsAnArgumentIsRefused(_ refused: [String]) throws {
        let result = try cli(["create", "db.db"] + refused + fast, stdin: password + "\n")
        #expect(result.status == 2)
        #expect(result.stderr.contains("`ps`"))
        #expect(result.stderr.contains("--password-env"))
        #expect(!directory.exists("db.db"))
    }

    @Test func passwordFromFileAndFromEnvironment() throws {
        try directory.writeSecret("pw.txt", Data((password + "\nignored second line\n").utf8))
        let create = try cli(["create", "db.db", "--password-file", "pw.txt"] + fast)
        #expect(create.status == 0, "\(create.output)")
        let env = try cli(["verify", "db.db", "--password-env", "DBPW"] + fast, environment: ["DBPW": password])
        #expect(env.status == 0, "\(env.output)")
        let unset = try cli(["verify", "db.db", "--password-env", "NOT_SET_ANYWHERE"] + fast)
        #expect(unset.status == 2)
        #expect(unset.stderr.contains("NOT_SET_ANYWHERE"))
        let noFile = try cli(["verify", "db.db", "--password-file", "missing.txt"] + fast)
        #expect(noFile.status == 1)
        #expect(noFile.stderr.contains("Cannot read the password file"))
    }

    @Test func emptyStdinIsAUsageError() throws {
        let result = try cli(["create", "db.db"] + fast)
        #expect(result.status == 2)
        #expect(result.stderr.contains("No password"))
        #expect(!directory.exists("db.db"))
    }

    @Test func usageErrorsExit2() throws {
        #expect(try cli([]).status == 2)
        #expect(try cli(["frobnicate", "db.db"]).status == 2)
        #expect(try cli(["exec", "db.db"]).status == 2)
        #expect(try cli(["verify", "db.db", "--json"]).status == 2)
        #expect(try cli(["create", "db.db", "--kdf-iter", "zero"]).status == 2)
        let badPageSize = try cli(["create", "db.db", "--page-size", "1000"], stdin: password + "\n")
        #expect(badPageSize.status == 2, "\(badPageSize.output)")
    }

    @Test func helpDocumentsEveryExitCode() throws {
        let help = try cli(["--help"])
        #expect(help.status == 0)
        for line in [
            "0  success", "1  any other", "2  usage", "3  wrong password", "4  not a database",
            "5  the database file", "6  plaintext",
        ] {
            #expect(help.stdout.contains(line), "missing: \(line)")
        }
        let commandHelp = try cli(["rekey", "--help"])
        #expect(commandHelp.status == 0)
        #expect(commandHelp.stdout.contains("--new-password-env NAME"))
    }
}
