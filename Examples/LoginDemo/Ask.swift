import TerminalIO

// MARK: - Ask

/// The demo's prompts. At a terminal the user's typing is the echo (a line of text goes through
/// the ``LineEditor``: arrows, Backspace, and history where one is given); when lines are piped
/// in, a line of text is echoed after its prompt (a password never is), so a scripted run reads
/// like a session.
enum Ask {
    /// Asks for a password without echo. `nil` at end of input.
    static func secret(_ prompt: String) -> String? {
        // The prompt appears once echo is off: a password typed as soon as it shows is never echoed.
        let line = Console.readSecretLine(prompt: prompt)
        if !Console.stdinIsTerminal { Console.write("\n") }
        return line
    }

    /// Asks for a line of text, with line editing at a terminal and `history` for Up and Down
    /// (commands only: never pass one for private text). `nil` at end of input.
    static func line(_ prompt: String, history: LineHistory? = nil) -> String? {
        let line = LineEditor(history: history).readLine(prompt: prompt)
        if !LineEditor.isAvailable { Console.say(line ?? "") }
        return line
    }

    /// Asks for a new password and its confirmation until both are typed alike and the
    /// `policy` check passes (it returns why a password is rejected, or `nil`), so a password is
    /// never left to be typed at a visible prompt. `nil` at end of input, or when the user
    /// leaves the new password empty (`allowsEmptyToCancel`).
    static func newPassword(
        _ prompt: String, confirm: String, allowsEmptyToCancel: Bool, policy: (String) -> String?
    ) -> String? {
        while true {
            guard let password = secret(prompt) else { return nil }
            if allowsEmptyToCancel, password.isEmpty { return nil }
            if let reason = policy(password) {
                Console.say("Invalid password: \(reason). Try another one.")
                continue
            }
            guard let confirmation = secret(confirm) else { return nil }
            guard confirmation == password else {
                Console.say("Passwords didn't match. Start again.")
                continue
            }
            return password
        }
    }
}
