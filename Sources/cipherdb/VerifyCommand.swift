import SQLCipherManager
import TerminalIO

// MARK: - verify

/// `cipherdb verify DB`: the key check (open), then `PRAGMA integrity_check`, which with
/// SQLCipher also checks every page's HMAC.
enum VerifyCommand {
    static func run(_ invocation: Invocation) throws {
        try Session.withOpenDatabase(invocation) { manager in
            Console.sayEscaped("password: correct")
            let problems: [String]
            do {
                problems = try manager.integrityProblems()
            } catch let error as DatabaseManagerError where error.code == .corrupt {
                // A page that does not decrypt stops the check (SQLCipher 4) instead of being listed.
                throw Failure(
                    .notADatabase,
                    "\(invocation.path) failed the integrity check (\(error.sqliteError?.message ?? "a page cannot be read")). "
                        + "Restore it from a backup, or export what still reads.")
            }
            guard problems.isEmpty else {
                for problem in problems { Console.sayEscaped("problem: \(problem)") }
                throw Failure(
                    .notADatabase,
                    "\(invocation.path) failed the integrity check (\(problems.count) "
                        + "problem\(problems.count == 1 ? "" : "s")). Restore it from a backup, or export what still reads.")
            }
            Console.sayEscaped("integrity: ok")
        }
    }
}
