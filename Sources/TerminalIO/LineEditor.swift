// MARK: - LineEditor

/// A small line editor for a terminal, with no outside library: the terminal is put in raw
/// mode (termios: no canonical input, no echo; Ctrl-C still interrupts) while one line is
/// typed, and the editor draws it. Left and Right (and Ctrl-B, Ctrl-F) move, Home and End (and
/// Ctrl-A, Ctrl-E) jump, Backspace and Delete erase, Ctrl-U and Ctrl-K cut to the start or the
/// end, Up and Down (Ctrl-P, Ctrl-N) walk the ``LineHistory``, Enter ends the line, and Ctrl-D
/// on an empty line ends input.
///
/// Never use it for a password: it echoes what is typed. Passwords go through
/// ``Console/readSecretLine(prompt:newlineTo:)``.
public struct LineEditor {
    /// The history Up and Down walk and Enter adds to; `nil` for none.
    public let history: LineHistory?

    /// Creates an editor; `history` is the prompt's history, or `nil`.
    public init(history: LineHistory? = nil) {
        self.history = history
    }

    /// `true` when stdin and stdout are a terminal, so the editor can be used.
    public static var isAvailable: Bool { Console.stdinIsTerminal && POSIXTerminal.isTerminal(POSIXTerminal.standardOutput) }

    /// Shows `prompt` and reads one line. `nil` at end of input (Ctrl-D on an empty line).
    /// Where stdin or stdout is not a terminal, reads a plain line instead.
    public func readLine(prompt: String) -> String? {
        guard Self.isAvailable else {
            Console.write(prompt)
            return Console.readLine()
        }
        // The prompt appears once the terminal is raw: keys typed as soon as it shows are then
        // the editor's, not the terminal's to echo and erase in its own line mode.
        let line = EchoControl.withMode(.raw) { () -> String? in
            Console.write(prompt)
            return edit(prompt: prompt)
        }
        if let line { history?.add(line) }
        return line
    }

    /// The key loop: apply each key to the line and draw it again.
    private func edit(prompt: String) -> String? {
        var line = EditedLine(history: history?.entries ?? [])
        while let key = Self.readKey({ POSIXTerminal.readByte(POSIXTerminal.standardInput) }) {
            switch line.apply(key) {
            case .redraw:
                Console.write(
                    "\r" + prompt + line.text + "\u{1B}[K"
                        + (line.charactersAfterCursor > 0 ? "\u{1B}[\(line.charactersAfterCursor)D" : ""))
            case .done:
                Console.write("\n")
                return line.text
            case .endOfInput:
                Console.write("\n")
                return nil
            case .none:
                continue
            }
        }
        Console.write("\n")
        return line.text.isEmpty ? nil : line.text
    }
}
