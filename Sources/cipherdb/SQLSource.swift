import Foundation
import TerminalIO

// MARK: - SQLSource

/// Where `exec` reads its SQL: the SQL argument, stdin when the argument is `-`, or the file
/// of `--file PATH` — for scripts and migrations. Stdin that carries SQL cannot carry the
/// password too, so a piped `-` needs `--password-env` or `--password-file`.
struct SQLSource {
    private enum Origin {
        case argument(String)
        case stdin
        case file(String)
    }

    private let origin: Origin

    init(_ invocation: Invocation) throws {
        let argument = invocation.arguments.count > 1 ? invocation.arguments[1] : nil
        switch (argument, invocation.value(.file)) {
        case (nil, nil):
            throw Failure.usage("exec needs SQL: an argument, - to read it from stdin, or --file PATH.")
        case (.some, .some):
            throw Failure.usage("exec takes the SQL once: either the SQL argument or --file PATH, not both.")
        case (nil, let path?):
            origin = .file(path)
        case ("-", nil):
            let passwordElsewhere = invocation.has(.passwordEnv) || invocation.has(.passwordFile)
            guard passwordElsewhere || Console.stdinIsTerminal else {
                throw Failure.usage(
                    "The SQL comes from stdin (-), so the password cannot: "
                        + "give it with --password-env NAME or --password-file PATH.")
            }
            origin = .stdin
        case (let sql?, nil):
            origin = .argument(sql)
        }
    }

    /// `true` for SQL typed at a terminal: it is read after the password prompt, up to Ctrl-D.
    var readsAfterPassword: Bool {
        if case .stdin = origin { Console.stdinIsTerminal } else { false }
    }

    func read() throws -> String {
        try InterruptHandler.waitingForInput(readSQL)
    }

    private func readSQL() throws -> String {
        switch origin {
        case .argument(let sql):
            return sql
        case .stdin:
            return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(.failure, "Cannot read the SQL file \(path) (--file). Check the path and its permissions.")
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
