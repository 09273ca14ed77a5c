import TerminalIO

// MARK: - Ask

/// The demo's prompts. At a terminal the user's typing is the echo; when lines are piped in,
/// a command is echoed after its prompt (a password never is), so a scripted run reads like a
/// session.
enum Ask {
    /// Asks for a password without echo. `nil` at end of input.
    static func secret(_ prompt: String) -> String? {
        Console.write(prompt)
        let line = Console.readSecretLine()
        if !Console.stdinIsTerminal { Console.write("\n") }
        return line
    }

    /// Asks for a line of text. `nil` at end of input.
    static func line(_ prompt: String) -> String? {
        Console.write(prompt)
        let line = Console.readLine()
        if !Console.stdinIsTerminal { Console.say(line ?? "") }
        return line
    }
}
