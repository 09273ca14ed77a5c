import Foundation

// MARK: - Console

/// Line-oriented terminal input and output shared by the example programs.
///
/// Output goes straight to the file descriptors (no stdio buffering), so prompts appear before
/// the program blocks on input. Input is read line by line from stdin, so the same code serves
/// a person at a terminal and a script piping lines in.
public enum Console {
    /// `true` when stdin is a terminal (a person types), `false` for a pipe or a file.
    public static var stdinIsTerminal: Bool { POSIXTerminal.isTerminal(POSIXTerminal.standardInput) }

    /// `true` when stderr is a terminal (progress lines are worth drawing).
    public static var stderrIsTerminal: Bool { POSIXTerminal.isTerminal(POSIXTerminal.standardError) }

    /// Writes `text` to stdout as is.
    public static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` and a newline to stdout.
    public static func say(_ text: String = "") {
        write(text + "\n")
    }

    /// Writes `text` and a newline to stderr.
    public static func warn(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes `text`, escaped for a terminal (``TerminalText/escape(_:)``), and a newline to
    /// stdout: for every line that holds data (a name, a value, a path).
    public static func sayEscaped(_ text: String) {
        say(TerminalText.escape(text))
    }

    /// Writes `text`, escaped for a terminal (``TerminalText/escape(_:)``), and a newline to
    /// stderr.
    public static func warnEscaped(_ text: String) {
        warn(TerminalText.escape(text))
    }

    /// Writes `text` to stderr as is (no newline).
    public static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The next line of stdin without its line ending, or `nil` at end of input (Ctrl-D).
    /// Read with `read(2)` (``readLineBytes(maximumLength:)``), never through stdio's buffer:
    /// Ctrl-D ends one read on a terminal, not all later ones, as stdio's sticky end-of-file
    /// would, and a password read after it (``SecretInput``, also `read(2)`) gets the next line
    /// of a pipe, not whatever stdio had buffered past it.
    public static func readLine() -> String? {
        readLineBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads a secret line: without echo when stdin is a terminal (then ends the prompt's line,
    /// since the user's Enter was not echoed either), as a plain line otherwise.
    /// `nil` at end of input. `prompt` is written to `output` once echo is off, so that nothing
    /// typed as soon as it appears is echoed.
    public static func readSecretLine(prompt: String? = nil, newlineTo output: FileHandle = .standardOutput) -> String? {
        guard stdinIsTerminal else {
            if let prompt { output.write(Data(prompt.utf8)) }
            return readLine()
        }
        let line = EchoControl.withEchoDisabled {
            if let prompt { output.write(Data(prompt.utf8)) }
            return readLine()
        }
        output.write(Data("\n".utf8))
        return line
    }
}
