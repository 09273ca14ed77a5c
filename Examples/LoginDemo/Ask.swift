import SQLCipherManager
import TerminalIO

// MARK: - Ask

/// The demo's prompts. At a terminal the user's typing is the echo (a line of text goes through
/// the ``LineEditor``: arrows, Backspace, and history where one is given); when lines are piped
/// in, a line of text is echoed after its prompt (a password never is), so a scripted run reads
/// like a session.
enum Ask {
    /// Asks for a password without echo, read straight into wiped memory (``SecretInput``).
    /// A password over ``SecretInput/maximumLength`` is refused with the message every program
    /// uses, the rest of its line skipped (never read as the next answer), and asked again.
    /// `nil` at end of input.
    static func secret(_ prompt: String) -> SecretBytes? {
        while true {
            let buffer = SecretBytes(zeroed: SecretInput.maximumLength + 1)
            // The prompt appears once echo is off: a password typed as soon as it shows is never echoed.
            let read = buffer.withMutableBytes { SecretInput.readSecretLine(into: $0, prompt: prompt) }
            if !Console.stdinIsTerminal { Console.write("\n") }
            switch read {
            case .line(let count) where count <= SecretInput.maximumLength:
                return buffer.withBytes { SecretBytes(copying: $0.prefix(count)) }
            case .line, .tooLong:
                if read == .tooLong { SecretInput.skipRestOfLine() }
                Console.say(SecretInput.tooLongMessage(from: "the prompt"))
            case .endOfInput, .failed:
                return nil
            }
        }
    }

    /// Asks for a line of text, with line editing at a terminal and `history` for Up and Down
    /// (commands only: never pass one for private text). `nil` at end of input.
    static func line(_ prompt: String, history: LineHistory? = nil) -> String? {
        let line = LineEditor(history: history).readLine(prompt: prompt)
        if !LineEditor.isAvailable { Console.sayEscaped(line ?? "") }
        return line
    }

    /// Asks for a new password and its confirmation until both are typed alike and the
    /// `policy` check passes (it returns why a password is rejected, or `nil`), so a password is
    /// never left to be typed at a visible prompt. `nil` at end of input, or when the user
    /// leaves the new password empty (`allowsEmptyToCancel`). The policy's rule takes a
    /// `String`: that one copy of the new password is made for it (and not wiped).
    static func newPassword(
        _ prompt: String, confirm: String, allowsEmptyToCancel: Bool, policy: (String) -> String?
    ) -> SecretBytes? {
        while true {
            guard let password = secret(prompt) else { return nil }
            if allowsEmptyToCancel, password.count == 0 { return nil }
            if let reason = policy(password.withBytes { String(decoding: $0, as: UTF8.self) }) {
                Console.say("Invalid password: \(reason). Try another one.")
                continue
            }
            guard let confirmation = secret(confirm) else { return nil }
            guard confirmation.isEqual(to: password) else {
                Console.say("Passwords didn't match. Start again.")
                continue
            }
            return password
        }
    }
}
