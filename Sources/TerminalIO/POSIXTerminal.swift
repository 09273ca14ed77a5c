import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - POSIXTerminal

/// Every C library call of the terminal layer, in this one file (as `FileSystem/POSIX.swift` is
/// for the library): `isatty`, one-byte `read(2)`, termios (`tcgetattr`/`tcsetattr`), signal
/// dispositions and `fstat`. The other files of TerminalIO and the programs use these names.
public enum POSIXTerminal {
    /// Standard input's file descriptor.
    public static let standardInput: Int32 = STDIN_FILENO
    /// Standard output's file descriptor.
    public static let standardOutput: Int32 = STDOUT_FILENO
    /// Standard error's file descriptor.
    public static let standardError: Int32 = STDERR_FILENO
    /// The signals a program ends on at a person's request: SIGINT (Ctrl-C) and SIGTERM.
    static let interruptSignals: [Int32] = [SIGINT, SIGTERM]

    /// `true` when `descriptor` is a terminal (`isatty`).
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// One byte of `descriptor` (`read(2)`, retried on `EINTR`, so nothing past it is consumed),
    /// `nil` at the end of input or on an error.
    static func readByte(_ descriptor: Int32) -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// What one `read(2)` of a byte gave.
    enum ByteRead {
        case byte(UInt8)
        case end
        case failed
    }

    /// One byte of `descriptor` (retried on `EINTR`), telling the end of input from an error
    /// (a directory gives `EISDIR`).
    static func readOneByte(_ descriptor: Int32) -> ByteRead {
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count == 1 { return .byte(byte) }
            if count == 0 { return .end }
            if errno == EINTR { continue }
            return .failed
        }
    }

    /// Ignores `number` at the process level (`signal(…, SIG_IGN)`), so that a dispatch source
    /// can handle it outside the signal context.
    static func ignore(signal number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    /// The permission bits (`st_mode & 0o777`) of the regular file open as `descriptor`
    /// (`fstat` on the open file, so the file checked is the one read); `nil` for a pipe, a
    /// terminal or any other kind of file, and when `fstat` fails.
    public static func regularFilePermissions(ofDescriptor descriptor: Int32) -> UInt32? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt32(info.st_mode & 0o777)
    }

    // MARK: - Terminal settings

    /// How ``TerminalSettings/changed(to:)`` changes a terminal's settings.
    enum Mode {
        /// What is typed is not shown (a password prompt).
        case noEcho
        /// Non-canonical input, no echo, one byte at a time; signals (Ctrl-C) still work (the
        /// ``LineEditor``).
        case raw
    }

    /// A terminal's settings (`termios`), as read from a descriptor, to change and put back.
    struct TerminalSettings: @unchecked Sendable {
        // @unchecked: termios is a plain C struct of integers, copied by value; nothing in it
        // refers to shared memory.
        let descriptor: Int32
        private var value: termios

        /// The settings of `descriptor` (`tcgetattr`), or `nil` when it is not a terminal.
        init?(of descriptor: Int32) {
            var value = termios()
            guard isatty(descriptor) == 1, tcgetattr(descriptor, &value) == 0 else { return nil }
            self.descriptor = descriptor
            self.value = value
        }

        /// These settings changed for `mode`.
        func changed(to mode: Mode) -> TerminalSettings {
            var copy = self
            switch mode {
            case .noEcho:
                copy.value.c_lflag &= ~tcflag_t(ECHO)
            case .raw:
                copy.value.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
                withUnsafeMutableBytes(of: &copy.value.c_cc) { characters in
                    characters[Int(VMIN)] = 1
                    characters[Int(VTIME)] = 0
                }
            }
            return copy
        }

        /// Makes these the terminal's settings once pending output is written (`tcsetattr`,
        /// `TCSADRAIN`).
        func apply() {
            var value = value
            _ = tcsetattr(descriptor, TCSADRAIN, &value)
        }
    }
}

// MARK: - Ending at once

extension POSIXTerminal {
    /// Ends the process now with `code` (`_exit`): no `atexit` handler or library destructor
    /// runs, so none can race a thread still inside a C library. Only for when no such thread
    /// does work that must finish (the interrupt handler decides).
    static func endImmediately(_ code: Int32) -> Never { _exit(code) }
}
