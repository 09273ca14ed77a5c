#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - LineEditor

/// A small line editor for a terminal, with no outside library: the terminal is put in raw
/// mode (termios: no canonical input, no echo; Ctrl-C still interrupts) while one line is
/// typed, and the editor draws it. Left and Right (and Ctrl-B, Ctrl-F) move, Home and End (and
/// Ctrl-A, Ctrl-E) jump, Backspace and Delete erase, Ctrl-U and Ctrl-K cut to the start or the
/// end, Up and Down (Ctrl-P, Ctrl-N) walk the ``LineHistory``, Enter ends the line, and Ctrl-D
/// on an empty line ends input.
///
/// Never use it for a password: it echoes what is typed. Passwords go through
/// ``Console/readSecretLine(newlineTo:)``.
public struct LineEditor {
    /// The history Up and Down walk and Enter adds to; `nil` for none.
    public let history: LineHistory?

    /// Creates an editor; `history` is the prompt's history, or `nil`.
    public init(history: LineHistory? = nil) {
        self.history = history
    }

    /// `true` when stdin and stdout are a terminal, so the editor can be used.
    public static var isAvailable: Bool { Console.stdinIsTerminal && isatty(STDOUT_FILENO) == 1 }

    /// Shows `prompt` and reads one line. `nil` at end of input (Ctrl-D on an empty line).
    /// Where stdin or stdout is not a terminal, reads a plain line instead.
    public func readLine(prompt: String) -> String? {
        Console.write(prompt)
        guard Self.isAvailable else { return Console.readLine() }
        let line = EchoControl.withSettings(Self.makeRaw) { edit(prompt: prompt) }
        if let line { history?.add(line) }
        return line
    }

    /// Non-canonical input, no echo, one byte at a time; signals (Ctrl-C) still work.
    private static func makeRaw(_ settings: inout termios) {
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        withUnsafeMutableBytes(of: &settings.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
    }

    /// The key loop: apply each key to the line and draw it again.
    private func edit(prompt: String) -> String? {
        var line = EditedLine(history: history?.entries ?? [])
        while let key = Self.readKey(Self.nextByte) {
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

    /// One byte of stdin (`read(2)`, so nothing is read ahead of the line), `nil` at its end.
    private static func nextByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }
}
