import Foundation
import SQLCipherManager

// MARK: - ExitCode

/// cipherdb's exit statuses, documented in `--help` and the CommandLineTools article.
enum ExitCode: Int32, CaseIterable {
    case ok = 0
    case failure = 1
    case usage = 2
    case wrongPassword = 3
    case notADatabase = 4
    case fileMissing = 5
    case wrongKind = 6

    var meaning: String {
        switch self {
        case .ok: "success"
        case .failure: "any other failure (the message says which and what to do)"
        case .usage: "usage error: unknown command or option, missing argument, password given as an argument"
        case .wrongPassword: "wrong password (or other cipher settings), or a password the policy rejects"
        case .notADatabase: "not a database, or corrupt (failed integrity check)"
        case .fileMissing: "the database file (or its directory) does not exist"
        case .wrongKind: "plaintext database where an encrypted one was expected, or the reverse"
        }
    }

    /// The status for a library error.
    init(_ error: DatabaseManagerError) {
        switch error.code {
        case .incorrectPasswordOrSettings, .incorrectKeyOrSettings, .invalidPassword: self = .wrongPassword
        case .notADatabase, .corrupt: self = .notADatabase
        case .fileNotFound, .parentDirectoryMissing: self = .fileMissing
        case .plaintextDatabase, .notPlaintextDatabase: self = .wrongKind
        case .invalidOption, .unsupportedOption: self = .usage
        case .headerSaltUnusable where error.headerSaltProblem == .rejected: self = .wrongPassword
        case .headerSaltUnusable where error.headerSaltProblem == .missing: self = .fileMissing
        case .headerSaltUnusable: self = .notADatabase
        default: self = .failure
        }
    }
}

// MARK: - Failure

/// A failed invocation: the exit status and a message that says what to do next.
struct Failure: Error {
    let code: ExitCode
    let message: String

    init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    static func usage(_ message: String) -> Failure {
        Failure(.usage, message + " Run `cipherdb --help` for the commands and options.")
    }

    /// Wraps any error thrown while running a command. Library errors are worded for an
    /// operator (``OperatorMessage``): the command to run, never a library API.
    init(wrapping error: any Error) {
        switch error {
        case let failure as Failure:
            self = failure
        case let mismatch as SettingsMismatch:
            self.init(.wrongPassword, mismatch.message)
        case let error as DatabaseManagerError where error.keySlotError != nil:
            self = KeyCommands.operatorFailure(error.keySlotError!)
        case let error as DatabaseManagerError:
            self.init(ExitCode(error), OperatorMessage.text(for: error))
        case let error as SQLiteError:
            self.init(.failure, "\(error). Fix the SQL and run it again.")
        default:
            self.init(.failure, "\(error)")
        }
    }

    /// The same failure with every path shown as the user gave it: the library reports the
    /// absolute form of a relative path, cipherdb's own messages the path as typed.
    func showingPaths(asGiven paths: [String]) -> Failure {
        var text = message
        for path in paths.sorted(by: { $0.count > $1.count }) {
            let absolute = URL(fileURLWithPath: path).path
            if absolute != path { text = text.replacingOccurrences(of: absolute, with: path) }
        }
        return Failure(code, text)
    }
}
