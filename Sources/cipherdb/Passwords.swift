import Foundation
import TerminalIO

// MARK: - Passwords

/// Where passwords come from, in this order: `--password-env NAME` / `--password-file PATH`
/// (and the `--new-password-…` pair for rekey), else stdin — a no-echo prompt on stderr when
/// stdin is a terminal, otherwise its next line (rekey: the old password, then the new one).
/// Never from a plain argument: the parser refuses that. Every source is read as bytes and must
/// be UTF-8 (``PasswordText``); a line loses its `\n` or `\r\n`.
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
            guard let value = getenv(name) else {
                throw Failure.usage("The environment variable \(name) (\(env.rawValue)) is not set. Export it first.")
            }
            let bytes = Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                    count: strlen(value)))
            return try PasswordText.decode(bytes, from: "the environment variable \(name) (\(env.rawValue))")
        }
        if let path = invocation.value(file) { return try PasswordFile.firstLine(of: path, option: file) }
        return try fromStdin(prompt: prompt, confirm: confirm)
    }

    private func fromStdin(prompt: String, confirm: Bool) throws -> String {
        guard Console.stdinIsTerminal else {
            guard let line = Console.readLineBytes() else {
                throw Failure.usage("No password: stdin ended. Pipe the password as a line, or use --password-env or --password-file.")
            }
            return try PasswordText.decode(line, from: "stdin")
        }
        let password = try ask(prompt)
        guard confirm else { return password }
        guard try ask("Confirm the password: ") == password else {
            throw Failure(.usage, "Passwords didn't match. Run the command again.")
        }
        return password
    }

    private func ask(_ prompt: String) throws -> String {
        // The prompt appears once echo is off: a password typed as soon as it shows is never echoed.
        guard let line = Console.readSecretLineBytes(prompt: prompt, newlineTo: .standardError) else {
            throw Failure.usage("No password given (end of input).")
        }
        return try PasswordText.decode(line, from: "the terminal")
    }
}

// MARK: - PasswordText

/// Password bytes to text, strictly: bytes that are not UTF-8 are refused, never replaced by
/// U+FFFD (which would make `\xfe\xff-Fz` and `\xff\xfe-Fz` the same password).
enum PasswordText {
    static func decode(_ bytes: [UInt8], from source: String) throws(Failure) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(
                .usage,
                "The password from \(source) is not valid UTF-8 text, so it cannot be given to SQLCipher "
                    + "as typed. Save or type it as UTF-8 (for example with `iconv -t UTF-8`), then run the command again.")
        }
        return text
    }
}
