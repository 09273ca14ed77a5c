import Foundation

// MARK: - SecretInput

/// Reading a password: one length cap for every source (stdin, a file, the environment, a
/// prompt), and lines read straight into memory the caller owns and wipes — never into a
/// `String` or a growing array, whose old copies the allocator would keep unwiped.
public enum SecretInput {
    /// The longest password accepted from any source, in bytes (1 MiB). A longer one is refused,
    /// never cut: a cut password would open or key the database with another secret.
    public static let maximumLength = 1 << 20

    /// The one message for a password over ``maximumLength``, whatever `source` it came from.
    public static func tooLongMessage(from source: String) -> String {
        "The password from \(source) is longer than 1 MiB (\(maximumLength) bytes), the most accepted from any "
            + "source; it was refused, not cut. Give the password itself (not a file or stream given by mistake), "
            + "then run the command again."
    }

    /// What reading one line of a password gave.
    public enum LineRead: Equatable, Sendable {
        /// The line's first `count` bytes of the buffer, without its `\n` or `\r\n`.
        case line(count: Int)
        /// Input ended before any byte of a line.
        case endOfInput
        /// The line is longer than the buffer; reading stopped there (the rest is not used).
        case tooLong
        /// `read(2)` failed (a directory, an I/O error).
        case failed
    }

    /// Reads the next line of `descriptor` (default stdin) into `buffer` with `read(2)`, one
    /// byte at a time (nothing past the line is consumed, and a writer that keeps a pipe open
    /// does not block it). A line that does not fit is ``LineRead/tooLong``; the bytes read are
    /// left in `buffer` for the caller to wipe.
    public static func readLine(
        into buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32 = POSIXTerminal.standardInput
    ) -> LineRead {
        var count = 0
        while true {
            switch POSIXTerminal.readOneByte(descriptor) {
            case .failed:
                return .failed
            case .end:
                return count == 0 ? .endOfInput : .line(count: stripCarriageReturn(buffer, count))
            case .byte(UInt8(ascii: "\n")):
                return .line(count: stripCarriageReturn(buffer, count))
            case .byte(let byte):
                guard count < buffer.count else { return .tooLong }
                buffer[count] = byte
                count += 1
            }
        }
    }

    /// Reads and drops the rest of the current line of stdin (after ``LineRead/tooLong``), so
    /// that its tail is never taken for the next line.
    public static func skipRestOfLine() {
        while case .byte(let byte) = POSIXTerminal.readOneByte(POSIXTerminal.standardInput), byte != UInt8(ascii: "\n") {}
    }

    /// `true` when `bytes` are well-formed UTF-8, checked without making a `String` (which
    /// would be a copy of a password that is never wiped).
    public static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Like ``readLine(into:)``, without echo when stdin is a terminal: `prompt` is written to
    /// `output` once echo is off, and the line the unechoed Enter did not end is ended.
    public static func readSecretLine(
        into buffer: UnsafeMutableRawBufferPointer, prompt: String, newlineTo output: FileHandle = .standardOutput
    ) -> LineRead {
        guard Console.stdinIsTerminal else {
            output.write(Data(prompt.utf8))
            return readLine(into: buffer)
        }
        let read = EchoControl.withEchoDisabled {
            output.write(Data(prompt.utf8))
            return readLine(into: buffer)
        }
        output.write(Data("\n".utf8))
        return read
    }

    private static func stripCarriageReturn(_ buffer: UnsafeMutableRawBufferPointer, _ count: Int) -> Int {
        guard count > 0, buffer[count - 1] == UInt8(ascii: "\r") else { return count }
        buffer[count - 1] = 0
        return count - 1
    }
}
