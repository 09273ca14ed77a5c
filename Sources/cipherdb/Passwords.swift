import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - Passwords

/// Where passwords come from, in this order: `--password-env NAME` / `--password-file PATH`
/// (and the `--new-password-…` pair for rekey), else stdin — a no-echo prompt on stderr when
/// stdin is a terminal, otherwise its next line (rekey: the old password, then the new one).
/// Never from a plain argument: the parser refuses that. Every source is read as bytes, capped
/// at ``SecretInput/maximumLength`` (longer is refused, never cut) and must be UTF-8
/// (``PasswordText``); a line loses its `\n` or `\r\n`. The bytes go straight into
/// `SecretBytes`, which are wiped when released.
struct Passwords {
    let invocation: Invocation

    /// The password of an existing database.
    func current() throws -> SecretBytes {
        try read(env: .passwordEnv, file: .passwordFile, prompt: "Password for \(TerminalText.escape(invocation.path)): ", confirm: false)
    }

    /// The password of a database being created or encrypted (a terminal asks twice).
    func forNewDatabase() throws -> SecretBytes {
        try read(
            env: .passwordEnv, file: .passwordFile, prompt: "New password for \(TerminalText.escape(invocation.path)): ", confirm: true)
    }

    /// The new password of a rekey (a terminal asks twice).
    func replacement() throws -> SecretBytes {
        try read(env: .newPasswordEnv, file: .newPasswordFile, prompt: "New password: ", confirm: true)
    }

    /// `true` when the user chose a source, so `info` should unlock.
    var isGiven: Bool {
        invocation.has(.passwordEnv) || invocation.has(.passwordFile) || invocation.has(.unlock)
    }

    private func read(env: Option, file: Option, prompt: String, confirm: Bool) throws -> SecretBytes {
        if let name = invocation.value(env) {
            guard let value = getenv(name) else {
                throw Failure.usage("The environment variable \(name) (\(env.rawValue)) is not set. Export it first.")
            }
            let source = "the environment variable \(name) (\(env.rawValue))"
            let count = strlen(value)
            guard count <= SecretInput.maximumLength else { throw PasswordText.tooLong(from: source) }
            let bytes = UnsafeRawBufferPointer(start: value, count: count)
            return try PasswordText.checked(SecretBytes(copying: bytes), from: source)
        }
        // A pipe or a prompt may wait for ever: an interrupt then ends the program (nothing changed yet).
        return try InterruptHandler.waitingForInput {
            if let path = invocation.value(file) { return try PasswordFile.firstLine(of: path, option: file) }
            return try fromStdin(prompt: prompt, confirm: confirm)
        }
    }

    private func fromStdin(prompt: String, confirm: Bool) throws -> SecretBytes {
        guard Console.stdinIsTerminal else {
            let line = try PasswordText.line(from: "stdin") { SecretInput.readLine(into: $0) }
            guard let line else {
                throw Failure.usage("No password: stdin ended. Pipe the password as a line, or use --password-env or --password-file.")
            }
            return line
        }
        let password = try ask(prompt)
        guard confirm else { return password }
        guard try ask("Confirm the password: ").isEqual(to: password) else {
            throw Failure(.usage, "Passwords didn't match. Run the command again.")
        }
        return password
    }

    private func ask(_ prompt: String) throws -> SecretBytes {
        // The prompt appears once echo is off: a password typed as soon as it shows is never echoed.
        let line = try PasswordText.line(from: "the terminal") {
            SecretInput.readSecretLine(into: $0, prompt: prompt, newlineTo: .standardError)
        }
        guard let line else { throw Failure.usage("No password given (end of input).") }
        return line
    }
}

// MARK: - PasswordText

/// Password bytes, checked: over ``SecretInput/maximumLength`` is refused with one message for
/// every source; bytes that are not UTF-8 are refused, never replaced by U+FFFD (which would
/// make `\xfe\xff-Fz` and `\xff\xfe-Fz` the same password).
enum PasswordText {
    /// The one refusal of an over-long password, from any source.
    static func tooLong(from source: String) -> Failure {
        Failure(.usage, SecretInput.tooLongMessage(from: source))
    }

    /// Reads one line with `read` into a wiped buffer one byte larger than the cap (a `\r`
    /// before the `\n` of a line of exactly the cap), then keeps a right-sized copy. `nil` at
    /// end of input.
    static func line(
        from source: String, failure: Failure? = nil, _ read: (UnsafeMutableRawBufferPointer) -> SecretInput.LineRead
    ) throws -> SecretBytes? {
        let buffer = SecretBytes(zeroed: SecretInput.maximumLength + 1)
        switch buffer.withMutableBytes(read) {
        case .endOfInput:
            return nil
        case .failed:
            throw failure ?? Failure(.failure, "Cannot read the password from \(source).")
        case .tooLong:
            throw tooLong(from: source)
        case .line(let count):
            guard count <= SecretInput.maximumLength else { throw tooLong(from: source) }
            return try checked(buffer.withBytes { SecretBytes(copying: $0.prefix(count)) }, from: source)
        }
    }

    /// `secret` when its bytes are UTF-8 text.
    static func checked(_ secret: SecretBytes, from source: String) throws(Failure) -> SecretBytes {
        guard secret.withBytes(SecretInput.isValidUTF8) else {
            throw Failure(
                .usage,
                "The password from \(source) is not valid UTF-8 text, so it cannot be given to SQLCipher "
                    + "as typed. Save or type it as UTF-8 (for example with `iconv -t UTF-8`), then run the command again.")
        }
        return secret
    }
}
