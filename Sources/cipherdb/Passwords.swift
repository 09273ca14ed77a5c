import Foundation
import TerminalIO

// MARK: - Passwords

/// Where passwords come from, in this order: `--password-env NAME` / `--password-file PATH`
/// (and the `--new-password-…` pair for rekey), else stdin — a no-echo prompt on stderr when
/// stdin is a terminal, otherwise its next line (rekey: the old password, then the new one).
/// Never from a plain argument: the parser refuses that.
struct Passwords {
    let invocation: Invocation

    /// The password of an existing database.
    func current() throws -> String {
        try read(env: .passwordEnv, file: .passwordFile, prompt: "Password for \(invocation.path): ", confirm: false)
    }

    /// The password of a database being created or encrypted (a terminal asks twice).
    func forNewDatabase() throws -> String {
        try read(env: .passwordEnv, file: .passwordFile, prompt: "New password for \(invocation.path): ", confirm: true)
    }

    /// The new password of a rekey (a terminal asks twice).
    func replacement() throws -> String {
        try read(env: .newPasswordEnv, file: .newPasswordFile, prompt: "New password: ", confirm: true)
    }

    /// `true` when the user chose a source, so `info` should unlock.
    var isGiven: Bool {
        invocation.has(.passwordEnv) || invocation.has(.passwordFile) || invocation.has(.unlock)
    }

    private func read(env: Option, file: Option, prompt: String, confirm: Bool) throws -> String {
        if let name = invocation.value(env) {
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw Failure.usage("The environment variable \(name) (\(env.rawValue)) is not set. Export it first.")
            }
            return value
        }
        if let path = invocation.value(file) { return try Self.firstLine(of: path, option: file) }
        return try fromStdin(prompt: prompt, confirm: confirm)
    }

    private func fromStdin(prompt: String, confirm: Bool) throws -> String {
        guard Console.stdinIsTerminal else {
            guard let line = Console.readLine() else {
                throw Failure.usage("No password: stdin ended. Pipe the password as a line, or use --password-env or --password-file.")
            }
            return line
        }
        let password = try ask(prompt)
        guard confirm else { return password }
        guard try ask("Confirm the password: ") == password else {
            throw Failure(.usage, "Passwords didn't match. Run the command again.")
        }
        return password
    }

    private func ask(_ prompt: String) throws -> String {
        Console.writeError(prompt)
        guard let line = Console.readSecretLine(newlineTo: .standardError) else {
            throw Failure.usage("No password given (end of input).")
        }
        return line
    }

    /// The first line of a password file, without its line ending.
    static func firstLine(of path: String, option: Option) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(.failure, "Cannot read the password file \(path) (\(option.rawValue)). Check the path and its permissions.")
        }
        let text = String(decoding: data, as: UTF8.self)
        var line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}
